//! How many generations a batch holds, learnt from how long the last one took: one pacer
//! type for the two places that size batches by time — the GPU engine's submissions
//! (about [`crate::gpu::GpuContext::submission_target`] each, so no submission runs long
//! enough for an OS watchdog, and the window's frames get the device between them) and the
//! runner's batches (about 25 ms, so the simulation thread answers commands between them).
//!
//! ```text
//!            batch of n generations took wall w, kernel k (timestamps, where reported)
//!                                   │
//!        work = min(k, w) ──────────┼──────────── w > 2 × budget?
//!                                   ▼                 │ yes: halve (commands waited)
//!      Fit:    n ← budget ÷ (work ÷ n)                ▼
//!      Double: n ← 2n while work < budget ÷ 2     n ← n ÷ 2
//!                                   │
//!                    clamped to [1, most]; a change of 2× or more is logged
//! ```
//!
//! Work is the kernel time where the device reports it: on a device shared with the window
//! a submission's wall time includes the frames queued before it, and sized by wall time a
//! fast kernel stayed at a generation or two per batch. Wall time still bounds a batch from
//! above, since that is how long commands wait (and a transfer strategy's kernel time is a
//! small part of its wall time).

use std::collections::VecDeque;
use std::time::Duration;

/// How a pacer moves towards its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Growth {
    /// Straight to the generations that fit the budget at the last batch's speed (the
    /// engine's submissions: one `step` call makes many, so it must settle at once).
    Fit,
    /// Double while a batch's work is under half the budget (the runner: one batch per
    /// loop, and a batch that overshoots makes commands wait).
    Double,
}

/// Most decisions a pacer keeps for [`Pacer::decisions`].
const KEPT: usize = 16;

/// Sizes batches by time: [`Pacer::gens`] before a batch, [`Pacer::observe`] after it.
#[derive(Debug, Clone)]
pub struct Pacer {
    what: &'static str,
    budget: Duration,
    growth: Growth,
    ceiling: u64,
    gens: u64,
    decisions: VecDeque<Decision>,
}

/// One logged move: from and to how many generations, why, and how many times the same
/// move came again while alternating with its reverse (a batch size that flips between two
/// values, as it does where wall time and kernel time disagree, is logged once each way).
#[derive(Debug, Clone)]
struct Decision {
    from: u64,
    to: u64,
    text: String,
    again: u64,
}

impl Decision {
    fn describe(&self) -> String {
        match self.again {
            0 => self.text.clone(),
            n => format!("{} (and {n} times more, alternating)", self.text),
        }
    }
}

impl Pacer {
    /// A pacer for batches of `what` (named in its decisions) of about `budget` each, at
    /// most `ceiling` generations, starting at one.
    pub fn new(what: &'static str, budget: Duration, growth: Growth, ceiling: u64) -> Pacer {
        Pacer {
            what,
            budget,
            growth,
            ceiling: ceiling.max(1),
            gens: 1,
            decisions: VecDeque::new(),
        }
    }

    /// Generations the next batch should hold.
    pub fn gens(&self) -> u64 {
        self.gens
    }

    /// Start again from one generation, logging `why`: the work behind a generation just
    /// changed (another strategy, a new world, size or rule), so what was learnt no longer
    /// holds. A batch size learnt on a fast stepper or a small world would otherwise be the
    /// first batch of a slow one: thousands of generations of rayon at 1024², minutes inside
    /// one call while every command waits (the window's freeze of issue #54).
    pub fn restart(&mut self, why: &str) {
        if self.gens > 1 {
            let text = format!(
                "{}: {} → 1 generation (restarted: {why})",
                self.what, self.gens
            );
            self.record(self.gens, 1, text);
        }
        self.gens = 1;
    }

    /// Change the budget (the device's submission target moved: the window opened).
    pub fn set_budget(&mut self, budget: Duration) {
        self.budget = budget;
    }

    /// Learn from a batch of `gens` generations that took `wall`, of which `kernel` seconds
    /// ran on the device where it reports them; the next batch holds at most `most` (what
    /// the stepper's state allowed for this one). Returns the new [`Pacer::gens`].
    ///
    /// The bound is kept: gpu-bitpacked allows one dispatch right after a load, and with the
    /// pacer holding to it the batch after that is one dispatch too, so the shape controller
    /// times no batch next to the load (docs/experiments/shape-controller.md: not kept, the
    /// fresh 8192² bench tuned to 15-row strips at two thirds of the speed).
    pub fn observe(&mut self, gens: u64, wall: Duration, kernel: Option<f64>, most: u64) -> u64 {
        let wall_s = wall.as_secs_f64();
        let work = kernel.map_or(wall_s, |k| k.min(wall_s));
        let budget = self.budget.as_secs_f64();
        let before = self.gens;
        let (next, why) = match self.growth {
            Growth::Fit => {
                let per_gen = work / gens.max(1) as f64;
                let fit = (budget / per_gen.max(1e-9)).min(u64::MAX as f64 / 2.0) as u64;
                (fit, "fit")
            }
            Growth::Double if wall_s > 2.0 * budget => ((self.gens / 2).max(1), "halved"),
            Growth::Double if work < budget / 2.0 => (self.gens.saturating_mul(2), "doubled"),
            Growth::Double => (self.gens, "kept"),
        };
        self.gens = next.clamp(1, most.clamp(1, self.ceiling));
        if self.gens >= before.saturating_mul(2) || self.gens.saturating_mul(2) <= before {
            let text = format!(
                "{}: {} → {} generations ({why}: {} took {:.2} ms of work, {:.2} ms wall; budget {:.1} ms)",
                self.what,
                before,
                self.gens,
                gens,
                work * 1e3,
                wall_s * 1e3,
                budget * 1e3
            );
            self.record(before, self.gens, text);
        }
        self.gens
    }

    /// Log a move from `from` to `to` generations, described by `text`: folded into its
    /// earlier entry when the last two entries are a move and its reverse and this is one of
    /// them again (a flip-flop), else appended (the oldest dropped past [`KEPT`]).
    fn record(&mut self, from: u64, to: u64, text: String) {
        let n = self.decisions.len();
        let flip_flop = n >= 2 && {
            let (a, b) = (&self.decisions[n - 2], &self.decisions[n - 1]);
            (a.from, a.to) == (b.to, b.from)
        };
        if flip_flop
            && let Some(same) = self
                .decisions
                .range_mut(n - 2..)
                .find(|d| (d.from, d.to) == (from, to))
        {
            same.again += 1;
            return;
        }
        if n == KEPT {
            self.decisions.pop_front();
        }
        self.decisions.push_back(Decision {
            from,
            to,
            text,
            again: 0,
        });
    }

    /// The latest decisions that moved the batch size by 2× or more, oldest first.
    pub fn decisions(&self) -> Vec<String> {
        self.decisions.iter().map(Decision::describe).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// The engine's pacer settles at once on what fits the budget by kernel time, however
    /// long the wall time (frames queued ahead).
    #[test]
    fn fit_jumps_to_the_budget_by_kernel_time() {
        let mut p = Pacer::new("submissions", 8 * MS, Growth::Fit, u64::MAX);
        // 1 generation: 0.1 ms of kernel, 30 ms of wall (behind window frames).
        assert_eq!(p.observe(1, 30 * MS, Some(1e-4), u64::MAX), 80);
        // A noisy batch at half the speed halves it.
        assert_eq!(p.observe(80, 20 * MS, Some(0.016), u64::MAX), 40);
        // What the state allows bounds it (one dispatch right after a load: the next batch
        // is one dispatch too), and the bound goes with the next batch.
        assert_eq!(p.observe(6, 2 * MS, Some(1.5e-5), 6), 6);
        assert_eq!(p.observe(6, 2 * MS, Some(1.5e-5), 384), 384);
        // Without timestamps, wall time is the work.
        assert_eq!(p.observe(10, 4 * MS, None, u64::MAX), 20);
        // Never below one.
        assert_eq!(p.observe(20, 5000 * MS, None, u64::MAX), 1);
        let log = p.decisions();
        assert_eq!(log.len(), 6, "{log:?}");
        assert!(
            log[0].starts_with("submissions: 1 → 80 generations (fit"),
            "{log:?}"
        );
    }

    /// The runner's pacer doubles while its work is short, halves when a batch kept the
    /// thread more than twice its budget (even if the device says the work was short),
    /// and holds in between: a settling world that speeds up grows it, an edit that slows
    /// the world (a fresh soup painted in) shrinks it.
    #[test]
    fn double_grows_by_work_and_shrinks_by_wall() {
        let mut p = Pacer::new("runner batches", 25 * MS, Growth::Double, 1 << 20);
        let mut sizes = Vec::new();
        // A fast world: 1 µs a generation of kernel, the wall time what the batch needed.
        for _ in 0..16 {
            let n = p.gens();
            let work = n as f64 * 1e-6;
            sizes.push(p.observe(
                n,
                Duration::from_secs_f64(work + 1e-3),
                Some(work),
                u64::MAX,
            ));
        }
        assert_eq!(sizes[..4], [2, 4, 8, 16]);
        // It stops where a batch's work reaches half the budget (12.5 ms = 12 500 gens).
        assert_eq!(p.gens(), 16_384);
        assert_eq!(p.observe(16_384, 17 * MS, Some(0.0164), u64::MAX), 16_384);
        // An edit: the same batch now takes 80 ms of wall.
        assert_eq!(p.observe(16_384, 80 * MS, Some(0.079), u64::MAX), 8_192);
        // Wall time over twice the budget halves even when the kernel says little (a
        // transfer strategy's read-backs).
        assert_eq!(p.observe(8_192, 60 * MS, Some(0.001), u64::MAX), 4_096);
        // Wall time that stays over twice the budget at this size while the kernel says
        // little (the software driver's frames): the size flips between two values, logged
        // as two lines with a count.
        let mut f = Pacer::new("runner batches", 25 * MS, Growth::Double, 1 << 20);
        for _ in 0..10 {
            let n = f.gens();
            let wall = if n == 2 { 60 * MS } else { 30 * MS };
            f.observe(n, wall, Some(0.001), u64::MAX);
        }
        let log = f.decisions();
        assert_eq!(log.len(), 2, "{log:#?}");
        assert!(log[0].contains("1 → 2") && log[0].contains("(and 4 times more, alternating)"));
        assert!(log[1].contains("2 → 1") && log[1].contains("(and 4 times more, alternating)"));
        // The ceiling holds.
        let mut q = Pacer::new("runner batches", 25 * MS, Growth::Double, 8);
        for _ in 0..10 {
            q.observe(q.gens(), MS, None, u64::MAX);
        }
        assert_eq!(q.gens(), 8);
        assert!(
            p.decisions()
                .iter()
                .any(|d| d.contains("halved") && d.contains("16384 → 8192")),
        );
    }

    /// A restart drops what was learnt: the next batch is one generation, and growth starts
    /// again from there (doubling, never more than twice the batch before).
    #[test]
    fn a_restart_starts_again_from_one_generation() {
        let mut p = Pacer::new("runner batches", 25 * MS, Growth::Double, 1 << 20);
        for _ in 0..12 {
            p.observe(p.gens(), MS, None, u64::MAX);
        }
        assert_eq!(p.gens(), 4096);
        p.restart("strategy switched");
        assert_eq!(p.gens(), 1);
        assert!(
            p.decisions()
                .last()
                .unwrap()
                .contains("4096 → 1 generation (restarted: strategy switched)")
        );
        assert_eq!(p.observe(1, MS, None, u64::MAX), 2);
        // Restarting at one logs nothing.
        let logged = p.decisions().len();
        p.restart("again");
        p.restart("again");
        assert!(p.decisions().len() <= logged + 1);
    }

    /// Only changes of 2× or more are logged, a flip-flop once, and the log keeps the latest
    /// [`KEPT`].
    #[test]
    fn the_log_keeps_big_moves_only() {
        let mut p = Pacer::new("submissions", 8 * MS, Growth::Fit, u64::MAX);
        p.observe(1, MS, Some(1e-3), u64::MAX); // 1 → 8
        for _ in 0..5 {
            p.observe(8, 8 * MS, Some(0.0079), u64::MAX); // 8 → 8 (±1): not logged
        }
        assert_eq!(p.decisions().len(), 1);
        // A size flipping between two values (8 → 800 → 8 …) is logged as two moves.
        for k in 0..40 {
            let n = p.gens();
            let per_gen = if k % 2 == 0 { 1e-5 } else { 1e-3 };
            p.observe(n, 10_000 * MS, Some(per_gen * n as f64), u64::MAX);
        }
        let log = p.decisions();
        assert_eq!(log.len(), 3, "{log:#?}");
        assert!(
            log[2].ends_with("(and 19 times more, alternating)"),
            "{log:#?}"
        );
        // Moves that keep changing fill the log up to its last KEPT.
        for k in 0..40u64 {
            let n = p.gens();
            let per_gen = 1e-9 * f64::from(1u32 << (k % 12));
            p.observe(n, 10_000 * MS, Some(per_gen * n as f64), u64::MAX);
        }
        assert_eq!(p.decisions().len(), KEPT);
    }
}
