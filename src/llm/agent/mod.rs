//! The agent planner (`--planner agent`): a tool-calling loop over the
//! chat-completions API (`tools`, `tool_calls`, `role: tool` messages) in
//! which the model looks at the page's graph before it commits.
//!
//! A turn starts with `agent_system.j2` and `agent.j2` (the page's schema
//! summary, the conversation so far, the tools). Each reply's tool calls
//! run through [`tools::run`] and their results go back as `tool`
//! messages; a tool's error is its result, never a crash. The turn ends
//! when `answer` is accepted: its values and formula are the **same**
//! Phase 1 / Phase 2 contract the other planners produce, checked through
//! the turn's [`crate::planner::PlanCheck`] (bound and evaluated as the
//! pipeline will), so execution, metadata, traces and exports are shared.
//!
//! Bounded: at most [`super::LlmConfig::max_tool_calls`] tool calls a turn
//! (a reply that calls no tool, or whose `tool_calls` cannot be read,
//! counts as one, and is answered with `repair.j2`), within the turn's
//! time limit; requests go through [`Link::send`] (cache, retries, rate,
//! budget, run clock) and each is recorded for the trace as an exchange of
//! phase `agent`. A model that never gets an `answer` accepted fails the
//! turn with that reason and the last error.

pub mod tools;

use super::client::{request_body_with_tools, Message};
use super::link::{Link, Stage};
use super::planner::plan_error;
use super::prompts::{AgentView, RepairView, RevisionView};
use super::{LlmError, LlmShared};
use crate::kg::watchdog::with_deadline;
use crate::planner::{PlanError, Planner, TurnContext};
use crate::turn::{Finding, LlmExchange, Phase2, Plan, UsedValue};
use serde_json::{json, Value};
use std::sync::Arc;
use tools::Outcome;

/// The agent planner.
pub struct AgentPlanner {
    link: Link,
    stage: Stage,
    pending: Option<Phase2>,
    /// The turn's messages up to its accepted `answer`, and that call's id:
    /// a revision answers the call with the critic's finding.
    conversation: Option<(Vec<Message>, String)>,
}

impl std::fmt::Debug for AgentPlanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentPlanner")
            .field("model", &self.stage.config.model)
            .field("max_tool_calls", &self.stage.config.max_tool_calls)
            .finish_non_exhaustive()
    }
}

/// One tool call of a reply, read.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The call's id (made up when the model gave none).
    pub id: String,
    /// The function named.
    pub name: String,
    /// Its arguments as JSON text.
    pub arguments: String,
}

/// Reads a reply's `tool_calls`, or says why they cannot be read. An id
/// the model left out is made up from `step` and the call's position;
/// arguments given as an object (some servers do) are taken as its text.
pub fn read_tool_calls(raw: &Value, step: usize) -> Result<Vec<ToolCall>, String> {
    let list = raw
        .as_array()
        .ok_or_else(|| format!("`tool_calls` must be a list, not `{}`", short(raw)))?;
    let mut calls = Vec::new();
    for (i, call) in list.iter().enumerate() {
        let function = call
            .get("function")
            .filter(|f| f.is_object())
            .ok_or_else(|| format!("tool call {i} has no `function` object: `{}`", short(call)))?;
        let name = function
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !n.trim().is_empty())
            .ok_or_else(|| format!("tool call {i} names no function: `{}`", short(call)))?;
        let arguments = match function.get("arguments") {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        let id = call
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty())
            .map_or_else(|| format!("call_{step}_{i}"), str::to_string);
        calls.push(ToolCall {
            id,
            name: name.to_string(),
            arguments,
        });
    }
    if calls.is_empty() {
        return Err("`tool_calls` is an empty list".into());
    }
    Ok(calls)
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text,
    }
}

/// The tool calls as they are sent back in the assistant message.
fn echo(calls: &[ToolCall]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|c| {
                json!({"id": c.id, "type": "function",
                       "function": {"name": c.name, "arguments": c.arguments}})
            })
            .collect(),
    )
}

fn agent_error(message: String) -> PlanError {
    PlanError::Llm(format!("the agent failed: {message}"))
}

impl AgentPlanner {
    /// An agent sharing `shared` with the run's other LLM planners; its
    /// requests go to `shared`'s endpoint and model.
    pub fn new(shared: Arc<LlmShared>) -> Result<Self, LlmError> {
        let link = Link::new(shared.clone())?;
        let stage = link.stage(shared.config.clone())?;
        Ok(Self {
            link,
            stage,
            pending: None,
            conversation: None,
        })
    }

    fn repair(&self, error: &str, attempt: u32, left: u32) -> Result<String, LlmError> {
        self.link.shared.prompts.render(
            "repair.j2",
            &RepairView {
                phase: "agent",
                error: error.to_string(),
                attempt,
                attempts_left: left,
                warnings: Vec::new(),
            },
        )
    }

    /// The tool loop of a turn: the plan and formula of the accepted `answer`.
    fn converse(&mut self, ctx: &TurnContext<'_>) -> Result<(Plan, Phase2), PlanError> {
        let max = self.stage.config.max_tool_calls;
        let view = AgentView::new(ctx, max);
        let prompts = &self.link.shared.prompts;
        let messages = vec![
            Message::new(
                "system",
                prompts
                    .render("agent_system.j2", &view)
                    .map_err(|e| plan_error(&e))?,
            ),
            Message::new(
                "user",
                prompts
                    .render("agent.j2", &view)
                    .map_err(|e| plan_error(&e))?,
            ),
        ];
        let prompt = messages
            .iter()
            .map(|m| format!("[{}]\n{}", m.role, m.content))
            .collect::<Vec<_>>()
            .join("\n\n");
        self.tool_loop(ctx, messages, prompt)
    }

    /// Requests and tool calls from `messages` until an `answer` is
    /// accepted or the tool calls run out.
    fn tool_loop(
        &mut self,
        ctx: &TurnContext<'_>,
        mut messages: Vec<Message>,
        mut prompt: String,
    ) -> Result<(Plan, Phase2), PlanError> {
        let max = self.stage.config.max_tool_calls;
        let definitions = tools::definitions();
        let mut calls: u32 = 0;
        let mut last_error: Option<String> = None;
        for step in 0.. {
            if calls >= max {
                let last = last_error
                    .map(|e| format!("; last error: {e}"))
                    .unwrap_or_default();
                return Err(agent_error(format!(
                    "the model made {calls} tool calls without an accepted `answer` (the limit is {max}){last}"
                )));
            }
            let body = request_body_with_tools(&self.stage.config, &messages, &definitions);
            let reply = self
                .link
                .send(&self.stage, "agent", step, &body, prompt)
                .map_err(|e| agent_error(crate::trace::error_chain(&e)))?;
            let deadline = self.link.turn_deadline.as_ref().map(|d| d.at);
            let read = match &reply.tool_calls {
                None => Err(
                    "the reply called no tool; a turn ends only with the `answer` tool".to_string(),
                ),
                Some(raw) => read_tool_calls(raw, step)
                    .map_err(|e| format!("the reply's `tool_calls` could not be read: {e}")),
            };
            let mut added = Vec::new();
            let mut errors = Vec::new();
            match read {
                Err(error) => {
                    calls += 1;
                    messages.push(Message::new("assistant", reply.content.clone()));
                    let text = self
                        .repair(&error, calls, max.saturating_sub(calls))
                        .map_err(|e| plan_error(&e))?;
                    added.push(format!("[user]\n{text}"));
                    messages.push(Message::new("user", text));
                    errors.push(error);
                }
                Ok(list) => {
                    messages.push(Message {
                        tool_calls: Some(echo(&list)),
                        ..Message::new("assistant", reply.content.clone())
                    });
                    for call in &list {
                        if calls >= max {
                            break;
                        }
                        calls += 1;
                        let outcome = with_deadline(deadline, || {
                            tools::run(ctx, &call.name, &call.arguments)
                        });
                        let text = match outcome {
                            Ok(Outcome::Answer(plan, phase2)) => {
                                self.conversation = Some((messages, call.id.clone()));
                                return Ok((plan, phase2));
                            }
                            Ok(Outcome::Result(text)) => text,
                            Err(e) => {
                                errors.push(format!("`{}`: {e}", call.name));
                                match super::reply::long_decimal_warning(&call.arguments) {
                                    Some(w) => format!("error: {e}\nwarning: {w}"),
                                    None => format!("error: {e}"),
                                }
                            }
                        };
                        added.push(format!("[tool {} {}]\n{text}", call.id, call.name));
                        messages.push(Message::tool(&call.id, text));
                    }
                }
            }
            if !errors.is_empty() {
                let joined = errors.join("; ");
                if let Some(last) = self.link.exchanges.last_mut() {
                    last.error = Some(joined.clone());
                }
                last_error = Some(joined);
            }
            prompt = added.join("\n\n");
        }
        Err(agent_error("the tool loop ended".into()))
    }
}

impl Planner for AgentPlanner {
    fn name(&self) -> &'static str {
        "agent"
    }

    fn phase1(&mut self, ctx: &TurnContext<'_>) -> Result<Plan, PlanError> {
        self.pending = None;
        self.conversation = None;
        let limit = self.stage.config.turn_time_limit;
        self.link.start_turn(limit);
        let (plan, phase2) = self.converse(ctx)?;
        self.pending = Some(phase2);
        Ok(plan)
    }

    fn phase2(
        &mut self,
        _ctx: &TurnContext<'_>,
        _plan: &Plan,
        _values: &[UsedValue],
    ) -> Result<Phase2, PlanError> {
        self.pending
            .take()
            .ok_or_else(|| agent_error("no accepted `answer` holds a formula".into()))
    }

    fn take_exchanges(&mut self) -> Vec<LlmExchange> {
        std::mem::take(&mut self.link.exchanges)
    }

    /// The accepted `answer` call gets the critic's finding as its result
    /// (`revise.j2`), and the tool loop goes on to a new `answer`.
    fn revise(
        &mut self,
        ctx: &TurnContext<'_>,
        finding: &Finding,
    ) -> Option<Result<Plan, PlanError>> {
        let (mut messages, id) = self.conversation.take()?;
        self.pending = None;
        let view = RevisionView {
            check: finding.check.name(),
            finding: finding.message.clone(),
            suspects: finding.suspects.clone(),
        };
        let text = match self.link.shared.prompts.render("revise.j2", &view) {
            Ok(text) => text,
            Err(e) => return Some(Err(plan_error(&e))),
        };
        let prompt = format!("[tool {id} answer]\n{text}");
        messages.push(Message::tool(&id, text));
        Some(self.tool_loop(ctx, messages, prompt).map(|(plan, phase2)| {
            self.pending = Some(phase2);
            plan
        }))
    }

    fn stop_reason(&self) -> Option<String> {
        self.link.shared.limits.stop_reason()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tool_calls_and_says_what_is_wrong() {
        let calls = read_tool_calls(
            &json!([{"id": "a", "type": "function", "function": {"name": "query_kg", "arguments": "{\"sparql\": \"ASK {}\"}"}},
                    {"function": {"name": "list_entities", "arguments": {"kind": "rows"}}}]),
            3,
        )
        .unwrap();
        assert_eq!(calls[0].id, "a");
        assert_eq!(calls[1].id, "call_3_1");
        assert_eq!(calls[1].arguments, r#"{"kind":"rows"}"#);
        assert!(read_tool_calls(&json!({"name": "x"}), 0)
            .unwrap_err()
            .contains("must be a list"));
        assert!(read_tool_calls(&json!([{"id": "a"}]), 0)
            .unwrap_err()
            .contains("no `function`"));
        assert!(
            read_tool_calls(&json!([{"function": {"arguments": "{}"}}]), 0)
                .unwrap_err()
                .contains("names no function")
        );
        assert!(read_tool_calls(&json!([]), 0)
            .unwrap_err()
            .contains("empty"));
    }
}
