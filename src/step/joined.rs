//! Golly's joined surfaces (a shifted torus, Klein bottle, cross-surface, sphere, tube) on
//! strategies whose kernels know only the torus and the dead border — the way Golly runs
//! every bounded grid on algorithms built for the plane.
//!
//! [`JoinedAdapter`] runs the `w × h` surface as a `(w + 2) × (h + 2)` dead-border world on
//! the strategy's own stepper: the outer ring holds the copies of edge cells
//! ([`Topology::source`]), refreshed before every generation from the stepper's state. The
//! ring's own next states are never read (the refresh overwrites them), and every state and
//! age inside is exactly the surface's. The price is one read-back and a few edits per
//! generation, so the adapter steps one generation at a time; `scalar` and `rayon` fill the
//! ring in their padded grid instead (no adapter). Worlds that are a torus or a dead border
//! pass straight through.

use super::report::KernelReport;
use super::{StepError, Stepper, Strategy, TransferCounts, check_same_size, not_loaded, view};
use crate::stats::Stats;
use crate::world::{CellEdit, Topology, World};

/// A stepper that runs joined surfaces on top of one that runs only the torus and the
/// dead border; transparent for those two.
pub struct JoinedAdapter {
    inner: Box<dyn Stepper>,
    surface: Option<Surface>,
}

/// The loaded joined surface.
struct Surface {
    /// Its topology (a [`Topology::Joined`]).
    topology: Topology,
    /// The surface's size.
    width: u32,
    height: u32,
    /// The inner stepper's padded world as last read back (ring included).
    padded: World,
    /// Whether `padded` is the inner stepper's current state.
    fresh: bool,
    /// The edge cells the ring copies (padded coordinates), each once.
    sources: Vec<(u32, u32)>,
    /// Each ring cell of the padded world with the index in `sources` of the edge cell it
    /// copies (`None`: always dead).
    ring: Vec<(u32, u32, Option<usize>)>,
}

impl JoinedAdapter {
    /// Wrap `inner`.
    pub fn new(inner: Box<dyn Stepper>) -> Self {
        JoinedAdapter {
            inner,
            surface: None,
        }
    }

    /// Read the inner stepper's state into the padded copy unless it is current.
    fn refresh(&mut self) -> Result<(), StepError> {
        let Some(surface) = self.surface.as_mut() else {
            return Err(not_loaded());
        };
        if !surface.fresh {
            self.inner.read_world(&mut surface.padded)?;
            surface.fresh = true;
        }
        Ok(())
    }

    /// Set every ring cell of the inner stepper to its edge cell's alive state: from the
    /// edge cells alone where the stepper reads them cheaply ([`Stepper::alive_at`]), else
    /// from a whole read-back, editing only the ring cells that differ.
    fn refill_ring(&mut self) -> Result<(), StepError> {
        let surface = self.surface.as_ref().ok_or_else(not_loaded)?;
        if !surface.fresh
            && let Some(alive) = self.inner.alive_at(&surface.sources)?
        {
            let edits: Vec<CellEdit> = surface
                .ring
                .iter()
                .map(|&(x, y, k)| CellEdit {
                    x,
                    y,
                    alive: k.is_some_and(|k| alive[k]),
                })
                .collect();
            return self.inner.apply_edits(&edits);
        }
        self.refresh()?;
        let surface = self.surface.as_mut().ok_or_else(not_loaded)?;
        let ages = surface.padded.ages();
        let stride = surface.width as usize + 2;
        let alive_at = |(x, y): (u32, u32)| ages[y as usize * stride + x as usize] > 0;
        let edits: Vec<CellEdit> = surface
            .ring
            .iter()
            .filter_map(|&(x, y, k)| {
                let alive = k.is_some_and(|k| alive_at(surface.sources[k]));
                (alive != alive_at((x, y))).then_some(CellEdit { x, y, alive })
            })
            .collect();
        if !edits.is_empty() {
            surface.padded.apply_edits(&edits);
            self.inner.apply_edits(&edits)?;
        }
        Ok(())
    }
}

/// The padded dead-border world of `world`'s surface, ring empty.
fn padded_world(world: &World) -> Result<World, StepError> {
    let mut padded = World::new(
        world.width() + 2,
        world.height() + 2,
        Topology::DeadBorder,
        world.rule(),
    )?;
    padded.generation = world.generation;
    copy_inside(world, &mut padded, true);
    Ok(padded)
}

/// Copy ages and dying states between a surface's world and its padded world: into the
/// padded world's inside (`into_padded`), or out of it.
fn copy_inside(from: &World, to: &mut World, into_padded: bool) {
    let w = from.width().min(to.width()) as usize;
    let h = from.height().min(to.height()) as usize;
    let has_dying = !from.dying().is_empty() && !to.dying().is_empty();
    for y in 0..h {
        let plain = y * w..(y + 1) * w;
        let padded = (y + 1) * (w + 2) + 1..(y + 1) * (w + 2) + 1 + w;
        let (src, dst) = if into_padded {
            (plain, padded)
        } else {
            (padded, plain)
        };
        to.ages_mut()[dst.clone()].copy_from_slice(&from.ages()[src.clone()]);
        if has_dying {
            to.dying_mut()[dst].copy_from_slice(&from.dying()[src]);
        }
    }
}

impl Stepper for JoinedAdapter {
    fn strategy(&self) -> Strategy {
        self.inner.strategy()
    }

    fn load(&mut self, world: &World) -> Result<(), StepError> {
        if !world.topology.is_joined() {
            self.surface = None;
            return self.inner.load(world);
        }
        if world.rule().is_table() {
            return Err(StepError::Unavailable {
                strategy: self.inner.strategy().name(),
                reason: format!(
                    "a rule table on a {} reads every state of the copied edge cells; it runs on scalar and rayon, which copy them in their own grid",
                    world.topology
                ),
            });
        }
        let padded = padded_world(world)?;
        self.inner.load(&padded)?;
        let copies: Vec<_> = world
            .topology
            .padded_ring(world.width(), world.height())
            .collect();
        let mut sources: Vec<(u32, u32)> = copies.iter().filter_map(|c| c.1).collect();
        sources.sort_unstable();
        sources.dedup();
        let ring = copies
            .iter()
            .map(|&((x, y), source)| (x, y, source.and_then(|c| sources.binary_search(&c).ok())))
            .collect();
        self.surface = Some(Surface {
            topology: world.topology,
            width: world.width(),
            height: world.height(),
            padded,
            fresh: true,
            sources,
            ring,
        });
        Ok(())
    }

    fn step(&mut self, generations: u64) -> Result<(), StepError> {
        if self.surface.is_none() {
            return self.inner.step(generations);
        }
        for _ in 0..generations {
            self.refill_ring()?;
            self.inner.step(1)?;
            if let Some(surface) = self.surface.as_mut() {
                surface.fresh = false;
            }
        }
        Ok(())
    }

    fn read_world(&mut self, world: &mut World) -> Result<(), StepError> {
        if self.surface.is_none() {
            return self.inner.read_world(world);
        }
        self.refresh()?;
        let surface = self.surface.as_ref().ok_or_else(not_loaded)?;
        check_same_size(world, surface.width, surface.height)?;
        copy_inside(&surface.padded, world, false);
        world.generation = surface.padded.generation;
        Ok(())
    }

    fn apply_edits(&mut self, edits: &[CellEdit]) -> Result<(), StepError> {
        let Some(surface) = self.surface.as_mut() else {
            return self.inner.apply_edits(edits);
        };
        let moved: Vec<CellEdit> = edits
            .iter()
            .filter(|e| e.x < surface.width && e.y < surface.height)
            .map(|e| CellEdit {
                x: e.x + 1,
                y: e.y + 1,
                alive: e.alive,
            })
            .collect();
        if surface.fresh {
            surface.padded.apply_edits(&moved);
        }
        self.inner.apply_edits(&moved)
    }

    fn stats(&mut self, buckets: usize) -> Result<Stats, StepError> {
        if self.surface.is_none() {
            return self.inner.stats(buckets);
        }
        // The inside rows of the padded world, read in place: the ring is not the world's.
        self.refresh()?;
        let surface = self.surface.as_ref().ok_or_else(not_loaded)?;
        let padded = &surface.padded;
        let (w, h) = (surface.width as usize, surface.height as usize);
        let mut stats = Stats::empty(padded.generation, buckets);
        for y in 1..=h {
            let inside = y * (w + 2) + 1..y * (w + 2) + 1 + w;
            stats.add_ages(&padded.ages()[inside.clone()]);
            if let Some(dying) = padded.dying().get(inside) {
                stats.add_dying(dying);
            }
        }
        Ok(stats)
    }

    fn generation(&self) -> u64 {
        self.inner.generation()
    }

    fn host_world(&self) -> Option<&World> {
        match self.surface {
            Some(_) => None, // the inner world has the ring around it
            None => self.inner.host_world(),
        }
    }

    fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.inner.take_gpu_seconds()
    }

    fn tuning(&self) -> bool {
        self.inner.tuning()
    }

    fn take_report(&mut self) -> Result<Option<KernelReport>, StepError> {
        let report = self.inner.take_report()?;
        Ok(match (report, &self.surface) {
            (Some(mut report), Some(surface)) if !report.description.is_empty() => {
                report.description = format!(
                    "{} on a {} (edge ring copied every generation)",
                    report.description, surface.topology
                );
                Some(report)
            }
            (report, _) => report,
        })
    }

    fn batch_multiple(&self) -> u64 {
        if self.surface.is_some() {
            1
        } else {
            self.inner.batch_multiple()
        }
    }

    fn transfer_counts(&self) -> TransferCounts {
        self.inner.transfer_counts()
    }

    fn render_view(
        &mut self,
        request: &view::ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, StepError> {
        if self.surface.is_some() {
            return Ok(false); // the device's world has the ring: drawn from read_world
        }
        self.inner.render_view(request, out)
    }
}
