#!/usr/bin/env bash
# The original Cheminformatics Microservice's own HTTP tests (its pytest files that call the API
# through FastAPI's TestClient) run against a natprod over real HTTP; prints a table per file, the
# total "N of M HTTP test cases pass" and one line per failure (report.py says what counts).
#
#   bash bench/original-tests/run.sh <original tests> [pytest args...]
#
# <original tests>: a folder holding the original's tests/ (an export:
#   git -C <mirror> archive HEAD tests | tar -x -C DIR), or the original's git directory, exported
#   here at UPSTREAM_REV (default HEAD). The original's test files are read from there and never
#   copied into natprod.
# env: NATPROD_URL   natprod to test; unset: one is started from this checkout (npm run dev, tsx) on
#                    a free port with a fresh DATA_DIR, and stopped at the end
#      FILES         test files to run (default: the 13 below; missing ones are left out)
#      PYTHON        python with pytest, requests and rdkit (default /usr/bin/python3; Debian:
#                    apt-get install python3-pytest python3-requests python3-rdkit python3-openbabel)
#      ORIGINAL_PATHS=1  send the six renamed operations to the original's paths (default: natprod's)
#      OUT           folder for results.json, report.md, pytest.log, server.log (default: a temp dir)
#      RUN_TIMEOUT_S longest the pytest run may take (default 1800; then the tests so far are reported)
#      SHIM_TIMEOUT_S longest one request may take (default 120)
# The shim (shim/) goes first on sys.path: app.main.app names NATPROD_URL, fastapi.testclient's
# TestClient sends real requests, and the original's internal modules are stand-ins that mark a
# test as "internal" when it uses them (such tests are counted apart, not in the HTTP figure).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
src=${1:?usage: run.sh <folder with the original tests/ | original git dir> [pytest args...]}; shift
PYTHON=${PYTHON:-/usr/bin/python3}
FILES=${FILES:-"test_chem.py test_converters.py test_depict.py test_tools.py test_enhanced_depict_endpoint.py
  test_fix_radicals.py test_cdx_to_mol.py test_ocsr.py test_detailed_filters_api.py test_main.py test_limiter.py
  test_pubchem_client.py test_xyz_to_mol.py"}
"$PYTHON" -c 'import pytest, requests' 2>/dev/null || {
  echo "run.sh: $PYTHON lacks pytest or requests (Debian: apt-get install python3-pytest python3-requests)" >&2; exit 2; }

OUT=${OUT:-$(mktemp -d /tmp/natprod-original-tests-XXXX)}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/natprod-original-src-XXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

if git -C "$src" rev-parse --git-dir >/dev/null 2>&1 && [ ! -d "$src/tests" ]; then
  rev=${UPSTREAM_REV:-HEAD}
  commit=$(git -C "$src" rev-parse --short=7 "$rev^{commit}")
  git -C "$src" archive "$commit" tests 2>"$OUT/archive.log" | tar -x -C "$work"
  tests_root=$work
else
  tests_root=$(cd "$src" && pwd); [ -d "$tests_root/tests" ] || tests_root=$(dirname "$tests_root")
  [ -d "$tests_root/tests" ] || { echo "run.sh: no tests/ folder in $src" >&2; exit 2; }
  commit=${ORIGINAL_COMMIT:-$(cat "$tests_root/.original-commit" 2>/dev/null || echo unknown)}
fi
run=()
for f in $FILES; do [ -f "$tests_root/tests/$f" ] && run+=("tests/$f"); done
[ ${#run[@]} -gt 0 ] || { echo "run.sh: none of the test files is in $tests_root/tests" >&2; exit 2; }

if [ -z "${NATPROD_URL:-}" ]; then
  port=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  export NATPROD_URL=http://127.0.0.1:$port
  # TOOLKIT_TIMEOUT_MS: a sidecar's first start (a JVM, a Python with Open Babel) on a busy machine can
  # pass the default 10 s; that is a matter of load, not of what the original's tests check.
  (cd "$root" && DATA_DIR="$work/data" PORT=$port HOST=127.0.0.1 TOOLKIT_TIMEOUT_MS=${TOOLKIT_TIMEOUT_MS:-30000} \
    exec node --import tsx api/server.ts) \
    >"$OUT/server.log" 2>&1 & pid=$!
  for _ in $(seq 240); do
    curl -fsS "$NATPROD_URL/health" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { echo "run.sh: natprod did not start; $OUT/server.log:" >&2; tail -20 "$OUT/server.log" >&2; exit 1; }
    sleep 0.5
  done
fi
curl -fsS "$NATPROD_URL/health" >/dev/null || { echo "run.sh: no natprod at $NATPROD_URL" >&2; exit 1; }

started=$(date -u +%s)
set +e
(cd "$tests_root" && NATPROD_URL=$NATPROD_URL SHIM_RESULTS="$OUT/results.json" PYTHONPATH="$here/shim${PYTHONPATH:+:$PYTHONPATH}" \
  PYTHONDONTWRITEBYTECODE=1 timeout -s TERM -k 30 "${RUN_TIMEOUT_S:-1800}" "$PYTHON" -m pytest -p natprod_shim -p no:cacheprovider -q -rN --tb=line \
  --rootdir "$tests_root" "${run[@]}" "$@") >"$OUT/pytest.log" 2>&1
rc=$?
set -e
[ -f "$OUT/results.json" ] || { echo "run.sh: pytest wrote no results (rc $rc); $OUT/pytest.log:" >&2; tail -30 "$OUT/pytest.log" >&2; exit 1; }
natprod_rev=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
"$PYTHON" "$here/report.py" "$OUT/results.json" \
  --title "$(date -u +%F' '%H:%M) UTC: the original at $commit against natprod $natprod_rev (+ working tree), $(( $(date -u +%s) - started )) s" \
  | tee "$OUT/report.md"
echo "(results, pytest and server logs in $OUT)"
