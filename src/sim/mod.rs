//! A running simulation: the current stepper plus everything needed to switch it live.
//!
//! `Simulation` is what the CLI and the app drive. It never loses the world: a strategy
//! switch reads the state out of the old stepper, builds the new one from it, and keeps
//! the old stepper if the new one cannot be made.

use crate::rule::Rule;
use crate::stats::Stats;
use crate::step::view::{ViewRequest, render_host};
use crate::step::{GpuSettings, StepError, Stepper, StepperFactory, Strategy};
use crate::world::{CellEdit, Topology, World, WorldError};

pub mod growth;

/// Why a simulation request failed. The running world is unchanged after any of these.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// The stepper failed.
    #[error(transparent)]
    Step(#[from] StepError),
    /// A world change (size, density...) was invalid.
    #[error(transparent)]
    World(#[from] WorldError),
    /// A request the world refused, with the reason (a rule the stepper cannot run, a grid
    /// too small for the pattern).
    #[error("{0}")]
    Refused(String),
    /// A growing grid's pattern outgrew the largest grid; the world is kept at the
    /// generation it reached.
    #[error("{0}")]
    Outgrown(String),
}

/// The live world behind one strategy, switchable at any time.
pub struct Simulation {
    factory: StepperFactory,
    stepper: Box<dyn Stepper>,
    /// Last state read back from the stepper; also the recovery copy.
    host: World,
    host_generation_valid: bool,
    /// Why the last world change moved to rayon (see [`Simulation::replace_world`]).
    moved_for_rule: Option<String>,
}

impl Simulation {
    /// Start `world` on `strategy`.
    pub fn new(
        factory: StepperFactory,
        world: World,
        strategy: Strategy,
    ) -> Result<Self, SimError> {
        let stepper = factory.create(strategy, &world)?;
        Ok(Simulation {
            factory,
            stepper,
            host: world,
            host_generation_valid: true,
            moved_for_rule: None,
        })
    }

    /// The strategy now stepping the world.
    pub fn strategy(&self) -> Strategy {
        self.stepper.strategy()
    }

    /// The factory steppers are made from (tells which strategies are available).
    pub fn factory(&self) -> &StepperFactory {
        &self.factory
    }

    /// Current generation.
    pub fn generation(&self) -> u64 {
        self.stepper.generation()
    }

    /// World width and height.
    pub fn size(&self) -> (u32, u32) {
        (self.host.width(), self.host.height())
    }

    /// The rule being run.
    pub fn rule(&self) -> Rule {
        self.host.rule()
    }

    /// The topology being run.
    pub fn topology(&self) -> Topology {
        self.host.topology
    }

    /// Whether the world grows with its pattern: the unbounded universe on a grid (a dead
    /// border that follows its pattern, as Golly's Larger than Life grows its grid; any rule
    /// without B0, which only the hashed universe emulates), and Golly's tubes, along their
    /// open side.
    pub fn grows(&self) -> bool {
        self.host.grows
            && match self.host.topology {
                Topology::DeadBorder => crate::universe::convert::grows_under(&self.host.rule()),
                Topology::Joined(join) => join.open_sides().is_some(),
                Topology::Torus => false,
            }
    }

    /// Golly's plane coordinates of grid cell `(0, 0)` ([`World::plane_origin`]): it
    /// changes only when the world is replaced (a growing world moving its frame).
    pub fn plane_origin(&self) -> (i64, i64) {
        self.host.plane_origin()
    }

    /// Make the world Golly's unbounded Larger than Life universe: a dead-border grid that
    /// grows with the pattern, every cell kept.
    pub fn set_growing(&mut self) -> Result<(), SimError> {
        self.modify(|w| {
            let mut next = w.clone();
            next.topology = Topology::DeadBorder;
            next.grows = true;
            Ok(next)
        })
    }

    /// Advance `generations` generations. A growing world steps in batches that its
    /// pattern cannot outrun (r cells a generation at most) and is enlarged between them.
    pub fn step(&mut self, generations: u64) -> Result<(), SimError> {
        if generations == 0 {
            return Ok(());
        }
        if !self.grows() {
            self.host_generation_valid = false;
            self.stepper.step(generations)?;
            return Ok(());
        }
        let mut left = generations;
        while left > 0 {
            let batch = self.make_room(left)?;
            self.host_generation_valid = false;
            self.stepper.step(batch)?;
            left -= batch;
        }
        Ok(())
    }

    /// Enlarge a growing world's frame so that `rect` (plane coordinates) lies inside it with
    /// a margin: an edit far from the pattern on the unbounded plane. A bounded grid is left
    /// as it is (edits outside it are refused by the caller).
    pub fn include(&mut self, rect: crate::hashlife::Rect) -> Result<(), SimError> {
        if !self.grows() {
            return Ok(());
        }
        let margin = 2
            * (growth::min_batch(u64::from(self.rule().range())) + 1) as i128
            * i128::from(self.rule().range().max(1));
        let (ox, oy) = self.plane_origin();
        let (w, h) = self.size();
        let frame = (
            i128::from(ox),
            i128::from(oy),
            i128::from(ox) + i128::from(w) - 1,
            i128::from(oy) + i128::from(h) - 1,
        );
        let inside = rect.x0 - margin >= frame.0
            && rect.y0 - margin >= frame.1
            && rect.x1 + margin <= frame.2
            && rect.y1 + margin <= frame.3;
        if inside {
            return Ok(());
        }
        let (x0, y0) = (frame.0.min(rect.x0 - margin), frame.1.min(rect.y0 - margin));
        let (x1, y1) = (frame.2.max(rect.x1 + margin), frame.3.max(rect.y1 + margin));
        let size = |lo: i128, hi: i128| u64::try_from(hi - lo + 1).unwrap_or(u64::MAX);
        let (nw, nh) = growth::check_size(size(x0, x1), size(y0, y1)).map_err(SimError::Refused)?;
        // Even moves keep a triangular grid's parity.
        let even = |v: i128| v - v.rem_euclid(2);
        let left = i64::try_from(even(x0 - frame.0))
            .map_err(|_| SimError::Refused("the edit lies too far away".into()))?;
        let top = i64::try_from(even(y0 - frame.1))
            .map_err(|_| SimError::Refused("the edit lies too far away".into()))?;
        let (nw, nh) = (nw + 2, nh + 2);
        let moved = self.world()?.reframed(left, top, nw, nh)?;
        self.replace_world(moved)
    }

    /// Move a growing world's frame until its cells lie far enough from every open edge
    /// (enlarged where the pattern grows, moved along where it travels: [`growth::reframe`]),
    /// and return how many of `wanted` generations can run before they could reach one.
    fn make_room(&mut self, wanted: u64) -> Result<u64, SimError> {
        let range = u64::from(self.rule().range());
        // A host stepper's own world is read in place: no copy per batch.
        if self.stepper.host_world().is_none() {
            self.world()?;
        }
        let world = self.stepper.host_world().unwrap_or(&self.host);
        let Some((x, y, live_w, live_h)) = world.occupied_box() else {
            return Ok(wanted); // nothing alive: nothing can be born (B0 is emulated)
        };
        let axes = [
            growth::Axis {
                len: u64::from(world.width()),
                lo: u64::from(x),
                live: u64::from(live_w),
            },
            growth::Axis {
                len: u64::from(world.height()),
                lo: u64::from(y),
                live: u64::from(live_h),
            },
        ];
        // A tube's joined sides have no edge to reach.
        let open = match world.topology {
            Topology::Joined(join) => join.open_sides().unwrap_or((false, false)),
            _ => (true, true),
        };
        let fits = |axis: &growth::Axis, open: bool| {
            if open { axis.room() / range } else { u64::MAX }
        };
        let fits = fits(&axes[0], open.0).min(fits(&axes[1], open.1));
        let enough = wanted.min(growth::min_batch(range));
        if fits >= enough {
            return Ok(fits.min(wanted));
        }
        // A joined axis keeps its frame.
        let frame = |axis: growth::Axis, open: bool| {
            if open {
                growth::reframe(axis, enough * range, range)
            } else {
                (axis.len, 0)
            }
        };
        let ((w, left), (h, top)) = (frame(axes[0], open.0), frame(axes[1], open.1));
        let (w, h) = growth::check_size(w, h).map_err(SimError::Outgrown)?;
        let moved = self.world()?.reframed(left, top, w, h)?;
        self.replace_world(moved)?;
        self.make_room(wanted)
    }

    /// Paint or erase cells in the running world.
    pub fn edit(&mut self, edits: &[CellEdit]) -> Result<(), SimError> {
        self.stepper.apply_edits(edits)?;
        self.host_generation_valid = false;
        Ok(())
    }

    /// Put `cells` in `state` (2 and up: a many-state rule's states, which edits cannot
    /// carry) and load the result into the running stepper in place — no new stepper, no
    /// recompiled kernels; the host world is read back once and stays valid while nothing
    /// steps, so a stroke of several segments reads it once. Cells outside the world or
    /// states the rule lacks are skipped.
    pub fn set_states(&mut self, cells: &[(u32, u32)], state: u8) -> Result<(), SimError> {
        self.world()?;
        for &(x, y) in cells {
            self.host.set_state(x, y, state);
        }
        self.stepper.load(&self.host)?;
        self.host_generation_valid = true;
        Ok(())
    }

    /// Population and age histogram of the current state.
    pub fn stats(&mut self, buckets: usize) -> Result<Stats, SimError> {
        Ok(self.stepper.stats(buckets)?)
    }

    /// The current world, read back from the stepper if it changed since the last read.
    pub fn world(&mut self) -> Result<&World, SimError> {
        if !self.host_generation_valid {
            if let Some(w) = self.stepper.host_world() {
                self.host.clone_from(w);
            } else {
                self.stepper.read_world(&mut self.host)?;
            }
            self.host_generation_valid = true;
        }
        Ok(&self.host)
    }

    /// Why the last world change moved to another strategy, once.
    pub fn take_moved_for_rule(&mut self) -> Option<String> {
        self.moved_for_rule.take()
    }

    /// Switch to `strategy`, keeping generation and every cell exactly. On failure the old
    /// strategy keeps running.
    pub fn switch(&mut self, strategy: Strategy) -> Result<(), SimError> {
        if strategy == self.strategy() {
            return Ok(());
        }
        self.world()?;
        self.stepper = self.factory.create(strategy, &self.host)?;
        Ok(())
    }

    /// Replace the whole world (new size, pattern, soup...). On failure nothing changes.
    ///
    /// A world whose rule the running strategy cannot run (a rule table on a bit-sliced
    /// strategy) moves to `rayon`, which runs every rule, as Golly picks the algorithm a
    /// rule needs; [`Simulation::take_moved_for_rule`] says so once.
    pub fn replace_world(&mut self, world: World) -> Result<(), SimError> {
        let mut strategy = self.strategy();
        if let Err(why) = strategy.supports(&world.rule()) {
            self.moved_for_rule = Some(format!("running {} on rayon: {why}", world.rule()));
            strategy = Strategy::Rayon;
        }
        let stepper = self.factory.create(strategy, &world)?;
        self.stepper = stepper;
        self.host = world;
        self.host_generation_valid = true;
        Ok(())
    }

    /// Apply a change to a copy of the current world and load it (rule, topology, resize,
    /// fills). On failure the running world is untouched.
    pub fn modify(
        &mut self,
        change: impl FnOnce(&World) -> Result<World, SimError>,
    ) -> Result<(), SimError> {
        let next = change(self.world()?)?;
        self.replace_world(next)
    }

    /// Change the rule, keeping cells, ages and generation.
    pub fn set_rule(&mut self, rule: Rule) -> Result<(), SimError> {
        self.modify(|w| {
            let mut next = w.clone();
            next.set_rule(rule)?;
            Ok(next)
        })
    }

    /// Change the topology, keeping cells, ages and generation (a growing world becomes a
    /// bounded grid of its current size).
    pub fn set_topology(&mut self, topology: Topology) -> Result<(), SimError> {
        self.modify(|w| {
            crate::world::check_surface(topology, w.width(), w.height(), w.rule())?;
            let mut next = w.clone();
            next.topology = topology;
            next.grows = false;
            Ok(next)
        })
    }

    /// Resize, keeping the cells centred.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), SimError> {
        self.modify(|w| Ok(w.resized(width, height)?))
    }

    /// Host↔device traffic of the running stepper since it was made.
    pub fn transfer_counts(&self) -> crate::step::TransferCounts {
        self.stepper.transfer_counts()
    }

    /// GPU kernel seconds spent since the last call (timestamp queries), if measured.
    pub fn take_gpu_seconds(&mut self) -> Option<f64> {
        self.stepper.take_gpu_seconds()
    }

    /// What the stepper's kernel is doing ([`crate::step::Stepper::take_report`]).
    pub fn take_report(&mut self) -> Result<Option<crate::step::KernelReport>, SimError> {
        Ok(self.stepper.take_report()?)
    }

    /// Whether the stepper is still choosing how to step ([`crate::step::Stepper::tuning`]):
    /// speeds measured meanwhile include its trials.
    pub fn tuning(&self) -> bool {
        self.stepper.tuning()
    }

    /// Batches of a multiple of this many generations suit the stepper best
    /// ([`crate::step::Stepper::batch_multiple`]).
    pub fn batch_multiple(&self) -> u64 {
        self.stepper.batch_multiple()
    }

    /// Draw `request` into the device buffer `out` where the state lives; `Ok(false)` when
    /// the strategy keeps its state on the host (then use [`Simulation::render_view_host`]).
    pub fn render_view_device(
        &mut self,
        request: &ViewRequest,
        out: &wgpu::Buffer,
    ) -> Result<bool, SimError> {
        Ok(self.stepper.render_view(request, out)?)
    }

    /// Draw `request` on the host into `out` (at least `request.pixels()` long), reading the
    /// stepper's host world without copying it when it has one.
    pub fn render_view_host(
        &mut self,
        request: &ViewRequest,
        out: &mut [u32],
    ) -> Result<(), SimError> {
        if let Some(world) = self.stepper.host_world() {
            render_host(world, request, out);
        } else {
            render_host(self.world()?, request, out);
        }
        Ok(())
    }

    /// Change memory mode, readback interval or chunk limit of GPU strategies and rebuild the
    /// stepper with them; on failure the old settings and stepper stay.
    pub fn set_gpu_settings(&mut self, settings: GpuSettings) -> Result<(), SimError> {
        let old = self.factory.gpu_settings;
        self.world()?;
        self.factory.gpu_settings = settings;
        match self.factory.create(self.strategy(), &self.host) {
            Ok(stepper) => {
                self.stepper = stepper;
                Ok(())
            }
            Err(e) => {
                self.factory.gpu_settings = old;
                Err(e.into())
            }
        }
    }

    /// The GPU settings steppers are built with.
    pub fn gpu_settings(&self) -> GpuSettings {
        self.factory.gpu_settings
    }
}
