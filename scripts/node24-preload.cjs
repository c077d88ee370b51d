// Loaded with `--require` by scripts/test-node24.sh, on Node 24 only. node_modules holds better-sqlite3
// compiled for the machine's Node 20, and other people may be using that build while the Node 24 run
// goes on, so it is never rebuilt in place: this points the loading of its native part at the copy
// compiled for Node 24 under .cache/ (same package version, same sources) instead. `--require`, not
// `--import`: Node runs `--require` preloads in every thread, the SQLite checkpoint thread
// (apps/server/src/db/checkpointer.ts, an `eval` worker) included, and `--import` ones not there.
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
const path = require('node:path');

const target = process.env.PA_NODE24_BETTER_SQLITE3;
if (!target) throw new Error('PA_NODE24_BETTER_SQLITE3 is not set: run this through scripts/test-node24.sh');
const built = `${path.sep}better-sqlite3${path.sep}build${path.sep}Release${path.sep}better_sqlite3.node`;

const dlopen = process.dlopen.bind(process);
process.dlopen = (module, filename, ...rest) => dlopen(module, filename.endsWith(built) ? target : filename, ...rest);
