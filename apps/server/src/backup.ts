/**
 * `npm run backup -- --out FILE`: a consistent copy of the installation's SQLite database (the
 * server's DATA_DIR), made while the server keeps serving, written to FILE — one standalone SQLite
 * file — and, unless APP_SECRET is set, the master key beside it as FILE.key (both mode 0600).
 * Each appears whole or not at all (written under another name, flushed, renamed); the key first,
 * so a FILE always has its key. With DATABASE_URL set it writes nothing and prints the pg_dump
 * command to use. Exit codes: 0 written, 1 refused (the reason is printed), 2 an unexpected error.
 * docs/deployment.md, "Backup and restore".
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Refused, runCommand, shellQuote, timeStamp, typedPath } from './cli';
import { loadConfig, type Config } from './config';
import { sqliteFile } from './db/connection';
import { copyLiveDatabase, flushToDisk, inspectDatabase } from './db/sqlite-files';
import { MasterKey, masterKeyFile } from './platform/crypto/master-key';

const USAGE = 'Usage: npm run backup -- --out FILE   (writes FILE and, unless APP_SECRET is set, the master key as FILE.key)';

function readArguments(argv: string[]): { out: string | null } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true, allowPositionals: false });
  } catch (error) {
    throw new Refused(`${(error as Error).message}\n${USAGE}`);
  }
  const out = parsed.values.out?.trim();
  return { out: out ? typedPath(out) : null };
}

/** PostgreSQL is backed up with its own tools: what to run, and what else to keep. */
function postgresAdvice(config: Config, out: string | null): string {
  const file = out ?? `promotion-assistant-${timeStamp()}.dump`;
  const keyFile = masterKeyFile(config.dataDir);
  return [
    'DATABASE_URL is set: this installation keeps its data in PostgreSQL, which is backed up with its own tools',
    '(npm run backup copies the embedded SQLite database). Nothing was written. With the same DATABASE_URL:',
    '',
    `  pg_dump --format=custom --file=${shellQuote(file)} "$DATABASE_URL"`,
    ...(config.appSecret ? [] : [`  cp ${shellQuote(keyFile)} ${shellQuote(`${file}.key`)}`]),
    '',
    'pg_dump reads one snapshot while the servers keep serving.',
    config.appSecret
      ? 'Keep APP_SECRET with the dump (in your secret store): the secrets sealed in the database open only with it.'
      : `APP_SECRET is unset, so the master key is ${keyFile}: keep it with the dump (the secrets sealed in the database open only with it).`,
    'Restoring: docs/deployment.md, "Backup and restore" (npm run restore prints the commands too).',
  ].join('\n');
}

async function main(): Promise<number> {
  const args = readArguments(process.argv.slice(2));
  const config = loadConfig();
  if (config.databaseUrl) throw new Refused(postgresAdvice(config, args.out));
  const out = args.out;
  if (!out) throw new Refused(`--out is required.\n${USAGE}`);
  const source = sqliteFile(config.dataDir);
  if (!fs.existsSync(source)) throw new Refused(`There is no database at ${source}: give the DATA_DIR the server has (now ${config.dataDir}).`);
  const keyFile = masterKeyFile(config.dataDir);
  const own = [source, `${source}-wal`, `${source}-shm`, `${source}-journal`, keyFile];
  if (own.includes(out) || own.includes(`${out}.key`)) throw new Refused(`--out ${out} would overwrite the installation's own files; write the backup elsewhere.`);
  if (fs.existsSync(out) && fs.statSync(out).isDirectory()) throw new Refused(`--out ${out} is a folder; give a file name, e.g. ${path.join(out, `promotion-assistant-${timeStamp()}.db`)}.`);
  if (!fs.existsSync(path.dirname(out))) throw new Refused(`The folder ${path.dirname(out)} does not exist.`);

  // The key is read (and checked) before anything is written.
  let keyText: string | null = null;
  if (!config.appSecret) {
    try {
      keyText = fs.readFileSync(keyFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Refused(`There is no master key at ${keyFile}, and APP_SECRET is unset: give the DATA_DIR and APP_SECRET the server has.`);
      throw error;
    }
    try {
      MasterKey.parse(keyText, keyFile);
    } catch (error) {
      throw new Refused((error as Error).message);
    }
  }

  const started = Date.now();
  const partial = `${out}.partial-${process.pid}`;
  const partialKey = `${out}.key.partial-${process.pid}`;
  let pages = 0;
  try {
    fs.rmSync(partial, { force: true });
    fs.rmSync(partialKey, { force: true });
    ({ pages } = await copyLiveDatabase(source, partial));
    const { problems } = inspectDatabase(partial);
    if (problems.length > 0) throw new Error(`the copy fails SQLite's quick_check: ${problems.slice(0, 5).join('; ')}`);
    fs.chmodSync(partial, 0o600);
    flushToDisk(partial);
    if (keyText !== null) {
      fs.writeFileSync(partialKey, keyText, { mode: 0o600, flag: 'wx' });
      flushToDisk(partialKey);
      fs.renameSync(partialKey, `${out}.key`);
    }
    fs.renameSync(partial, out);
    flushToDisk(path.dirname(out));
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(partialKey, { force: true });
  }

  const megabytes = (fs.statSync(out).size / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `Backup written: ${out} (${megabytes} MB, ${pages} pages, one snapshot, ${Date.now() - started} ms; checked with SQLite's quick_check).\n` +
      (keyText !== null
        ? `Master key: ${out}.key. Keep the two together, and as safe as each other: the key opens the secrets sealed in the database. (Keeping the key apart, in a password manager say, is safer; restore then takes --key.)\n`
        : 'APP_SECRET is set, so no key file was written: the secrets sealed in the backup open only with that APP_SECRET — keep it with the backup (in your secret store).\n') +
      `Restore it with: npm run restore -- ${shellQuote(out)}\n`,
  );
  return 0;
}

runCommand(main);
