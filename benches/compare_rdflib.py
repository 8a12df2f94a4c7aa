#!/usr/bin/env python3
"""Runs the bench queries of benches/queries/ in rdflib on the same graph the
criterion benches use (data/example.json, exported by `finkg kg --format
nquads`), checks that rdflib binds the same number of rows as finkg, and prints
rdflib's median time beside criterion's median for the same query, with the
ratio.

Usage (from the repository root, after `cargo bench --bench retrieval`):

    pip install rdflib
    python3 benches/compare_rdflib.py [--finkg target/release/finkg] [--repeat 200]
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import rdflib
from rdflib.plugins.sparql import prepareQuery

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["cell_by_metric_and_period", "text_fact_by_words_and_year", "schema_summary"]


def criterion_median_ns(name):
    """criterion's median for sparql/NAME, in nanoseconds, or None if not run."""
    estimates = ROOT / "target" / "criterion" / "sparql" / name / "new" / "estimates.json"
    if not estimates.exists():
        return None
    return json.loads(estimates.read_text())["median"]["point_estimate"]


def finkg_rows(finkg, example, text):
    """How many rows finkg binds for the query, through `finkg query --format json`."""
    out = subprocess.run(
        [finkg, "query", str(example), text, "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return len(json.loads(out)["results"]["bindings"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finkg", default=str(ROOT / "target" / "release" / "finkg"))
    parser.add_argument("--example", default=str(ROOT / "data" / "example.json"))
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    nquads = subprocess.run(
        [args.finkg, "kg", args.example, "--format", "nquads"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    dataset = rdflib.Dataset()
    dataset.parse(data=nquads, format="nquads")
    print(f"graph: {args.example}, {len(dataset)} quads; rdflib {rdflib.__version__}")
    print(f"{'query':32} {'rows':>5} {'rdflib median':>14} {'finkg median':>13} {'ratio':>7}")
    failed = False
    for name in QUERIES:
        text = (ROOT / "benches" / "queries" / f"{name}.rq").read_text()
        prepared = prepareQuery(text)
        rows = len(list(dataset.query(prepared)))
        expected = finkg_rows(args.finkg, args.example, text)
        if rows != expected:
            print(f"{name}: rdflib binds {rows} rows, finkg {expected}", file=sys.stderr)
            failed = True
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter_ns()
            list(dataset.query(prepared))
            times.append(time.perf_counter_ns() - start)
        rdflib_ns = statistics.median(times)
        finkg_ns = criterion_median_ns(name)
        if finkg_ns is None:
            print(f"{name:32} {rows:>5} {rdflib_ns / 1e3:>11.1f} µs {'(no bench)':>13}")
        else:
            print(
                f"{name:32} {rows:>5} {rdflib_ns / 1e3:>11.1f} µs {finkg_ns / 1e3:>10.1f} µs "
                f"{rdflib_ns / finkg_ns:>6.1f}x"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
