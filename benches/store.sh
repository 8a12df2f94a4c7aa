#!/usr/bin/env bash
# The remote store against the embedded one, whole processes on the public
# split: a load (`finkg load --force`: every page replaced) against building
# every page's graph in memory (`finkg kg --all`), and the turns of `eval`
# against Virtuoso (one and four conversations at once) against the
# embedded store, and with each page's graph fetched once (--store-fetch).
# Prints one line a measurement: seconds, and ms a turn.
#
#   benches/store.sh [FINKG_BIN]      (default: target/release/finkg)
#
# The endpoint is FINKG_STORE when set (it must allow SPARQL updates);
# otherwise a scratch Virtuoso (`virtuoso-t`, Debian's
# virtuoso-opensource-7-bin) is started on 127.0.0.1 and stopped after.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/finkg}
data=data/convfinqa_dev_public.json
work=$(mktemp -d)
trap 'kill "${pid:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

if [ -z "${FINKG_STORE:-}" ]; then
    sql=$(port); http=$(port)
    cat > "$work/virtuoso.ini" <<EOF
[Database]
DatabaseFile = $work/virtuoso.db
ErrorLogFile = $work/virtuoso.log
LockFile = $work/virtuoso.lck
TransactionFile = $work/virtuoso.trx
xa_persistent_file = $work/virtuoso.pxa
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = $work/virtuoso-temp.db
TransactionFile = $work/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:$sql
NumberOfBuffers = 20000
MaxDirtyBuffers = 15000
ServerThreads = 10
DirsAllowed = .
[HTTPServer]
ServerPort = 127.0.0.1:$http
ServerRoot = $work
MaxClientConnections = 8
ServerThreads = 8
EnabledDavVSP = 0
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
EOF
    virtuoso-t -f +configfile "$work/virtuoso.ini" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 240); do
        isql-vt "$sql" dba dba 'exec=GRANT SPARQL_UPDATE TO "SPARQL";' >/dev/null 2>&1 && break
        sleep 0.5
    done
    export FINKG_STORE=http://127.0.0.1:$http/sparql
fi

now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.2f}')"; }

t0=$(now); "$bin" kg "$data" --all --format nquads >/dev/null; t1=$(now)
echo "build every page in memory (kg --all): $(secs "$t0" "$t1") s"
"$bin" load "$data" --no-progress >/dev/null   # a first load: the database warms up
t0=$(now); "$bin" load "$data" --force --no-progress; t1=$(now)
echo "load --force, 257 pages: $(secs "$t0" "$t1") s"
t0=$(now); "$bin" load "$data" --no-progress; t1=$(now)
echo "load again, every page skipped: $(secs "$t0" "$t1") s"

run() {
    local name=$1; shift
    local t0 t1
    t0=$(now)
    "$bin" eval "$data" --out "$work/$name" --force --no-progress "$@" >/dev/null
    t1=$(now)
    local s turns
    s=$(secs "$t0" "$t1")
    turns=$(wc -l < "$work/$name/predictions.jsonl")
    echo "eval $name: $s s, $(python3 -c "print(f'{1000 * $s / $turns:.1f}')") ms a turn ($turns turns)"
}
(unset FINKG_STORE; run embedded)
run virtuoso-jobs-1 --store "$FINKG_STORE"
run virtuoso-jobs-4 --store "$FINKG_STORE" --jobs 4
run virtuoso-fetch-jobs-1 --store "$FINKG_STORE" --store-fetch
run virtuoso-fetch-jobs-4 --store "$FINKG_STORE" --store-fetch --jobs 4
(unset FINKG_STORE; run embedded-jobs-4 --jobs 4)
for run in virtuoso-jobs-1 virtuoso-jobs-4 virtuoso-fetch-jobs-1 virtuoso-fetch-jobs-4; do
    cmp -s "$work/embedded/predictions.jsonl" "$work/$run/predictions.jsonl" \
        && echo "predictions of $run: identical to embedded" || echo "predictions of $run: DIFFER"
done
