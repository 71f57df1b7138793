#!/usr/bin/env bash
# natprod CPU-scaling test, self-contained (carries node, redis-server, wrk, the app).
#   OUT=/some/dir bash .devcarry/scale.sh
# Needs only bash, coreutils, glibc >= 2.35, libstdc++ (and tar + xz, or python3, to unpack).
# Unpacks into $SCALE_ROOT (/tmp/natprod-scale), then measures, one line per configuration:
#   (a) inline: one api process with WORKERS = 1, 4, 14 threads
#   (b) distributed: redis + N worker processes + A api processes (A = 1 to 4, N = 1 to 14), each api
#       on its own port driven by its own wrk (req/s summed); canonical SMILES and descriptors
# then prints the table and the capacity model's prediction for each configuration (model.mjs).
# Each measurement: wrk -t4 -c<conns> (conns = max(16, 8 x chemistry threads)), WARM s of warm-up
# (WARM2 s for a configuration's second route, its processes being warm already), then DUR s
# measured, cycling through 2,000 LOTUS molecules (one per request). Runs that would end after
# BUDGET s are skipped (SKIPPED line), so the whole script ends before 7 minutes.
# Results: $OUT/scale.tsv (appended), $OUT/scale.txt (summary), $OUT/logs/ (process logs).
# Env: QUICK=1 (local smoke test: 2 small configurations, 5 s each), MATRIX="<spec> ..." (override;
#   spec = inline:<threads>:<routes> | dist:<apis>:<workers>:<threads per worker>:<routes>, routes
#   joined by '+'), WARM=3 WARM2=2 DUR=10 CONNS=<fixed> BUDGET=405 (s: no measurement may end
#   later) HARD=415 (s: watchdog stops everything), SCALE_ROOT=/tmp/natprod-scale, BASE_PORT=18400
set -u
T0=$(date +%s)
CARRY=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-/tmp/natprod-scale-out}
ROOT=${SCALE_ROOT:-/tmp/natprod-scale}
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then WARM=${WARM:-1} WARM2=${WARM2:-1} DUR=${DUR:-5}; else WARM=${WARM:-3} WARM2=${WARM2:-2} DUR=${DUR:-10}; fi
BUDGET=${BUDGET:-405}
HARD=${HARD:-415}
BASE_PORT=${BASE_PORT:-18400}
REDIS_PORT=$((BASE_PORT + 90))
WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
mkdir -p "$OUT/logs" || { echo "cannot create OUT=$OUT" >&2; exit 2; }
LOGS=$OUT/logs
RUN_ID=$(date -u +%Y%m%dT%H%M%SZ)

el() { echo $(( $(date +%s) - T0 )); }
say() { printf '[%4ss] %s\n' "$(el)" "$*"; }
left() { echo $(( HARD - $(el) )); }

# ---------------------------------------------------------------- processes we started
declare -A LIVE=()   # every process this script started and has not reaped yet (pid -> 1)
CUR_PIDS=()          # the current configuration's
LASTPID=
start_bg() {         # start_bg <log> <cmd...>: background process, pid in LASTPID
  local log=$1; shift
  "$@" >"$log" 2>&1 &
  LASTPID=$!
  LIVE[$LASTPID]=1; CUR_PIDS+=("$LASTPID")
}
alive() { kill -0 "$1" 2>/dev/null; }
reap() { local p; for p in "$@"; do wait "$p" 2>/dev/null; unset "LIVE[$p]"; done; return 0; }
children_of() {      # pids whose parent is one of the given pids (node's esbuild service processes)
  local f line rest p q; local -a x
  for f in /proc/[0-9]*/stat; do
    { read -r line < "$f"; } 2>/dev/null || continue
    rest=${line##*) }; read -r -a x <<< "$rest"
    for q in "$@"; do [ "${x[1]}" = "$q" ] && { p=${f#/proc/}; echo "${p%/stat}"; }; done
  done
}
stop_pids() {        # TERM, up to 0.5 s, then KILL; reap. Only processes we started (and their children), by pid
  local p i any kids
  kids=$(children_of "$@")
  for p in "$@"; do kill -TERM "$p" 2>/dev/null; done
  for i in 1 2 3 4 5; do
    any=0; for p in "$@"; do alive "$p" && any=1; done
    [ $any = 0 ] && break
    sleep 0.1
  done
  for p in "$@"; do alive "$p" && kill -KILL "$p" 2>/dev/null; done
  reap "$@"
  for p in $kids; do kill -TERM "$p" 2>/dev/null; done
  return 0
}
stop_current() { [ ${#CUR_PIDS[@]} -gt 0 ] && stop_pids "${CUR_PIDS[@]}"; CUR_PIDS=(); }
WD=
finish() {
  local rc=$?
  trap - EXIT TERM INT
  [ ${#LIVE[@]} -gt 0 ] && stop_pids "${!LIVE[@]}"
  if [ -n "$WD" ]; then kill -TERM "$WD" 2>/dev/null; wait "$WD" 2>/dev/null; fi
  if [ -x "${NODE:-}" ] && [ -f "$OUT/scale.tsv" ]; then
    "$NODE" "$ROOT/share/report.mjs" "$OUT/scale.tsv" "$RUN_ID" > "$OUT/scale.txt" 2>&1
    echo; cat "$OUT/scale.txt"
  fi
  say "done (exit $rc); results in $OUT/scale.tsv and $OUT/scale.txt, logs in $LOGS"
  exit $rc
}
trap finish EXIT
trap 'say "stopped by signal"; exit 124' TERM INT
# Watchdog: whatever happens, everything stops HARD s after the start.
( trap 'kill $sp 2>/dev/null; exit 0' TERM; sleep "$HARD" & sp=$!; wait $sp; echo "WATCHDOG: $HARD s reached" >&2; kill -TERM $$ ) &
WD=$!

# ---------------------------------------------------------------- unpack
say "unpacking into $ROOT (carry: $CARRY)"
PYXZ='import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)'
PYTAR='import sys,tarfile; t=tarfile.open(sys.argv[1]); t.extractall(sys.argv[2], **({"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}))'
xzcat_() {       # xzcat_ <file.xz> <dest>: xz, else python3
  { command -v xz >/dev/null 2>&1 && xz -dc "$1" > "$2"; } 2>/dev/null || python3 -c "$PYXZ" "$1" > "$2"
}
untar_() {       # untar_ <file.tar.xz> <dir>: xz | tar, else python3's tarfile
  if command -v xz >/dev/null 2>&1 && command -v tar >/dev/null 2>&1; then
    ( set -o pipefail; xz -dc "$1" | tar -xf - -C "$2" ) 2>/dev/null && return 0
  fi
  python3 -c "$PYTAR" "$1" "$2"
}
rm -rf "$ROOT" 2>/dev/null; mkdir -p "$ROOT/bin" || exit 2
# a /tmp mounted noexec cannot run the binaries: then unpack next to the carry
if ! { printf '#!/bin/sh\nexit 0\n' > "$ROOT/bin/.exec-test" && chmod +x "$ROOT/bin/.exec-test" && "$ROOT/bin/.exec-test"; } 2>/dev/null; then
  say "cannot run programs from $ROOT (noexec?); using $CARRY/.root instead"
  rm -rf "$ROOT" 2>/dev/null; ROOT=$CARRY/.root; rm -rf "$ROOT"; mkdir -p "$ROOT/bin" || exit 2
fi
rm -f "$ROOT/bin/.exec-test"
xzcat_ "$CARRY/node.xz" "$ROOT/bin/node" && chmod +x "$ROOT/bin/node" || { say "FATAL: cannot unpack node"; exit 2; }
untar_ "$CARRY/tools.tar.xz" "$ROOT" || { say "FATAL: cannot unpack tools"; exit 2; }
untar_ "$CARRY/app.tar.xz" "$ROOT" || { say "FATAL: cannot unpack app"; exit 2; }
NODE=$ROOT/bin/node REDIS=$ROOT/bin/redis-server WRK=$ROOT/bin/wrk APP=$ROOT/app SHARE=$ROOT/share
export PATH="$ROOT/bin:$PATH"
for b in "$REDIS" "$WRK"; do
  if command -v ldd >/dev/null 2>&1; then
    miss=$(LD_LIBRARY_PATH=$ROOT/lib ldd "$b" 2>&1 | while read -r l; do case $l in *"not found"*) echo "$l";; esac; done)
    [ -n "$miss" ] && say "WARNING: $b misses shared libraries: $miss"
  fi
done
if command -v ldd >/dev/null 2>&1; then
  miss=$(ldd "$NODE" 2>&1 | while read -r l; do case $l in *"not found"*) echo "$l";; esac; done)
  [ -n "$miss" ] && say "WARNING: node misses shared libraries: $miss"
fi
NODE_V=$("$NODE" --version 2>&1) || { say "FATAL: carried node does not run: $NODE_V"; exit 2; }
REDIS_V=$(LD_LIBRARY_PATH=$ROOT/lib "$REDIS" --version 2>&1) || { say "FATAL: carried redis-server does not run: $REDIS_V"; exit 2; }
WRK_V=$(LD_LIBRARY_PATH=$ROOT/lib "$WRK" -v 2>&1 | head -1)
case $WRK_V in wrk*) ;; *) say "FATAL: carried wrk does not run: $WRK_V"; exit 2;; esac
CORES=$(nproc 2>/dev/null || echo '?')
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)
say "node $NODE_V ($NODE); ${REDIS_V%% sha=*} ($REDIS); $WRK_V ($WRK)"
say "host: $CORES cores, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg); run $RUN_ID; WARM=${WARM}s DUR=${DUR}s"
mkdir -p "$ROOT/tmp"
cd "$APP" || exit 2   # the processes run from the app's root, as `npm start` does

# ---------------------------------------------------------------- CPU accounting (/proc)
ticks() {        # utime+stime (clock ticks) of a process, or of one thread: ticks <pid> [tid]
  local f=/proc/$1/stat line rest
  [ -n "${2:-}" ] && f=/proc/$1/task/$2/stat
  local -a x
  { read -r line < "$f"; } 2>/dev/null || { echo 0; return; }
  rest=${line##*) }
  read -r -a x <<< "$rest"
  echo $(( x[11] + x[12] ))   # fields 14 (utime) and 15 (stime)
}
sum_ticks() { local t=0 p; for p in "$@"; do t=$(( t + $(ticks "$p") )); done; echo $t; }
sum_main_ticks() { local t=0 p; for p in "$@"; do t=$(( t + $(ticks "$p" "$p") )); done; echo $t; }
rss_mb() { local t=0 p k v u; for p in "$@"; do { while read -r k v u; do [ "$k" = VmRSS: ] && t=$((t + v)); done < /proc/$p/status; } 2>/dev/null; done; echo $((t / 1024)); }
host_busy() {    # "busy total" ticks of all cpus
  local cpu u n s i w q sq st rest
  read -r cpu u n s i w q sq st rest < /proc/stat
  echo "$((u + n + s + q + sq + st)) $((u + n + s + i + w + q + sq + st))"
}
pct() { [ "$2" -gt 0 ] && echo $(( ($1 * 100000 / HZ + $2 / 2) / $2 )) || echo 0; }  # pct <ticks> <wall_ms>

TSV=$OUT/scale.tsv
[ -s "$TSV" ] || printf '%s\n' "run_id	time	mode	api_procs	worker_procs	threads_per_proc	chem_threads	route	conns	secs	rps	p50_ms	p90_ms	p99_ms	max_ms	requests	non2xx	sock_err	api_cpu_pct	api_main_pct	workers_cpu_pct	workers_main_pct	redis_cpu_pct	host_busy_pct	api_rss_mb	workers_rss_mb	cores	node" > "$TSV"

# ---------------------------------------------------------------- one configuration
APIS=() WORKERS_P=() REDIS_PID=() APORTS=()
# the environment of natprod processes (a plain command, so that $! is node's own pid)
APPENV=(env -i HOME="${HOME:-/tmp}" PATH="$ROOT/bin:/usr/bin:/bin" TMPDIR="$ROOT/tmp" NODE_ENV=production
  HOST=127.0.0.1 SEED_DEMO=false OPSIN_JAR=off LOG_LEVEL=warn
  RATE_LIMIT_QUICK=0 RATE_LIMIT_LONG=0 RATE_LIMIT_WRITES=0 LONG_JOBS_PER_CLIENT=0 SHUTDOWN_GRACE_MS=1000)
show_logs() { local f; for f in "$@"; do [ -f "$f" ] && { echo "--- tail of $f"; tail -n 15 "$f"; }; done; }
waitfor() {      # waitfor <max s> <targets...>: bounded by the watchdog too
  local t=$1; shift
  local l=$(( $(left) - 5 )); [ "$l" -lt "$t" ] && t=$l
  [ "$t" -lt 1 ] && { echo "no time left to wait (HARD=${HARD}s)"; return 1; }
  timeout $((t + 5)) "$NODE" "$SHARE/probe.mjs" "$t" "$@"
}

# parse "RESULT k=v ..." into R_<k>
parse_result() {
  local kv
  R_rps=0 R_requests=0 R_p50_ms=0 R_p90_ms=0 R_p99_ms=0 R_max_ms=0 R_non2xx=0 R_connect_err=0 R_read_err=0 R_write_err=0 R_timeouts=0
  for kv in $1; do case $kv in *=*) printf -v "R_${kv%%=*}" '%s' "${kv#*=}";; esac; done
}
cents() {        # "12.3" -> 1230, "4.07" -> 407 (decimal, whatever the leading zeros)
  local v=$1 i f=; i=${v%%.*}; [[ $v == *.* ]] && f=${v#*.}; f=${f}00; f=${f:0:2}
  echo $(( 10#${i:-0} * 100 + 10#$f ))
}
fmt_cents() { printf '%d.%02d' $(( $1 / 100 )) $(( $1 % 100 )); }

# measure <mode> <route> <conns> <secs> <record 0|1> <label>
measure() {
  local mode=$1 route=$2 conns=$3 secs=$4 record=$5 label=$6
  local n=${#APORTS[@]} i per thr out pids=() files=() ef
  per=$(( conns / n )); [ $per -lt 1 ] && per=1
  thr=4; [ $n -gt 1 ] && thr=2; [ $thr -gt $per ] && thr=$per
  rm -f "$ROOT/tmp/err."* "$ROOT/tmp/wrk."*
  local a0 m0 r0 h0 t0 a1 m1 r1 h1 t1 k0=0 k1=0 p wm0=0 wm1=0; local -a kw0=() kw1=()
  for p in "${WORKERS_P[@]}"; do kw0+=("$(ticks "$p")"); done
  [ ${#WORKERS_P[@]} -gt 0 ] && wm0=$(sum_main_ticks "${WORKERS_P[@]}")
  a0=$(sum_ticks "${APIS[@]}"); m0=$(sum_main_ticks "${APIS[@]}"); r0=$(sum_ticks "${REDIS_PID[@]}"); h0=$(host_busy); t0=$(date +%s%3N)
  for i in $(seq 0 $((n - 1))); do
    PATHS=$SHARE/paths-$route.txt ERRFILE=$ROOT/tmp/err.$i LD_LIBRARY_PATH=$ROOT/lib \
      timeout $((secs + 20)) "$WRK" -t"$thr" -c"$per" -d"${secs}s" --timeout "$WRK_TIMEOUT" -s "$SHARE/paths.lua" "http://127.0.0.1:${APORTS[$i]}" \
      > "$ROOT/tmp/wrk.$i" 2>&1 &
    pids+=($!); LIVE[$!]=1
  done
  reap "${pids[@]}"
  t1=$(date +%s%3N); h1=$(host_busy); a1=$(sum_ticks "${APIS[@]}"); m1=$(sum_main_ticks "${APIS[@]}"); r1=$(sum_ticks "${REDIS_PID[@]}")
  for p in "${WORKERS_P[@]}"; do kw1+=("$(ticks "$p")"); done
  [ ${#WORKERS_P[@]} -gt 0 ] && wm1=$(sum_main_ticks "${WORKERS_P[@]}")
  [ "$record" = 1 ] || return 0
  local wmin=- wmax=- d
  for i in "${!kw0[@]}"; do
    d=$(( ${kw1[$i]:-0} - ${kw0[$i]} )); k0=$((k0 + ${kw0[$i]})); k1=$((k1 + ${kw1[$i]:-0}))
    if [ "$wmin" = - ] || [ "$d" -lt "$wmin" ]; then wmin=$d; fi
    if [ "$wmax" = - ] || [ "$d" -gt "$wmax" ]; then wmax=$d; fi
  done
  # combine the wrk results (several api ports: sum req/s and counts, worst percentiles)
  local rpsc=0 reqs=0 non2xx=0 serr=0 p50=0 p90=0 p99=0 mx=0 line parts=
  for i in $(seq 0 $((n - 1))); do
    line=$(while read -r l; do case $l in RESULT*) echo "$l";; esac; done < "$ROOT/tmp/wrk.$i")
    if [ -z "$line" ]; then say "ERROR: wrk on port ${APORTS[$i]} gave no result:"; cat "$ROOT/tmp/wrk.$i"; serr=$((serr + 1)); continue; fi
    parse_result "${line#RESULT }"
    rpsc=$(( rpsc + $(cents "$R_rps") )); parts="$parts${parts:++}$R_rps"; reqs=$((reqs + R_requests)); non2xx=$((non2xx + R_non2xx))
    serr=$((serr + R_connect_err + R_read_err + R_write_err + R_timeouts))
    if [ $i = 0 ] || [ "$(cents "$R_p50_ms")" -gt "$(cents "$p50")" ]; then p50=$R_p50_ms; fi
    if [ $i = 0 ] || [ "$(cents "$R_p90_ms")" -gt "$(cents "$p90")" ]; then p90=$R_p90_ms; fi
    if [ $i = 0 ] || [ "$(cents "$R_p99_ms")" -gt "$(cents "$p99")" ]; then p99=$R_p99_ms; fi
    if [ $i = 0 ] || [ "$(cents "$R_max_ms")" -gt "$(cents "$mx")" ]; then mx=$R_max_ms; fi
  done
  local rps wall=$((t1 - t0)); rps=$(fmt_cents $rpsc); local split=; [ "$n" -gt 1 ] && split=" ($parts)"
  local hb=$(( ${h1% *} - ${h0% *} )) ht=$(( ${h1#* } - ${h0#* } ))
  local apc mpc kpc wmpc rpc hpc amb kmb
  wmpc=$(pct $((wm1 - wm0)) $wall)
  apc=$(pct $((a1 - a0)) $wall); mpc=$(pct $((m1 - m0)) $wall); kpc=$(pct $((k1 - k0)) $wall); rpc=$(pct $((r1 - r0)) $wall)
  hpc=0; [ $ht -gt 0 ] && hpc=$(( hb * 100 / ht ))
  local wspread=; [ "$wmin" != - ] && wspread=" ($(pct "$wmin" $wall)..$(pct "$wmax" $wall) per process)"
  amb=$(rss_mb "${APIS[@]}"); kmb=$(rss_mb "${WORKERS_P[@]}")
  printf '[%4ss] %-5s apis=%s wproc=%-2s thr/p=%-2s chem=%-2s %-11s c=%-3s rps=%-8s%s p50=%sms p99=%sms non2xx=%s sockerr=%s | cpu%%: api=%s (main %s) workers=%s (main %s)%s redis=%s host=%s | rss MB: api=%s workers=%s\n' \
    "$(el)" "$mode" "${#APIS[@]}" "${#WORKERS_P[@]}" "$TPP" "$CHEM" "$route" "$conns" "$rps" "$split" "$p50" "$p99" "$non2xx" "$serr" "$apc" "$mpc" "$kpc" "$wmpc" "$wspread" "$rpc" "$hpc" "$amb" "$kmb"
  printf '%s\n' "$RUN_ID	$(date -u +%FT%TZ)	$mode	${#APIS[@]}	${#WORKERS_P[@]}	$TPP	$CHEM	$route	$conns	$(( wall / 1000 ))	$rps	$p50	$p90	$p99	$mx	$reqs	$non2xx	$serr	$apc	$mpc	$kpc	$wmpc	$rpc	$hpc	$amb	$kmb	$CORES	$NODE_V" >> "$TSV"
  if [ "$non2xx" != 0 ] || [ "$serr" != 0 ]; then
    say "WARNING: $non2xx non-2xx answers, $serr socket errors/timeouts ($label)"
    for ef in "$ROOT/tmp/err."*; do [ -f "$ef" ] && { echo "first error body ($ef):"; head -c 2000 "$ef"; echo; break; }; done
    for i in $(seq 0 $((n - 1))); do while read -r l; do case $l in RESULT*) ;; *) echo "wrk: $l";; esac; done < "$ROOT/tmp/wrk.$i"; done
  fi
  return 0
}

# run_config <spec>
run_config() {
  local spec=$1 mode a b c d apis nw tpp routes i route conns label dd
  IFS=: read -r mode a b c d <<< "$spec"
  case $mode in
    inline) apis=1 nw=0 tpp=$a routes=$b ;;
    dist) apis=$a nw=$b tpp=$c routes=$d ;;
    *) say "bad spec $spec"; return ;;
  esac
  TPP=$tpp; if [ "$mode" = inline ]; then CHEM=$tpp; else CHEM=$((nw * tpp)); fi
  conns=${CONNS:-$(( CHEM * 8 < 16 ? 16 : CHEM * 8 ))}
  label="$spec"
  local need=$(( 8 + WARM + DUR + 1 )) lim=$BUDGET; [ $((HARD - 10)) -lt "$lim" ] && lim=$((HARD - 10))
  if [ $(( $(el) + need )) -gt "$lim" ]; then say "SKIPPED $label: it would end after ${lim}s (BUDGET=${BUDGET}s, HARD=${HARD}s)"; return; fi
  say "config $label: $mode, $apis api process(es), $nw worker process(es), $tpp thread(s) per process, $conns connections"
  local tstart; tstart=$(date +%s%3N)
  CUR_PIDS=() APIS=() WORKERS_P=() REDIS_PID=() APORTS=()
  local tag; tag=$(echo "$spec" | tr ':+' '__')
  dd=$ROOT/data-$tag; mkdir -p "$dd/api1" "$dd/api2"
  local logs=() targets=() ok=1
  # the ports must be free (nothing left of an earlier configuration or of anything else)
  targets=("free://127.0.0.1:$REDIS_PORT")
  for i in $(seq 1 "$apis"); do targets+=("free://127.0.0.1:$((BASE_PORT + i))"); done
  for i in $(seq 1 "$nw"); do targets+=("free://127.0.0.1:$((BASE_PORT + 100 + i))"); done
  if ! waitfor 10 "${targets[@]}"; then say "ERROR: $label: ports not free (another BASE_PORT=... may help), skipped"; return; fi
  targets=()
  if [ "$mode" = dist ]; then
    start_bg "$LOGS/$tag.redis.log" env LD_LIBRARY_PATH="$ROOT/lib" "$REDIS" --port "$REDIS_PORT" --bind 127.0.0.1 \
      --save '' --appendonly no --maxmemory-policy noeviction --dir "$dd" --protected-mode yes
    REDIS_PID=("$LASTPID"); logs+=("$LOGS/$tag.redis.log")
    waitfor 20 "redis://127.0.0.1:$REDIS_PORT" || ok=0
    if [ $ok = 1 ]; then
      for i in $(seq 1 "$nw"); do
        start_bg "$LOGS/$tag.worker$i.log" "${APPENV[@]}" DATA_DIR="$dd" REDIS_URL="redis://127.0.0.1:$REDIS_PORT" QUEUE_PREFIX="scale" \
          WORKERS="$tpp" WORKER_METRICS_PORT=$((BASE_PORT + 100 + i)) "$NODE" dist/worker.mjs
        WORKERS_P+=("$LASTPID"); logs+=("$LOGS/$tag.worker$i.log"); targets+=("http://127.0.0.1:$((BASE_PORT + 100 + i))/health")
      done
      waitfor 90 "${targets[@]}" || ok=0
    fi
  fi
  if [ $ok = 1 ]; then
    targets=()
    for i in $(seq 1 "$apis"); do
      if [ "$mode" = dist ]; then
        start_bg "$LOGS/$tag.api$i.log" "${APPENV[@]}" DATA_DIR="$dd/api$i" REDIS_URL="redis://127.0.0.1:$REDIS_PORT" QUEUE_PREFIX="scale" \
          PORT=$((BASE_PORT + i)) "$NODE" dist/server.mjs
      else
        start_bg "$LOGS/$tag.api$i.log" "${APPENV[@]}" DATA_DIR="$dd/api$i" WORKERS="$tpp" PORT=$((BASE_PORT + i)) "$NODE" dist/server.mjs
      fi
      APIS+=("$LASTPID"); APORTS+=($((BASE_PORT + i))); logs+=("$LOGS/$tag.api$i.log")
      targets+=("http://127.0.0.1:$((BASE_PORT + i))/health")
    done
    waitfor 90 "${targets[@]}" || ok=0
  fi
  if [ $ok = 1 ]; then  # the chemistry answers on every api port (threads loaded, workers consuming)
    targets=(); for i in "${APORTS[@]}"; do targets+=("http://127.0.0.1:$i/latest/convert/canonicalsmiles?smiles=OC(%3DO)c1ccccc1O&toolkit=rdkit"); done
    waitfor 60 "${targets[@]}" || ok=0
  fi
  if [ $ok = 0 ]; then
    say "ERROR: $label did not become ready; logs:"; show_logs "${logs[@]}"
    stop_current; return
  fi
  local tready; tready=$(( $(date +%s%3N) - tstart ))
  say "ready in $(fmt_cents $((tready / 10))) s: api pid(s) ${APIS[*]}, worker pid(s) ${WORKERS_P[*]:-none}, redis pid ${REDIS_PID[*]:-none}"
  local f l
  for f in "${logs[@]}"; do  # the chemistry threads should run the esbuild bundle (workers/bundle.ts)
    { while read -r l; do case $l in *"(no bundle)"*) say "WARNING: ${f##*/}: $l"; break;; esac; done < "$f"; } 2>/dev/null
  done
  local warm=$WARM
  for route in ${routes//+/ }; do
    if [ $(( $(el) + warm + DUR + 1 )) -gt "$lim" ]; then say "SKIPPED $label $route: it would end after ${lim}s (BUDGET=${BUDGET}s, HARD=${HARD}s)"; continue; fi
    [ "$warm" -gt 0 ] && measure "$mode" "$route" "$conns" "$warm" 0 "$label $route warm-up"
    measure "$mode" "$route" "$conns" "$DUR" 1 "$label $route"
    warm=$WARM2
  done
  local p dead=()
  for p in "${CUR_PIDS[@]}"; do alive "$p" || dead+=("$p"); done
  [ ${#dead[@]} -gt 0 ] && { say "WARNING: process(es) ${dead[*]} ended during $label"; show_logs "${logs[@]}"; }
  stop_current
}

# ---------------------------------------------------------------- the matrix
if [ -n "${MATRIX:-}" ]; then
  read -r -a SPECS <<< "$MATRIX"
elif [ "$QUICK" = 1 ]; then
  SPECS=(inline:1:canonical dist:1:1:1:canonical)
else
  # the issue's questions: canonical SMILES against api processes (the api's share is largest there),
  # descriptors against worker threads; every configuration's single-thread baseline first
  SPECS=(
    inline:1:canonical+descriptors inline:4:canonical inline:14:canonical+descriptors
    dist:1:1:1:canonical+descriptors dist:1:2:1:canonical+descriptors dist:1:4:1:canonical+descriptors
    dist:1:8:1:canonical+descriptors dist:2:8:1:canonical dist:4:8:1:canonical dist:3:10:1:canonical
    dist:1:14:1:descriptors dist:1:7:2:descriptors dist:2:12:1:descriptors
  )
fi
say "matrix (${#SPECS[@]} configurations): ${SPECS[*]}"
for s in "${SPECS[@]}"; do run_config "$s"; done
