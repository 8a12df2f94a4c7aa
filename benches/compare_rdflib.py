#!/usr/bin/env python3
"""Runs the bench queries of benches/queries/ in pyoxigraph and rdflib on the
same graph the criterion benches use (data/example.json, exported by `finkg
kg --format nquads`: the TBox and the page's ABox), checks that both bind the
same number of rows as finkg, and prints each one's median beside criterion's
median for finkg, with the ratios; then the same for building a page: finkg's
`graph_build/example` against loading the page's N-Quads into a fresh
pyoxigraph store (and an rdflib Dataset).

Usage (from the repository root, after `cargo bench --bench retrieval`):

    pip install pyoxigraph rdflib
    python3 benches/compare_rdflib.py [--finkg target/release/finkg] [--repeat 200]
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pyoxigraph
import rdflib
from rdflib.plugins.sparql import prepareQuery

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["cell_by_metric_and_period", "text_fact_by_words_and_year", "schema_summary"]


def criterion_median_ns(group, name):
    """criterion's median for GROUP/NAME, in nanoseconds, or None if not run."""
    estimates = ROOT / "target" / "criterion" / group / name / "new" / "estimates.json"
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


def median_ns(repeat, run):
    """The median of `repeat` timed calls of `run`, in nanoseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        run()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times)


def us(ns):
    return f"{ns / 1e3:>10.1f} µs"


def ratio(ns, finkg_ns):
    return f"{ns / finkg_ns:>7.2f}x" if finkg_ns else f"{'-':>8}"


def oxigraph_store(nquads):
    store = pyoxigraph.Store()
    store.load(nquads, format=pyoxigraph.RdfFormat.N_QUADS)
    return store


def rdflib_dataset(nquads):
    dataset = rdflib.Dataset()
    dataset.parse(data=nquads, format="nquads")
    return dataset


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
    store = oxigraph_store(nquads)
    dataset = rdflib_dataset(nquads)
    print(
        f"graph: {args.example}, {len(store)} quads (TBox and page); "
        f"pyoxigraph {pyoxigraph.__version__}, rdflib {rdflib.__version__}; "
        f"medians of {args.repeat}, finkg's from criterion"
    )
    print(
        f"{'query':30} {'rows':>4} {'finkg':>13} {'pyoxigraph':>13} {'rdflib':>13} "
        f"{'pyox/finkg':>10} {'rdflib/finkg':>12}"
    )
    failed = False
    for name in QUERIES:
        text = (ROOT / "benches" / "queries" / f"{name}.rq").read_text()
        prepared = prepareQuery(text)
        expected = finkg_rows(args.finkg, args.example, text)
        ox_rows = len(list(store.query(text)))
        rdf_rows = len(list(dataset.query(prepared)))
        if ox_rows != expected or rdf_rows != expected:
            print(
                f"{name}: finkg binds {expected} rows, pyoxigraph {ox_rows}, rdflib {rdf_rows}",
                file=sys.stderr,
            )
            failed = True
        ox_ns = median_ns(args.repeat, lambda: list(store.query(text)))
        rdf_ns = median_ns(max(args.repeat // 4, 5), lambda: list(dataset.query(prepared)))
        finkg_ns = criterion_median_ns("sparql", name)
        finkg = us(finkg_ns) if finkg_ns else f"{'(no bench)':>13}"
        print(
            f"{name:30} {expected:>4} {finkg} {us(ox_ns)} {us(rdf_ns)} "
            f"{ratio(ox_ns, finkg_ns):>10} {ratio(rdf_ns, finkg_ns):>12}"
        )

    # a page's graph: finkg builds the ABox from the JSON into a store of its
    # own (the TBox is shared, not copied); pyoxigraph and rdflib load the
    # exported quads, TBox included, into a fresh store
    page_only = "".join(
        line + "\n" for line in nquads.splitlines() if not line.endswith("graph/tbox> .")
    )
    build_ns = criterion_median_ns("graph_build", "example")
    ox_all = median_ns(args.repeat, lambda: oxigraph_store(nquads))
    ox_page = median_ns(args.repeat, lambda: oxigraph_store(page_only))
    rdf_page = median_ns(max(args.repeat // 10, 5), lambda: rdflib_dataset(page_only))
    print()
    print(f"{'page build':30} {'quads':>5} {'time':>13} {'/ finkg':>8}")
    finkg = us(build_ns) if build_ns else f"{'(no bench)':>13}"
    page_quads = page_only.count("\n")
    print(f"{'finkg graph_build/example':30} {page_quads:>5} {finkg} {ratio(build_ns, build_ns):>8}")
    print(f"{'pyoxigraph load, page':30} {page_quads:>5} {us(ox_page)} {ratio(ox_page, build_ns):>8}")
    print(f"{'pyoxigraph load, TBox + page':30} {len(store):>5} {us(ox_all)} {ratio(ox_all, build_ns):>8}")
    print(f"{'rdflib parse, page':30} {page_quads:>5} {us(rdf_page)} {ratio(rdf_page, build_ns):>8}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
