// finkg serve: the conversation panel of the report page.
// Sends the conversation's questions to POST /api/ask, shows the last
// turn's answer, plan, formula, values and SPARQL, and highlights each
// value's source in the table or text. Every text is written with
// textContent, never as HTML.
"use strict";

(function () {
  const main = document.querySelector("main[data-id]");
  const form = document.getElementById("ask");
  if (!main || !form) return;
  const id = main.dataset.id;
  const input = document.getElementById("question");
  const turns = document.getElementById("turns");
  const status = document.getElementById("status");
  const questions = [];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clearHighlights() {
    for (const node of document.querySelectorAll(".source, .source-sentence, .source-row")) {
      node.classList.remove("source", "source-sentence", "source-row");
    }
  }

  function highlight(target) {
    const node = target && document.getElementById(target);
    if (!node) return null;
    node.classList.add("source");
    const sentence = node.closest(".sentence");
    if (sentence) sentence.classList.add("source-sentence");
    const row = node.closest("tr");
    if (row && node.tagName === "TD") row.classList.add("source-row");
    return node;
  }

  // The critic's findings and revision rounds (the trace's `critic`).
  function criticNote(critic) {
    const note = el("div", "critic");
    note.appendChild(el("span", "label", "Critic (" + critic.critic + ")"));
    const list = el("ul");
    for (const f of critic.findings) {
      list.appendChild(el("li", "finding", f.check + " check: " + f.message));
    }
    for (const r of critic.revisions || []) {
      const answer = r.answer === null || r.answer === undefined ? "no answer" : String(r.answer);
      const text = r.accepted
        ? "revised to " + answer + (r.replaced !== undefined ? " (was " + r.replaced + ")" : "")
        : "revision " + answer + " not kept";
      list.appendChild(el("li", r.accepted ? "revision kept" : "revision", text));
    }
    note.appendChild(list);
    return note;
  }

  function show(reply) {
    clearHighlights();
    const item = el("li", "turn");
    item.id = "turn-" + reply.turn;
    item.appendChild(el("p", "question", reply.question));
    if (reply.answer !== null) {
      const answer = el("p", "answer");
      answer.appendChild(el("span", "label", "Answer "));
      answer.appendChild(el("strong", "value", reply.answer));
      if (reply.metric_type) answer.appendChild(el("span", "kind", " · " + reply.metric_type));
      item.appendChild(answer);
      if (reply.description) item.appendChild(el("p", "description", reply.description));
    } else {
      item.appendChild(el("p", "error", reply.error || "no answer"));
    }
    if (reply.formula) {
      const formula = el("p", "formula");
      formula.appendChild(el("span", "label", "Formula "));
      formula.appendChild(el("code", null, reply.formula));
      item.appendChild(formula);
    }
    if (reply.critic) item.appendChild(criticNote(reply.critic));
    let first = null;
    if (reply.values.length) {
      const table = el("table", "values");
      const head = table.createTHead().insertRow();
      for (const h of ["value", "", "source"]) head.appendChild(el("th", null, h));
      const body = table.createTBody();
      for (const v of reply.values) {
        const row = body.insertRow();
        row.appendChild(el("td", null, v.name));
        row.appendChild(el("td", "number", v.value));
        const source = el("td", null, v.source);
        row.appendChild(source);
        const nodes = v.targets.map(highlight).filter((node) => node);
        first = first || nodes.find((node) => node.closest("#report-page"));
        if (nodes.length) {
          source.classList.add("linked");
          source.addEventListener("click", () => nodes[0].scrollIntoView({ block: "center" }));
        }
      }
      item.appendChild(table);
    }
    for (const open of turns.querySelectorAll("details.plan[open]")) open.open = false;
    const details = el("details", "plan");
    details.open = true;
    details.appendChild(el("summary", null, "Plan and SPARQL"));
    if (reply.plan) details.appendChild(el("pre", null, JSON.stringify(reply.plan, null, 2)));
    for (const v of reply.values) {
      if (!v.sparql) continue;
      details.appendChild(el("p", "label", v.name));
      details.appendChild(el("pre", "sparql", v.sparql));
    }
    item.appendChild(details);
    turns.appendChild(item);
    item.scrollIntoView({ block: "nearest" });
    if (first) first.scrollIntoView({ block: "center" });
  }

  async function ask(question) {
    questions.push(question);
    status.textContent = "Answering…";
    form.querySelector("button").disabled = true;
    try {
      const response = await fetch("/api/ask", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ id: id, questions: questions }),
      });
      if (!response.ok) {
        questions.pop();
        status.textContent = "Error " + response.status + ": " + (await response.text());
        return;
      }
      show(await response.json());
      status.textContent = "";
    } catch (e) {
      questions.pop();
      status.textContent = "The server did not answer: " + e;
    } finally {
      form.querySelector("button").disabled = false;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const question = input.value.trim();
    if (!question) return;
    input.value = "";
    ask(question);
  });

  document.getElementById("reset").addEventListener("click", () => {
    questions.length = 0;
    turns.replaceChildren();
    clearHighlights();
    status.textContent = "";
  });

  for (const button of document.querySelectorAll("button.suggestion")) {
    button.addEventListener("click", () => {
      input.value = button.textContent;
      input.focus();
    });
  }

  const picker = document.getElementById("report");
  if (picker) picker.addEventListener("change", () => picker.form.submit());
})();
