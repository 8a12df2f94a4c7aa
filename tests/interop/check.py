#!/usr/bin/env python3
"""Checks finkg's RDF with independent tools: rdflib, pyshacl and Apache Jena.

On every conversation of a dataset (by default the public split):

1. parse: `ontology/*.ttl` and `finkg kg --all` (N-Quads and Turtle) parse in
   rdflib and in Jena's `riot --validate` without a warning or an error, and
   no literal is ill-typed;
2. shapes: every page's ABox, alone, conforms to `ontology/shapes.ttl` under
   pyshacl;
3. vocabulary: an `owl:Ontology` header with `owl:versionInfo`; every `fk:`
   term used in the TBox or any ABox is declared in the TBox with an
   `rdfs:label` and an `rdfs:comment`, properties as properties and classes
   as classes; every term of a W3C vocabulary used exists in it; every ABox
   use of an `fk:` property agrees with its `rdfs:domain` and `rdfs:range`;
4. queries: every SPARQL query the rules planner issues (the plans in
   `finkg eval`'s `trace.jsonl`) gives the same bindings in finkg
   (`finkg query --queries`), in Jena ARQ and in rdflib, each run over that
   conversation's page graph and the TBox graph of the exported N-Quads.
   Numbers compare by value (`1.0` = `1`), IRIs and strings exactly.

Prints what it checked and every problem; exits 1 if there is any problem,
2 if a tool could not run.

    python3 tests/interop/check.py --finkg target/debug/finkg
"""

from __future__ import annotations

import argparse
import collections
import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
import warnings
import zipfile
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pyshacl
import rdflib
from rdflib import BNode, Literal, URIRef
from rdflib.namespace import (
    DCTERMS,
    OWL,
    PROV,
    QB,
    RDF,
    RDFS,
    SH,
    SKOS,
    VANN,
    XSD,
)

ROOT = Path(__file__).resolve().parents[2]
FK = "https://w3id.org/finkg/ns#"
DATA = "https://w3id.org/finkg/data/"
TBOX_GRAPH = "https://w3id.org/finkg/graph/tbox"
ONTOLOGY_IRI = URIRef("https://w3id.org/finkg/ns")
SHAPES_NS = "https://w3id.org/finkg/shapes#"

# W3C (and W3C-adjacent) vocabularies the graph may use, as rdflib's closed
# term lists: a term outside them is a typo or an invention.
VOCABULARIES = [RDF, RDFS, OWL, XSD, QB, SKOS, PROV, DCTERMS, SH, VANN]
PROPERTY_TYPES = {
    RDF.Property,
    OWL.ObjectProperty,
    OWL.DatatypeProperty,
    OWL.AnnotationProperty,
    QB.DimensionProperty,
    QB.MeasureProperty,
    QB.AttributeProperty,
}
CLASS_TYPES = {OWL.Class, RDFS.Class}
# Where an IRI stands for a property.
PROPERTY_POSITIONS = {RDFS.subPropertyOf, SH.path, OWL.inverseOf, OWL.equivalentProperty}
# Where an IRI stands for a class.
CLASS_POSITIONS = {RDF.type, RDFS.subClassOf, RDFS.domain, SH.targetClass, SH["class"]}
NUMERIC = {
    str(XSD[t])
    for t in (
        "decimal integer int long short byte nonNegativeInteger positiveInteger "
        "negativeInteger nonPositiveInteger unsignedLong unsignedInt unsignedShort unsignedByte"
    ).split()
}
FLOATING = {str(XSD.double), str(XSD.float)}


class Problems:
    """Every problem found, by check; printed at the end."""

    def __init__(self) -> None:
        self.by_check: dict[str, list[str]] = collections.defaultdict(list)

    def add(self, check: str, message: str) -> None:
        self.by_check[check].append(message)

    def count(self, check: str) -> int:
        return len(self.by_check.get(check, []))

    def total(self) -> int:
        return sum(len(v) for v in self.by_check.values())


class LogCollector(logging.Handler):
    """Collects rdflib's (and pyshacl's) warnings."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


def step(title: str) -> float:
    print(f"-- {title}", flush=True)
    return time.monotonic()


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stderr)
        raise SystemExit(f"interop: `{' '.join(map(str, cmd))[:200]}` exited with {result.returncode}")
    return result


def page_graph(conversation_id: str) -> str:
    """The page's named graph, as `finkg::kg::page_iri` spells it."""
    out = [DATA]
    for b in conversation_id.encode():
        c = chr(b)
        out.append(c if (c.isascii() and c.isalnum()) or c in "-._~/" else f"%{b:02X}")
    return "".join(out) + "/graph"


# ---------------------------------------------------------------- Jena


def jena_classpath(work: Path) -> str:
    """Jena's jars as Debian's libapache-jena-java installs them, with the jars
    they depend on, one SLF4J binding (simple, to stderr) and, when needed,
    the message bundles of the Xerces copy inside jena-core (Debian relocates
    its classes to `xerces.*` but not their `.properties`, and without them
    Jena fails on start-up with "internal error" in XSSimpleTypeDecl)."""
    if os.environ.get("JENA_CLASSPATH"):
        return os.environ["JENA_CLASSPATH"]

    def depends(pkg: str) -> list[str]:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Depends}", pkg], capture_output=True, text=True
        ).stdout
        return [alt.split("|")[0].split()[0].split(":")[0] for alt in out.split(",") if alt.strip()]

    seen, todo = set(), ["libapache-jena-java"]
    while todo:
        pkg = todo.pop()
        if pkg not in seen:
            seen.add(pkg)
            todo.extend(d for d in depends(pkg) if d.endswith("-java") and d not in seen)
    jars = []
    for pkg in sorted(seen):
        listing = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True).stdout
        for line in listing.split():
            name = os.path.basename(line)
            if not (line.startswith("/usr/share/java/") and name.endswith(".jar")):
                continue
            if os.path.islink(line):
                continue
            if ("slf4j" in name and not name.startswith(("slf4j-api", "slf4j-simple"))) or name.startswith(
                "slf4j-migrator"
            ):
                continue
            jars.append(line)
    if not any(os.path.basename(j).startswith("jena-arq") for j in jars):
        raise SystemExit("interop: Apache Jena is not installed (apt-get install libapache-jena-java)")
    core = next(j for j in jars if os.path.basename(j).startswith("jena-core"))
    with zipfile.ZipFile(core) as z:
        names = set(z.namelist())
        if (
            "xerces/impl/dv/SchemaDVFactory.class" in names
            and "xerces/impl/xpath/regex/message.properties" not in names
        ):
            fix = work / "jena-resources"
            prefix = "org/apache/jena/ext/"
            for name in names:
                if name.startswith(prefix + "xerces/") and name.endswith(".properties"):
                    target = fix / name[len(prefix) :]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(z.read(name))
            jars.insert(0, str(fix))
    return ":".join(jars)


def jena_validate(classpath: str, files: list[Path]) -> tuple[int, str]:
    """`riot --validate` over every file in one JVM: exit status and output."""
    cmd = ["java", "-cp", classpath, "riotcmd.riot", "--validate", *map(str, files)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def jena_queries(classpath: str, nquads: Path, jobs: Path, out: Path) -> tuple[int, str]:
    cmd = [
        "java",
        "-cp",
        classpath,
        str(ROOT / "tests/interop/JenaQueries.java"),
        str(nquads),
        str(jobs),
        str(out),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


# ---------------------------------------------------------------- terms


def norm_json_term(t: dict | None):
    """A SPARQL JSON results term, normalised for comparison."""
    if t is None:
        return None
    kind = t["type"]
    if kind == "uri":
        return ("iri", t["value"])
    if kind == "bnode":
        return ("bnode",)
    if kind in ("literal", "typed-literal"):
        lang = t.get("xml:lang") or t.get("lang")
        return norm_literal(t["value"], t.get("datatype"), lang)
    return ("?", json.dumps(t, sort_keys=True))


def norm_rdflib_term(t):
    if t is None:
        return None
    if isinstance(t, URIRef):
        return ("iri", str(t))
    if isinstance(t, BNode):
        return ("bnode",)
    if isinstance(t, Literal):
        return norm_literal(str(t), str(t.datatype) if t.datatype else None, t.language)
    return ("?", repr(t))


def norm_literal(lexical: str, datatype: str | None, lang: str | None):
    if lang:
        return ("lit", lexical, "@" + lang.lower())
    datatype = datatype or str(XSD.string)
    if datatype in NUMERIC:
        try:
            return ("num", datatype, Decimal(lexical.strip()).normalize())
        except InvalidOperation:
            return ("lit", lexical, datatype)
    if datatype in FLOATING:
        try:
            return ("num", datatype, float(lexical))
        except ValueError:
            return ("lit", lexical, datatype)
    if datatype == str(XSD.boolean):
        return ("lit", str(lexical.strip() in ("true", "1")).lower(), datatype)
    return ("lit", lexical, datatype)


def show(term) -> str:
    if term is None:
        return "unbound"
    if term[0] == "iri":
        return f"<{term[1]}>"
    if term[0] == "num":
        return f"{term[2]} ({term[1].rsplit('#', 1)[-1]})"
    return repr(term[1:])


def solutions(variables: list[str], rows: list[list]) -> tuple[frozenset, collections.Counter]:
    """Variables and the multiset of rows, each row keyed by variable name."""
    counted = collections.Counter(
        tuple(sorted((v, t) for v, t in zip(variables, row, strict=True) if t is not None)) for row in rows
    )
    return frozenset(variables), counted


def describe_difference(a, b) -> str:
    (va, ra), (vb, rb) = a, b
    if va != vb:
        return f"variables {sorted(va)} vs {sorted(vb)}"
    only_a = list((ra - rb).elements())[:2]
    only_b = list((rb - ra).elements())[:2]

    def fmt(rows):
        return "; ".join(", ".join(f"?{v}={show(t)}" for v, t in row) for row in rows) or "nothing"

    return f"{sum(ra.values())} vs {sum(rb.values())} rows; only in one: {fmt(only_a)} | only in the other: {fmt(only_b)}"


# ---------------------------------------------------------------- checks


def check_parse_rdflib(files: list[Path], nquads: Path, turtle: Path, problems: Problems, logs: LogCollector):
    """Parses with rdflib; returns the TBox graph and the N-Quads dataset."""
    tbox = rdflib.Graph()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for f in files:
            before = len(logs.messages)
            g = rdflib.Graph().parse(f, format="turtle")
            for m in logs.messages[before:]:
                problems.add("parse", f"rdflib, {f.name}: {m}")
            tbox += g
        before = len(logs.messages)
        dataset = rdflib.Dataset()
        dataset.parse(nquads, format="nquads")
        for m in logs.messages[before:]:
            problems.add("parse", f"rdflib, {nquads.name}: {m}")
        before = len(logs.messages)
        merged = rdflib.Graph().parse(turtle, format="turtle")
        for m in logs.messages[before:]:
            problems.add("parse", f"rdflib, {turtle.name}: {m}")
    for w in caught:
        # rdflib's own API deprecations (Dataset.parse uses one) say nothing of the data
        if not issubclass(w.category, DeprecationWarning):
            problems.add("parse", f"rdflib warning: {w.message}")
    for name, graph in [("TBox", tbox), (nquads.name, dataset), (turtle.name, merged)]:
        bad = {t[2] for t in graph if isinstance(t[2], Literal) and t[2].ill_typed}
        for o in sorted(bad)[:10]:
            problems.add("parse", f"rdflib, {name}: ill-typed literal {o.n3()}")
    # Pages share no triple with each other or the TBox, so the Turtle export
    # (everything merged into one graph) holds as many triples as the N-Quads.
    in_quads = sum(len(ctx) for ctx in dataset.graphs())
    if len(merged) != in_quads:
        problems.add("parse", f"the Turtle export holds {len(merged)} triples, the N-Quads export {in_quads}")
    return tbox, dataset


def check_vocabulary(tbox: rdflib.Graph, pages: list[rdflib.Graph], problems: Problems) -> int:
    """The fk: namespace is documented; W3C terms exist; domains and ranges hold."""
    header = list(tbox.subjects(RDF.type, OWL.Ontology))
    if ONTOLOGY_IRI not in header:
        problems.add("vocabulary", f"no owl:Ontology <{ONTOLOGY_IRI}> header")
    for prop in (
        OWL.versionInfo,
        RDFS.label,
        RDFS.comment,
        VANN.preferredNamespaceUri,
        VANN.preferredNamespacePrefix,
    ):
        if tbox.value(ONTOLOGY_IRI, prop) is None:
            problems.add("vocabulary", f"the ontology header lacks {tbox.qname(prop)}")
    if str(tbox.value(ONTOLOGY_IRI, VANN.preferredNamespaceUri)) != FK:
        problems.add("vocabulary", f"vann:preferredNamespaceUri is not {FK}")

    used: dict[URIRef, set[str]] = collections.defaultdict(set)

    def note(graph: rdflib.Graph, where: str):
        for s, p, o in graph:
            used[p].add("property")
            for t in (s, o):
                if isinstance(t, URIRef):
                    used[t]
            if p in CLASS_POSITIONS and isinstance(o, URIRef):
                used[o].add("class")
            if p == RDFS.subClassOf and isinstance(s, URIRef):
                used[s].add("class")
            if p in PROPERTY_POSITIONS and isinstance(o, URIRef):
                used[o].add("property")
            if p == RDFS.subPropertyOf and isinstance(s, URIRef):
                used[s].add("property")

    note(tbox, "TBox")
    for g in pages:
        note(g, "ABox")

    types = collections.defaultdict(set)
    for s, o in tbox.subject_objects(RDF.type):
        types[s].add(o)
    fk_terms = 0
    for term, roles in sorted(used.items()):
        iri = str(term)
        if iri.startswith(FK):
            fk_terms += 1
            name = "fk:" + iri[len(FK) :]
            if not types[term]:
                problems.add("vocabulary", f"{name} is used but not declared (no rdf:type in the TBox)")
            if "property" in roles and not types[term] & PROPERTY_TYPES:
                problems.add("vocabulary", f"{name} is used as a property but not declared one")
            if "class" in roles and not types[term] & CLASS_TYPES:
                problems.add("vocabulary", f"{name} is used as a class but not declared one")
            for prop in (RDFS.label, RDFS.comment):
                values = [v for v in tbox.objects(term, prop) if isinstance(v, Literal) and str(v).strip()]
                if not values:
                    problems.add("vocabulary", f"{name} has no {tbox.qname(prop)}")
            if (
                types[term] & (PROPERTY_TYPES | CLASS_TYPES)
                and (term, RDFS.isDefinedBy, ONTOLOGY_IRI) not in tbox
            ):
                problems.add("vocabulary", f"{name} lacks rdfs:isDefinedBy <{ONTOLOGY_IRI}>")
        elif iri.startswith((DATA, TBOX_GRAPH, SHAPES_NS, str(ONTOLOGY_IRI))) or iri == str(ONTOLOGY_IRI):
            continue
        else:
            vocab = next((v for v in VOCABULARIES if iri.startswith(str(v._NS))), None)
            if vocab is not None and term not in vocab:
                problems.add("vocabulary", f"<{iri}> is not a term of {vocab._NS}")
            elif vocab is None and ("property" in roles or "class" in roles):
                problems.add("vocabulary", f"<{iri}> is used as a term but belongs to no known vocabulary")

    # rdfs:domain and rdfs:range of fk: properties, in every ABox.
    superclasses = collections.defaultdict(set)
    for s, o in tbox.subject_objects(RDFS.subClassOf):
        superclasses[s].add(o)

    closures: dict[frozenset, set] = {}

    def closure(classes: frozenset) -> set:
        if classes not in closures:
            out, todo = set(), list(classes)
            while todo:
                c = todo.pop()
                if c not in out:
                    out.add(c)
                    todo.extend(superclasses[c])
            closures[classes] = out
        return closures[classes]

    domains = {p: set(tbox.objects(p, RDFS.domain)) for p in used if str(p).startswith(FK)}
    ranges = {p: set(tbox.objects(p, RDFS.range)) for p in used if str(p).startswith(FK)}
    found = collections.Counter()
    for g in pages:
        local_types = collections.defaultdict(set)
        for s, o in g.subject_objects(RDF.type):
            local_types[s].add(o)

        def classes_of(node, local_types=local_types):
            return closure(frozenset(local_types.get(node, set()) | types.get(node, set())))

        for s, p, o in g:
            if not str(p).startswith(FK):
                continue
            for d in domains.get(p, ()):
                if d not in classes_of(s):
                    found[(p, f"subject not a {tbox.qname(d)}")] += 1
            for r in ranges.get(p, ()):
                if str(r).startswith(str(XSD)):
                    ok = isinstance(o, Literal) and (o.datatype or XSD.string) == r and not o.language
                    if not ok:
                        found[(p, f"object {o.n3()[:40]} not an {tbox.qname(r)}")] += 1
                elif not isinstance(o, URIRef) or r not in classes_of(o):
                    found[(p, f"object not a {tbox.qname(r)}")] += 1
    for (p, what), n in found.items():
        problems.add("vocabulary", f"{tbox.qname(p)}: {what} ({n} times in the ABoxes)")
    return fk_terms


def check_shapes(pages: list[tuple[str, rdflib.Graph]], shapes: rdflib.Graph, problems: Problems) -> int:
    focus = 0
    for name, graph in pages:
        conforms, report, text = pyshacl.validate(
            graph, shacl_graph=shapes, inference="none", advanced=False, allow_warnings=False
        )
        if not conforms:
            results = list(report.subjects(RDF.type, SH.ValidationResult))
            lines = []
            for r in results[:5]:
                path = report.value(r, SH.resultPath)
                path = report.qname(path) if isinstance(path, URIRef) else ""
                lines.append(f"{report.value(r, SH.focusNode)} {path}: {report.value(r, SH.resultMessage)}")
            problems.add("shapes", f"{name}: {len(results)} violations, e.g. " + " | ".join(lines))
        focus += len(set(graph.subjects(RDF.type, None)))
    return focus


def self_test(
    page: rdflib.Graph,
    tbox: rdflib.Graph,
    shapes: rdflib.Graph,
    problems: Problems,
    header_page: rdflib.Graph | None = None,
) -> int:
    """The checks must be able to fail: each broken copy of a real page (or
    of the TBox, or of a page with a number printed in a column header) must
    be rejected. Returns how many were tried."""
    FKN = rdflib.Namespace(FK)

    def first(pattern):
        return next(iter(page.triples(pattern)), None)

    obs = first((None, RDF.type, QB.Observation))[0]
    row = page.value(obs, FKN.row)
    column = page.value(obs, FKN.column)
    sentences = list(page.subjects(RDF.type, FKN.Sentence))
    fact = first((None, RDF.type, FKN.TextFact))
    breaks = {
        "an observation without its row": lambda g: g.remove((obs, FKN.row, None)),
        "an observation whose row is a column": lambda g: g.set((obs, FKN.row, column)),
        "a value that is not a decimal": lambda g: g.set((obs, FKN.value, Literal("12.5"))),
        "a row with two indexes": lambda g: g.add((row, FKN["index"], Literal(99))),
        "a row with a property no shape lists": lambda g: g.add((row, FKN.colour, Literal("red"))),
        "a column year typed as an integer": lambda g: g.set((column, FKN.year, Literal(2009))),
        "a sentence in no known section": lambda g: g.set((sentences[0], FKN.section, Literal("middle"))),
        "a page without its identifier": lambda g: g.remove((None, DCTERMS.identifier, None)),
    }
    if fact is not None and len(sentences) > 1:
        other = next(s for s in sentences if s != page.value(fact[0], FKN.sentence))
        breaks["a text fact derived from another sentence"] = lambda g: g.set(
            (fact[0], PROV.wasDerivedFrom, other)
        )
    tried = 0
    for what, mutate in breaks.items():
        broken = rdflib.Graph() + page
        mutate(broken)
        conforms, _, _ = pyshacl.validate(broken, shacl_graph=shapes, inference="none")
        tried += 1
        if conforms:
            problems.add("self-test", f"the shapes accept {what}")
    if header_page is not None:
        number = next(header_page.subjects(RDF.type, FKN.HeaderNumber))
        header_row = next(header_page.subjects(RDF.type, FKN.TableRow))
        for what, mutate in {
            "a header number without its value": lambda g: g.remove((number, FKN.value, None)),
            "a header number derived from a row": lambda g: g.set((number, PROV.wasDerivedFrom, header_row)),
            "a header number with an empty context": lambda g: g.set((number, FKN.context, Literal(""))),
        }.items():
            broken = rdflib.Graph() + header_page
            mutate(broken)
            conforms, _, _ = pyshacl.validate(broken, shacl_graph=shapes, inference="none")
            tried += 1
            if conforms:
                problems.add("self-test", f"the shapes accept {what}")
    for what, mutate in {
        "an fk: property without a comment": lambda g: g.remove((FKN.rawValue, RDFS.comment, None)),
        "an undeclared fk: property": lambda g: g.remove((FKN.tokenIndex, RDF.type, None)),
        "a misspelt W3C term": lambda g: g.add(
            (FKN.row, RDFS.subPropertyOf, URIRef(str(PROV) + "wasDerivedFrum"))
        ),
    }.items():
        broken = rdflib.Graph() + tbox
        mutate(broken)
        found = Problems()
        check_vocabulary(broken, [page], found)
        tried += 1
        if not found.total():
            problems.add("self-test", f"the vocabulary check accepts {what}")
    # the comparison of bindings: numbers by value, IRIs and strings exactly
    dec = str(XSD.decimal)
    one = solutions(["value", "source"], [[norm_literal("1.0", dec, None), ("iri", DATA + "a")]])
    same = solutions(["source", "value"], [[("iri", DATA + "a"), norm_literal("1", dec, None)]])
    for what, other in {
        "another value": solutions(
            ["value", "source"], [[norm_literal("1.5", dec, None), ("iri", DATA + "a")]]
        ),
        "another source": solutions(
            ["value", "source"], [[norm_literal("1", dec, None), ("iri", DATA + "b")]]
        ),
        "a value of another datatype": solutions(
            ["value", "source"], [[norm_literal("1", str(XSD.double), None), ("iri", DATA + "a")]]
        ),
        "the value as a string": solutions(
            ["value", "source"], [[norm_literal("1", None, None), ("iri", DATA + "a")]]
        ),
        "a second row": solutions(
            ["value", "source"], [[norm_literal("1", dec, None), ("iri", DATA + "a")]] * 2
        ),
        "an unbound source": solutions(["value", "source"], [[norm_literal("1", dec, None), None]]),
    }.items():
        tried += 1
        if other == one:
            problems.add("self-test", f"the comparison takes {what} for the same bindings")
    tried += 1
    if one != same:
        problems.add("self-test", "the comparison tells `1.0` from `1` or depends on the order of variables")
    return tried


def rdflib_queries(graphs: dict[str, rdflib.Graph], jobs: list[dict]) -> dict[str, object]:
    """Runs each job in rdflib over a dataset of the page graph and the TBox graph."""
    out: dict[str, object] = {}
    views: dict[tuple, rdflib.Dataset] = {}
    for job in jobs:
        key = tuple(job["graphs"])
        if key not in views:
            views.clear()
            view = rdflib.Dataset()
            for name in key:
                target = view.graph(URIRef(name))
                for t in graphs.get(name, ()):
                    target.add(t)
            views[key] = view
        try:
            result = views[key].query(job["sparql"])
            if result.type == "ASK":
                out[job["key"]] = bool(result.askAnswer)
            else:
                variables = [str(v) for v in result.vars]
                rows = [[norm_rdflib_term(t) for t in row] for row in result]
                out[job["key"]] = solutions(variables, rows)
        except Exception as e:  # noqa: BLE001 - any failure is a finding
            out[job["key"]] = f"error: {type(e).__name__}: {e}"
    return out


def from_sparql_json(doc: dict):
    if "boolean" in doc:
        return bool(doc["boolean"])
    variables = doc["head"]["vars"]
    rows = [[norm_json_term(b.get(v)) for v in variables] for b in doc["results"]["bindings"]]
    return solutions(variables, rows)


def from_jena_line(line: dict):
    if "error" in line:
        return "error: " + line["error"]
    if "boolean" in line:
        return bool(line["boolean"])
    return solutions(line["vars"], [[norm_json_term(t) for t in row] for row in line["rows"]])


def planner_queries(trace: Path) -> tuple[list[dict], dict[str, str]]:
    """Every SPARQL value of every plan in a trace, as a job for the engines,
    and the value the run bound for each (when it bound one)."""
    jobs, traced = [], {}
    with open(trace) as f:
        for line in f:
            turn = json.loads(line)
            plan = turn.get("plan") or {}
            for name, spec in (plan.get("values") or {}).items():
                if isinstance(spec, dict) and "sparql" in spec:
                    jobs.append(
                        {
                            "key": f"{turn['id']}#{turn['turn']}#{name}",
                            "id": turn["id"],
                            "graphs": [TBOX_GRAPH, page_graph(turn["id"])],
                            "sparql": spec["sparql"],
                        }
                    )
            for used in turn.get("values") or []:
                if used.get("sparql"):
                    traced[f"{turn['id']}#{turn['turn']}#{used['name']}"] = used["value"]
    return jobs, traced


# ---------------------------------------------------------------- main


def main() -> int:
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--finkg", default=os.environ.get("FINKG", f"{target}/debug/finkg"), help="the finkg binary"
    )
    ap.add_argument(
        "--dataset", default=str(ROOT / "data/convfinqa_dev_public.json"), help="a ConvFinQA file with gold"
    )
    ap.add_argument(
        "--work", help="keep the exports, run folder and results here (default: a temporary folder)"
    )
    args = ap.parse_args()
    finkg = str(Path(args.finkg).resolve())
    if not os.access(finkg, os.X_OK):
        print(f"interop: no finkg binary at {finkg} (cargo build first, or --finkg)", file=sys.stderr)
        return 2
    tmp = None
    if args.work:
        work = Path(args.work)
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="finkg-interop-")
        work = Path(tmp.name)
    started = time.monotonic()
    problems = Problems()
    logs = LogCollector()
    for name in ("rdflib", "pyshacl"):
        logging.getLogger(name).addHandler(logs)
    ontology_files = sorted((ROOT / "ontology").glob("*.ttl"))
    dataset_path = str(Path(args.dataset).resolve())

    # The other tools' side runs in a thread (finkg's planner and queries,
    # then Jena's JVMs) while this one does the rdflib and pyshacl work.
    side: dict[str, object] = {}
    jobs_ready = threading.Event()
    exported = threading.Event()
    jobs_path = work / "queries.jsonl"
    nquads, turtle = work / "graphs.nq", work / "graphs.ttl"

    def side_work():
        try:
            t = time.monotonic()
            run([finkg, "eval", dataset_path, "--out", str(work / "run"), "--no-progress", "--force"])
            side["jobs"], side["traced"] = planner_queries(work / "run" / "trace.jsonl")
            with open(jobs_path, "w") as f:
                for job in side["jobs"]:
                    f.write(json.dumps(job) + "\n")
            jobs_ready.set()
            out = run([finkg, "query", dataset_path, "--queries", str(jobs_path)]).stdout
            side["finkg"] = {}
            for line in out.splitlines():
                r = json.loads(line)
                side["finkg"][r["key"]] = (
                    from_sparql_json(r["results"]) if "results" in r else "error: " + r["error"]
                )
            side["finkg_s"] = time.monotonic() - t
            exported.wait()
            if side.get("abort"):
                return
            t = time.monotonic()
            cp = jena_classpath(work)
            side["validate"] = jena_validate(cp, [*ontology_files, nquads, turtle])
            side["queries"] = jena_queries(cp, nquads, jobs_path, work / "jena.jsonl")
            side["jena_s"] = time.monotonic() - t
        except BaseException as e:  # noqa: BLE001 - reported below
            side["failure"] = e
        finally:
            jobs_ready.set()

    side_thread = threading.Thread(target=side_work)
    side_thread.start()

    t = step(f"finkg: export every conversation of {Path(dataset_path).name}")
    for path, fmt in [(nquads, "nquads"), (turtle, "turtle")]:
        with open(path, "w") as f:
            r = subprocess.run(
                [finkg, "kg", dataset_path, "--all", "--format", fmt],
                stdout=f,
                stderr=subprocess.PIPE,
                text=True,
            )
        if r.returncode != 0:
            print(r.stderr, file=sys.stderr)
            side["abort"] = True
            exported.set()
            side_thread.join()
            return 2
    exported.set()
    print(f"   {nquads.name}, {turtle.name} in {time.monotonic() - t:.1f} s", flush=True)

    t = step("rdflib: parse the ontology and the exports")
    tbox, dataset = check_parse_rdflib(ontology_files, nquads, turtle, problems, logs)
    # Each graph copied out of the dataset: lookups in a small graph of its
    # own are far faster than in a context of the whole dataset.
    graphs = {}
    for ctx in dataset.graphs():
        if len(ctx):
            graphs[str(ctx.identifier)] = rdflib.Graph() + ctx
    graph_names = sorted(graphs)
    pages = [(n, graphs[n]) for n in graph_names if n != TBOX_GRAPH]
    triples = sum(len(g) for g in graphs.values())
    if TBOX_GRAPH not in graph_names:
        problems.add("parse", "no TBox graph in the N-Quads export")
    print(
        f"   {len(graph_names)} graphs ({len(pages)} pages + TBox), {triples} triples in {time.monotonic() - t:.1f} s",
        flush=True,
    )

    t = step("vocabulary: fk: terms declared, labelled and commented; W3C terms exist; domains and ranges")
    fk_terms = check_vocabulary(tbox, [g for _, g in pages], problems)
    print(f"   {fk_terms} fk: terms in {time.monotonic() - t:.1f} s", flush=True)

    t = step("pyshacl: every ABox against ontology/shapes.ttl")
    shapes = rdflib.Graph().parse(ROOT / "ontology/shapes.ttl", format="turtle")
    nodes = check_shapes(pages, shapes, problems)
    print(f"   {len(pages)} ABoxes, {nodes} typed nodes in {time.monotonic() - t:.1f} s", flush=True)

    t = step("self-test: broken copies of a page and of the TBox must be rejected")
    richest = max((g for _, g in pages), key=len)
    header_number = rdflib.URIRef(FK + "HeaderNumber")
    with_header = max(
        (g for _, g in pages if (None, RDF.type, header_number) in g), key=len, default=None
    )
    tried = self_test(richest, tbox, shapes, problems, with_header)
    print(f"   {tried} broken copies in {time.monotonic() - t:.1f} s", flush=True)

    jobs_ready.wait()
    if "failure" in side:
        side_thread.join()
        print(f"interop: finkg or Jena could not run: {side['failure']}", file=sys.stderr)
        return 2
    jobs, traced = side["jobs"], side["traced"]
    missing = {page_graph(j["id"]) for j in jobs} - set(graph_names)
    if missing:
        problems.add(
            "parse", f"{len(missing)} page graphs missing from the N-Quads export, e.g. {sorted(missing)[0]}"
        )

    t = step("rdflib: the planner's queries")
    rdflib_results = rdflib_queries(graphs, jobs)
    print(f"   {len(jobs)} queries in {time.monotonic() - t:.1f} s", flush=True)

    step(
        "finkg: the planner's run (eval) and its queries (query --queries); Jena: riot --validate, the queries in ARQ"
    )
    side_thread.join()
    if "failure" in side:
        print(f"interop: finkg or Jena could not run: {side['failure']}", file=sys.stderr)
        return 2
    finkg_results = side["finkg"]
    code, output = side["validate"]
    noisy = [line for line in output.splitlines() if "WARN" in line or "ERROR" in line or "Exception" in line]
    for line in noisy[:20]:
        problems.add("parse", f"jena: {line}")
    if code != 0 and not noisy:
        problems.add("parse", f"jena: riot --validate exited with {code}: {output[-500:]}")
    code, output = side["queries"]
    if code != 0:
        print(output, file=sys.stderr)
        print(f"interop: JenaQueries exited with {code}", file=sys.stderr)
        return 2
    jena_results = {}
    with open(work / "jena.jsonl") as f:
        for line in f:
            r = json.loads(line)
            jena_results[r["key"]] = from_jena_line(r)
    print(
        f"   finkg: {len(jobs)} queries in {side['finkg_s']:.1f} s; "
        f"Jena: {len(ontology_files) + 2} files, {len(jena_results)} queries in {side['jena_s']:.1f} s",
        flush=True,
    )

    # Compare: finkg against Jena and rdflib, and finkg's query against the
    # value the planner's run bound.
    compared = 0
    rows = 0
    for job in jobs:
        key = job["key"]
        ours = finkg_results.get(key, "error: no finkg result")
        compared += 1
        if isinstance(ours, str):
            problems.add("queries", f"{key}: finkg: {ours}")
            continue
        if isinstance(ours, tuple):
            rows += sum(ours[1].values())
        for engine, results in (("jena", jena_results), ("rdflib", rdflib_results)):
            theirs = results.get(key, "error: no result")
            if isinstance(theirs, str):
                problems.add("queries", f"{key}: {engine}: {theirs}")
            elif theirs != ours:
                if isinstance(ours, tuple) and isinstance(theirs, tuple):
                    difference = describe_difference(ours, theirs)
                else:
                    difference = f"{ours} vs {theirs}"
                problems.add("queries", f"{key}: finkg vs {engine}: {difference}")
        if key in traced and isinstance(ours, tuple):
            values = [dict(row).get("value") for row in ours[1].elements()]
            want = ("num", str(XSD.decimal), Decimal(traced[key]).normalize())
            if len(values) != 1 or values[0] is None or values[0][2] != want[2]:
                problems.add(
                    "queries",
                    f"{key}: the run bound {traced[key]}, `finkg query` gives {[show(v) for v in values]}",
                )

    elapsed = time.monotonic() - started
    print()
    print("interop summary")
    print(f"  graphs checked:      {len(graph_names)} ({len(pages)} pages + TBox)")
    print(f"  triples:             {triples}")
    print(f"  fk: terms checked:   {fk_terms}")
    print(f"  parse problems:      {problems.count('parse')}")
    print(f"  shape violations:    {problems.count('shapes')} graphs")
    print(f"  vocabulary problems: {problems.count('vocabulary')}")
    print(f"  self-test failures:  {problems.count('self-test')} of {tried} broken copies accepted")
    print(f"  queries compared:    {compared} (finkg vs Jena ARQ vs rdflib, {rows} finkg rows)")
    print(f"  mismatches:          {problems.count('queries')}")
    print(f"  time:                {elapsed:.1f} s")
    if problems.total():
        print()
        for check, messages in problems.by_check.items():
            print(f"{check}: {len(messages)} problem(s)")
            for m in messages[:25]:
                print(f"  {m}")
            if len(messages) > 25:
                print(f"  ... and {len(messages) - 25} more")
        return 1
    print("interop: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
