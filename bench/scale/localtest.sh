#!/bin/bash
# Runs .devcarry/scale.sh as a bare remote machine would: in a private mount namespace (other
# processes on this machine keep theirs) where this machine's node, redis, wrk, curl and the
# libraries the carry brings are hidden, with an empty environment. Needs root (unshare, mount).
#   bash bench/scale/localtest.sh            # QUICK=1: two small configurations, 5 s each
#   QUICK=0 MATRIX="dist:1:1:1:canonical" bash bench/scale/localtest.sh
set -u
cd "$(dirname "$0")/../.."
[ -f .devcarry/scale.sh ] || { echo "no .devcarry: run bench/scale/build-carry.sh first" >&2; exit 2; }
exec unshare -m --propagation private bash -c '
  hide=(/usr/bin/node /usr/bin/redis-check-rdb /usr/bin/redis-cli /usr/bin/redis-benchmark /usr/bin/wrk /usr/bin/curl)
  for l in libluajit-5.1.so.2 liblzf.so.1 libjemalloc.so.2 libssl.so.3 libcrypto.so.3 libatomic.so.1; do
    f=$(readlink -f /usr/lib/x86_64-linux-gnu/$l) && hide+=("$f")
  done
  for f in "${hide[@]}"; do [ -e "$f" ] && { mount --bind /dev/null "$f" || echo "cannot hide $f"; }; done
  echo "hidden here only: ${hide[*]}"
  mkdir -p /tmp/natprod-localtest-home
  env -i HOME=/tmp/natprod-localtest-home PATH=/usr/bin:/bin OUT="${OUT:-/tmp/natprod-scale-out}" QUICK="${QUICK:-1}" \
    ${MATRIX:+MATRIX="$MATRIX"} ${HARD:+HARD=$HARD} ${BUDGET:+BUDGET=$BUDGET} ${WARM:+WARM=$WARM} ${DUR:+DUR=$DUR} \
    nice -n 10 bash .devcarry/scale.sh
'
