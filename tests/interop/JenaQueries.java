// Runs SPARQL queries with Apache Jena ARQ over chosen named graphs of one
// N-Quads file, in a single JVM, for tests/interop/check.py.
//
//   java -cp JENA_CLASSPATH tests/interop/JenaQueries.java DATA.nq QUERIES.jsonl OUT.jsonl
//
// Each line of QUERIES.jsonl is {"key": "...", "graphs": ["iri", ...], "sparql": "..."}:
// the query runs over a dataset whose named graphs are exactly `graphs` (taken
// from DATA.nq) and whose default graph is empty, as in finkg's store, which
// holds one page's graph and the TBox graph. Each line of OUT.jsonl is
// {"key": ..., "vars": [...], "rows": [[term or null, ...], ...]}, or
// {"key": ..., "boolean": true|false}, or {"key": ..., "error": "..."}, where a
// term is {"type": "uri"|"literal"|"bnode", "value": ..., "datatype": ..., "lang": ...}.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.jena.atlas.json.JSON;
import org.apache.jena.atlas.json.JsonObject;
import org.apache.jena.atlas.json.JsonValue;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.query.DatasetFactory;
import org.apache.jena.query.Query;
import org.apache.jena.query.QueryExecution;
import org.apache.jena.query.QueryFactory;
import org.apache.jena.query.ResultSet;
import org.apache.jena.query.Syntax;
import org.apache.jena.riot.RDFDataMgr;
import org.apache.jena.sparql.core.DatasetGraph;
import org.apache.jena.sparql.core.DatasetGraphFactory;
import org.apache.jena.sparql.core.Var;
import org.apache.jena.sparql.engine.binding.Binding;

public class JenaQueries {
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: JenaQueries DATA.nq QUERIES.jsonl OUT.jsonl");
            System.exit(2);
        }
        DatasetGraph all = RDFDataMgr.loadDatasetGraph(args[0]);
        int failed = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]), StandardCharsets.UTF_8);
             BufferedWriter out = Files.newBufferedWriter(Path.of(args[2]), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonObject job = JSON.parse(line);
                String key = job.get("key").getAsString().value();
                StringBuilder sb = new StringBuilder("{\"key\":").append(str(key));
                try {
                    DatasetGraph view = DatasetGraphFactory.createGeneral();
                    for (JsonValue g : job.get("graphs").getAsArray()) {
                        Node name = NodeFactory.createURI(g.getAsString().value());
                        if (!all.containsGraph(name)) {
                            throw new IllegalArgumentException("no graph <" + name.getURI() + "> in " + args[0]);
                        }
                        view.addGraph(name, all.getGraph(name));
                    }
                    Query query = QueryFactory.create(job.get("sparql").getAsString().value(), Syntax.syntaxSPARQL_11);
                    try (QueryExecution qe = QueryExecution.dataset(DatasetFactory.wrap(view))
                            .query(query).timeout(10, TimeUnit.SECONDS).build()) {
                        if (query.isAskType()) {
                            sb.append(",\"boolean\":").append(qe.execAsk());
                        } else if (query.isSelectType()) {
                            ResultSet rs = qe.execSelect();
                            List<String> vars = rs.getResultVars();
                            sb.append(",\"vars\":[");
                            for (int i = 0; i < vars.size(); i++) {
                                sb.append(i == 0 ? "" : ",").append(str(vars.get(i)));
                            }
                            sb.append("],\"rows\":[");
                            boolean first = true;
                            while (rs.hasNext()) {
                                Binding b = rs.nextBinding();
                                sb.append(first ? "[" : ",[");
                                first = false;
                                for (int i = 0; i < vars.size(); i++) {
                                    sb.append(i == 0 ? "" : ",").append(term(b.get(Var.alloc(vars.get(i)))));
                                }
                                sb.append("]");
                            }
                            sb.append("]");
                        } else {
                            throw new IllegalArgumentException("only SELECT and ASK are compared");
                        }
                    }
                } catch (Exception e) {
                    failed++;
                    sb = new StringBuilder("{\"key\":").append(str(key))
                        .append(",\"error\":").append(str(e.getClass().getSimpleName() + ": " + e.getMessage()));
                }
                out.write(sb.append("}\n").toString());
            }
        }
        System.err.println("jena: queries that failed to run: " + failed);
    }

    private static String term(Node n) {
        if (n == null) {
            return "null";
        }
        if (n.isURI()) {
            return "{\"type\":\"uri\",\"value\":" + str(n.getURI()) + "}";
        }
        if (n.isBlank()) {
            return "{\"type\":\"bnode\",\"value\":" + str(n.getBlankNodeLabel()) + "}";
        }
        if (n.isLiteral()) {
            StringBuilder sb = new StringBuilder("{\"type\":\"literal\",\"value\":").append(str(n.getLiteralLexicalForm()));
            String lang = n.getLiteralLanguage();
            if (lang != null && !lang.isEmpty()) {
                sb.append(",\"lang\":").append(str(lang));
            } else {
                sb.append(",\"datatype\":").append(str(n.getLiteralDatatypeURI()));
            }
            return sb.append("}").toString();
        }
        return "{\"type\":\"other\",\"value\":" + str(n.toString()) + "}";
    }

    private static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append("\"").toString();
    }
}
