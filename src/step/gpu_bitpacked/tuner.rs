//! The stream kernel's shape, chosen per device and world by timing the world's own steps.
//!
//! Two numbers decide how fast the stream kernel runs, and their best values depend on the
//! device and on the world: **generations per dispatch** (more levels reuse each loaded row
//! more, but need more registers, so fewer subgroups are resident) and **strip height**
//! (taller strips waste less halo, but a strip count just past what the device holds at once
//! leaves a last wave of subgroups nearly empty: on a 132-SM GPU at 8192², 47-row strips run
//! in one wave and 46-row strips lose a quarter of the speed). wgpu reports neither the SM
//! count nor how many subgroups of a kernel are resident, so no model from the device's limits
//! places those wave boundaries. The sweep here times the steps the user asked for anyway:
//! each candidate shape runs one sample (a batch, or a whole pass over a repeated world:
//! [`super::samples`]) between two samples of a reference shape (any shape gives the same
//! world, bit for bit), scored by its kernel time (timestamp queries) over theirs; after a coarse sweep over both numbers and a fine sweep of strip heights around the
//! best, the best-scoring shape goes to the [`super::controller::ShapeController`], which keeps it best while the
//! world changes, per world size, rule and topology on this device ([`super::adaptive::Kept`]). The
//! workgroup is whole subgroups up to 128 invocations (4 × 32 on NVIDIA, 16 × 8 on lavapipe),
//! a rule rather than a search: it changes the pipeline, and every pipeline tried would be
//! compiled.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::rule::Rule;

use super::kernel::StepKernel;

/// A stream-kernel shape that needs no pipeline of its own: generations per dispatch (one of
/// the world's compiled walks) and strip height (a dispatch parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Generations per dispatch.
    pub gens: u32,
    /// Interior rows per strip.
    pub strip: u32,
}

/// Strip heights of the coarse sweep (clipped to the world's height).
const COARSE_STRIPS: [u32; 12] = [12, 16, 24, 32, 40, 48, 64, 96, 128, 192, 256, 384];
/// The fine sweep's strip heights, as a range around the coarse best: `[7/10, 3/2]` of it.
const FINE_RANGE: (u32, u32) = (7, 15);
/// Most strip heights in the fine sweep (evenly thinned beyond: a world tall enough to have
/// more distinct strip counts in the range runs many waves, where one more strip matters
/// little).
const FINE_MOST: usize = 40;
/// Batches ignored when tuning starts (the GPU's clock may still be rising).
const SKIP: u32 = 2;
/// Candidates between two reference samples where samples are whole passes over the same
/// generations (exactly the same work each: the reference only tracks the device's clocks).
const PASS_STRIDE: usize = 4;

/// What the tuner may choose from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Space {
    /// Generations per dispatch to try (compiled walks).
    pub gens: Vec<u32>,
    /// A strip height fixed by the user (then only `gens` is searched).
    pub strip: Option<u32>,
    /// Rows of the world (strips taller than this are one strip).
    pub rows: u32,
}

impl Space {
    /// The space for a world of `rows` rows whose stream pipelines step up to `most`
    /// generations per dispatch; `gens` and `strip` fixed by the user where given.
    pub fn new(most: u32, gens: Option<u32>, strip: Option<u32>, rows: u32) -> Space {
        let gens = match gens {
            Some(g) => vec![g.clamp(1, most)],
            None => ((2 * most).div_ceil(3).max(1)..=most).collect(),
        };
        Space {
            gens,
            strip: strip.map(|s| s.max(1)),
            rows: rows.max(1),
        }
    }

    /// Whether there is anything to choose.
    pub fn is_open(&self) -> bool {
        self.gens.len() > 1 || self.strip.is_none()
    }

    /// The shape used before (or instead of) tuning: the most generations, the user's strip
    /// or the middle of the coarse sweep.
    pub fn untuned(&self) -> Shape {
        Shape {
            gens: *self.gens.last().unwrap_or(&1),
            strip: self
                .strip
                .unwrap_or(super::kernel::UNTUNED_STRIP)
                .min(self.rows),
        }
    }

    /// Strip heights of the coarse sweep.
    pub(super) fn coarse_strips(&self) -> Vec<u32> {
        match self.strip {
            Some(s) => vec![s],
            None => dedup_by_count(COARSE_STRIPS.iter().map(|&s| s.min(self.rows)), self.rows),
        }
    }

    /// Strip heights of the fine sweep around `best`: every height in the range that is the
    /// smallest one giving its strip count (a taller strip with the same count only makes the
    /// last strip shorter).
    fn fine_strips(&self, best: u32) -> Vec<u32> {
        let lo = (best * FINE_RANGE.0 / 10).max(1);
        let hi = (best * FINE_RANGE.1 / 10).min(self.rows).max(lo);
        let all = dedup_by_count((lo..=hi).chain([best]), self.rows);
        if all.len() <= FINE_MOST {
            return all;
        }
        let step = all.len() as f64 / FINE_MOST as f64;
        let thinned = (0..FINE_MOST).map(|i| all[(i as f64 * step) as usize]);
        dedup_by_count(thinned.chain([best]), self.rows)
    }
}

/// Whether a batch of `gens` generations with `shape` says enough to time it: two full
/// dispatches or more.
pub(super) fn long_enough(shape: Shape, gens: u64) -> bool {
    gens >= 2 * u64::from(shape.gens)
}

/// Whether a batch of `gens` generations with `shape` that took `seconds` of kernel time is
/// a timing: long enough, and a time was reported.
pub(super) fn timed(shape: Shape, gens: u64, seconds: f64) -> bool {
    long_enough(shape, gens) && seconds > 0.0
}

/// `strips` sorted, keeping the smallest height of each strip count over `rows` rows.
fn dedup_by_count(strips: impl Iterator<Item = u32>, rows: u32) -> Vec<u32> {
    let mut by_count: HashMap<u32, u32> = HashMap::new();
    for s in strips {
        let s = s.clamp(1, rows);
        let smallest = by_count.entry(rows.div_ceil(s)).or_insert(s);
        *smallest = (*smallest).min(s);
    }
    let mut out: Vec<u32> = by_count.into_values().collect();
    out.sort_unstable();
    out
}

/// Which sweep the tuner is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Coarse,
    Fine,
}

/// One sweep: each candidate timed in one sample between two samples of a reference shape,
/// and scored by its time over what the reference took there — a bracket, so a world that
/// speeds up or slows down while it is tuned (a fresh soup settling) favours no candidate:
/// each is compared with what the world cost just before and after it. Samples of batches
/// put one candidate in each bracket; samples of whole passes over a repeated world
/// ([`super::samples`]) time the same work each, so a few candidates share a bracket (the
/// reference's time interpolated between its two samples): fewer passes, each a reload.
#[derive(Debug, Clone)]
struct Sweep {
    reference: Shape,
    candidates: Vec<Shape>,
    /// Time over the bracket, summed, and samples, per candidate.
    totals: Vec<(f64, u32)>,
    /// Candidates a bracket holds.
    stride: usize,
    /// The next candidate to time.
    next: usize,
    /// Seconds per generation of the last reference sample.
    before: Option<f64>,
    /// Candidates timed since it, and their seconds per generation.
    pending: Vec<(usize, f64)>,
}

impl Sweep {
    /// A sweep of `candidates` (the reference is one of them, scored like the others),
    /// `stride` of them in a bracket.
    fn new(reference: Shape, mut candidates: Vec<Shape>, stride: usize) -> Sweep {
        if !candidates.contains(&reference) {
            candidates.push(reference);
        }
        Sweep {
            reference,
            totals: vec![(0.0, 0); candidates.len()],
            candidates,
            stride: stride.max(1),
            next: 0,
            before: None,
            pending: Vec::new(),
        }
    }

    /// Samples of this sweep timed so far and in all.
    fn progress(&self) -> (usize, usize) {
        let n = self.candidates.len();
        let brackets = |c: usize| c.div_ceil(self.stride);
        let scored = self.next - self.pending.len();
        (
            self.next + brackets(scored) + usize::from(self.before.is_some()),
            n + brackets(n) + 1,
        )
    }

    /// Whether the next sample is the reference's: none opened the bracket yet, or the
    /// bracket is full (or holds the last candidates) and must be closed.
    fn reference_due(&self) -> bool {
        self.before.is_none()
            || self.pending.len() == self.stride
            || self.next == self.candidates.len()
    }

    fn current(&self) -> Shape {
        if self.reference_due() {
            self.reference
        } else {
            self.candidates[self.next]
        }
    }

    fn done(&self) -> bool {
        self.next == self.candidates.len() && self.pending.is_empty() && self.before.is_some()
    }

    /// A sample of the current shape ran at `per_gen` seconds a generation.
    fn observe(&mut self, per_gen: f64) {
        if !self.reference_due() {
            self.pending.push((self.next, per_gen));
            self.next += 1;
            return;
        }
        if let Some(before) = self.before {
            let k = self.pending.len() as f64 + 1.0;
            for (j, &(i, time)) in self.pending.iter().enumerate() {
                let expected = before + (per_gen - before) * (j as f64 + 1.0) / k;
                self.totals[i].0 += time / expected;
                self.totals[i].1 += 1;
            }
        }
        self.pending.clear();
        self.before = Some(per_gen);
    }

    /// No bracket may span what just happened: candidates waiting for their closing
    /// reference run again after a new opening one.
    fn reloaded(&mut self) {
        if let Some(&(first, _)) = self.pending.first() {
            self.next = first;
        }
        self.pending.clear();
        self.before = None;
    }

    /// The candidate with the least time over its brackets.
    fn best(&self) -> Shape {
        let score = |i: usize| self.totals[i].0 / f64::from(self.totals[i].1.max(1));
        (0..self.candidates.len())
            .filter(|&i| self.totals[i].1 > 0)
            .min_by(|&a, &b| score(a).total_cmp(&score(b)))
            .map_or(self.reference, |i| self.candidates[i])
    }
}

/// Chooses a world's stream-kernel shape from the kernel times of its batches.
#[derive(Debug, Clone)]
pub struct Tuner {
    space: Space,
    stage: Stage,
    sweep: Sweep,
    skip: u32,
}

impl Tuner {
    /// A tuner over `space` (`None` when it is closed: nothing to choose).
    pub fn new(space: Space) -> Option<Tuner> {
        if !space.is_open() {
            return None;
        }
        let strips = space.coarse_strips();
        let candidates = space
            .gens
            .iter()
            .flat_map(|&gens| strips.iter().map(move |&strip| Shape { gens, strip }))
            .collect();
        Some(Tuner {
            space: space.clone(),
            stage: Stage::Coarse,
            sweep: Sweep::new(space.untuned(), candidates, 1),
            skip: SKIP,
        })
    }

    /// The same sweep over whole passes of a repeated world ([`super::samples`]): timed
    /// from its first sample (the device is warm), [`PASS_STRIDE`] candidates a bracket.
    pub fn by_passes(self) -> Tuner {
        let sweep = Sweep::new(self.sweep.reference, self.sweep.candidates, PASS_STRIDE);
        Tuner {
            skip: 0,
            sweep,
            ..self
        }
    }

    /// The candidate being timed.
    pub fn shape(&self) -> Shape {
        self.sweep.current()
    }

    /// The shape a batch of `gens` generations runs with: the candidate being timed when the
    /// batch is long enough to time it (two dispatches or more), else the untuned shape — a
    /// world stepped a generation at a time (the window at low speed) never times anything
    /// and should not run a poor candidate meanwhile.
    pub fn for_batch(&self, gens: u64) -> Shape {
        let candidate = self.shape();
        if long_enough(candidate, gens) {
            candidate
        } else {
            self.space.untuned()
        }
    }

    /// Fewest generations per dispatch a batch may run with now (sizes the batch).
    pub fn least_gens(&self) -> u32 {
        self.shape().gens.min(self.space.untuned().gens)
    }

    /// Batches of this sweep timed so far and in all (for progress lines).
    pub fn progress(&self) -> (usize, usize) {
        self.sweep.progress()
    }

    /// The world was loaded again: timings across the reload do not compare.
    pub fn reloaded(&mut self) {
        self.sweep.reloaded();
    }

    /// A batch of `gens` generations ran with `shape` in `seconds`. Batches too short to say
    /// much (fewer than two full dispatches) and batches with another shape are ignored.
    /// Returns the chosen shape once tuning is over.
    pub fn observe(&mut self, shape: Shape, gens: u64, seconds: f64) -> Option<Shape> {
        if shape != self.shape() || !timed(shape, gens, seconds) {
            return None;
        }
        if self.skip > 0 {
            self.skip -= 1;
            return None;
        }
        self.sweep.observe(seconds / gens as f64);
        if !self.sweep.done() {
            return None;
        }
        let best = self.sweep.best();
        match self.stage {
            Stage::Coarse if self.space.strip.is_none() => {
                let candidates = self
                    .space
                    .fine_strips(best.strip)
                    .into_iter()
                    .map(|strip| Shape {
                        gens: best.gens,
                        strip,
                    })
                    .collect();
                self.stage = Stage::Fine;
                self.sweep = Sweep::new(best, candidates, self.sweep.stride);
                None
            }
            _ => Some(best),
        }
    }
}

/// What a tuned shape was chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TuneKey {
    /// World width in cells.
    pub width: u32,
    /// World height in cells.
    pub height: u32,
    /// The rule stepped.
    pub rule: Rule,
    /// Torus or dead border.
    pub torus: bool,
    /// The step kernel.
    pub kernel: StepKernel,
    /// Generations per dispatch and strip height the user fixed (the space searched), so a
    /// shape tuned freely never overrides a fixed one, nor the other way round.
    pub fixed: (Option<u32>, Option<u32>),
}

/// What worlds of each key learnt on one device (a [`crate::gpu::GpuContext`] resource),
/// kept after every batch, so a world loaded again — the benchmark reloads its window before
/// each repeat, the app on Reset — goes on where the last one left off.
#[derive(Debug)]
pub struct KeptByKey<T>(Mutex<HashMap<TuneKey, T>>);

impl<T> Default for KeptByKey<T> {
    fn default() -> Self {
        KeptByKey(Mutex::new(HashMap::new()))
    }
}

impl<T: Clone> KeptByKey<T> {
    /// What was kept for `key`, if anything (a copy: the world that takes it keeps it up to
    /// date with [`Self::keep`]).
    pub fn get(&self, key: &TuneKey) -> Option<T> {
        self.0.lock().ok()?.get(key).cloned()
    }

    /// Keep `value` for `key`.
    pub fn keep(&self, key: TuneKey, value: &T) {
        if let Ok(mut map) = self.0.lock() {
            map.insert(key, value.clone());
        }
    }
}

#[cfg(test)]
pub(super) mod fake;
#[cfg(test)]
mod tests;
