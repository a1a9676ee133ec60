//! The drift watch: when a tuned shape's own speed moves more than [`RETUNE_FACTOR`] either
//! way, the world has changed enough that a far-away shape may now win.

/// How far the speed of a tuned shape may move, either way, before the world is tuned again.
pub const RETUNE_FACTOR: f64 = 2.0;
/// Timed batches whose median is the tuned shape's speed (first the reference, then the
/// latest compared with it).
pub const DRIFT_WINDOW: usize = 8;

/// Watches the speed of a tuned shape: when the world's state has changed it so much that
/// another shape may now be best, the world is tuned again. A soup that settles is the case in
/// point: with replay ([`super::super::replay`]) it runs several times faster, and its best strips
/// are far shorter (a block lasts as long as its slowest stepped strip).
#[derive(Debug, Clone, Default)]
pub struct Drift {
    /// Median seconds per generation of the first timed batches.
    reference: Option<f64>,
    /// Seconds per generation of the latest timed batches (at most [`DRIFT_WINDOW`]).
    recent: Vec<f64>,
}

impl Drift {
    /// Forget the latest batches (none may be compared across a reload); the reference
    /// stays.
    pub fn forget_recent(&mut self) {
        self.recent.clear();
    }

    /// A timed batch of the chosen shape ran at `per_gen` seconds a generation; true when the latest
    /// batches' median is more than [`RETUNE_FACTOR`] away from the first ones' (then the
    /// watch starts over).
    pub fn observe(&mut self, per_gen: f64) -> bool {
        if self.recent.len() == DRIFT_WINDOW {
            self.recent.remove(0);
        }
        self.recent.push(per_gen);
        if self.recent.len() < DRIFT_WINDOW {
            return false;
        }
        let mut sorted = self.recent.clone();
        sorted.sort_by(f64::total_cmp);
        let now = sorted[DRIFT_WINDOW / 2];
        let Some(reference) = self.reference else {
            self.reference = Some(now);
            return false;
        };
        let moved = now > reference * RETUNE_FACTOR || now * RETUNE_FACTOR < reference;
        if moved {
            *self = Drift::default();
        }
        moved
    }
}
