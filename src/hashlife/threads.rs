//! How many threads the hashed universe steps with: [`Threads`], a setting every caller
//! passes explicitly (the window's step section, `golab run --threads`, `golab bench
//! --threads`; every core unless told otherwise). One thread is the single-threaded engine;
//! more run the parallel one ([`super::parallel`]) on a rayon pool of that many threads:
//! one pool per count, made on first use and shared by every universe that asks for it, or
//! a pool the caller built ([`super::HashUniverse::set_thread_pool`]).

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// Most threads a step may use (more are taken as this many).
pub const MAX_THREADS: usize = 1024;

/// Threads a hashed step uses: every core the process may use (the default), or a count
/// (1: the single-threaded engine). Results are the same whatever the count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Threads(usize);

impl Threads {
    /// Every core the process may use.
    pub const EVERY_CORE: Threads = Threads(0);
    /// One thread: the single-threaded engine.
    pub const ONE: Threads = Threads(1);

    /// `count` threads (0: every core; at most [`MAX_THREADS`]).
    pub fn count(count: usize) -> Threads {
        Threads(count.min(MAX_THREADS))
    }

    /// Whether this is every core rather than a count.
    pub fn is_every_core(self) -> bool {
        self.0 == 0
    }

    /// The count as set (0: every core), for a settings field.
    pub fn setting(self) -> usize {
        self.0
    }

    /// The threads a step uses on this machine (every core resolved), at least 1.
    pub fn get(self) -> usize {
        match self.0 {
            0 => every_core(),
            n => n,
        }
        .clamp(1, MAX_THREADS)
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_every_core() {
            write!(f, "every core ({})", self.get())
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl FromStr for Threads {
    type Err = String;

    /// A count (`0`, `all` or `auto`: every core).
    fn from_str(text: &str) -> Result<Threads, String> {
        let text = text.trim();
        if ["all", "auto"].iter().any(|w| text.eq_ignore_ascii_case(w)) {
            return Ok(Threads::EVERY_CORE);
        }
        text.parse::<usize>()
            .map(Threads::count)
            .map_err(|_| format!("'{text}' is not a thread count (a number; 0 or all: every core)"))
    }
}

/// Every core the process may use (1 where unknown).
pub fn every_core() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Pools made so far, by thread count.
static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());

/// The shared pool of `threads` threads (made on first use), or `None` for one thread or
/// where the system refuses more threads (then the step runs single-threaded).
pub(crate) fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    if threads <= 1 {
        return None;
    }
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(n, _)| *n == threads) {
        return Some(pool.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("golab-hashlife-{i}"))
        .build()
        .ok()?;
    let pool = Arc::new(pool);
    pools.push((threads, pool.clone()));
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_core_by_default_counts_bounded_and_pools_shared() {
        assert_eq!(Threads::default(), Threads::EVERY_CORE);
        assert_eq!(Threads::EVERY_CORE.get(), every_core());
        assert_eq!(Threads::count(3).get(), 3);
        assert_eq!(Threads::count(usize::MAX).get(), MAX_THREADS);
        assert_eq!("all".parse::<Threads>(), Ok(Threads::EVERY_CORE));
        assert_eq!(" 2 ".parse::<Threads>(), Ok(Threads::count(2)));
        assert!("two".parse::<Threads>().is_err());
        assert_eq!(serde_json::to_string(&Threads::count(4)).unwrap(), "4");
        assert!(pool(1).is_none());
        let a = pool(3).expect("three threads");
        assert_eq!(a.current_num_threads(), 3);
        assert!(Arc::ptr_eq(&a, &pool(3).unwrap()), "one pool per count");
    }
}
