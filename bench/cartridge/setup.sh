#!/usr/bin/env bash
# A private PostgreSQL 15 cluster with the RDKit cartridge for bench/cartridge/run.ts.
#
#   bench/cartridge/setup.sh [start]   # initdb (once), start, create the database, install the cartridge
#   bench/cartridge/setup.sh stop      # stop the cluster (its files stay: the next start reuses the loaded sets)
#   bench/cartridge/setup.sh status
#   bench/cartridge/setup.sh env       # the connection settings, as shell assignments
#
# Installs no package: it checks for PostgreSQL 15 and Debian's postgresql-15-rdkit and says what
# to apt-get install when one is missing. It never touches the system cluster (5432), its
# configuration or any file of a package: the cluster lives in CARTRIDGE_DIR (default
# bench/cartridge/.pg, git-ignored), listens on 127.0.0.1:CARTRIDGE_PORT (default 54329) only
# (no Unix socket), trust authentication (loopback only; a benchmark cluster, no data of value).
# As root, the cluster's processes run as the `postgres` user (initdb refuses root).
#
# The cartridge (README.md, "The cartridge fix"): Debian's rdkit--4.2.0.sql (RDKit 2022.09.3)
# fails on PostgreSQL 15 with "commutator operator = is already the commutator of operator =":
# its two `@=` operators (mol, reaction) name `=` as COMMUTATOR and `<>` as NEGATOR (refused since
# PostgreSQL 17's stricter check, which 15.20 applies too; rdkit/rdkit#7459). The script is
# copied to CARTRIDGE_DIR, patched there (both `@=` operators their own commutator, no negator:
# RDKit's later fix, less its new @<> negator) and run into the benchmark database as a plain
# script, MODULE_PATHNAME replaced by $libdir/rdkit (the package's shared library). No file under the system's
# extension directory is written or changed, so the cartridge is not an "extension" there
# (\dx does not list it); its types, functions, operators and index classes are those of the
# extension. Idempotent: each step is skipped when done.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
DIR="${CARTRIDGE_DIR:-$HERE/.pg}"
PORT="${CARTRIDGE_PORT:-54329}"
DB="${CARTRIDGE_DB:-natprod_bench}"
SHARED_BUFFERS="${CARTRIDGE_SHARED_BUFFERS:-1GB}"
DATA="$DIR/data"
LOG="$DIR/postgres.log"
PATCHED="$DIR/rdkit--4.2.0-pg15.sql"

say() { printf '%s\n' "$*" >&2; }
die() { say "setup.sh: $*"; exit 1; }

# Run a PostgreSQL server program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
psql_db() { "$PG_BIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U postgres "$@"; }

check_packages() {
  local missing=()
  [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] || missing+=(postgresql-15)
  if [ -x "$PG_BIN/pg_config" ]; then
    local lib share
    lib="$("$PG_BIN/pg_config" --pkglibdir)"
    share="$("$PG_BIN/pg_config" --sharedir)"
    { [ -f "$lib/rdkit.so" ] && [ -f "$share/extension/rdkit--4.2.0.sql" ]; } || missing+=(postgresql-15-rdkit)
    EXT_SQL="$share/extension/rdkit--4.2.0.sql"
  else
    missing+=(postgresql-15-rdkit)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    say "missing: ${missing[*]}. Install them (Debian 12), then run this again:"
    say "  apt-get update && apt-get install -y ${missing[*]}"
    say "(this script installs nothing; it expects the RDKit cartridge 4.2.0 of postgresql-15-rdkit 202209.3)"
    exit 3
  fi
}

running() { as_owner "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

port_taken() {
  # Someone else (not this cluster) answers on the port?
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" >/dev/null 2>&1 && return 0
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && return 0
  return 1
}

init_cluster() {
  [ -f "$DATA/PG_VERSION" ] && return 0
  mkdir -p "$DIR"
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$DIR"
    runuser -u postgres -- test -w "$DIR" || die "the postgres user cannot write $DIR (a parent directory closed to it?): set CARTRIDGE_DIR to a directory it can reach, e.g. /tmp/natprod-cartridge"
  fi
  say "initdb $DATA"
  as_owner "$PG_BIN/initdb" -D "$DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 || {
    cat "$DIR/initdb.log" >&2
    die "initdb failed"
  }
  cat >>"$DATA/postgresql.conf" <<EOF

# bench/cartridge/setup.sh: a private benchmark cluster
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
shared_buffers = $SHARED_BUFFERS
max_wal_size = 4GB
EOF
}

start_cluster() {
  if running; then return 0; fi
  port_taken && die "port $PORT is taken by another server: set CARTRIDGE_PORT"
  say "starting the cluster on 127.0.0.1:$PORT (log $LOG)"
  if [ "$(id -u)" = 0 ]; then touch "$LOG" && chown postgres: "$LOG"; fi
  as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$LOG" -o "-p $PORT" -w -t 60 start >/dev/null || {
    tail -20 "$LOG" >&2
    die "the cluster did not start"
  }
}

create_db() {
  if [ "$(psql_db -d postgres -At -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" != 1 ]; then
    say "creating database $DB"
    psql_db -d postgres -c "CREATE DATABASE $DB"
  fi
}

# The patched copy of the extension script, rewritten each time from the installed one.
patch_script() {
  mkdir -p "$DIR"
  awk '
    /^CREATE OPERATOR @= \(/ { inop = 1 }
    inop && /COMMUTATOR = .=.,/ { sub(/COMMUTATOR = .=./, "COMMUTATOR = '"'"'@='"'"'"); fixed++ }
    inop && /NEGATOR = .<>.,/ { dropped++; next }
    inop && /^\);/ { inop = 0 }
    { gsub(/MODULE_PATHNAME/, "$libdir/rdkit"); print }
    END { if (fixed != 2 || dropped != 2) { print "patch: expected 2 @= operators, fixed " fixed ", negators dropped " dropped > "/dev/stderr"; exit 1 } }
  ' "$EXT_SQL" >"$PATCHED.tmp"
  {
    echo "-- $EXT_SQL (postgresql-15-rdkit), patched by bench/cartridge/setup.sh for PostgreSQL 15:"
    echo "-- the @= operators of mol and reaction are their own commutator and have no negator"
    echo "-- (the original names = and <>, which PostgreSQL 15 refuses); MODULE_PATHNAME -> \$libdir/rdkit."
    cat "$PATCHED.tmp"
  } >"$PATCHED"
  rm -f "$PATCHED.tmp"
}

install_cartridge() {
  if [ "$(psql_db -d "$DB" -At -c "SELECT to_regtype('mol') IS NOT NULL")" = t ]; then return 0; fi
  patch_script
  say "installing the RDKit cartridge into $DB from $PATCHED"
  PGOPTIONS='-c client_min_messages=warning' psql_db -d "$DB" -1 -f "$PATCHED" >/dev/null
  psql_db -d "$DB" -At -c "SELECT 'cartridge ' || rdkit_version() || ', RDKit ' || rdkit_toolkit_version() || ': ' || mol_to_smiles('c1ccccc1O'::mol)" >&2
}

print_env() {
  echo "CARTRIDGE_PGHOST=127.0.0.1"
  echo "CARTRIDGE_PORT=$PORT"
  echo "CARTRIDGE_DB=$DB"
  echo "CARTRIDGE_DIR=$DIR"
  echo "PG_BIN=$PG_BIN"
}

case "${1:-start}" in
  start)
    check_packages
    init_cluster
    start_cluster
    create_db
    install_cartridge
    print_env
    ;;
  stop)
    if [ -f "$DATA/PG_VERSION" ] && running; then
      as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null && say "stopped"
    else
      say "not running"
    fi
    ;;
  status)
    if [ -f "$DATA/PG_VERSION" ] && running; then say "running on 127.0.0.1:$PORT ($DATA)"; else say "not running"; exit 1; fi
    ;;
  env) print_env ;;
  *) die "usage: setup.sh [start|stop|status|env]" ;;
esac
