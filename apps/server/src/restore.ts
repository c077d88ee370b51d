/**
 * `npm run restore -- FILE [--key KEYFILE]`: puts a backup made by `npm run backup` in place of
 * the installation's SQLite database (the server's DATA_DIR) and its master key beside it, then
 * runs the ledger check on what it put in place. It refuses, changing nothing, while another
 * process has the database open (a running server: stop it first), when FILE is not a sound
 * database of this application, or when the key does not open its secrets. The database is
 * replaced in one rename (the copy is written and checked under another name first), and the one
 * it replaces is kept beside it as promotion-assistant.db.replaced-<time>; the key likewise.
 * With DATABASE_URL set it changes nothing and prints the pg_restore commands to use.
 * Exit codes: 0 restored and the ledger balances, 1 refused (the reason is printed; nothing was
 * changed), 2 an unexpected error, 3 restored but the ledger check found breaches (listed).
 * docs/deployment.md, "Backup and restore".
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createContext } from './bootstrap';
import { Refused, runCommand, shellQuote, timeStamp, typedPath } from './cli';
import { loadConfig, type Config } from './config';
import { migrateToLatest, openDatabase, sqliteFile } from './db/connection';
import { flushToDisk, inspectDatabase, lockDatabase, settleDatabase } from './db/sqlite-files';
import { reportLedger } from './ledger-report';
import { MasterKey, masterKeyFile } from './platform/crypto/master-key';
import { RsaKeyring } from './platform/crypto/rsa-keys';

const USAGE = 'Usage: npm run restore -- FILE [--key KEYFILE]   (FILE made by npm run backup; its key is FILE.key unless --key or APP_SECRET says otherwise)';

function readArguments(argv: string[]): { file: string; key: string | null } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { key: { type: 'string' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new Refused(`${(error as Error).message}\n${USAGE}`);
  }
  if (parsed.positionals.length !== 1 || !parsed.positionals[0]!.trim()) throw new Refused(`Give one backup file.\n${USAGE}`);
  const key = parsed.values.key?.trim();
  return { file: typedPath(parsed.positionals[0]!), key: key ? typedPath(key) : null };
}

/**
 * PostgreSQL is restored with its own tools, into a new database (the current one stays as it
 * was until DATABASE_URL points elsewhere): the commands to run, with every server stopped.
 */
function postgresAdvice(config: Config, file: string): string {
  const url = new URL(config.databaseUrl!);
  const current = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  const name = `${current.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 40) + `_restored_${timeStamp().replace(/\D/g, '').slice(0, 14)}`;
  url.pathname = `/${name}`;
  const masked = Boolean(url.password);
  if (masked) url.password = 'PASSWORD';
  return [
    'DATABASE_URL is set: this installation keeps its data in PostgreSQL, which is restored with its own tools',
    '(npm run restore replaces the embedded SQLite database). Nothing was changed. Stop every server, then restore',
    'into a new, empty database (the current one stays as it is):',
    '',
    `  export RESTORED_URL=${shellQuote(url.toString())}`,
    `  psql "$DATABASE_URL" --command='CREATE DATABASE ${name} TEMPLATE template0'`,
    `  pg_restore --no-owner --single-transaction --exit-on-error --dbname="$RESTORED_URL" ${shellQuote(file)}`,
    '  DATABASE_URL="$RESTORED_URL" npm run ledger:check',
    '',
    ...(masked ? ["(PASSWORD: the one in DATABASE_URL.)"] : []),
    'Then give every server that address as DATABASE_URL, and start them.',
    config.appSecret
      ? 'They need the APP_SECRET the dump was made with (the one set now must be it).'
      : `APP_SECRET is unset: the key the dump was made with belongs at ${masterKeyFile(config.dataDir)} (or set APP_SECRET to it).`,
    'docs/deployment.md, "Backup and restore".',
  ].join('\n');
}

/** Another process has the database open: what to do. */
function inUse(target: string): Refused {
  return new Refused(
    `${target} is open in another process: a running server (stop it first, e.g. systemctl stop, docker stop or SIGTERM) ` +
      'or a command such as ledger:check. Nothing was changed; repeat once it has stopped.',
  );
}

interface ChosenKey {
  master: MasterKey;
  /** The key file's text to put at DATA_DIR/master.key; null with APP_SECRET, or when it is that file already. */
  text: string | null;
  /** Where it came from, for the messages. */
  source: string;
}

/** The key the restored installation will use: APP_SECRET, else --key, else FILE.key, else the master.key in DATA_DIR. */
function chooseKey(config: Config, file: string, given: string | null): ChosenKey {
  if (config.appSecret) {
    if (given) throw new Refused('APP_SECRET is set, and the server uses it rather than a key file: leave out --key, or unset APP_SECRET.');
    return { master: MasterKey.parse(config.appSecret, 'APP_SECRET'), text: null, source: 'APP_SECRET' };
  }
  const installed = masterKeyFile(config.dataDir);
  const candidates = given ? [given] : [`${file}.key`, installed];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) {
    throw new Refused(given ? `There is no key file at ${given}.` : `There is no key beside the backup (${file}.key) and none in ${config.dataDir}: give the backup's key with --key KEYFILE, or set the APP_SECRET it was made with. Nothing was changed.`);
  }
  const text = fs.readFileSync(found, 'utf8');
  try {
    return { master: MasterKey.parse(text, found), text: path.resolve(found) === installed ? null : text, source: found };
  } catch (error) {
    throw new Refused(`${(error as Error).message} Nothing was changed.`);
  }
}

/**
 * The installation's database held exclusively (refused while another process has it open), or
 * null when the file cannot be read as a database at all: nothing can have it open as one, and it
 * is replaced all the same (kept under the `.replaced-` name). SQLite itself discards a -wal
 * that is not one when it opens such a file, so none is left beside the new database.
 */
function holdInstalled(target: string): ReturnType<typeof lockDatabase> {
  let lock;
  try {
    lock = lockDatabase(target);
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) return null;
    throw error;
  }
  if (!lock) throw inUse(target);
  return lock;
}

/** `file` becomes `target` with one rename; what `target` held is kept as `kept` (a second name for the same file). */
function replace(file: string, target: string, kept: string): boolean {
  let keptOld = false;
  if (fs.existsSync(target)) {
    try {
      fs.linkSync(target, kept);
    } catch {
      fs.copyFileSync(target, kept);
    }
    keptOld = true;
  }
  fs.renameSync(file, target);
  return keptOld;
}

async function main(): Promise<number> {
  const args = readArguments(process.argv.slice(2));
  const config = loadConfig();
  if (config.databaseUrl) throw new Refused(postgresAdvice(config, args.file));
  const { file } = args;
  const target = sqliteFile(config.dataDir);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new Refused(`There is no file ${file}.`);
  if (file === target) throw new Refused(`${file} is the installation's own database; give a backup made by npm run backup.`);
  const header = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (header.toString('latin1') !== 'SQLite format 3\u0000') throw new Refused(`${file} is not an SQLite database (one made by npm run backup). Nothing was changed.`);

  // Nobody may have the database open (asked again just before it is replaced).
  if (fs.existsSync(target)) holdInstalled(target)?.close();
  const key = chooseKey(config, file, args.key);

  // The copy is written beside the database and checked there before anything is replaced.
  const madeDataDir = !fs.existsSync(config.dataDir);
  fs.mkdirSync(config.dataDir, { recursive: true });
  const temp = `${target}.restoring-${process.pid}`;
  const tempKey = `${masterKeyFile(config.dataDir)}.restoring-${process.pid}`;
  const leftovers = [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`, tempKey];
  const stamp = timeStamp();
  let keptDatabase: string | null = null;
  let keptKey: string | null = null;
  let keyUnchanged = key.text === null;
  try {
    for (const f of leftovers) fs.rmSync(f, { force: true });
    fs.copyFileSync(file, temp, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(temp, 0o600);
    const { problems, tables } = inspectDatabase(temp);
    if (problems.length > 0) throw new Refused(`${file} is damaged (SQLite's quick_check: ${problems.slice(0, 5).join('; ')}). Nothing was changed.`);
    if (!tables.includes('kysely_migration') || !tables.includes('rsa_keys')) throw new Refused(`${file} is an SQLite database, but not one of Promotion Assistant. Nothing was changed.`);
    const handle = await openDatabase({ sqlitePath: temp });
    try {
      const { keys, unopened } = await new RsaKeyring(handle.db, key.master).unopened();
      if (unopened.length > 0) {
        throw new Refused(
          `The key from ${key.source} does not open this backup's secrets (${unopened.length} of its ${keys} RSA keys): it is another installation's key. ` +
            "Give the backup's own key with --key KEYFILE, or set the APP_SECRET it was made with. Nothing was changed.",
        );
      }
      try {
        await migrateToLatest(handle, config.timeZone);
      } catch (error) {
        throw new Refused(`${file} cannot be brought to this version's schema (was it made by a newer version?): ${(error as Error).message}. Nothing was changed.`);
      }
    } finally {
      await handle.close();
    }
    flushToDisk(temp);
    if (key.text !== null) {
      fs.writeFileSync(tempKey, key.text, { mode: 0o600, flag: 'wx' });
      flushToDisk(tempKey);
    }

    // The swap, holding the old database's lock: it is settled (its WAL copied in and deleted, so
    // no -wal of it is left for the new one to be read with), kept under a second name, replaced.
    if (fs.existsSync(target)) {
      const lock = holdInstalled(target);
      keptDatabase = `${target}.replaced-${stamp}`;
      try {
        if (lock) settleDatabase(lock);
        // A crashed server's shared-memory index, which nothing reads any more.
        fs.rmSync(`${target}-shm`, { force: true });
        replace(temp, target, keptDatabase);
      } finally {
        lock?.close();
      }
    } else {
      fs.renameSync(temp, target);
    }
    if (key.text !== null) {
      const installed = masterKeyFile(config.dataDir);
      const same = fs.existsSync(installed) && fs.readFileSync(installed, 'utf8').trim() === key.text.trim();
      keyUnchanged = same;
      if (same) fs.rmSync(tempKey);
      else if (replace(tempKey, installed, `${installed}.replaced-${stamp}`)) keptKey = `${installed}.replaced-${stamp}`;
    }
    flushToDisk(config.dataDir);
  } catch (error) {
    // Refused or failed before anything was replaced: a DATA_DIR made for the copy goes too.
    for (const f of leftovers) fs.rmSync(f, { force: true });
    if (madeDataDir && fs.readdirSync(config.dataDir).length === 0) fs.rmdirSync(config.dataDir);
    throw error;
  } finally {
    for (const f of leftovers) fs.rmSync(f, { force: true });
  }

  process.stdout.write(
    `Restored ${file} into ${target}.\n` +
      (keptDatabase ? `The database it replaced is kept as ${keptDatabase}: delete it once the restored installation is as it should be.\n` : '') +
      (key.source === 'APP_SECRET'
        ? 'Key: APP_SECRET opens its secrets.\n'
        : `Key: ${masterKeyFile(config.dataDir)}${keyUnchanged ? ', already the one that opens its secrets' : ` from ${key.source}`}${keptKey ? `; the key it replaced is kept as ${keptKey}` : ''}.\n`),
  );

  // The ledger check, on the database in place, opened as the server opens it.
  const { ctx, handle } = await createContext(config);
  try {
    const sound = await reportLedger(ctx);
    if (sound) process.stdout.write('Start the server.\n');
    else console.error('The backup is in place, but its ledger check failed (above); the admins are told in the app too. docs/money.md says what each breach means.');
    return sound ? 0 : 3;
  } finally {
    await handle.close();
  }
}

runCommand(main);
