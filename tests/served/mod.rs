//! A `finkg serve` process for the tests: started on 127.0.0.1 with a
//! free port (`--addr 127.0.0.1:0`), its address read from the startup
//! line, stopped with SIGINT as a user's Ctrl-C would.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};

/// A path under the crate's `data/` folder.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// A running `finkg serve`.
pub struct Server {
    child: Child,
    stdout: BufReader<ChildStdout>,
    /// `http://127.0.0.1:PORT`, no slash at the end.
    pub base: String,
    /// The startup lines after the first.
    pub banner: String,
}

impl Server {
    /// Starts `finkg serve FILES --addr 127.0.0.1:0` and waits for its
    /// startup lines.
    pub fn start(files: &[&Path]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_finkg"))
            .arg("serve")
            .args(files)
            .args(["--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("finkg starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("stdout reads");
        let Some(base) = first
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .map(|a| format!("http://{}", a.trim_end_matches('/')))
        else {
            let mut err = String::new();
            let _ = child.stderr.take().map(|mut e| e.read_to_string(&mut err));
            let _ = child.kill();
            panic!("finkg serve did not start: {first}{err}");
        };
        let mut banner = String::new();
        for _ in 0..4 {
            stdout.read_line(&mut banner).expect("stdout reads");
        }
        Server {
            child,
            stdout,
            base,
            banner,
        }
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGINT (Ctrl-C) and waits: the exit status and the rest of stdout.
    pub fn interrupt(mut self) -> (ExitStatus, String) {
        // the shell's own `kill`: no procps needed
        let sent = Command::new("sh")
            .args(["-c", &format!("kill -INT {}", self.child.id())])
            .status()
            .expect("sh runs");
        assert!(sent.success());
        let status = self.child.wait().expect("finkg exits");
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).expect("stdout reads");
        (status, rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
