//! The on-disk reply cache: one JSON file a request, named by the SHA-256
//! of the request body (model, messages and parameters), so a rerun of the
//! same prompts costs nothing and gives the same answers.
//!
//! Layout: `DIR/ab/abcdef….json` holding `{"model", "reply": {"content",
//! "prompt_tokens", "completion_tokens"}}`. Files are written to a
//! temporary name and renamed, so concurrent runs never read half a file.
//! Only replies are cached, never failures.

use super::client::ChatReply;
use super::LlmError;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A folder of cached replies.
#[derive(Debug, Clone)]
pub struct ResponseCache {
    dir: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    model: String,
    reply: ChatReply,
}

impl ResponseCache {
    /// Opens (creating it if needed) the cache folder.
    pub fn open(dir: &Path) -> Result<Self, LlmError> {
        std::fs::create_dir_all(dir).map_err(|source| LlmError::Cache {
            path: dir.to_path_buf(),
            source,
        })?;
        Ok(Self {
            dir: dir.to_path_buf(),
        })
    }

    /// The key of a request body: hex SHA-256 of its JSON text.
    pub fn key(body: &serde_json::Value) -> String {
        let digest = Sha256::digest(body.to_string().as_bytes());
        let mut hex = String::with_capacity(64);
        for byte in digest.iter() {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached reply of a key, if there is a readable one.
    pub fn get(&self, key: &str) -> Option<ChatReply> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str::<Entry>(&text).ok().map(|e| e.reply)
    }

    /// Stores a reply.
    pub fn put(&self, key: &str, model: &str, reply: &ChatReply) -> std::io::Result<()> {
        let path = self.path(key);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let entry = Entry {
            model: model.to_string(),
            reply: reply.clone(),
        };
        let text = serde_json::to_string_pretty(&entry).map_err(std::io::Error::other)?;
        let tmp = path.with_extension(format!("tmp{}", fastrand::u64(..)));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_the_request_and_replies_round_trip() {
        let a = serde_json::json!({"model": "m", "messages": [{"role": "user", "content": "q"}]});
        let b = serde_json::json!({"model": "m", "messages": [{"role": "user", "content": "q2"}]});
        assert_eq!(ResponseCache::key(&a), ResponseCache::key(&a.clone()));
        assert_ne!(ResponseCache::key(&a), ResponseCache::key(&b));
        assert_eq!(ResponseCache::key(&a).len(), 64);
        let dir = tempfile::tempdir().unwrap();
        let cache = ResponseCache::open(&dir.path().join("c")).unwrap();
        let key = ResponseCache::key(&a);
        assert_eq!(cache.get(&key), None);
        let reply = ChatReply {
            content: "{}".into(),
            prompt_tokens: Some(5),
            completion_tokens: None,
            tool_calls: Some(serde_json::json!([{"id": "c1", "type": "function",
                "function": {"name": "answer", "arguments": "{}"}}])),
        };
        cache.put(&key, "m", &reply).unwrap();
        assert_eq!(cache.get(&key), Some(reply));
    }
}
