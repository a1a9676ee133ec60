//! The watch's parts: which way a neighbouring shape lies, the neighbour itself, a probe of
//! it and where the watch stands (the controller's Checking, Climbing and Resting stages).

use super::super::tuner::Shape;
use super::PROBE_EVERY;

/// Shortest strip a neighbour may have.
pub(super) const MIN_STRIP: u32 = 2;

/// Which way a neighbour lies: shorter strips (more of them) or taller (fewer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Strips a fifth shorter.
    Shorter,
    /// Strips a quarter taller.
    Taller,
}

impl Direction {
    pub(super) fn other(self) -> Direction {
        match self {
            Direction::Shorter => Direction::Taller,
            Direction::Taller => Direction::Shorter,
        }
    }
}

/// The shape one step from `shape` in `direction` over `rows` rows: about 5/4 as many strips
/// (shorter) or 4/5 (taller), at least one more or fewer, each strip the smallest height
/// giving its count; `None` at the end of the range.
pub fn neighbour(shape: Shape, direction: Direction, rows: u32) -> Option<Shape> {
    let count = rows.div_ceil(shape.strip.max(1));
    let next = match direction {
        Direction::Shorter => (count * 5 / 4).max(count + 1),
        Direction::Taller => (count * 4 / 5).min(count.saturating_sub(1)),
    };
    if next == 0 {
        return None;
    }
    let strip = rows.div_ceil(next);
    (strip >= MIN_STRIP.min(rows) && strip != shape.strip).then_some(Shape {
        strip,
        gens: shape.gens,
    })
}

/// A probe: one batch of a neighbour, between two of the chosen shape.
#[derive(Debug, Clone, Copy)]
pub(super) struct Probe {
    pub(super) shape: Shape,
    pub(super) direction: Direction,
    /// Seconds per generation of the chosen shape's batch before it.
    pub(super) before: f64,
    /// Seconds per generation of the probe's batch, once it ran.
    pub(super) seconds: Option<f64>,
}

/// Where the watch stands.
#[derive(Debug, Clone)]
pub(super) struct Watch {
    /// Directions still to check after a sweep or a reload (Checking while non-empty).
    pub(super) unchecked: Vec<Direction>,
    /// The direction of the last move while the next probe goes on that way.
    pub(super) climbing: Option<Direction>,
    /// A neighbour that won its last probe, and how many in a row: probed again at once.
    pub(super) confirming: Option<(Direction, u32)>,
    /// Timed batches of the chosen shape since the last probe.
    pub(super) since_probe: u32,
    pub(super) probe: Option<Probe>,
    /// The direction the next probe at rest takes.
    pub(super) next: Direction,
}

impl Watch {
    pub(super) fn new() -> Watch {
        Watch {
            unchecked: vec![Direction::Shorter, Direction::Taller],
            climbing: None,
            confirming: None,
            since_probe: 0,
            probe: None,
            next: Direction::Shorter,
        }
    }

    /// The direction to probe after a batch of the chosen shape, if a probe is due.
    pub(super) fn due(&mut self) -> Option<Direction> {
        if let Some((d, _)) = self.confirming {
            return Some(d);
        }
        if let Some(d) = self.climbing {
            return Some(d);
        }
        if let Some(&d) = self.unchecked.first() {
            return Some(d);
        }
        if self.since_probe >= PROBE_EVERY {
            let d = self.next;
            self.next = d.other();
            return Some(d);
        }
        None
    }
}
