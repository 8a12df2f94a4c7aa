//! Hard limits on a query in flight: one watchdog thread for the process
//! cancels a running query (oxigraph's [`CancellationToken`]) when its
//! deadline passes or when the process's resident memory has grown by more
//! than [`QUERY_MEMORY_LIMIT`] since the query started.
//!
//! The engine checks its token whenever it reads a quad from the store, so
//! a cancelled query stops within the work of one join step: a cartesian
//! product or a sort over it is stopped, not only a query that returns many
//! rows. The memory bound reads `/proc/self/status` (Linux); elsewhere only
//! the time limit holds. Resident memory is the process's, so queries
//! running side by side (`eval --jobs`) share the bound.
//!
//! A deadline earlier than the query's own limit can be set for a stretch
//! of work on the current thread with [`with_deadline`]: the LLM planner
//! sets its turn's deadline while it checks a reply, so the turn-time limit
//! cancels the query in flight too.

use oxigraph::sparql::CancellationToken;
use std::cell::Cell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Most a query may grow the process's resident memory, in bytes.
pub const QUERY_MEMORY_LIMIT: u64 = 1 << 30;

/// How often the watchdog looks at the queries in flight.
const TICK: Duration = Duration::from_millis(20);

/// Why a query was cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// Its own time limit passed.
    Time,
    /// The deadline set by [`with_deadline`] (a turn's) passed first.
    Deadline,
    /// The process's memory grew by more than the limit.
    Memory,
}

const RUNNING: u8 = 0;

impl Stop {
    fn code(self) -> u8 {
        match self {
            Stop::Time => 1,
            Stop::Deadline => 2,
            Stop::Memory => 3,
        }
    }

    fn from_code(code: u8) -> Option<Stop> {
        match code {
            1 => Some(Stop::Time),
            2 => Some(Stop::Deadline),
            3 => Some(Stop::Memory),
            _ => None,
        }
    }
}

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Runs `f` with queries on this thread stopped at `deadline` at the
/// latest (nested calls keep the earlier deadline).
pub fn with_deadline<R>(deadline: Option<Instant>, f: impl FnOnce() -> R) -> R {
    let before = DEADLINE.with(Cell::get);
    let now = match (before, deadline) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    DEADLINE.with(|d| d.set(now));
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

/// The deadline [`with_deadline`] set for this thread, if any: a query
/// sent elsewhere (the remote store) takes it as its own limit.
pub fn current_deadline() -> Option<Instant> {
    DEADLINE.with(Cell::get)
}

struct Entry {
    id: u64,
    token: CancellationToken,
    deadline: Instant,
    deadline_is_own: bool,
    /// Resident bytes when the watchdog first saw the query.
    base: Option<u64>,
    stop: Arc<AtomicU8>,
}

#[derive(Default)]
struct Watched {
    next_id: u64,
    entries: Vec<Entry>,
    /// The watchdog waits for a first query, not for its tick: only then
    /// does a new query wake it (waking it for every query of a turn cost
    /// a context switch and a read of `/proc/self/status` each).
    idle: bool,
}

struct Watchdog {
    watched: Mutex<Watched>,
    wake: Condvar,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<&'static Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            watched: Mutex::new(Watched::default()),
            wake: Condvar::new(),
        }));
        std::thread::Builder::new()
            .name("finkg-query-watchdog".into())
            .spawn(move || dog.run())
            .expect("could not start the query watchdog thread");
        dog
    })
}

impl Watchdog {
    fn run(&self) {
        let mut watched = self.watched.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if watched.entries.is_empty() {
                watched.idle = true;
                watched = self.wake.wait(watched).unwrap_or_else(|e| e.into_inner());
                watched.idle = false;
                continue;
            }
            watched = self
                .wake
                .wait_timeout(watched, TICK)
                .unwrap_or_else(|e| e.into_inner())
                .0;
            if watched.entries.is_empty() {
                continue;
            }
            let now = Instant::now();
            let rss = resident_bytes();
            for entry in &mut watched.entries {
                if entry.stop.load(Ordering::Relaxed) != RUNNING {
                    continue;
                }
                let stop = if now >= entry.deadline {
                    Some(if entry.deadline_is_own {
                        Stop::Time
                    } else {
                        Stop::Deadline
                    })
                } else {
                    match (rss, entry.base) {
                        (Some(rss), Some(base))
                            if rss.saturating_sub(base) > QUERY_MEMORY_LIMIT =>
                        {
                            Some(Stop::Memory)
                        }
                        (Some(rss), None) => {
                            entry.base = Some(rss);
                            None
                        }
                        _ => None,
                    }
                };
                if let Some(stop) = stop {
                    entry.stop.store(stop.code(), Ordering::Relaxed);
                    entry.token.cancel();
                }
            }
        }
    }
}

/// A query under watch; dropping it ends the watch.
pub struct Watch {
    id: u64,
    stop: Arc<AtomicU8>,
    token: CancellationToken,
}

impl Watch {
    /// Watches a query that may run for `limit` (or until the deadline set
    /// by [`with_deadline`], if earlier).
    pub fn start(limit: Duration) -> Watch {
        let own = Instant::now() + limit;
        let (deadline, deadline_is_own) = match DEADLINE.with(Cell::get) {
            Some(d) if d < own => (d, false),
            _ => (own, true),
        };
        let token = CancellationToken::new();
        let stop = Arc::new(AtomicU8::new(RUNNING));
        if deadline <= Instant::now() {
            stop.store(
                if deadline_is_own {
                    Stop::Time
                } else {
                    Stop::Deadline
                }
                .code(),
                Ordering::Relaxed,
            );
            token.cancel();
        }
        let dog = watchdog();
        let mut watched = dog.watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.next_id += 1;
        let id = watched.next_id;
        watched.entries.push(Entry {
            id,
            token: token.clone(),
            deadline,
            deadline_is_own,
            base: None,
            stop: Arc::clone(&stop),
        });
        if watched.idle {
            dog.wake.notify_one();
        }
        Watch { id, stop, token }
    }

    /// The token to give the evaluator.
    pub fn token(&self) -> CancellationToken {
        self.token.clone()
    }

    /// Why the query was cancelled, if it was.
    pub fn stopped(&self) -> Option<Stop> {
        Stop::from_code(self.stop.load(Ordering::Relaxed))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut watched = watchdog().watched.lock().unwrap_or_else(|e| e.into_inner());
        watched.entries.retain(|e| e.id != self.id);
    }
}

/// The process's resident memory in bytes (Linux), else `None`.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_past_its_deadline_is_cancelled() {
        let watch = Watch::start(Duration::from_millis(30));
        let started = Instant::now();
        while watch.stopped().is_none() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(watch.stopped(), Some(Stop::Time));
    }

    #[test]
    fn an_earlier_deadline_wins_and_is_named() {
        let soon = Instant::now() + Duration::from_millis(30);
        let watch = with_deadline(Some(soon), || Watch::start(Duration::from_secs(60)));
        let started = Instant::now();
        while watch.stopped().is_none() && started.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(watch.stopped(), Some(Stop::Deadline));
        // the deadline was only for the closure
        assert_eq!(DEADLINE.with(Cell::get), None);
    }

    #[test]
    fn a_passed_deadline_cancels_at_once() {
        let past = Instant::now();
        let watch = with_deadline(Some(past), || Watch::start(Duration::from_secs(60)));
        assert_eq!(watch.stopped(), Some(Stop::Deadline));
    }

    #[test]
    fn a_quick_query_is_not_stopped() {
        let watch = Watch::start(Duration::from_secs(60));
        assert_eq!(watch.stopped(), None);
    }

    #[test]
    fn resident_memory_is_read_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 0));
        }
    }
}
