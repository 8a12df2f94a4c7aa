//! The prompts: `prompts/*.j2` rendered with minijinja from what a turn may
//! see. The variables each template receives are documented in
//! `prompts/README.md`; the views below are their Rust side.
//!
//! - `system.j2` and `phase1.j2` start Phase 1 ([`Phase1View`]);
//! - `phase2.j2` asks for the formula over the retrieved values ([`Phase2View`]);
//! - `repair.j2` sends an unusable reply's error back ([`RepairView`]);
//! - `revise.j2` sends a critic's finding back after an accepted Phase 1
//!   reply ([`RevisionView`]);
//! - `critic.j2` asks a model to review a proposed result ([`CriticView`]).
//!
//! The built-in templates are compiled into the binary; `--llm-prompts DIR`
//! reads edited copies instead. Undefined variables are errors, and every
//! template is rendered once against a sample turn when the planner starts,
//! so a broken template stops the program with its name and line.

use super::LlmError;
use crate::kg::{queries, Schema};
use crate::ontology;
use crate::planner::TurnContext;
use crate::turn::{ConversationState, Plan, TurnResult, UsedValue};
use crate::vocab;
use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use rust_decimal::Decimal;
use serde::Serialize;
use std::path::Path;

/// The templates, by file name, as shipped in `prompts/`.
pub const TEMPLATES: [(&str, &str); 8] = [
    ("system.j2", include_str!("../../prompts/system.j2")),
    ("phase1.j2", include_str!("../../prompts/phase1.j2")),
    ("phase2.j2", include_str!("../../prompts/phase2.j2")),
    ("repair.j2", include_str!("../../prompts/repair.j2")),
    (
        "agent_system.j2",
        include_str!("../../prompts/agent_system.j2"),
    ),
    ("agent.j2", include_str!("../../prompts/agent.j2")),
    ("revise.j2", include_str!("../../prompts/revise.j2")),
    ("critic.j2", include_str!("../../prompts/critic.j2")),
];

/// The agent's and the critics' templates: a folder of edited templates
/// may leave them out (the built-in ones are used), so folders written for
/// the two-phase planner keep working.
const OPTIONAL: [&str; 4] = ["agent_system.j2", "agent.j2", "revise.j2", "critic.j2"];

/// The loaded templates.
#[derive(Debug)]
pub struct Prompts {
    env: Environment<'static>,
}

fn template_error(e: &minijinja::Error, fallback: &str) -> LlmError {
    let mut message = e.kind().to_string();
    if let Some(detail) = e.detail() {
        message = format!("{message}: {detail}");
    }
    LlmError::Template {
        template: e.name().unwrap_or(fallback).to_string(),
        line: e.line(),
        message,
    }
}

impl Prompts {
    fn with_sources(sources: Vec<(String, String)>) -> Result<Self, LlmError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_auto_escape_callback(|_| AutoEscape::None);
        env.set_trim_blocks(true);
        env.set_lstrip_blocks(true);
        for (name, source) in sources {
            env.add_template_owned(name.clone(), source)
                .map_err(|e| template_error(&e, &name))?;
        }
        Ok(Self { env })
    }

    /// The templates compiled into the binary.
    pub fn builtin() -> Result<Self, LlmError> {
        Self::with_sources(
            TEMPLATES
                .iter()
                .map(|(n, s)| (n.to_string(), s.to_string()))
                .collect(),
        )
    }

    /// The templates of a folder: each of [`TEMPLATES`]' names must be
    /// there, but for the agent's and the critics' (the built-in ones
    /// stand in).
    pub fn from_dir(dir: &Path) -> Result<Self, LlmError> {
        let mut sources = Vec::new();
        for (name, builtin) in TEMPLATES {
            let path = dir.join(name);
            let text = match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && OPTIONAL.contains(&name) => {
                    builtin.to_string()
                }
                Err(source) => return Err(LlmError::TemplateFile { path, source }),
            };
            sources.push((name.to_string(), text));
        }
        Self::with_sources(sources)
    }

    /// Renders a template.
    pub fn render(&self, name: &str, view: &impl Serialize) -> Result<String, LlmError> {
        let template = self
            .env
            .get_template(name)
            .map_err(|e| template_error(&e, name))?;
        let text = template
            .render(view)
            .map_err(|e| template_error(&e, name))?;
        Ok(text.trim().to_string())
    }

    /// Renders every template against a sample turn.
    pub fn check(&self) -> Result<(), LlmError> {
        let one = sample_phase1();
        self.render("system.j2", &one)?;
        self.render("phase1.j2", &one)?;
        self.render("phase1.j2", &Phase1View::default())?;
        self.render("phase2.j2", &sample_phase2(&one))?;
        let agent = AgentView {
            turn: one,
            max_tool_calls: super::DEFAULT_MAX_TOOL_CALLS,
            tools: AGENT_TOOLS.to_vec(),
        };
        self.render("agent_system.j2", &agent)?;
        self.render("agent.j2", &agent)?;
        for phase in ["phase1", "phase2", "agent", "revise", "critic"] {
            self.render(
                "repair.j2",
                &RepairView {
                    phase,
                    error: "sample error".into(),
                    attempt: 1,
                    attempts_left: 1,
                    warnings: vec!["sample warning".into()],
                },
            )?;
        }
        self.render(
            "revise.j2",
            &RevisionView {
                check: "sign",
                finding: "sample finding".into(),
                suspects: vec!["a".into()],
            },
        )?;
        self.render("critic.j2", &sample_critic(&agent.turn))?;
        Ok(())
    }
}

/// A column or row of the table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AxisView {
    /// 0-based position (`fk:index`).
    pub index: usize,
    /// As printed (`rdfs:label`).
    pub label: String,
    /// The year it names, if one.
    pub year: Option<i32>,
    /// Other reports' names of the same metric (rows only).
    pub synonyms: Vec<String>,
}

/// A number of the text.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FactView {
    /// Token position in its sentence (`fk:tokenIndex`).
    pub token: usize,
    /// As printed.
    pub raw: String,
    /// Its value.
    pub value: String,
    /// The year it is about, when clear.
    pub year: Option<i32>,
    /// Scale word beside it.
    pub scale: Option<String>,
    /// Printed as a percentage.
    pub percent: bool,
    /// Words around it.
    pub context: String,
}

/// A sentence that states numbers.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SentenceView {
    /// 0-based position on the page (`fk:index` of its `fk:Sentence`).
    pub index: usize,
    /// Its text.
    pub text: String,
    /// Its numbers (year mentions left out).
    pub facts: Vec<FactView>,
}

/// The page, as the prompt shows it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SchemaView {
    /// Column headers (periods).
    pub columns: Vec<AxisView>,
    /// Row labels (metrics).
    pub rows: Vec<AxisView>,
    /// How many numeric cells the table has.
    pub cells: usize,
    /// The sentences holding numbers, with them.
    pub sentences: Vec<SentenceView>,
}

/// A prefix declared for the model's SPARQL.
#[derive(Debug, Clone, Serialize)]
pub struct PrefixView {
    /// `fk`.
    pub prefix: &'static str,
    /// Its IRI.
    pub iri: &'static str,
}

/// A query that works on this page.
#[derive(Debug, Clone, Default, Serialize)]
pub struct QueryView {
    /// What it retrieves.
    pub description: String,
    /// The query (prefixes left out).
    pub sparql: String,
}

/// A calculation pattern of `ontology/patterns.ttl`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PatternView {
    /// Operation identifier.
    pub operation: String,
    /// Metric type its results get.
    pub metric_type: String,
    /// Its formula.
    pub formula: String,
    /// A few phrases that signal it.
    pub triggers: Vec<String>,
}

/// A value an earlier result used.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VariableView {
    /// Its name.
    pub name: String,
    /// Its number.
    pub value: String,
    /// What it is.
    pub description: String,
    /// Where it came from.
    pub source: String,
}

/// An earlier turn with its result's metadata.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ResultView {
    /// `result_N`.
    #[serde(rename = "ref")]
    pub reference: String,
    /// 0-based turn.
    pub turn: usize,
    /// The question asked.
    pub question: String,
    /// The answer, or null when the turn failed.
    pub value: Option<String>,
    /// Scale words of the value.
    pub scale: Option<String>,
    /// What the value is.
    pub description: String,
    /// Who or what it is about.
    pub entity: Option<String>,
    /// Metric type (`value`, `change`, ...).
    #[serde(rename = "type")]
    pub metric_type: String,
    /// Period covered.
    pub period: Option<String>,
    /// The formula that gave it.
    pub formula: String,
    /// The values the formula used.
    pub variables: Vec<VariableView>,
    /// The metadata as one JSON object: value, scale, description, entity,
    /// type, period, question.
    pub metadata: String,
}

/// Everything `system.j2` and `phase1.j2` receive.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Phase1View {
    /// The question of this turn.
    pub question: String,
    /// 0-based index of this turn.
    pub turn: usize,
    /// Every earlier turn, answered or not.
    pub conversation: Vec<ResultView>,
    /// The answered earlier turns (what `result_N` may name).
    pub results: Vec<ResultView>,
    /// The page.
    pub schema: SchemaView,
    /// Prefixes declared for the model's SPARQL.
    pub prefixes: Vec<PrefixView>,
    /// Queries that work on this page.
    pub example_queries: Vec<QueryView>,
    /// The ontology's calculation patterns.
    pub patterns: Vec<PatternView>,
}

/// The plan's metadata, as Phase 2 sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PlanView {
    /// Who or what the values are about.
    pub entity: Option<String>,
    /// The kind of result.
    pub metric_type: Option<String>,
    /// The period.
    pub period: Option<String>,
}

/// A value Phase 1 retrieved.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ValueView {
    /// Its name in the plan.
    pub name: String,
    /// Its number.
    pub value: String,
    /// What it is.
    pub description: String,
    /// The cell, sentence, earlier result or constant it came from.
    pub source: String,
    /// The metric it measures, when known.
    pub metric: Option<String>,
    /// The year it is about, when known.
    pub year: Option<i32>,
}

/// Everything `phase2.j2` receives.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Phase2View {
    /// The question of this turn.
    pub question: String,
    /// 0-based index of this turn.
    pub turn: usize,
    /// Every earlier turn, answered or not.
    pub conversation: Vec<ResultView>,
    /// The answered earlier turns.
    pub results: Vec<ResultView>,
    /// The plan's metadata.
    pub plan: PlanView,
    /// The retrieved values.
    pub values: Vec<ValueView>,
    /// The ontology's calculation patterns.
    pub patterns: Vec<PatternView>,
}

/// The agent's tools, as its prompts name them.
const AGENT_TOOLS: [&str; 5] = super::agent::tools::NAMES;

/// Everything `agent_system.j2` and `agent.j2` receive: what Phase 1 sees,
/// the tool-call limit and the tools' names.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AgentView {
    /// The turn as Phase 1 sees it (its fields are the template's).
    #[serde(flatten)]
    pub turn: Phase1View,
    /// Tool calls the model may make this turn.
    pub max_tool_calls: u32,
    /// The tools' names.
    pub tools: Vec<&'static str>,
}

impl AgentView {
    /// What the agent's prompts show for a turn.
    pub fn new(ctx: &TurnContext<'_>, max_tool_calls: u32) -> Self {
        Self {
            turn: phase1_view(ctx),
            max_tool_calls,
            tools: AGENT_TOOLS.to_vec(),
        }
    }
}

/// Everything `repair.j2` receives.
#[derive(Debug, Clone, Serialize)]
pub struct RepairView {
    /// `phase1`, `phase2` or `agent`.
    pub phase: &'static str,
    /// Why the reply could not be used.
    pub error: String,
    /// 1-based number of this repair.
    pub attempt: u32,
    /// Repairs left after this one.
    pub attempts_left: u32,
    /// Warnings about the reply beside its error (a decimal literal the
    /// store cannot hold, [`super::reply::long_decimal_warning`]).
    pub warnings: Vec<String>,
}

/// Everything `revise.j2` receives.
#[derive(Debug, Clone, Serialize)]
pub struct RevisionView {
    /// The check that failed (`scale`, `percentage`, `sign`, `year`,
    /// `magnitude`, `model`).
    pub check: &'static str,
    /// What the critic found.
    pub finding: String,
    /// The plan's value names the critic suspects (may be empty).
    pub suspects: Vec<String>,
}

/// Everything `critic.j2` receives.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CriticView {
    /// The question of this turn.
    pub question: String,
    /// Every earlier turn, answered or not.
    pub conversation: Vec<ResultView>,
    /// The proposed result, as later turns would see it.
    pub result: ResultView,
}

/// The view `critic.j2` renders for a proposed result.
pub fn critic_view(question: &str, state: &ConversationState, result: &TurnResult) -> CriticView {
    let (conversation, _) = conversation_views(state);
    CriticView {
        question: question.to_string(),
        conversation,
        result: result_view(result.turn, result),
    }
}

fn sample_critic(one: &Phase1View) -> CriticView {
    CriticView {
        question: "what was the decrease in net sales from 2008 to 2009?".into(),
        conversation: one.conversation.clone(),
        result: one.results.first().cloned().unwrap_or_default(),
    }
}

fn show(d: Decimal) -> String {
    d.normalize().to_string()
}

fn variable_view(v: &UsedValue) -> VariableView {
    VariableView {
        name: v.name.clone(),
        value: show(v.value),
        description: v.description.clone(),
        source: v.source.clone(),
    }
}

fn result_view(turn: usize, result: &TurnResult) -> ResultView {
    let value = result.value.to_string();
    let metadata = serde_json::json!({
        "value": serde_json::from_str::<serde_json::Value>(&value).unwrap_or(serde_json::Value::String(value.clone())),
        "scale": result.scale,
        "description": result.description,
        "entity": result.entity,
        "type": result.metric_type,
        "period": result.period,
        "question": result.question,
    });
    ResultView {
        reference: format!("result_{turn}"),
        turn,
        question: result.question.clone(),
        value: Some(value),
        scale: result.scale.as_ref().map(ToString::to_string),
        description: result.description.clone(),
        entity: result.entity.clone(),
        metric_type: result.metric_type.to_string(),
        period: result.period.clone(),
        formula: result.formula.clone(),
        variables: result.variables.iter().map(variable_view).collect(),
        metadata: metadata.to_string(),
    }
}

/// Every earlier turn (failed ones with no value) and the answered ones.
fn conversation_views(state: &ConversationState) -> (Vec<ResultView>, Vec<ResultView>) {
    let mut all = Vec::new();
    let mut answered = Vec::new();
    for (turn, r) in state.turns().iter().enumerate() {
        match r {
            Some(result) => {
                let view = result_view(turn, result);
                answered.push(view.clone());
                all.push(view);
            }
            None => all.push(ResultView {
                reference: format!("result_{turn}"),
                turn,
                question: state.question(turn).unwrap_or_default().to_string(),
                metric_type: "failed".into(),
                ..ResultView::default()
            }),
        }
    }
    (all, answered)
}

/// The prompt's view of a page.
pub fn schema_view(schema: &Schema) -> SchemaView {
    let columns = schema
        .columns
        .iter()
        .enumerate()
        .map(|(index, (label, year))| AxisView {
            index,
            label: label.clone(),
            year: *year,
            synonyms: Vec::new(),
        })
        .collect();
    let rows = schema
        .rows
        .iter()
        .enumerate()
        .map(|(index, (label, year))| AxisView {
            index,
            label: label.clone(),
            year: *year,
            synonyms: schema
                .row_concept_labels
                .get(index)
                .map(|labels| labels.iter().filter(|l| *l != label).cloned().collect())
                .unwrap_or_default(),
        })
        .collect();
    let mut sentences: Vec<SentenceView> = Vec::new();
    for f in schema.facts.iter().filter(|f| !f.is_year_mention) {
        if sentences.last().is_none_or(|s| s.index != f.sentence) {
            sentences.push(SentenceView {
                index: f.sentence,
                text: f.sentence_text.clone(),
                facts: Vec::new(),
            });
        }
        if let Some(s) = sentences.last_mut() {
            s.facts.push(FactView {
                token: f.token,
                raw: f.raw.clone(),
                value: show(f.value),
                year: f.year,
                scale: f.scale.as_ref().map(ToString::to_string),
                percent: f.percent,
                context: f.context.clone(),
            });
        }
    }
    SchemaView {
        columns,
        rows,
        cells: schema.cells.len(),
        sentences,
    }
}

/// Queries that bind one value on this page: a cell by its row and column,
/// a text fact by its sentence and position.
pub fn example_queries(schema: &Schema) -> Vec<QueryView> {
    let mut out = Vec::new();
    if let Some(c) = schema.cells.first() {
        out.push(QueryView {
            description: format!(
                "the cell of row `{}` and column `{}` ({})",
                c.row_label, c.column_label, c.raw
            ),
            sparql: queries::cell_query(c.row, &c.row_label, c.column, &c.column_label),
        });
    }
    if let Some(f) = schema.facts.iter().find(|f| !f.is_year_mention) {
        out.push(QueryView {
            description: format!(
                "the number `{}` of sentence {} (token {})",
                f.raw, f.sentence, f.token
            ),
            sparql: queries::fact_query(f.sentence, f.token),
        });
    }
    out
}

/// The ontology's calculation patterns, a few triggers each.
pub fn pattern_views() -> Vec<PatternView> {
    let Ok(tbox) = ontology::tbox() else {
        return Vec::new();
    };
    tbox.patterns()
        .iter()
        .map(|p| PatternView {
            operation: p.operation.clone(),
            metric_type: p.metric_type.to_string(),
            formula: p.formula_template.clone(),
            triggers: p.triggers.iter().take(6).cloned().collect(),
        })
        .collect()
}

fn prefix_views() -> Vec<PrefixView> {
    vocab::PREFIXES
        .iter()
        .map(|&(prefix, iri)| PrefixView { prefix, iri })
        .collect()
}

/// What Phase 1 shows for a turn.
pub fn phase1_view(ctx: &TurnContext<'_>) -> Phase1View {
    let (conversation, results) = conversation_views(ctx.state);
    Phase1View {
        question: ctx.question.to_string(),
        turn: ctx.turn,
        conversation,
        results,
        schema: schema_view(ctx.schema),
        prefixes: prefix_views(),
        example_queries: example_queries(ctx.schema),
        patterns: pattern_views(),
    }
}

/// What Phase 2 shows for a turn.
pub fn phase2_view(ctx: &TurnContext<'_>, plan: &Plan, values: &[UsedValue]) -> Phase2View {
    let (conversation, results) = conversation_views(ctx.state);
    Phase2View {
        question: ctx.question.to_string(),
        turn: ctx.turn,
        conversation,
        results,
        plan: PlanView {
            entity: plan.entity.clone(),
            metric_type: plan.metric_type.as_ref().map(ToString::to_string),
            period: plan.period.clone(),
        },
        values: values
            .iter()
            .map(|v| ValueView {
                name: v.name.clone(),
                value: show(v.value),
                description: v.description.clone(),
                source: v.source.clone(),
                metric: v.metric.clone(),
                year: v.year,
            })
            .collect(),
        patterns: pattern_views(),
    }
}

fn sample_phase1() -> Phase1View {
    let result = ResultView {
        reference: "result_0".into(),
        turn: 0,
        question: "what was net sales in 2009?".into(),
        value: Some("1500".into()),
        scale: Some("million".into()),
        description: "net sales (2009)".into(),
        entity: Some("net sales".into()),
        metric_type: "value".into(),
        period: Some("2009".into()),
        formula: "x".into(),
        variables: vec![VariableView {
            name: "x".into(),
            value: "1500".into(),
            description: "net sales (2009)".into(),
            source: "cell row `net sales`, column `2009`: `$ 1,500`".into(),
        }],
        metadata: "{}".into(),
    };
    let failed = ResultView {
        reference: "result_1".into(),
        turn: 1,
        metric_type: "failed".into(),
        ..ResultView::default()
    };
    Phase1View {
        question: "and in 2008?".into(),
        turn: 2,
        conversation: vec![result.clone(), failed],
        results: vec![result],
        schema: SchemaView {
            columns: vec![AxisView {
                index: 0,
                label: "2009".into(),
                year: Some(2009),
                synonyms: Vec::new(),
            }],
            rows: vec![AxisView {
                index: 0,
                label: "net sales".into(),
                year: None,
                synonyms: vec!["revenue".into()],
            }],
            cells: 1,
            sentences: vec![SentenceView {
                index: 0,
                text: "revenue was $ 45.5 million in 2009 .".into(),
                facts: vec![FactView {
                    token: 3,
                    raw: "45.5".into(),
                    value: "45.5".into(),
                    year: Some(2009),
                    scale: Some("million".into()),
                    percent: true,
                    context: "revenue".into(),
                }],
            }],
        },
        prefixes: prefix_views(),
        example_queries: vec![QueryView {
            description: "a cell".into(),
            sparql: "SELECT ?value WHERE { }".into(),
        }],
        patterns: pattern_views(),
    }
}

fn sample_phase2(one: &Phase1View) -> Phase2View {
    Phase2View {
        question: one.question.clone(),
        turn: one.turn,
        conversation: one.conversation.clone(),
        results: one.results.clone(),
        plan: PlanView {
            entity: Some("net sales".into()),
            metric_type: Some("change".into()),
            period: Some("2008 to 2009".into()),
        },
        values: vec![ValueView {
            name: "x".into(),
            value: "1200".into(),
            description: "net sales (2008)".into(),
            source: "cell".into(),
            metric: Some("net sales".into()),
            year: Some(2008),
        }],
        patterns: one.patterns.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_templates_render() {
        let prompts = Prompts::builtin().unwrap();
        prompts.check().unwrap();
        let text = prompts.render("phase1.j2", &sample_phase1()).unwrap();
        assert!(text.contains("and in 2008?"));
        assert!(text.contains("net sales"));
        assert!(text.contains("result_0"));
        assert!(text.contains("PREFIX fk: <https://w3id.org/finkg/ns#>"));
        assert!(text.contains("percentage_change"));
    }

    #[test]
    fn errors_name_the_template_and_line() {
        let err = Prompts::with_sources(vec![("phase1.j2".into(), "ok\n{% if %}".into())])
            .unwrap_err()
            .to_string();
        assert!(err.contains("`phase1.j2`, line 2"), "{err}");
        let prompts =
            Prompts::with_sources(vec![("phase2.j2".into(), "a\nb\n{{ nope.x }}".into())]).unwrap();
        let err = prompts
            .render("phase2.j2", &Phase2View::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("`phase2.j2`, line 3"), "{err}");
    }

    /// A check the views never call.
    struct Unchecked;

    impl crate::planner::PlanCheck for Unchecked {
        fn bind(&self, _: &Plan) -> Result<Vec<UsedValue>, String> {
            Err("not checked".into())
        }
        fn evaluate(&self, _: &str, _: &[UsedValue]) -> Result<crate::turn::Answer, String> {
            Err("not checked".into())
        }
    }

    /// A real page: the example queries bind one value each, and the prompt
    /// holds the labels, the text's numbers and the question.
    #[test]
    fn a_page_renders_with_working_example_queries() {
        let examples = crate::dataset::load_str(
            r#"{"id": "T-1", "doc": {"pre_text": "in 2009 , revenue from services was $ 45.5 million .", "post_text": "",
                 "table": {"2009": {"net \"sales\"": "$ 1,500"}, "2008": {"net \"sales\"": "$ 1,200"}}},
                "dialogue": {"conv_questions": ["q"]}}"#,
            "test",
        )
        .unwrap();
        let kg = crate::kg::KgStore::build(&examples[0].conversation).unwrap();
        let schema = Schema::read(&kg).unwrap();
        let state = ConversationState::new();
        let ctx = TurnContext {
            question: "what was net sales in 2009?",
            turn: 0,
            state: &state,
            schema: &schema,
            check: &Unchecked,
        };
        let view = phase1_view(&ctx);
        assert_eq!(view.example_queries.len(), 2);
        for q in &view.example_queries {
            let mut plan = Plan::default();
            plan.values.insert(
                crate::turn::ValueName::new("x").unwrap(),
                crate::turn::ValueSpec::Sparql {
                    sparql: q.sparql.clone(),
                    description: String::new(),
                },
            );
            crate::llm::reply::with_prefixes(&mut plan);
            let values = crate::exec::bind_values(&kg, &schema, &plan, &state)
                .unwrap_or_else(|e| panic!("{}: {e}", q.sparql));
            assert_eq!(values.len(), 1);
        }
        let text = Prompts::builtin()
            .unwrap()
            .render("phase1.j2", &view)
            .unwrap();
        for needle in [
            "net \"sales\"",
            "\"2008\"",
            "45.5",
            "what was net sales in 2009?",
            "first question",
        ] {
            assert!(text.contains(needle), "{needle} missing from:\n{text}");
        }
        if std::env::var_os("FINKG_SHOW_PROMPT").is_some() {
            eprintln!("{text}");
        }
    }
}
