#!/usr/bin/env bash
# The original service's own test cases against natprod: its HTTP router tests (tests/test_{chem,
# converters,depict,tools,main,ocsr}.py of Steinbeck-Lab/cheminformatics-microservice at 01e0f60,
# 95 cases) through conftest.py. The other upstream test files call its Python functions directly
# (test_functions, test_helper, test_filters, ...) and cannot run against a service.
#
#   bash test/toolkits/original/run.sh <upstream git dir or checkout> [pytest args...]
#
# needs: python3 with pytest and requests (Debian python3-pytest python3-requests). Starts natprod
# (inline, tsx, port 8199; the toolkits as installed) unless NATPROD_URL is set. Prints pytest's
# summary line: "N failed, M passed".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=${1:?usage: run.sh <upstream git dir or checkout> [pytest args...]}; shift
rev=${UPSTREAM_REV:-01e0f60}
work=$(mktemp -d /tmp/natprod-original-XXXX)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/tests"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  for f in chem converters depict tools main ocsr; do git -C "$src" show "$rev:tests/test_$f.py" > "$work/tests/test_$f.py"; done
  # the inputs those files read (tests/caffeine.png for the OCSR upload), not other test files
  mkdir -p "$work/all" && git -C "$src" archive "$rev" tests | tar -x -C "$work/all"
else
  for f in chem converters depict tools main ocsr; do cp "$src/tests/test_$f.py" "$work/tests/"; done
  mkdir -p "$work/all" && cp -r "$src/tests" "$work/all/"
fi
find "$work/all/tests" -maxdepth 1 -type f ! -name '*.py' -exec cp {} "$work/tests/" \;
cp "$here/conftest.py" "$work/tests/"
if [ -z "${NATPROD_URL:-}" ]; then
  export NATPROD_URL=http://127.0.0.1:8199
  (cd "$root" && RATE_LIMIT_QUICK=0 RATE_LIMIT_LONG=0 DATA_DIR="$work/data" SEED_DEMO=false PORT=8199 HOST=127.0.0.1 \
    exec node --import tsx api/server.ts >"$work/server.log" 2>&1) & pid=$!
  for _ in $(seq 120); do curl -fsS "$NATPROD_URL/health" >/dev/null 2>&1 && break; sleep 0.5; done
fi
cd "$work" && python3 -m pytest -q -p no:cacheprovider -rf tests "$@"
