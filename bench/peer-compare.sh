#!/usr/bin/env bash
# Side-by-side with the original service's stack (../shared/peers/cm-proxy, see its README), one
# sitting, systems interleaved trial by trial: the peer (uvicorn, 2 workers), natprod inline
# (`npm start` defaults), natprod distributed with 1 worker process (2 threads) and with 2 worker
# processes (1 thread each), all on this machine's cores, wrk -t2 -c32. `dist<N>x<T>` names N worker
# processes with T threads each (dist1x1 against dist2x1 shows what a second process adds). Prints the peer script's
# lines per trial; medians per system and route at the end. Asserts nothing.
#
#   bash bench/peer-compare.sh [seconds=15] [trials=3] [routes="canonical inchikey descriptors"] [systems="peer inline dist1 dist2"]
# needs: the peer's Debian packages (its README), wrk, Redis on 127.0.0.1:6379 (or REDIS_URL).
set -u
cd "$(dirname "$0")/.."
secs=${1:-15} trials=${2:-3} routes=${3:-"canonical inchikey descriptors"} systems=${4:-"peer inline dist1 dist2"}
peer=$(cd "${PEER_DIR:-../shared/peers/cm-proxy}" && pwd) || { echo "no peer directory" >&2; exit 1; }
redis=${REDIS_URL:-redis://127.0.0.1:6379}
out=$(mktemp -d /tmp/natprod-peer-XXXX)
pids=()
trap 'kill ${pids[@]} 2>/dev/null; wait 2>/dev/null' EXIT
up() { for _ in $(seq 120); do curl -fsS "$1/latest/chem/health" >/dev/null 2>&1 && return 0; sleep 0.5; done; echo "no answer at $1" >&2; exit 1; }
declare -A url spids
for s in $systems; do
  case $s in
    peer) ;; # started by the peer's own run.sh for each trial (it asks the peer's InChI of Open Babel)
    inline) RATE_LIMIT_QUICK=0 DATA_DIR="$out/inline" SEED_DEMO=false PORT=8201 HOST=127.0.0.1 node scripts/start.mjs server >"$out/inline.log" 2>&1 &
          pids+=($!); url[$s]=http://127.0.0.1:8201; spids[$s]=$! ;;
    dist*) spec=${s#dist}; n=${spec%x*}; threads=$((2 / n > 0 ? 2 / n : 1)); [ "$spec" != "$n" ] && threads=${spec#*x}
          port=$((8300 + n * 10 + threads)); prefix=peer-$s-$$
          RATE_LIMIT_QUICK=0 REDIS_URL=$redis QUEUE_PREFIX=$prefix DATA_DIR="$out/$s" SEED_DEMO=false PORT=$port HOST=127.0.0.1 node scripts/start.mjs server >"$out/$s-api.log" 2>&1 &
          pids+=($!); url[$s]=http://127.0.0.1:$port; spids[$s]=$!
          for i in $(seq "$n"); do
            REDIS_URL=$redis QUEUE_PREFIX=$prefix WORKERS=$threads WORKER_METRICS_PORT=0 node scripts/start.mjs worker >"$out/$s-w$i.log" 2>&1 &
            pids+=($!); spids[$s]="${spids[$s]} $!"
          done ;;
  esac
done
for s in $systems; do [ "$s" = peer ] || up "${url[$s]}"; done
sleep 3
echo "# $(date -u +%FT%TZ) systems: $systems; routes: $routes; $trials x ${secs}s; logs $out"
for t in $(seq "$trials"); do
  for s in $systems; do
    if [ "$s" = peer ]; then
      WARMUP=2 RESULTS="$out/results.tsv" "$peer/run.sh" "$secs" 32 1 "$routes" 2>&1 | grep ' trial ' | sed "s/^/$s /"
    else
      SERVER_PIDS="${spids[$s]}" TARGET="${url[$s]}" WARMUP=2 RESULTS="$out/results.tsv" "$peer/run.sh" "$secs" 32 1 "$routes" 2>&1 | grep ' trial ' | sed "s/^/$s /"
    fi
  done | tee -a "$out/lines.txt"
done
for s in $systems; do
  for p in ${spids[$s]:-}; do echo "$s pid $p rss $(awk '/VmRSS/{print int($2/1024)}' /proc/$p/status 2>/dev/null) MB"; done
done
/usr/bin/python3 - "$out/lines.txt" <<'PY'
import statistics, sys, collections
rows = collections.defaultdict(list)
for l in open(sys.argv[1]):
    parts = l.split()
    sysname, route = parts[0], parts[1]
    kv = dict(p.split('=', 1) for p in parts if '=' in p)
    rows[(sysname, route)].append(kv)
print(f"{'system':8} {'route':12} {'rps':>8} {'p50':>7} {'p99':>7} {'p99/p50':>7} {'split':>8}")
for (s, r), v in rows.items():
    med = lambda k: statistics.median(float(x[k]) for x in v)
    splits = ' '.join(x.get('worker_split%', '') for x in v) if s == 'peer' else ''
    print(f"{s:8} {r:12} {med('rps'):8.0f} {med('p50_ms'):7.1f} {med('p99_ms'):7.1f} {med('p99_ms')/med('p50_ms'):7.2f} {splits}")
PY
