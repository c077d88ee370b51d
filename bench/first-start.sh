#!/usr/bin/env bash
# First start (issue 29, item 8): a clean clone of this repository's HEAD to a served sign-in page
# with the README's `npm ci && npm start`, timed from the clone's first command to the first 200 of
# GET / carrying the app's page. Prints the time of each part. The npm cache is the machine's (a
# fresh CI machine's is empty: add the download time of the packages, measured in the note).
#   npm run bench:first-start            (or: bash bench/first-start.sh [runs])
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-1}"
port="${PORT:-3917}"

for run in $(seq 1 "$runs"); do
  work="$(mktemp -d /tmp/pa-first-start.XXXXXX)"
  git clone -q "$repo" "$work/app"
  cd "$work/app"
  start=$(date +%s.%N)
  npm ci --no-audit --no-fund >"$work/ci.log" 2>&1 || { cat "$work/ci.log"; exit 1; }
  installed=$(date +%s.%N)
  # Its own process group, so that npm, node and the server's threads stop together.
  PORT="$port" setsid npm start >"$work/start.log" 2>&1 &
  server=$!
  served=""
  for _ in $(seq 1 1200); do
    if curl -fsS "http://127.0.0.1:$port/" 2>/dev/null | grep -q '<div id="root">'; then served=$(date +%s.%N); break; fi
    kill -0 "$server" 2>/dev/null || break
    sleep 0.25
  done
  built_line="$(grep -E '^build: (web|server) done' "$work/start.log" | tr '\n' ' ')"
  # The Node the server runs on: the executable of the process serving (npm start's child).
  # (npm runs the script through `sh -c`, whose command line names main.js too: the node one.)
  runtime=unknown
  for pid in $(pgrep -g "$server" -f 'apps/server/dist/main.js' || true); do
    exe="$(readlink "/proc/$pid/exe" || true)"
    case "$exe" in */node) runtime="$("$exe" --version) from ${exe#"$work/app/"}"; break ;; esac
  done
  kill -TERM -- "-$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  if [ -z "$served" ]; then tail -30 "$work/start.log"; echo "run $run: the sign-in page was not served" >&2; exit 1; fi
  awk -v r="$run" -v s="$start" -v i="$installed" -v d="$served" -v b="$built_line" -v node="$runtime" \
    'BEGIN { printf "run %d: npm ci %.1f s, npm start to the sign-in page %.1f s, total %.1f s (server on Node %s; %s)\n", r, i - s, d - i, d - s, node, b }'
  cd /
  rm -rf "$work"
done
