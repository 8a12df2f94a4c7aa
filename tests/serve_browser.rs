//! The web page of `finkg serve` in headless Chromium, driven over the
//! Chrome DevTools Protocol (a WebSocket; no driver binary): load the
//! page, type three questions and press Enter, as a user would; find each
//! answer and the highlighted source cells on the page; keep a screenshot
//! (`serve.png` in Cargo's test temp folder, or where `FINKG_SCREENSHOT`
//! says); a second page shows the critic's finding and revision.
//!
//! Chromium is `FINKG_CHROMIUM`, else `chromium` (Debian's package) or
//! `chromium-browser` / `google-chrome` on the PATH. Without one the test
//! says so and passes, unless `FINKG_REQUIRE_CHROMIUM` is set (`.ci/run`
//! sets it after installing `chromium`): then it fails.

mod served;

use base64::Engine;
use serde_json::{json, Value};
use served::{data, Server};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// How long the page may take to show something before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);

/// The Chromium binary, if there is one.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("FINKG_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| {
            ["chromium", "chromium-browser", "google-chrome"].map(|name| dir.join(name))
        })
        .find(|p| p.is_file())
}

/// A headless Chromium and a DevTools session with its first page.
struct Browser {
    child: Child,
    socket: WebSocket<TcpStream>,
    next_id: u64,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn launch(binary: &PathBuf) -> Browser {
        let profile = tempfile::tempdir().expect("a temp dir");
        let mut child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-crash-reporter",
                "--disable-breakpad",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                "--window-size=1400,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/..."
        let stderr = BufReader::new(child.stderr.take().expect("piped"));
        let mut port = None;
        let mut said = String::new();
        for line in stderr.lines() {
            let line = line.expect("stderr reads");
            said.push_str(&line);
            said.push('\n');
            if let Some(rest) = line.split("ws://127.0.0.1:").nth(1) {
                port = rest.split('/').next().and_then(|p| p.parse::<u16>().ok());
                break;
            }
        }
        let Some(port) = port else {
            let _ = child.kill();
            panic!("chromium did not open its DevTools port:\n{said}");
        };
        // the first page's own WebSocket, from /json/list
        let list = http_get(port, "/json/list");
        let pages: Vec<Value> = serde_json::from_str(&list).expect("a JSON list");
        let ws = pages
            .iter()
            .find(|p| p["type"] == "page")
            .and_then(|p| p["webSocketDebuggerUrl"].as_str())
            .expect("a page target")
            .to_string();
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
        stream
            .set_read_timeout(Some(PATIENCE))
            .expect("a read timeout");
        let (socket, _) = tungstenite::client(ws.as_str(), stream).expect("WebSocket handshake");
        Browser {
            child,
            socket,
            next_id: 0,
            _profile: profile,
        }
    }

    /// Sends a DevTools command and returns its result (events are skipped).
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let request = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(Message::text(request.to_string()))
            .expect("sends");
        loop {
            let message = self.socket.read().expect("a DevTools message");
            let Message::Text(text) = message else {
                continue;
            };
            let reply: Value = serde_json::from_str(text.as_str()).expect("JSON");
            if reply["id"] == id {
                assert!(
                    reply.get("error").is_none(),
                    "{method} failed: {}",
                    reply["error"]
                );
                return reply["result"].clone();
            }
        }
    }

    /// Evaluates a JavaScript expression in the page; its value.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "`{expression}` threw: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is truthy; its value (fails after PATIENCE).
    fn wait_for(&mut self, expression: &str) -> Value {
        let start = Instant::now();
        loop {
            let value = self.eval(expression);
            if !(value.is_null() || value == false || value == "") {
                return value;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the page never showed `{expression}`"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Types `text` into the focused field and presses Enter.
    fn type_and_enter(&mut self, text: &str) {
        self.call("Input.insertText", json!({"text": text}));
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": "Enter", "code": "Enter",
                       "windowsVirtualKeyCode": 13, "text": "\r"}),
            );
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self
            .socket
            .send(Message::text(r#"{"id":0,"method":"Browser.close"}"#));
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain HTTP GET on 127.0.0.1:port; the body (read by its
/// `Content-Length`: Chromium keeps the connection open).
fn http_get(port: u16, path: &str) -> String {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(PATIENCE))
        .expect("a read timeout");
    let mut reader = BufReader::new(stream);
    write!(
        reader.get_mut(),
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    )
    .expect("writes");
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a header line");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().expect("a length");
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("the body");
    String::from_utf8(body).expect("UTF-8")
}

/// The Chromium binary; without one, says the test is skipped (`None`),
/// or fails when `FINKG_REQUIRE_CHROMIUM` is set.
fn chromium_or_skip() -> Option<PathBuf> {
    let binary = chromium();
    if binary.is_none() {
        assert!(
            std::env::var_os("FINKG_REQUIRE_CHROMIUM").is_none(),
            "FINKG_REQUIRE_CHROMIUM is set but no Chromium was found (set FINKG_CHROMIUM)"
        );
        eprintln!("skipped: no Chromium (install Debian's `chromium` or set FINKG_CHROMIUM)");
    }
    binary
}

#[test]
fn the_page_answers_questions_in_headless_chromium() {
    let Some(binary) = chromium_or_skip() else {
        return;
    };
    let server = Server::start(&[&data("example.json")]);
    let mut browser = Browser::launch(&binary);
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
    );
    browser.call("Page.navigate", json!({"url": server.url("/")}));
    browser.wait_for("document.readyState === 'complete' && !!document.getElementById('question')");
    assert_eq!(
        browser.eval("document.querySelector('main').dataset.id"),
        "Single_MRO/2007/page_134.pdf-1"
    );

    let turns = [
        (
            "what was the weighted average exercise price per share in 2007?",
            "60.94",
            vec!["cell-0-0"],
        ),
        ("and what was it in 2005?", "25.14", vec!["cell-0-2"]),
        (
            "what was, then, the change over the years?",
            "35.8",
            vec!["cell-0-0", "cell-0-2"],
        ),
    ];
    for (n, (question, answer, cells)) in turns.iter().enumerate() {
        browser.eval("document.getElementById('question').focus()");
        browser.type_and_enter(question);
        let shown = browser.wait_for(&format!(
            "document.querySelector('#turns > li:nth-child({}) .answer .value')?.textContent",
            n + 1
        ));
        assert_eq!(shown, *answer, "turn {n}: {question}");
        let highlighted = browser.eval(
            "Array.from(document.querySelectorAll('#report-table td.source')).map(td => td.id).sort()",
        );
        assert_eq!(highlighted, json!(cells), "turn {n}: the highlighted cells");
    }
    assert_eq!(
        browser
            .eval("document.querySelector('#turns > li:nth-child(3) .formula code').textContent"),
        "new - old"
    );
    assert_eq!(
        browser.eval("document.querySelector('#turns > li:nth-child(1) pre.sparql').textContent.includes('qb:Observation')"),
        true
    );

    let shot = browser.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().expect("image data"))
        .expect("base64");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let path = std::env::var_os("FINKG_SCREENSHOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve.png"));
    std::fs::write(&path, &png).expect("the screenshot is written");
    eprintln!("screenshot: {}", path.display());
}

/// A page whose "revenue record year" row (years) is the rules planner's
/// first grounding of "the revenue record in 2009": the deterministic
/// critic's year check finds it and the revision reads the revenue row.
const YEAR_PAGE: &str = r#"{"id": "Test_WIDGET/2009/page_3.pdf-1",
 "doc": {"pre_text": "widget co makes widgets .", "post_text": "",
   "table": {"2009": {"revenue": "1,500", "service revenue": "300", "revenue record year": "2007"},
             "2008": {"revenue": "1,200", "service revenue": "250", "revenue record year": "2007"}}},
 "dialogue": {"conv_questions": ["what was the revenue record in 2009?"]}}"#;

#[test]
fn the_page_shows_the_critics_finding_and_revision() {
    let Some(binary) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let file = dir.path().join("page.json");
    std::fs::write(&file, YEAR_PAGE).expect("written");
    let server = Server::start(&[file.as_path()]);
    let mut browser = Browser::launch(&binary);
    browser.call("Page.navigate", json!({"url": server.url("/")}));
    browser.wait_for("document.readyState === 'complete' && !!document.getElementById('question')");
    browser.eval("document.getElementById('question').focus()");
    browser.type_and_enter("what was the revenue record in 2009?");
    let shown = browser
        .wait_for("document.querySelector('#turns > li:nth-child(1) .answer .value')?.textContent");
    assert_eq!(shown, "1500");
    let finding = browser.eval("document.querySelector('#turns .critic .finding').textContent");
    assert!(
        finding
            .as_str()
            .is_some_and(|f| f.starts_with("year check: ")),
        "{finding}"
    );
    let revision = browser.eval("document.querySelector('#turns .critic .kept').textContent");
    assert_eq!(revision, "revised to 1500 (was 2007)");
}
