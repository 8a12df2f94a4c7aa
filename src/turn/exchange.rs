//! Exchanges with a language model, as the LLM planner records them and
//! traces, run folders and exports carry them: one type for all.

use serde::{Deserialize, Serialize};

/// One exchange with a language model: what was sent, what came back and
/// what it cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmExchange {
    /// `phase1` or `phase2` (the LLM planner), `agent` (the agent planner).
    pub phase: String,
    /// 0 for the phase's first request, then 1, 2... for each reply sent
    /// back with its error (the agent: each step of its tool loop).
    pub attempt: usize,
    /// The messages this exchange added to the phase's conversation: the
    /// rendered system and user prompts on attempt 0, the error fed back
    /// on later attempts (the earlier replies are the exchanges before it).
    pub prompt: String,
    /// The model's reply, when one came.
    pub reply: Option<String>,
    /// Why the reply could not be used, or why none came.
    pub error: Option<String>,
    /// Prompt tokens the server reported.
    pub prompt_tokens: Option<u64>,
    /// Completion tokens the server reported.
    pub completion_tokens: Option<u64>,
    /// Milliseconds from the first request to the reply, retries included
    /// (run folders written before this field was always set hold null:
    /// read as 0).
    #[serde(default, deserialize_with = "null_as_default")]
    pub latency_ms: u64,
    /// Requests retried after a timeout, connection error, 429 or 5xx.
    pub retries: u32,
    /// The reply came from the on-disk cache (no request was made).
    pub cache_hit: bool,
    /// What the exchange cost in US dollars at the configured prices (0 on
    /// a cache hit; null in older run folders, read as 0).
    #[serde(default, deserialize_with = "null_as_default")]
    pub cost_usd: f64,
}

/// A number that older records may hold as null.
fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// Requests, tokens and cost, summed over exchanges (a turn's or a run's).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Exchanges answered by the server.
    pub requests: u64,
    /// Exchanges answered from the cache.
    pub cache_hits: u64,
    /// Exchanges that got no reply (refused by a limit, or every attempt
    /// failed); HTTP requests sent are `requests + failed + retries` less
    /// the exchanges a limit refused before sending.
    #[serde(default)]
    pub failed: u64,
    /// Prompt tokens of the requests (cache hits excluded).
    pub prompt_tokens: u64,
    /// Completion tokens of the requests (cache hits excluded).
    pub completion_tokens: u64,
    /// Retried requests.
    pub retries: u64,
    /// Cost in US dollars.
    pub cost_usd: f64,
}

impl Usage {
    /// Adds one exchange.
    pub fn add_exchange(&mut self, e: &LlmExchange) {
        if e.cache_hit {
            self.cache_hits += 1;
        } else {
            if e.reply.is_some() {
                self.requests += 1;
            } else {
                self.failed += 1;
            }
            self.prompt_tokens += e.prompt_tokens.unwrap_or(0);
            self.completion_tokens += e.completion_tokens.unwrap_or(0);
        }
        self.retries += u64::from(e.retries);
        self.cost_usd += e.cost_usd;
    }
    /// Adds another sum.
    pub fn add(&mut self, other: &Usage) {
        self.requests += other.requests;
        self.cache_hits += other.cache_hits;
        self.failed += other.failed;
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
        self.retries += other.retries;
        self.cost_usd += other.cost_usd;
    }
    /// The sum of some exchanges, or `None` when there are none.
    pub fn of(exchanges: &[LlmExchange]) -> Option<Usage> {
        if exchanges.is_empty() {
            return None;
        }
        let mut usage = Usage::default();
        for e in exchanges {
            usage.add_exchange(e);
        }
        Some(usage)
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} requests, {} from the cache, {} failed, {} retries, {} prompt + {} completion tokens, ${:.4}",
            self.requests,
            self.cache_hits,
            self.failed,
            self.retries,
            self.prompt_tokens,
            self.completion_tokens,
            self.cost_usd
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn older_records_with_null_numbers_still_read() {
        let e: LlmExchange = serde_json::from_str(
            r#"{"phase":"phase2","attempt":0,"prompt":"q","reply":null,"prompt_tokens":null,"completion_tokens":null,"latency_ms":null,"retries":0,"cache_hit":true,"cost_usd":null}"#,
        )
        .expect("an older exchange record");
        assert_eq!((e.latency_ms, e.cost_usd, e.error), (0, 0.0, None));
    }

    #[test]
    fn a_failed_exchange_is_counted_as_failed_with_its_retries() {
        let e: LlmExchange = serde_json::from_str(
            r#"{"phase":"phase1","attempt":0,"prompt":"q","reply":null,"error":"no reply after 5 attempts","retries":4,"cache_hit":false}"#,
        )
        .unwrap();
        let u = Usage::of(&[e]).unwrap();
        assert_eq!((u.requests, u.failed, u.retries), (0, 1, 4));
        assert!(
            u.to_string()
                .starts_with("0 requests, 0 from the cache, 1 failed, 4 retries"),
            "{u}"
        );
    }
}
