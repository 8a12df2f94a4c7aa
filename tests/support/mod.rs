//! A scripted chat-completions server on 127.0.0.1 for the LLM planner's
//! tests: each request gets the next reply of a script (or the reply a
//! function picks from the request), and every request is kept for the
//! test to inspect. Plain HTTP/1.1 on `std::net`, one thread a
//! connection, `Connection: close` on every response. Also [`finkg`]:
//! the binary with no model or store settings inherited from the
//! environment.

#![allow(dead_code)]

use serde_json::Value;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the server answers to one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A chat completion whose message content is `content`.
    Chat {
        content: String,
        prompt_tokens: u64,
        completion_tokens: u64,
    },
    /// A chat completion whose message holds `tool_calls` (as given: a
    /// test may send malformed ones) and no content.
    ToolCalls(Value),
    /// A bare HTTP response.
    Status {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Another reply, after a pause.
    Delayed(Duration, Box<Reply>),
}

impl Reply {
    /// A completion with `content` (100 prompt and 10 completion tokens).
    pub fn chat(content: impl Into<String>) -> Self {
        Reply::Chat {
            content: content.into(),
            prompt_tokens: 100,
            completion_tokens: 10,
        }
    }
    /// A completion whose content is this JSON.
    pub fn json(value: Value) -> Self {
        Self::chat(value.to_string())
    }
    /// A completion calling the tools `calls` (name, arguments), the
    /// arguments sent as JSON text as OpenAI does.
    pub fn tools(calls: &[(&str, Value)]) -> Self {
        Reply::ToolCalls(Value::Array(
            calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    serde_json::json!({"id": format!("call_{i}_{name}"), "type": "function",
                                       "function": {"name": name, "arguments": args.to_string()}})
                })
                .collect(),
        ))
    }
    /// A completion calling one tool.
    pub fn tool(name: &str, args: Value) -> Self {
        Self::tools(&[(name, args)])
    }
    /// An HTTP status with a body.
    pub fn status(status: u16, body: &str) -> Self {
        Reply::Status {
            status,
            headers: Vec::new(),
            body: body.to_string(),
        }
    }
    /// Adds a header to a status reply.
    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Reply::Status { headers, .. } = &mut self {
            headers.push((name.to_string(), value.to_string()));
        }
        self
    }
    /// The same reply after `delay`.
    pub fn after(self, delay: Duration) -> Self {
        Reply::Delayed(delay, Box::new(self))
    }
}

/// One request as the server received it.
#[derive(Debug, Clone)]
pub struct Received {
    /// When it arrived.
    pub at: Instant,
    /// When its reply was written (or the write failed).
    pub answered: Option<Instant>,
    /// Request line path.
    pub path: String,
    /// Headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The JSON body.
    pub body: Value,
}

impl Received {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
    /// The messages' contents joined.
    pub fn text(&self) -> String {
        self.messages()
            .iter()
            .map(|m| m["content"].as_str().unwrap_or_default().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }
    /// The messages sent.
    pub fn messages(&self) -> Vec<Value> {
        self.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
}

type Pick = Box<dyn Fn(&Value) -> Reply + Send + Sync>;

struct State {
    script: Mutex<VecDeque<Reply>>,
    pick: Option<Pick>,
    received: Mutex<Vec<Received>>,
}

/// The running server.
pub struct Server {
    addr: SocketAddr,
    state: Arc<State>,
}

impl Server {
    /// Answers requests with `replies` in order; once they run out, HTTP 418.
    pub fn script(replies: Vec<Reply>) -> Self {
        Self::start(replies.into(), None)
    }

    /// Answers each request with what `pick` chooses from its body.
    pub fn picking(pick: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> Self {
        Self::start(VecDeque::new(), Some(Box::new(pick)))
    }

    fn start(script: VecDeque<Reply>, pick: Option<Pick>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local address");
        let state = Arc::new(State {
            script: Mutex::new(script),
            pick,
            received: Mutex::new(Vec::new()),
        });
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Self { addr, state }
    }

    /// The base URL to pass as `--llm-base-url`.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Every request so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, state: &State) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let reply = match &state.pick {
        Some(pick) => pick(&body),
        None => state
            .script
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| Reply::status(418, "the script has no more replies")),
    };
    let index = {
        let mut received = state.received.lock().unwrap();
        received.push(Received {
            at: Instant::now(),
            answered: None,
            path,
            headers,
            body,
        });
        received.len() - 1
    };
    respond(stream, reply);
    state.received.lock().unwrap()[index].answered = Some(Instant::now());
}

fn respond(mut stream: TcpStream, reply: Reply) {
    let (status, headers, body) = match reply {
        Reply::Delayed(delay, inner) => {
            std::thread::sleep(delay);
            return respond(stream, *inner);
        }
        Reply::Chat {
            content,
            prompt_tokens,
            completion_tokens,
        } => {
            let body = serde_json::json!({
                "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                          "total_tokens": prompt_tokens + completion_tokens}
            });
            (200, Vec::new(), body.to_string())
        }
        Reply::ToolCalls(calls) => {
            let body = serde_json::json!({
                "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": null, "tool_calls": calls},
                             "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
            });
            (200, Vec::new(), body.to_string())
        }
        Reply::Status {
            status,
            headers,
            body,
        } => (status, headers, body),
    };
    let mut head = format!(
        "HTTP/1.1 {status} Scripted\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let _ = stream.flush();
}

/// The `finkg` binary with no LLM or store settings inherited from the
/// environment, so a test talks only to the servers it starts.
pub fn finkg() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("finkg").expect("the finkg binary builds");
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "FINKG_LLM_MODEL",
        "FINKG_PROMPTS",
        "FINKG_LLM_PRICE_INPUT",
        "FINKG_LLM_PRICE_OUTPUT",
        "FINKG_MONGO_URI",
        "FINKG_STORE",
        "FINKG_STORE_TOKEN",
        "FINKG_STORE_USER",
        "FINKG_STORE_PASSWORD",
    ] {
        cmd.env_remove(var);
    }
    cmd
}
