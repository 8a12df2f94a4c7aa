//! The critics end to end (`--critic`): the rules planner's revision by its
//! next-best grounding on a hand-written page, the LLM planner's revision
//! after the finding goes back to the model, and the LLM critic accepting
//! and rejecting, against the scripted chat server on 127.0.0.1
//! ([`support::Server`]).

mod support;

use finkg::critic::{Critic, Deterministic};
use finkg::dataset::cell::parse_cell;
use finkg::dataset::{Conversation, Document, Row, Table};
use finkg::llm::{AgentPlanner, LlmConfig, LlmCritic, LlmPlanner, LlmShared};
use finkg::pipeline::{Planners, Session};
use finkg::plan::RulesPlanner;
use finkg::planner::Planner;
use finkg::trace::TurnTrace;
use finkg::turn::{Answer, CheckKind};
use rust_decimal::Decimal;
use serde_json::json;
use support::{Reply, Server};

/// A page whose "revenue record year" row (years, not amounts) is the
/// rules planner's first grounding of "the revenue record in 2009"; the
/// revenue row is its next best. "service revenue" is the next best of
/// "the revenue in 2008".
fn page() -> Conversation {
    let columns = vec!["2009".to_string(), "2008".to_string()];
    let row = |label: &str, cells: [&str; 2]| Row {
        label: label.to_string(),
        cells: cells.iter().map(|c| parse_cell(c)).collect(),
    };
    Conversation {
        id: "Test_WIDGET/2009/page_3.pdf-1".to_string(),
        document: Document {
            pre_text: "widget co makes widgets .".to_string(),
            post_text: String::new(),
            table: Table {
                columns,
                rows: vec![
                    row("revenue", ["1,500", "1,200"]),
                    row("service revenue", ["300", "250"]),
                    row("revenue record year", ["2007", "2007"]),
                ],
            },
        },
        questions: Vec::new(),
    }
}

const QUESTION: &str = "what was the revenue record in 2009?";

fn rules() -> Box<dyn Planner + Send> {
    Box::new(RulesPlanner::new().expect("the rules planner loads"))
}

fn deterministic() -> Option<Box<dyn Critic + Send>> {
    Some(Box::new(Deterministic::new().expect("the critic loads")))
}

fn ask(planners: Planners, question: &str) -> TurnTrace {
    let mut planners = planners;
    let mut session = Session::new(&page()).expect("the page's graph builds");
    session.ask_with(&mut planners, question)
}

fn number(n: i64) -> Option<Answer> {
    Some(Answer::Number(Decimal::from(n)))
}

#[test]
fn without_a_critic_the_rules_planner_answers_a_year() {
    let trace = ask(Planners::single(rules()), QUESTION);
    assert_eq!(trace.answer, number(2007));
    assert!(trace.critic.is_none());
}

#[test]
fn the_rules_planner_revises_by_its_next_best_grounding() {
    let trace = ask(
        Planners::single(rules()).with_critic(deterministic()),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500), "{trace:#?}");
    let critic = trace.critic.expect("the critic's review is traced");
    assert_eq!(critic.critic, "deterministic");
    assert_eq!(critic.findings.len(), 1, "{critic:#?}");
    assert_eq!(critic.findings[0].check, CheckKind::Year);
    assert_eq!(critic.revisions.len(), 1, "{critic:#?}");
    let revision = &critic.revisions[0];
    assert!(revision.accepted);
    assert_eq!(revision.replaced, number(2007));
    assert_eq!(revision.answer, number(1500));
    // the turn's own plan, values and grounding are the revision's
    assert_eq!(trace.values.len(), 1);
    assert_eq!(trace.values[0].value, Decimal::from(1500));
    assert!(trace.values[0].source.contains("revenue"));
    assert!(
        trace.grounding[0].candidates[0]
            .source
            .contains("`revenue` /"),
        "{:?}",
        trace.grounding
    );
}

#[test]
fn a_result_that_passes_is_kept_with_no_finding() {
    let trace = ask(
        Planners::single(rules()).with_critic(deterministic()),
        "what was the revenue in 2008?",
    );
    assert_eq!(trace.answer, number(1200));
    let critic = trace.critic.expect("the critic's review is traced");
    assert!(critic.findings.is_empty());
    assert!(critic.revisions.is_empty());
}

/// A query for the cell of `row` and `column`, by their labels.
fn cell(row: &str, column: &str) -> String {
    format!(
        "SELECT ?value ?source WHERE {{ GRAPH ?g {{ ?source a qb:Observation ; fk:row/rdfs:label \"{row}\" ; fk:column/rdfs:label \"{column}\" ; fk:value ?value }} }}"
    )
}

fn lookup(row: &str, column: &str) -> Reply {
    Reply::json(json!({
        "values": {"value": {"sparql": cell(row, column), "description": format!("{row} in {column}")}},
        "entity": "widget co", "metric_type": "value", "period": column, "formula": "value"}))
}

fn shared(server: &Server) -> std::sync::Arc<LlmShared> {
    let mut config = LlmConfig::new(&server.url(), "any");
    config.retries = 0;
    LlmShared::new(config).expect("the LLM settings are valid")
}

#[test]
fn the_llm_planner_reads_the_finding_and_its_revised_plan_is_used() {
    let server = Server::script(vec![
        lookup("revenue record year", "2009"),
        lookup("revenue", "2009"),
    ]);
    let planner = LlmPlanner::new(shared(&server)).expect("the planner starts");
    let trace = ask(
        Planners::single(Box::new(planner)).with_critic(deterministic()),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500), "{trace:#?}");
    let critic = trace
        .critic
        .as_ref()
        .expect("the critic's review is traced");
    assert_eq!(critic.findings[0].check, CheckKind::Year);
    assert!(critic.revisions.len() == 1 && critic.revisions[0].accepted);
    let phases: Vec<&str> = trace.llm.iter().map(|e| e.phase.as_str()).collect();
    assert_eq!(phases, ["phase1", "revise"]);

    let got = server.received();
    assert_eq!(got.len(), 2);
    let roles: Vec<String> = got[1]
        .messages()
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "user"]);
    let feedback = got[1].messages()[3]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(feedback.contains("(year)"), "{feedback}");
    assert!(feedback.contains("reads as a year"), "{feedback}");
    assert!(feedback.contains("value"), "{feedback}");
}

fn answer(row: &str, column: &str) -> Reply {
    Reply::tool(
        "answer",
        json!({"values": {"value": {"sparql": cell(row, column), "description": format!("{row} in {column}")}},
               "formula": "value", "entity": "widget co", "metric_type": "value", "period": column}),
    )
}

#[test]
fn the_agent_gets_the_finding_as_its_answers_result() {
    let server = Server::script(vec![
        answer("revenue record year", "2009"),
        answer("revenue", "2009"),
    ]);
    let agent = AgentPlanner::new(shared(&server)).expect("the agent starts");
    let trace = ask(
        Planners::single(Box::new(agent)).with_critic(deterministic()),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500), "{trace:#?}");
    let critic = trace
        .critic
        .as_ref()
        .expect("the critic's review is traced");
    assert_eq!(critic.findings[0].check, CheckKind::Year);
    assert!(critic.revisions.len() == 1 && critic.revisions[0].accepted);
    let got = server.received();
    assert_eq!(got.len(), 2);
    let messages = got[1].messages();
    let last = messages.last().expect("a message");
    assert_eq!(last["role"], "tool", "{messages:?}");
    assert_eq!(
        last["tool_call_id"],
        messages[messages.len() - 2]["tool_calls"][0]["id"]
    );
    let feedback = last["content"].as_str().unwrap_or_default();
    assert!(feedback.contains("reads as a year"), "{feedback}");
}

#[test]
fn a_revision_that_fails_the_critic_too_keeps_the_first_result() {
    let server = Server::script(vec![
        lookup("revenue record year", "2009"),
        lookup("revenue record year", "2008"),
    ]);
    let planner = LlmPlanner::new(shared(&server)).expect("the planner starts");
    let trace = ask(
        Planners::single(Box::new(planner)).with_critic(deterministic()),
        QUESTION,
    );
    assert_eq!(trace.answer, number(2007));
    let critic = trace.critic.expect("the critic's review is traced");
    assert_eq!(critic.findings.len(), 2, "both results' findings");
    assert_eq!(critic.revisions.len(), 1, "{critic:#?}");
    let revision = &critic.revisions[0];
    assert!(!revision.accepted);
    assert!(revision
        .error
        .as_deref()
        .is_some_and(|e| e.contains("fails too")));
}

#[test]
fn a_second_round_revises_a_revision_that_fails_too() {
    let server = Server::script(vec![
        lookup("revenue record year", "2009"),
        lookup("revenue record year", "2008"),
        lookup("revenue", "2009"),
    ]);
    let planner = LlmPlanner::new(shared(&server)).expect("the planner starts");
    let trace = ask(
        Planners::single(Box::new(planner))
            .with_critic(deterministic())
            .with_max_revisions(2),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500), "{trace:#?}");
    let critic = trace
        .critic
        .as_ref()
        .expect("the critic's review is traced");
    assert_eq!(critic.findings.len(), 2, "{critic:#?}");
    assert!(critic.findings.iter().all(|f| f.check == CheckKind::Year));
    assert_eq!(critic.revisions.len(), 2, "{critic:#?}");
    assert!(!critic.revisions[0].accepted);
    assert_eq!(critic.revisions[0].answer, number(2007));
    assert!(critic.revisions[0]
        .error
        .as_deref()
        .is_some_and(|e| e.contains("fails too")));
    assert!(critic.revisions[1].accepted, "{critic:#?}");
    assert_eq!(critic.revisions[1].replaced, number(2007));
    assert_eq!(critic.revisions[1].answer, number(1500));
    assert_eq!(trace.values[0].value, Decimal::from(1500));
    let phases: Vec<&str> = trace.llm.iter().map(|e| e.phase.as_str()).collect();
    assert_eq!(phases, ["phase1", "revise", "revise"]);
    // the second round continues the conversation with the second finding
    let got = server.received();
    assert_eq!(got.len(), 3);
    let roles: Vec<String> = got[2]
        .messages()
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "user", "assistant", "user"]
    );
    let feedback = got[2].messages()[5]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(feedback.contains("reads as a year"), "{feedback}");
}

#[test]
fn the_agents_second_round_goes_on_with_its_tool_loop() {
    let server = Server::script(vec![
        answer("revenue record year", "2009"),
        answer("revenue record year", "2008"),
        answer("revenue", "2009"),
    ]);
    let agent = AgentPlanner::new(shared(&server)).expect("the agent starts");
    let trace = ask(
        Planners::single(Box::new(agent))
            .with_critic(deterministic())
            .with_max_revisions(2),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500), "{trace:#?}");
    let critic = trace
        .critic
        .as_ref()
        .expect("the critic's review is traced");
    assert_eq!(critic.revisions.len(), 2, "{critic:#?}");
    assert!(!critic.revisions[0].accepted && critic.revisions[1].accepted);
    let got = server.received();
    assert_eq!(got.len(), 3);
    // each revision answers the `answer` call before it
    let messages = got[2].messages();
    let last = messages.last().expect("a message");
    assert_eq!(last["role"], "tool", "{messages:?}");
    assert_eq!(
        last["tool_call_id"],
        messages[messages.len() - 2]["tool_calls"][0]["id"]
    );
    let tools = messages.iter().filter(|m| m["role"] == "tool").count();
    assert_eq!(tools, 2, "both findings, in order: {messages:?}");
}

#[test]
fn the_rounds_stop_at_the_limit() {
    let server = Server::script(vec![
        lookup("revenue record year", "2009"),
        lookup("revenue record year", "2008"),
        lookup("revenue", "2009"),
    ]);
    let planner = LlmPlanner::new(shared(&server)).expect("the planner starts");
    let trace = ask(
        Planners::single(Box::new(planner)).with_critic(deterministic()),
        QUESTION,
    );
    assert_eq!(trace.answer, number(2007), "one round by default");
    let critic = trace.critic.expect("the critic's review is traced");
    assert_eq!(critic.revisions.len(), 1);
    assert_eq!(critic.findings.len(), 2, "the revision's finding is traced");
    assert_eq!(server.received().len(), 2, "no second revision");
}

#[test]
fn zero_rounds_keep_the_result_with_its_finding() {
    let server = Server::script(vec![
        lookup("revenue record year", "2009"),
        lookup("revenue", "2009"),
    ]);
    let planner = LlmPlanner::new(shared(&server)).expect("the planner starts");
    let trace = ask(
        Planners::single(Box::new(planner))
            .with_critic(deterministic())
            .with_max_revisions(0),
        QUESTION,
    );
    assert_eq!(trace.answer, number(2007));
    let critic = trace.critic.expect("the critic's review is traced");
    assert_eq!(critic.findings.len(), 1);
    assert_eq!(critic.findings[0].check, CheckKind::Year);
    assert!(critic.revisions.is_empty());
    assert_eq!(server.received().len(), 1, "no revision was asked");
    // the rules planner likewise
    let trace = ask(
        Planners::single(rules())
            .with_critic(deterministic())
            .with_max_revisions(0),
        QUESTION,
    );
    assert_eq!(trace.answer, number(2007));
    assert!(trace.critic.is_some_and(|c| c.revisions.is_empty()));
}

#[test]
fn the_llm_critic_accepts() {
    let server = Server::script(vec![Reply::json(json!({"accept": true}))]);
    let critic = LlmCritic::new(shared(&server)).expect("the critic starts");
    let trace = ask(
        Planners::single(rules()).with_critic(Some(Box::new(critic))),
        "what was the revenue in 2008?",
    );
    assert_eq!(trace.answer, number(1200));
    let review = trace.critic.expect("the critic's review is traced");
    assert_eq!(review.critic, "llm");
    assert!(review.findings.is_empty());
    assert_eq!(trace.llm.len(), 1);
    assert_eq!(trace.llm[0].phase, "critic");
    let got = server.received();
    assert_eq!(got.len(), 1);
    let prompt = got[0].text();
    assert!(prompt.contains("what was the revenue in 2008?"), "{prompt}");
    assert!(prompt.contains("1200"), "{prompt}");
}

#[test]
fn the_llm_critic_rejects_and_the_rules_planner_revises() {
    let server = Server::script(vec![
        Reply::json(json!({"accept": false, "finding": "the question asks for 2009, not 2008"})),
        Reply::json(json!({"accept": true})),
    ]);
    let critic = LlmCritic::new(shared(&server)).expect("the critic starts");
    let trace = ask(
        Planners::single(rules()).with_critic(Some(Box::new(critic))),
        "what was the revenue in 2008?",
    );
    let review = trace
        .critic
        .as_ref()
        .expect("the critic's review is traced");
    assert_eq!(review.findings.len(), 1);
    assert_eq!(review.findings[0].check, CheckKind::Model);
    assert_eq!(
        review.findings[0].message,
        "the question asks for 2009, not 2008"
    );
    assert_eq!(review.revisions.len(), 1);
    let revision = &review.revisions[0];
    assert!(revision.accepted, "{revision:?}");
    assert_eq!(trace.answer, number(250), "the next-best grounding");
    assert_eq!(revision.replaced, number(1200));
    assert_eq!(
        server.received().len(),
        2,
        "the revised result reviewed too"
    );
}

#[test]
fn the_llm_critic_runs_the_deterministic_checks_first() {
    let server = Server::script(vec![Reply::json(json!({"accept": true}))]);
    let critic = LlmCritic::new(shared(&server)).expect("the critic starts");
    let trace = ask(
        Planners::single(rules()).with_critic(Some(Box::new(critic))),
        QUESTION,
    );
    assert_eq!(trace.answer, number(1500));
    let review = trace.critic.expect("the critic's review is traced");
    assert_eq!(review.findings[0].check, CheckKind::Year);
    // the year finding needed no model; the revision was reviewed by it
    assert_eq!(server.received().len(), 1);
}

#[test]
fn an_unusable_review_accepts_the_result() {
    let server = Server::script(vec![
        Reply::chat("no idea"),
        Reply::chat("still no idea"),
        Reply::chat("{\"accept\": \"maybe\"}"),
    ]);
    let critic = LlmCritic::new(shared(&server)).expect("the critic starts");
    let trace = ask(
        Planners::single(rules()).with_critic(Some(Box::new(critic))),
        "what was the revenue in 2008?",
    );
    assert_eq!(trace.answer, number(1200));
    assert!(trace.critic.as_ref().is_some_and(|c| c.findings.is_empty()));
    assert_eq!(trace.llm.len(), 3, "the reply and its two repairs");
    assert!(trace.llm.iter().all(|e| e.error.is_some()));
}

/// The page above as a file in the original layout.
const PAGE_JSON: &str = r#"{"id": "Test_WIDGET/2009/page_3.pdf-1",
 "doc": {"pre_text": "widget co makes widgets .", "post_text": "",
   "table": {"2009": {"revenue": "1,500", "service revenue": "300", "revenue record year": "2007"},
             "2008": {"revenue": "1,200", "service revenue": "250", "revenue record year": "2007"}}},
 "dialogue": {"conv_questions": ["what was the revenue record in 2009?"]}}"#;

fn solve(extra: &[&str]) -> String {
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("page.json");
    std::fs::write(&path, PAGE_JSON).unwrap();
    let out = assert_cmd::Command::cargo_bin("finkg")
        .expect("the finkg binary builds")
        .arg("solve")
        .arg(&path)
        .args(extra)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stdout).to_string()
}

#[test]
fn the_critic_flag_of_solve() {
    let default = solve(&["--explain"]);
    assert!(default.contains("-> 1500"), "{default}");
    assert!(
        default.contains("critic (deterministic): year check: "),
        "{default}"
    );
    assert!(
        default.contains("revised: 1500 (replaces 2007)"),
        "{default}"
    );
    let none = solve(&["--explain", "--critic-max-revisions", "0"]);
    assert!(none.contains("-> 2007"), "{none}");
    assert!(
        none.contains("critic (deterministic): year check: "),
        "{none}"
    );
    assert!(!none.contains("revised"), "{none}");
    // `max_revisions` of the configuration file, and the flag over it
    let dir = tempfile::TempDir::new().unwrap();
    let config = dir.path().join("finkg.toml");
    std::fs::write(&config, "[critic]\nmax_revisions = 0\n").unwrap();
    let config = config.to_str().unwrap();
    let filed = solve(&["--explain", "--config", config]);
    assert!(filed.contains("-> 2007"), "{filed}");
    assert!(!filed.contains("revised"), "{filed}");
    let flagged = solve(&[
        "--explain",
        "--config",
        config,
        "--critic-max-revisions",
        "1",
    ]);
    assert!(
        flagged.contains("revised: 1500 (replaces 2007)"),
        "{flagged}"
    );
    let off = solve(&["--explain", "--critic", "off"]);
    assert!(off.contains("-> 2007"), "{off}");
    assert!(!off.contains("critic"), "{off}");
    let json = solve(&["--json", "--explain"]);
    let line: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(line["answer"], 1500);
    assert_eq!(line["critic"]["findings"][0]["check"], "year");
    assert_eq!(line["critic"]["revisions"][0]["accepted"], true);
    // the LLM critic needs the LLM options
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("page.json");
    std::fs::write(&path, PAGE_JSON).unwrap();
    let out = assert_cmd::Command::cargo_bin("finkg")
        .expect("the finkg binary builds")
        .env_remove("FINKG_LLM_MODEL")
        .arg("solve")
        .arg(&path)
        .args(["--critic", "llm"])
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("--llm-model"), "{stderr}");
}

/// A page whose text states a change next to the level it reached
/// ("increased $ 41.0 million to $ 1.9 billion"): the rules planner's
/// change reads `$ 1.9 billion` twice, and its revision is the look-up of
/// the stated change, not of the level.
#[test]
fn a_level_read_twice_is_revised_to_the_change_the_text_states() {
    let row = |label: &str, cells: [&str; 2]| Row {
        label: label.to_string(),
        cells: cells.iter().map(|c| parse_cell(c)).collect(),
    };
    let page = Conversation {
        id: "Test_WIDGET/2009/page_4.pdf-1".to_string(),
        document: Document {
            pre_text: "widget co makes widgets .".to_string(),
            post_text: "2009 compared to 2008 the following fluctuations in the results of \
                        operations : widget revenues increased $ 41.0 million to $ 1.9 billion ; \
                        service costs increased $ 3.0 million to $ 12.5 million ."
                .to_string(),
            table: Table {
                columns: vec!["2009".to_string(), "2008".to_string()],
                rows: vec![
                    row("units shipped", ["120", "110"]),
                    row("plants", ["4", "3"]),
                ],
            },
        },
        questions: Vec::new(),
    };
    let question = "what was the amount widget revenues increased in 2009?";
    let mut session = Session::new(&page).expect("the page's graph builds");
    let first = session.ask_with(&mut Planners::single(rules()), question);
    assert_eq!(first.answer, number(0), "{first:#?}");
    let mut session = Session::new(&page).expect("the page's graph builds");
    let mut planners = Planners::single(rules()).with_critic(deterministic());
    let trace = session.ask_with(&mut planners, question);
    assert_eq!(trace.answer, number(41), "{trace:#?}");
    let critic = trace.critic.expect("the critic's review is traced");
    assert_eq!(critic.findings[0].check, CheckKind::SameValue);
    assert!(critic.revisions[0].accepted, "{critic:#?}");
}

#[test]
fn an_amount_printed_with_a_currency_sign_is_no_year_whatever_its_row() {
    let row = |label: &str, cells: [&str; 2]| Row {
        label: label.to_string(),
        cells: cells.iter().map(|c| parse_cell(c)).collect(),
    };
    let page = Conversation {
        id: "Test_WIDGET/2012/page_9.pdf-1".to_string(),
        document: Document {
            pre_text: "changes in the benefit obligation :".to_string(),
            post_text: String::new(),
            table: Table {
                columns: vec!["2012".to_string(), "2011".to_string()],
                rows: vec![
                    row("obligation at beginning of year", ["$ 2,020", "$ 1,842"]),
                    row("service cost", ["64", "58"]),
                    row("obligation at end of year", ["$ 2,221", "$ 2,020"]),
                ],
            },
        },
        questions: Vec::new(),
    };
    let mut planners = Planners::single(rules()).with_critic(deterministic());
    let mut session = Session::new(&page).expect("the page's graph builds");
    let trace = session.ask_with(&mut planners, "what was the obligation at the end of 2011?");
    assert_eq!(trace.answer, number(2020), "{trace:#?}");
    let critic = trace.critic.expect("the critic's review is traced");
    assert!(critic.findings.is_empty(), "{critic:#?}");
}
