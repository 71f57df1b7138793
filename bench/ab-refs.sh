#!/usr/bin/env bash
# A/B of two versions of the inline api under the peer's load (../shared/peers/cm-proxy/run.sh: wrk
# -t2 -c32, every request a different LOTUS molecule), trials interleaved so that both see the same
# machine: version A is a git ref (checked out in a temporary worktree), version B is this working
# tree. Prints each trial, each pair's ratio B/A and the medians. Asserts nothing. On a shared,
# noisy machine single trials move by ±15 %: read the ratios of the pairs, not one figure.
#
#   bash bench/ab-refs.sh [ref=HEAD~1] [route=canonical] [trials=5] [seconds=10]
# needs: wrk, the peer's run.sh (PEER_DIR), node_modules installed here (shared with the worktree
# when the ref has the same package-lock.json).
set -u
cd "$(dirname "$0")/.."
ref=${1:-HEAD~1} route=${2:-canonical} trials=${3:-5} secs=${4:-10}
run=$(cd "${PEER_DIR:-../shared/peers/cm-proxy}" && pwd)/run.sh
[ -x "$run" ] || { echo "no peer run.sh at $run" >&2; exit 1; }
out=$(mktemp -d /tmp/natprod-ab-XXXX)
git worktree add -q --detach "$out/a" "$ref" || exit 1
# Same lock file: share node_modules; otherwise the ref gets its own install (a minute or two).
if git diff --quiet "$ref" -- package-lock.json; then ln -s "$PWD/node_modules" "$out/a/node_modules"
else echo "# $ref has other dependencies: npm ci in its worktree"; (cd "$out/a" && npm ci --no-audit --no-fund >"$out/npm-ci.log" 2>&1) || { echo "npm ci failed: $out/npm-ci.log" >&2; exit 1; }; fi
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; git worktree remove --force "$out/a"; }
trap cleanup EXIT
start() { # dir port name
  # A ref from before the build (scripts/start.mjs) runs its sources through tsx.
  (cd "$1" && export RATE_LIMIT_QUICK=0 DATA_DIR="$out/$3-data" SEED_DEMO=false PORT=$2 HOST=127.0.0.1 &&
    if [ -f scripts/start.mjs ]; then exec node scripts/start.mjs server; else exec node --import tsx api/server.ts; fi >"$out/$3.log" 2>&1) &
  pids+=($!)
}
start "$out/a" 8401 A
pid_a=$!
start "$PWD" 8402 B
pid_b=$!
up() { for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$1/latest/chem/health" >/dev/null 2>&1 && return 0; sleep 0.5; done; return 1; }
up 8401 || { echo "version A did not start: $out/A.log" >&2; exit 1; }
up 8402 || { echo "version B did not start: $out/B.log" >&2; exit 1; }
echo "# $(date -u +%FT%TZ) A=$ref ($(git rev-parse --short "$ref")) B=working tree; $route; $trials x ${secs}s; logs $out"
for t in $(seq "$trials"); do
  for side in A B; do
    if [ $side = A ]; then port=8401 pid=$pid_a; else port=8402 pid=$pid_b; fi
    line=$(SERVER_PIDS=$pid TARGET=http://127.0.0.1:$port WARMUP=2 "$run" "$secs" 32 1 "$route" 2>&1 | grep ' trial ')
    echo "$side $line" | tee -a "$out/lines.txt"
  done
done
/usr/bin/python3 - "$out/lines.txt" <<'PY'
import statistics, sys
rps = {'A': [], 'B': []}
for line in open(sys.argv[1]):
    side = line.split()[0]
    kv = dict(p.split('=', 1) for p in line.split() if '=' in p)
    rps[side].append(float(kv['rps']))
a, b = statistics.median(rps['A']), statistics.median(rps['B'])
pairs = ', '.join(f'{y / x:.2f}' for x, y in zip(rps['A'], rps['B']))
print(f'median req/s: A {a:,.0f}  B {b:,.0f}  B/A {b / a:.3f}; per pair {pairs}')
PY
