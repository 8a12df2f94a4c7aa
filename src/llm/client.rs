//! The chat-completions client: one JSON POST to `{base_url}/chat/completions`,
//! the shape OpenAI, vLLM, llama.cpp's server, Ollama, LM Studio and the
//! hosted gateways share.
//!
//! Timeouts, connection errors, 429 and 5xx are retried with exponential
//! backoff and jitter ([`super::limits::backoff`]); a `Retry-After` header
//! (seconds or an HTTP date) replaces the backoff. Other statuses fail at
//! once with the start of the body. No request passes its deadline.

use super::limits::{backoff, Deadline, RateLimiter, RunLimits, MAX_RETRY_AFTER};
use super::{LlmConfig, LlmError};
use crate::trace::error_chain;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant, SystemTime};

/// One chat message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `system`, `user`, `assistant` or `tool`.
    pub role: String,
    /// The text.
    pub content: String,
    /// An assistant message's `tool_calls`, sent back as the model wrote
    /// them (the agent's conversation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<serde_json::Value>,
    /// A `tool` message's answer to the call of this id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

impl Message {
    /// A message of `role`.
    pub fn new(role: &str, content: impl Into<String>) -> Self {
        Self {
            role: role.to_string(),
            content: content.into(),
            tool_calls: None,
            tool_call_id: None,
        }
    }

    /// A `tool` message: the result of the call `id`.
    pub fn tool(id: &str, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(id.to_string()),
            ..Self::new("tool", content)
        }
    }
}

/// A reply: its text and what the server reported using.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatReply {
    /// The first choice's message content.
    pub content: String,
    /// `usage.prompt_tokens`, when reported.
    pub prompt_tokens: Option<u64>,
    /// `usage.completion_tokens`, when reported.
    pub completion_tokens: Option<u64>,
    /// The first choice's `tool_calls` as the server sent them (unread:
    /// the agent reads them and survives malformed ones), when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<serde_json::Value>,
}

/// A failed request, with the retries spent on it.
#[derive(Debug)]
pub struct Failure {
    /// Why.
    pub error: LlmError,
    /// Retries made before giving up.
    pub retries: u32,
}

/// A reply and the retries it took.
#[derive(Debug)]
pub struct Completed {
    /// The reply.
    pub reply: ChatReply,
    /// Retries made before it came.
    pub retries: u32,
}

/// The request body: model, messages and parameters, in a fixed key order
/// (the cache hashes it).
pub fn request_body(config: &LlmConfig, messages: &[Message]) -> serde_json::Value {
    let mut body = serde_json::json!({
        "model": config.model,
        "messages": messages,
        "temperature": config.temperature,
        "stream": false,
    });
    if let Some(n) = config.max_tokens {
        body["max_tokens"] = n.into();
    }
    if config.json_mode {
        body["response_format"] = serde_json::json!({"type": "json_object"});
    }
    body
}

/// The request body of a tool-calling exchange: [`request_body`] with
/// `tools` (the functions the model may call, as JSON-schema definitions)
/// and `tool_choice: "auto"`; `response_format` is never asked beside tools.
pub fn request_body_with_tools(
    config: &LlmConfig,
    messages: &[Message],
    tools: &serde_json::Value,
) -> serde_json::Value {
    let mut body = request_body(config, messages);
    if let Some(map) = body.as_object_mut() {
        map.remove("response_format");
        map.insert("tools".into(), tools.clone());
        map.insert("tool_choice".into(), "auto".into());
    }
    body
}

/// An HTTP client for one endpoint.
#[derive(Debug, Clone)]
pub struct ChatClient {
    http: reqwest::Client,
    url: String,
    api_key: Option<String>,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
}

#[derive(Deserialize)]
struct RawReply {
    choices: Vec<RawChoice>,
    #[serde(default)]
    usage: Option<RawUsage>,
}

#[derive(Deserialize)]
struct RawChoice {
    message: RawMessage,
}

#[derive(Deserialize)]
struct RawMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct RawUsage {
    #[serde(default)]
    prompt_tokens: Option<u64>,
    #[serde(default)]
    completion_tokens: Option<u64>,
}

/// What one attempt gave.
enum Attempt {
    Done(ChatReply),
    /// Worth retrying, after the server's `Retry-After` if it sent one;
    /// `refused` when no connection was made (the circuit breaker counts
    /// those).
    Retry {
        why: String,
        after: Option<Duration>,
        refused: bool,
    },
    Fail(LlmError),
}

impl ChatClient {
    /// A client for `config`'s endpoint. It must be used inside the tokio
    /// runtime it was built beside.
    pub fn new(config: &LlmConfig) -> Result<Self, LlmError> {
        let http = reqwest::Client::builder()
            .user_agent(concat!("finkg/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Startup(error_chain(&e)))?;
        Ok(Self {
            http,
            url: format!("{}/chat/completions", config.base_url.trim_end_matches('/')),
            api_key: config.api_key.clone().filter(|k| !k.is_empty()),
            timeout: config.timeout,
            retries: config.retries,
            backoff: config.backoff,
        })
    }

    /// Sends `body`, retrying as the module doc says, never past `deadline`;
    /// `limits` counts refused connections and requests without a reply
    /// (the circuit breaker), and a tripped breaker ends the retries.
    pub async fn complete(
        &self,
        body: &serde_json::Value,
        deadline: Option<&Deadline>,
        limiter: &RateLimiter,
        limits: &RunLimits,
    ) -> Result<Completed, Failure> {
        let mut retries = 0;
        loop {
            let fail = |error| Failure { error, retries };
            let wait = limiter.reserve(Instant::now());
            sleep_within(wait, deadline).await.map_err(fail)?;
            let mut timeout = self.timeout;
            if let Some(d) = deadline {
                let left = d.at.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(fail(d.error()));
                }
                timeout = timeout.min(left);
            }
            let (why, retry_after) = match self.attempt(body, timeout).await {
                Attempt::Done(reply) => {
                    limits.answered();
                    return Ok(Completed { reply, retries });
                }
                Attempt::Fail(error) => {
                    if !matches!(error, LlmError::Startup(_)) {
                        limits.answered();
                    }
                    return Err(fail(error));
                }
                Attempt::Retry {
                    why,
                    after,
                    refused,
                } => {
                    if !refused {
                        // the server was reached
                        limits.answered();
                    } else if limits.connection_refused(&self.url, &why) {
                        return Err(fail(LlmError::Exhausted {
                            url: self.url.clone(),
                            attempts: retries + 1,
                            last: why,
                        }));
                    }
                    (why, after)
                }
            };
            if let Some(d) = deadline.filter(|d| Instant::now() >= d.at) {
                return Err(fail(d.error()));
            }
            if retries >= self.retries {
                limits.request_exhausted(&self.url, &why);
                return Err(fail(LlmError::Exhausted {
                    url: self.url.clone(),
                    attempts: retries + 1,
                    last: why,
                }));
            }
            let delay = match retry_after {
                Some(after) if after > MAX_RETRY_AFTER => {
                    return Err(fail(LlmError::Exhausted {
                        url: self.url.clone(),
                        attempts: retries + 1,
                        last: format!("{why}; the server asks to wait {} s", after.as_secs()),
                    }))
                }
                Some(after) => after,
                None => backoff(self.backoff, retries),
            };
            sleep_within(delay, deadline).await.map_err(fail)?;
            retries += 1;
        }
    }

    async fn attempt(&self, body: &serde_json::Value, timeout: Duration) -> Attempt {
        let mut request = self.http.post(&self.url).json(body).timeout(timeout);
        if let Some(key) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => return transport(e),
        };
        let status = response.status();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, SystemTime::now()));
        let text = match read_capped(response, MAX_REPLY_BYTES).await {
            Ok(t) => t,
            Err(ReadError::Transport(e)) => return transport(e),
            Err(ReadError::TooLarge) => {
                return Attempt::Fail(LlmError::Protocol {
                    url: self.url.clone(),
                    message: format!("the reply is larger than {} MiB", MAX_REPLY_BYTES >> 20),
                })
            }
        };
        if status.as_u16() == 429 || status.is_server_error() {
            return Attempt::Retry {
                why: format!("HTTP {}: {}", status.as_u16(), snippet(&text)),
                after: retry_after,
                refused: false,
            };
        }
        if !status.is_success() {
            return Attempt::Fail(LlmError::Status {
                url: self.url.clone(),
                status: status.as_u16(),
                body: snippet(&text),
            });
        }
        match parse_reply(&text) {
            Ok(reply) => Attempt::Done(reply),
            Err(message) => Attempt::Fail(LlmError::Protocol {
                url: self.url.clone(),
                message,
            }),
        }
    }
}

fn transport(e: reqwest::Error) -> Attempt {
    let why = if e.is_timeout() {
        format!("timed out: {}", error_chain(&e))
    } else {
        error_chain(&e)
    };
    if e.is_builder() || e.is_redirect() {
        Attempt::Fail(LlmError::Startup(why))
    } else {
        Attempt::Retry {
            why,
            after: None,
            refused: e.is_connect(),
        }
    }
}

/// Largest reply body read; a larger one fails the request while it is
/// being read, before it fills the memory.
pub const MAX_REPLY_BYTES: usize = 8 << 20;

enum ReadError {
    Transport(reqwest::Error),
    TooLarge,
}

/// The body as text (invalid UTF-8 replaced), refused past `max` bytes.
async fn read_capped(mut response: reqwest::Response, max: usize) -> Result<String, ReadError> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(ReadError::TooLarge);
    }
    let mut body: Vec<u8> = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(ReadError::Transport)? {
        if body.len() + chunk.len() > max {
            return Err(ReadError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// Sleeps `wait`, or fails when that would pass the deadline.
async fn sleep_within(wait: Duration, deadline: Option<&Deadline>) -> Result<(), LlmError> {
    if let Some(d) = deadline {
        if Instant::now() + wait >= d.at {
            return Err(d.error());
        }
    }
    if !wait.is_zero() {
        tokio::time::sleep(wait).await;
    }
    Ok(())
}

/// The first 300 characters of a body, on one line.
fn snippet(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(300) {
        Some((i, _)) => format!("{}...", &one_line[..i]),
        None => one_line,
    }
}

/// Reads a chat-completions body: the first choice's content and the usage.
pub fn parse_reply(text: &str) -> Result<ChatReply, String> {
    let raw: RawReply =
        serde_json::from_str(text).map_err(|e| format!("{e}: {}", snippet(text)))?;
    let choice = raw
        .choices
        .into_iter()
        .next()
        .ok_or_else(|| "no `choices`".to_string())?;
    Ok(ChatReply {
        content: choice.message.content.unwrap_or_default(),
        tool_calls: choice
            .message
            .tool_calls
            .filter(|t| !t.is_null() && t.as_array().is_none_or(|a| !a.is_empty())),
        prompt_tokens: raw.usage.as_ref().and_then(|u| u.prompt_tokens),
        completion_tokens: raw.usage.as_ref().and_then(|u| u.completion_tokens),
    })
}

/// A `Retry-After` value: delay seconds or an HTTP date.
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_content_and_usage() {
        let reply = parse_reply(
            r#"{"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"formula\": \"a\"}"}}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}}"#,
        )
        .unwrap();
        assert_eq!(reply.content, r#"{"formula": "a"}"#);
        assert_eq!(
            (reply.prompt_tokens, reply.completion_tokens),
            (Some(10), Some(3))
        );
        let bare = parse_reply(r#"{"choices": [{"message": {"content": "hi"}}]}"#).unwrap();
        assert_eq!(bare.prompt_tokens, None);
        assert!(parse_reply(r#"{"choices": []}"#).is_err());
        assert!(parse_reply("<html>").is_err());
    }

    #[test]
    fn reads_retry_after_in_seconds_and_as_a_date() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after("2", now), Some(Duration::from_secs(2)));
        let date = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(parse_retry_after(&date, now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("soon", now), None);
    }

    #[test]
    fn the_body_holds_model_messages_and_parameters() {
        let mut config = LlmConfig::new("http://127.0.0.1:1/v1", "m");
        config.max_tokens = Some(100);
        let body = request_body(&config, &[Message::new("user", "q")]);
        assert_eq!(body["model"], "m");
        assert_eq!(body["messages"][0]["content"], "q");
        assert_eq!(body["max_tokens"], 100);
        assert_eq!(body["response_format"]["type"], "json_object");
        config.json_mode = false;
        assert!(request_body(&config, &[]).get("response_format").is_none());
    }
}
