/** What the backup and restore commands share: explained refusals, paths as typed, exit codes. */
import path from 'node:path';
import { ConfigError } from './config';
import { UnsupportedNodeError } from './db/node-support';

/** A refusal the person can act on: printed as it is, exit code 1, nothing changed. */
export class Refused extends Error {}

/** A path as the person typed it: relative to the folder `npm run` was started from. */
export function typedPath(given: string): string {
  return path.resolve(process.env.INIT_CWD || process.cwd(), given);
}

/** Quoted for a POSIX shell when it needs to be (for commands printed to be copied). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A name for files made now, that sorts by time: 2026-05-01T09-30-00Z. */
export function timeStamp(at = new Date()): string {
  return at.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
}

/** Runs a command's main: its exit code; 1 for a refusal, a bad setting or too old a Node (the sentence alone), 2 for anything unexpected. */
export function runCommand(main: () => Promise<number>): void {
  main().then((code) => process.exit(code), (error: unknown) => {
    if (error instanceof Refused || error instanceof ConfigError || error instanceof UnsupportedNodeError) {
      console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(2);
  });
}
