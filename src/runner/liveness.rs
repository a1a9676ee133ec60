//! What the window can know about the simulation thread without waiting for it: whether a
//! batch is in progress and for how long, how many commands wait behind it, and the longest
//! batch so far. Plain atomics, written by the thread around each batch and command and read
//! by the UI every frame, so a thread busy for seconds inside one `step` call can never block
//! the window or make it guess (it shows "waiting for the stepper…" instead).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Shared between [`super::Runner`] (the UI side) and the simulation thread.
pub struct Liveness {
    origin: Instant,
    /// Microseconds after `origin` at which the batch in progress began, plus one; 0 while
    /// no batch runs.
    batch_since: AtomicU64,
    /// Generations the batch in progress was asked for.
    batch_gens: AtomicU64,
    /// Commands the UI sent.
    sent: AtomicU64,
    /// Commands the thread has handled.
    handled: AtomicU64,
    /// Longest batch so far, in microseconds (the soak test's measure of "Stop always stops").
    longest_batch: AtomicU64,
    /// Generations of that longest batch.
    longest_gens: AtomicU64,
    /// Longest time the window waited to read the snapshot or hand over its view request,
    /// in microseconds (locks the thread holds only to swap a value in).
    longest_ui_wait: AtomicU64,
}

impl Default for Liveness {
    fn default() -> Self {
        Liveness {
            origin: Instant::now(),
            batch_since: AtomicU64::new(0),
            batch_gens: AtomicU64::new(0),
            sent: AtomicU64::new(0),
            handled: AtomicU64::new(0),
            longest_batch: AtomicU64::new(0),
            longest_gens: AtomicU64::new(0),
            longest_ui_wait: AtomicU64::new(0),
        }
    }
}

/// The simulation thread as the window sees it at one moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepperState {
    /// The batch in progress: how long it has run and how many generations it holds.
    pub batch: Option<(Duration, u64)>,
    /// Commands sent that the thread has not handled yet.
    pub queued: u64,
    /// The longest batch so far and its generations.
    pub longest_batch: (Duration, u64),
}

impl StepperState {
    /// Whether the window should say it is waiting: a batch has run for more than `after`
    /// (commands sent meanwhile are answered once it ends).
    pub fn waiting(&self, after: Duration) -> bool {
        self.batch.is_some_and(|(running, _)| running > after)
    }
}

impl Liveness {
    fn micros_now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_micros()).unwrap_or(u64::MAX - 1)
    }

    /// The UI sent a command.
    pub fn sent(&self) {
        self.sent.fetch_add(1, Ordering::Relaxed);
    }

    /// The thread handled a command.
    pub fn handled(&self) {
        self.handled.fetch_add(1, Ordering::Relaxed);
    }

    /// The thread starts a batch of `gens` generations.
    pub fn batch_started(&self, gens: u64) {
        self.batch_gens.store(gens, Ordering::Relaxed);
        self.batch_since
            .store(self.micros_now() + 1, Ordering::Release);
    }

    /// The batch in progress ended.
    pub fn batch_ended(&self) {
        let since = self.batch_since.swap(0, Ordering::AcqRel);
        if since == 0 {
            return;
        }
        let took = self.micros_now().saturating_sub(since - 1);
        if took > self.longest_batch.load(Ordering::Relaxed) {
            self.longest_batch.store(took, Ordering::Relaxed);
            self.longest_gens
                .store(self.batch_gens.load(Ordering::Relaxed), Ordering::Relaxed);
        }
    }

    /// The window waited `waited` for a lock shared with the thread.
    pub fn ui_waited(&self, waited: Duration) {
        let micros = u64::try_from(waited.as_micros()).unwrap_or(u64::MAX);
        self.longest_ui_wait.fetch_max(micros, Ordering::Relaxed);
    }

    /// The longest the window has waited for a lock shared with the thread.
    pub fn longest_ui_wait(&self) -> Duration {
        Duration::from_micros(self.longest_ui_wait.load(Ordering::Relaxed))
    }

    /// The thread as of now.
    pub fn state(&self) -> StepperState {
        let since = self.batch_since.load(Ordering::Acquire);
        let batch = (since != 0).then(|| {
            let running = self.micros_now().saturating_sub(since - 1);
            (
                Duration::from_micros(running),
                self.batch_gens.load(Ordering::Relaxed),
            )
        });
        let sent = self.sent.load(Ordering::Relaxed);
        let handled = self.handled.load(Ordering::Relaxed);
        StepperState {
            batch,
            queued: sent.saturating_sub(handled),
            longest_batch: (
                Duration::from_micros(self.longest_batch.load(Ordering::Relaxed)),
                self.longest_gens.load(Ordering::Relaxed),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_seen_while_it_runs_and_the_longest_is_kept() {
        let live = Liveness::default();
        assert_eq!(live.state().batch, None);
        live.sent();
        live.sent();
        live.handled();
        assert_eq!(live.state().queued, 1);
        live.batch_started(64);
        std::thread::sleep(Duration::from_millis(3));
        let state = live.state();
        let (running, gens) = state.batch.expect("a batch in progress");
        assert!(running >= Duration::from_millis(3) && gens == 64);
        assert!(state.waiting(Duration::from_millis(1)));
        live.batch_ended();
        let state = live.state();
        assert_eq!(state.batch, None);
        assert!(!state.waiting(Duration::ZERO));
        assert!(state.longest_batch.0 >= Duration::from_millis(3));
        assert_eq!(state.longest_batch.1, 64);
        // A shorter batch keeps the longest.
        live.batch_started(1);
        live.batch_ended();
        assert_eq!(live.state().longest_batch.1, 64);
    }
}
