#!/usr/bin/env python3
"""Checks `finkg serve` with an independent client: rdflib's SPARQLStore.

Starts `finkg serve` over a dataset (by default the public split) on
127.0.0.1 with a free port, then for every conversation runs queries over
its page's named graph (every cell; every text number; the page's rows and
columns) twice: through rdflib's SPARQLStore against the served endpoint
(SPARQL XML results, and JSON and CSV for some), and through
`finkg query --queries` (no server). The bindings must be the same: IRIs,
strings and datatypes exactly (CSV: the lexical forms, an empty string
and an unbound value alike, as CSV writes them). An update through
rdflib's SPARQLUpdateStore must be refused with HTTP 400 and change nothing.

Prints what it checked and every mismatch; exits 1 on any mismatch, 2 if
the server did not start.

    python3 tests/interop/serve_check.py --finkg target/debug/finkg
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import urllib.error
from pathlib import Path

from rdflib import BNode, Graph, Literal, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore, SPARQLUpdateStore

DATA = "https://w3id.org/finkg/data/"
PREFIXES = """PREFIX fk: <https://w3id.org/finkg/ns#>
PREFIX qb: <http://purl.org/linked-data/cube#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""

QUERIES = {
    "cells": """SELECT ?cell ?row ?column ?raw ?value WHERE {{ GRAPH <{graph}> {{
  ?cell a qb:Observation ; fk:row/rdfs:label ?row ; fk:column/rdfs:label ?column ; fk:rawValue ?raw .
  OPTIONAL {{ ?cell fk:value ?value }} }} }}""",
    "facts": """SELECT ?fact ?value ?raw ?sentence WHERE {{ GRAPH <{graph}> {{
  ?fact a fk:TextFact ; fk:value ?value ; fk:rawValue ?raw ; fk:sentence/fk:index ?sentence }} }}""",
    "labels": """SELECT ?node ?label ?index WHERE {{ GRAPH <{graph}> {{
  ?node rdfs:label ?label ; fk:index ?index }} }}""",
}


def page_graph(conversation_id: str) -> str:
    """The page's named graph, as finkg names it (`kg::page_iri`)."""
    out = []
    for b in conversation_id.encode():
        c = chr(b)
        out.append(c if c.isascii() and (c.isalnum() or c in "-._~/") else f"%{b:02X}")
    return f"{DATA}{''.join(out)}/graph"


def from_json(term: dict) -> tuple:
    """A SPARQL JSON results term as (kind, lexical form, datatype or language)."""
    kind = term["type"]
    if kind == "uri":
        return ("uri", term["value"], None)
    if kind == "bnode":
        return ("bnode", None, None)
    extra = term.get("datatype") or term.get("xml:lang")
    if extra is None:
        extra = "http://www.w3.org/2001/XMLSchema#string"
    return ("literal", term["value"], extra)


def from_rdflib(term) -> tuple:
    """An rdflib term as (kind, lexical form, datatype or language)."""
    if isinstance(term, URIRef):
        return ("uri", str(term), None)
    if isinstance(term, BNode):
        return ("bnode", None, None)
    assert isinstance(term, Literal), term
    extra = term.datatype or term.language
    if extra is None:
        extra = "http://www.w3.org/2001/XMLSchema#string"
    return ("literal", str(term), str(extra))


def rows_of_rdflib(result, variables, lexical_only=False) -> list:
    rows = []
    for row in result:
        values = []
        for v in variables:
            term = row[v]
            if term is None:
                values.append(None)
            elif lexical_only:
                # CSV writes an empty string and an unbound value alike
                values.append(str(term) or None)
            else:
                values.append(from_rdflib(term))
        rows.append(tuple(values))
    return sorted(rows, key=repr)


def rows_of_json(results: dict, lexical_only=False) -> list:
    variables = results["head"]["vars"]
    rows = []
    for binding in results["results"]["bindings"]:
        values = []
        for v in variables:
            term = binding.get(v)
            if term is None:
                values.append(None)
            elif lexical_only:
                values.append(term["value"] or None)
            else:
                values.append(from_json(term))
        rows.append(tuple(values))
    return sorted(rows, key=repr)


def start_server(finkg: str, dataset: str) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen(
        [finkg, "serve", dataset, "--addr", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = server.stdout.readline()
    url = next((w for w in first.split() if w.startswith("http://")), None)
    if url is None:
        server.kill()
        print(f"finkg serve did not start: {first}{server.stderr.read()}", file=sys.stderr)
        sys.exit(2)
    return server, url.rstrip("/") + "/sparql"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finkg", required=True, help="the finkg binary")
    parser.add_argument(
        "--dataset",
        default=str(Path(__file__).resolve().parents[2] / "data" / "convfinqa_dev_public.json"),
    )
    args = parser.parse_args()

    with open(args.dataset) as f:
        data = json.load(f)
    conversations = data if isinstance(data, list) else (
        [data] if "id" in data else [c for split in data.values() for c in split]
    )
    ids = [c["id"] for c in conversations]

    # finkg query, no server: every query as one JSON Lines batch
    jobs = [
        {"id": i, "name": name, "sparql": PREFIXES + q.format(graph=page_graph(i))}
        for i in ids
        for name, q in QUERIES.items()
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for job in jobs:
            f.write(json.dumps(job) + "\n")
        batch = f.name
    out = subprocess.run(
        [args.finkg, "query", args.dataset, "--queries", batch],
        capture_output=True, text=True, check=True,
    )
    expected = [json.loads(line) for line in out.stdout.splitlines()]
    Path(batch).unlink()

    server, endpoint = start_server(args.finkg, args.dataset)
    problems = []
    compared = {"xml": 0, "json": 0, "csv": 0}
    try:
        stores = {fmt: SPARQLStore(query_endpoint=endpoint, returnFormat=fmt) for fmt in compared}
        graphs = {fmt: Graph(store=store) for fmt, store in stores.items()}
        bindings = 0
        for n, (job, want) in enumerate(zip(jobs, expected)):
            if "error" in want:
                problems.append(f"{job['id']} {job['name']}: finkg query failed: {want['error']}")
                continue
            variables = want["results"]["head"]["vars"]
            # every query as XML (SPARQLStore's default); every third also as JSON and CSV
            formats = ["xml"] + (["json", "csv"] if n % 3 == 0 else [])
            for fmt in formats:
                lexical = fmt == "csv"
                got = rows_of_rdflib(graphs[fmt].query(job["sparql"]), variables, lexical)
                wanted = rows_of_json(want["results"], lexical)
                compared[fmt] += 1
                if fmt == "xml":
                    bindings += len(wanted)
                if got != wanted:
                    diff = sorted(set(map(repr, got)) ^ set(map(repr, wanted)))[:3]
                    problems.append(
                        f"{job['id']} {job['name']} ({fmt}): {len(got)} rows served, "
                        f"{len(wanted)} from finkg query; first differences: {diff}"
                    )

        # an update through rdflib's update store: HTTP 400, nothing changed
        update_store = SPARQLUpdateStore(query_endpoint=endpoint, update_endpoint=endpoint)
        try:
            update_store.update("INSERT DATA { GRAPH <urn:x> { <urn:a> <urn:b> <urn:c> } }")
            problems.append("an update through SPARQLUpdateStore was accepted")
        except urllib.error.HTTPError as e:
            body = e.read().decode()
            if e.code != 400 or "read-only" not in body:
                problems.append(f"an update was refused with {e.code}: {body}")
        if Graph(store=stores["xml"]).query("ASK { GRAPH <urn:x> { ?s ?p ?o } }").askAnswer:
            problems.append("the refused update changed the store")
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(
        f"serve: {len(ids)} pages, {len(jobs)} queries through rdflib's SPARQLStore "
        f"(XML {compared['xml']}, JSON {compared['json']}, CSV {compared['csv']}), "
        f"{bindings} rows compared with finkg query; an update refused with 400"
    )
    for p in problems:
        print(f"  MISMATCH {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
