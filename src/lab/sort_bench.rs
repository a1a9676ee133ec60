//! The sort experiment's measurements at one size: rayon on the CPU, the bitonic
//! configurations and the radix sorts on the GPU, each validated on the same input first,
//! then warmed up ([`settle`]) and timed.

use std::time::Instant;

use rayon::slice::ParallelSliceMut;

use super::gpu::{Clock, per_submission, read_back, restore, settle};
use super::sort::{Pair, compare, validate};
use super::sort_kernels::{Bitonic, Config};
use super::sort_onesweep::{self, OneSweepSorter, Part};
use super::sort_radix::{self, RadixSorter};
use super::sort_radix8::{self, Phases, Radix8Sorter};
use super::{LabError, LabRow, Progress};
use crate::bench::median;
use crate::gpu::GpuContext;

/// What every measurement at one size shares.
pub(super) struct SizeBench<'a> {
    pub(super) ctx: &'a GpuContext,
    pub(super) input: &'a [Pair],
    /// Padded size.
    pub(super) n: u32,
    pub(super) buffer: wgpu::Buffer,
    pub(super) pristine: wgpu::Buffer,
    pub(super) copy: f64,
    pub(super) descending: bool,
    pub(super) repeats: usize,
    /// Whether timings warm the device up first ([`settle`]).
    pub(super) warm: bool,
    pub(super) progress: &'a Progress,
}

impl SizeBench<'_> {
    /// rayon on a copy of the input: validated first run, median of the others (wall clock).
    pub(super) fn cpu(&self, row: &mut LabRow) -> Result<(), LabError> {
        let mut times = Vec::new();
        let mut result = Ok(());
        for r in 0..=self.repeats {
            self.progress.check()?;
            let mut work = self.input.to_vec();
            let start = Instant::now();
            work.par_sort_unstable_by(|a, b| compare(a, b, self.descending));
            times.push(start.elapsed().as_secs_f64());
            if r == 0 {
                result = validate(self.input, &work, self.descending);
            }
        }
        times.remove(0);
        row.validated = result.is_ok();
        row.ms = Some(median(&times) * 1e3);
        row.notes = result
            .err()
            .unwrap_or_else(|| format!("{} threads, wall clock", rayon::current_num_threads()));
        Ok(())
    }

    /// Validate one GPU run of `sort` (done by the caller), then warm up ([`settle`]) and time
    /// it; `global_bytes` is the traffic the effective GB/s counts.
    fn validate_and_time(
        &self,
        row: &mut LabRow,
        notes: String,
        global_bytes: f64,
        mut sort: impl FnMut() -> Result<f64, LabError>,
    ) -> Result<(), LabError> {
        let out: Vec<Pair> = read_back(self.ctx, &self.buffer, self.input.len())?;
        let checked = validate(self.input, &out, self.descending);
        row.validated = checked.is_ok();
        row.notes = checked.err().unwrap_or(notes);
        if row.validated {
            settle(self.warm, &mut sort)?;
            let times = (0..self.repeats)
                .map(|_| sort())
                .collect::<Result<Vec<f64>, _>>()?;
            let t = median(&times);
            let (fastest, slowest) = times
                .iter()
                .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            row.notes += &format!("; repeats {:.3}–{:.3} ms", fastest * 1e3, slowest * 1e3);
            row.ms = Some(t * 1e3);
            row.gb_per_s = Some(global_bytes / t / 1e9);
            row.percent_of_copy = Some(100.0 * global_bytes / t / self.copy);
        }
        Ok(())
    }

    pub(super) fn radix(
        &self,
        radix: &RadixSorter,
        clock: &mut Clock,
        row: &mut LabRow,
    ) -> Result<(), LabError> {
        let (ctx, count) = (self.ctx, self.input.len() as u32);
        let (spare, counts) = RadixSorter::scratch(ctx, count)?;
        let batch = per_submission(16.0 * f64::from(count), self.copy, 0.05);
        let mut sort = || -> Result<f64, LabError> {
            restore(ctx, &self.pristine, &self.buffer)?;
            let buffers = (&self.buffer, &spare, &counts);
            radix.sort(
                ctx,
                buffers,
                count,
                self.descending,
                clock,
                batch,
                self.progress,
            )
        };
        sort()?;
        let passes = sort_radix::PASSES;
        let notes = format!(
            "{passes} passes × (histogram, scan, scatter); GB/s counts 3 × 8 B per pair per pass"
        );
        let bytes = f64::from(passes) * 3.0 * f64::from(count) * 8.0;
        self.validate_and_time(row, notes, bytes, sort)
    }

    pub(super) fn radix8(
        &self,
        radix: &Radix8Sorter,
        clock: &mut Clock,
        row: &mut LabRow,
    ) -> Result<(), LabError> {
        let (ctx, count) = (self.ctx, self.input.len() as u32);
        let scratch = radix.scratch(ctx, count)?;
        let batch = per_submission(24.0 * f64::from(count), self.copy, 0.05);
        let mut run = |phases: Phases| -> Result<f64, LabError> {
            restore(ctx, &self.pristine, &self.buffer)?;
            let what = (count, self.descending);
            radix.sort(
                ctx,
                &self.buffer,
                &scratch,
                what,
                phases,
                clock,
                batch,
                self.progress,
            )
        };
        run(Phases::All)?;
        let passes = sort_radix8::PASSES;
        let notes = format!(
            "{passes} passes × (counts, scan, scatter), {}-pair tiles, {}; GB/s counts 3 × 8 B \
             per pair per pass",
            radix.tile,
            radix.ranking.describe()
        );
        let bytes = f64::from(passes) * 3.0 * f64::from(count) * 8.0;
        self.validate_and_time(row, notes, bytes, || run(Phases::All))?;
        if row.validated {
            // What each phase costs: medians of the phases run alone; the rest is the scatter.
            let mut phase = |phases| -> Result<f64, LabError> {
                let times = (0..self.repeats.max(1))
                    .map(|_| run(phases))
                    .collect::<Result<Vec<f64>, _>>()?;
                Ok(median(&times) * 1e3)
            };
            let (counts, scans) = (phase(Phases::Counts)?, phase(Phases::Scans)?);
            row.notes += &format!("; of which counts {counts:.3} ms, scans {scans:.3} ms");
        }
        Ok(())
    }

    pub(super) fn onesweep(
        &self,
        sorter: &OneSweepSorter,
        clock: &mut Clock,
        row: &mut LabRow,
    ) -> Result<(), LabError> {
        let (ctx, count) = (self.ctx, self.input.len() as u32);
        let scratch = sorter.scratch(ctx, count)?;
        let batch = per_submission(16.0 * f64::from(count), self.copy, 0.05);
        let mut run = |part: Part| -> Result<f64, LabError> {
            restore(ctx, &self.pristine, &self.buffer)?;
            let what = (count, self.descending);
            let buffer = &self.buffer;
            sorter.sort(
                ctx,
                buffer,
                &scratch,
                what,
                part,
                clock,
                batch,
                self.progress,
            )
        };
        run(Part::Whole)?;
        let passes = sort_onesweep::PASSES;
        let notes = format!(
            "a histogram pass + {passes} one-sweep passes, {}-pair tiles ({}), {}; GB/s counts \
             8 B + {passes} × 16 B a pair",
            sorter.shape.tile(),
            sorter.shape.label(),
            sorter.ranking.describe()
        );
        let bytes = (8.0 + f64::from(passes) * 16.0) * f64::from(count);
        self.validate_and_time(row, notes, bytes, || run(Part::Whole))?;
        if row.validated {
            // What the histogram (with the reset and the seeding) costs on its own.
            let times = (0..self.repeats.max(1))
                .map(|_| run(Part::Histogram))
                .collect::<Result<Vec<f64>, _>>()?;
            row.notes += &format!("; of which histogram {:.3} ms", median(&times) * 1e3);
        }
        Ok(())
    }

    pub(super) fn bitonic(
        &self,
        bitonic: &Bitonic,
        config: Config,
        clock: &mut Clock,
        row: &mut LabRow,
    ) -> Result<(), LabError> {
        let (ctx, n) = (self.ctx, self.n);
        let passes = bitonic.schedule(config, n).len();
        let mut batch = per_submission(16.0 * f64::from(n), self.copy, 0.05);
        let mut sort = |batch: usize| -> Result<f64, LabError> {
            restore(ctx, &self.pristine, &self.buffer)?;
            let progress = self.progress;
            bitonic.sort(
                ctx,
                &self.buffer,
                n,
                config,
                self.descending,
                clock,
                batch,
                progress,
            )
        };
        let first = Instant::now();
        sort(batch)?;
        // Later runs size their submissions from this one's time per pass.
        let per_pass = first.elapsed().as_secs_f64() / passes.max(1) as f64;
        batch = ((0.05 / per_pass.max(1e-7)) as usize).clamp(1, 512);
        let notes = if n as usize != self.input.len() {
            format!("{passes} passes, padded to 2^{}", n.trailing_zeros())
        } else {
            format!("{passes} passes")
        };
        let bytes = passes as f64 * 2.0 * f64::from(n) * 8.0;
        self.validate_and_time(row, notes, bytes, || sort(batch))
    }
}
