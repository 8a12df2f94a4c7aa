//! What a run's LLM planners share to stay within bounds: the
//! requests-per-minute limiter, the run's budget and time limit, and the
//! backoff between retries.
//!
//! The budget is checked before each request and charged after it: the
//! request that crosses the budget completes, none starts after it, and
//! [`RunLimits::stop_reason`] tells the run to stop.

use super::LlmError;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest wait between retries computed by backoff.
pub const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// The longest `Retry-After` honoured; a server asking for more fails the request.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(300);

/// The delay before retry `retry` (0-based): `base · 2^retry`, capped at
/// [`MAX_BACKOFF`], of which a random half is jitter.
pub fn backoff(base: Duration, retry: u32) -> Duration {
    let full = base
        .saturating_mul(2u32.saturating_pow(retry.min(20)))
        .min(MAX_BACKOFF);
    let half = full / 2;
    half + half.mul_f64(fastrand::f64())
}

/// Spaces requests so that at most N start in any minute, across threads.
#[derive(Debug)]
pub struct RateLimiter {
    interval: Option<Duration>,
    next: Mutex<Option<Instant>>,
}

impl RateLimiter {
    /// A limiter of `rpm` requests a minute; `None` or 0 does not limit.
    pub fn per_minute(rpm: Option<u32>) -> Self {
        Self {
            interval: rpm.filter(|&n| n > 0).map(|n| Duration::from_secs(60) / n),
            next: Mutex::new(None),
        }
    }

    /// Takes the next free slot and says how long to wait for it.
    pub fn reserve(&self, now: Instant) -> Duration {
        let Some(interval) = self.interval else {
            return Duration::ZERO;
        };
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        let slot = next.map_or(now, |n| n.max(now));
        *next = Some(slot + interval);
        slot - now
    }
}

/// A point in time a request may not pass, and what it is, in words.
#[derive(Debug, Clone)]
pub struct Deadline {
    /// When.
    pub at: Instant,
    /// What, for the error: "the turn's time limit of 30 s".
    pub what: String,
}

impl Deadline {
    /// The earlier of two optional deadlines.
    pub fn earliest(a: Option<Deadline>, b: Option<Deadline>) -> Option<Deadline> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if b.at < a.at { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// The error for having reached it.
    pub fn error(&self) -> LlmError {
        LlmError::TimeLimit(self.what.clone())
    }
}

/// The run's clock, budget and spending, and whether a failure no retry
/// can mend (a rejected key, an unknown model) has halted it.
#[derive(Debug)]
pub struct RunLimits {
    started: Instant,
    time_limit: Option<Duration>,
    budget: Option<f64>,
    spent: Mutex<f64>,
    halted: Mutex<Option<String>>,
    /// Connection attempts refused in a row, across the run's planners.
    refused: AtomicU32,
    /// Requests in a row that ran out of retries (timeouts, 5xx, 429).
    exhausted: AtomicU32,
}

/// Refused connections in a row that halt the run (the circuit breaker).
pub const BREAKER_REFUSED_CONNECTIONS: u32 = 3;
/// Requests in a row without a reply (retries spent) that halt the run.
pub const BREAKER_EXHAUSTED_REQUESTS: u32 = 3;

impl RunLimits {
    /// Limits starting now.
    pub fn new(time_limit: Option<Duration>, budget: Option<f64>) -> Self {
        Self {
            started: Instant::now(),
            time_limit,
            budget,
            spent: Mutex::new(0.0),
            halted: Mutex::new(None),
            refused: AtomicU32::new(0),
            exhausted: AtomicU32::new(0),
        }
    }

    /// Refuses every further request: the server said something no retry
    /// will change for any turn (HTTP 401, 403 or 404).
    pub fn halt(&self, reason: String) {
        self.halted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(reason);
    }

    /// The server answered (anything): the breaker's counts start again.
    pub fn answered(&self) {
        self.refused.store(0, Ordering::Relaxed);
        self.exhausted.store(0, Ordering::Relaxed);
    }

    /// A connection to `url` was refused; true when that trips the breaker,
    /// which halts the run.
    pub fn connection_refused(&self, url: &str, why: &str) -> bool {
        let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= BREAKER_REFUSED_CONNECTIONS {
            self.halt(format!(
                "{url}: {n} connections in a row failed (is the server running?); last: {why}"
            ));
        }
        n >= BREAKER_REFUSED_CONNECTIONS
    }

    /// A request to `url` ran out of retries; halts the run when too many
    /// did in a row.
    pub fn request_exhausted(&self, url: &str, why: &str) {
        let n = self.exhausted.fetch_add(1, Ordering::Relaxed) + 1;
        if n >= BREAKER_EXHAUSTED_REQUESTS {
            self.halt(format!(
                "{url}: {n} requests in a row got no reply; last: {why}"
            ));
        }
    }

    /// Whether a failure no retry mends has halted the run.
    pub fn is_halted(&self) -> bool {
        self.halted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// US dollars spent so far.
    pub fn spent(&self) -> f64 {
        *self.spent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a request's cost.
    pub fn charge(&self, cost: f64) {
        *self.spent.lock().unwrap_or_else(|e| e.into_inner()) += cost;
    }

    /// The run's deadline, when it has a time limit.
    pub fn deadline(&self) -> Option<Deadline> {
        self.time_limit.map(|limit| Deadline {
            at: self.started + limit,
            what: format!("the run's time limit of {} s", limit.as_secs_f64()),
        })
    }

    /// Refuses a new request once the budget is spent or the run's time is up.
    pub fn check(&self) -> Result<(), LlmError> {
        if let Some(reason) = self
            .halted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
        {
            return Err(LlmError::Halted(reason));
        }
        if let Some(budget) = self.budget {
            let spent = self.spent();
            if spent >= budget {
                return Err(LlmError::Budget { budget, spent });
            }
        }
        match self.deadline() {
            Some(d) if Instant::now() >= d.at => Err(d.error()),
            _ => Ok(()),
        }
    }

    /// Why the run must stop, once it must.
    pub fn stop_reason(&self) -> Option<String> {
        self.check().err().map(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_a_cap() {
        let base = Duration::from_millis(100);
        for retry in 0..4 {
            let full = base * 2u32.pow(retry);
            let d = backoff(base, retry);
            assert!(d >= full / 2 && d <= full, "retry {retry}: {d:?}");
        }
        assert!(backoff(base, 30) <= MAX_BACKOFF);
    }

    #[test]
    fn the_limiter_spaces_requests() {
        let limiter = RateLimiter::per_minute(Some(600));
        let now = Instant::now();
        assert_eq!(limiter.reserve(now), Duration::ZERO);
        assert_eq!(limiter.reserve(now), Duration::from_millis(100));
        assert_eq!(limiter.reserve(now), Duration::from_millis(200));
        let later = now + Duration::from_secs(5);
        assert_eq!(limiter.reserve(later), Duration::ZERO);
        let free = RateLimiter::per_minute(None);
        assert_eq!(free.reserve(now), Duration::ZERO);
        assert_eq!(free.reserve(now), Duration::ZERO);
    }

    #[test]
    fn the_budget_stops_after_the_crossing_request() {
        let limits = RunLimits::new(None, Some(0.01));
        assert!(limits.check().is_ok());
        limits.charge(0.004);
        assert!(limits.stop_reason().is_none());
        limits.charge(0.007);
        let reason = limits.stop_reason().expect("stopped");
        assert!(reason.contains("budget"), "{reason}");
        let limits = RunLimits::new(Some(Duration::ZERO), None);
        assert!(limits.stop_reason().unwrap().contains("time limit"));
        let limits = RunLimits::new(None, None);
        limits.halt("HTTP 401".into());
        assert!(limits.stop_reason().unwrap().contains("HTTP 401"));
    }
}
