//! Putting a pattern into a world: where it goes ([`Placement`]), the edits that make its
//! box exactly the pattern, and what was clipped ([`PlaceReport`]).

use super::Pattern;
use crate::world::{CellEdit, World};

/// Where to put a pattern in a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// The pattern's box centred in the world (rounded towards the top-left).
    #[default]
    Centred,
    /// The pattern's top-left corner at world cell `(x, y)`; may be negative or outside.
    At {
        /// Column of the pattern's left edge.
        x: i64,
        /// Row of the pattern's top edge.
        y: i64,
    },
}

/// What [`Pattern::place`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceReport {
    /// Live cells of the pattern now alive in the world.
    pub placed: usize,
    /// Live cells of the pattern that fell outside the world and were dropped.
    pub clipped: usize,
    /// World column where the pattern's left edge went.
    pub x: i64,
    /// World row where the pattern's top edge went.
    pub y: i64,
    /// Width of the world placed into (for the warning).
    pub world_width: u32,
    /// Height of the world placed into (for the warning).
    pub world_height: u32,
}

impl PlaceReport {
    /// A warning for the user when cells were clipped, so partial placement is never silent.
    pub fn warning(&self) -> Option<String> {
        (self.clipped > 0).then(|| {
            format!(
                "{} cell{} of the pattern fell outside the {}x{} world and {} clipped",
                self.clipped,
                if self.clipped == 1 { "" } else { "s" },
                self.world_width,
                self.world_height,
                if self.clipped == 1 { "was" } else { "were" },
            )
        })
    }
}

impl Pattern {
    /// One edit per cell of the pattern's box that lies in a `world_w × world_h` world when
    /// its top-left is at `(x, y)`, in row-major order: live cells painted and dead ones
    /// erased, so applying them makes the box exactly the pattern. Cells outside the world
    /// are dropped, not wrapped; the second value counts the live ones dropped.
    pub fn edits_at(&self, x: i64, y: i64, world_w: u32, world_h: u32) -> (Vec<CellEdit>, usize) {
        let mut edits = Vec::new();
        let clipped = self.for_each_edit(x, y, world_w, world_h, |e| edits.push(e));
        (edits, clipped)
    }

    /// Calls `apply` with the edits of [`Pattern::edits_at`] and returns the clipped count.
    fn for_each_edit(
        &self,
        x: i64,
        y: i64,
        ww: u32,
        wh: u32,
        mut apply: impl FnMut(CellEdit),
    ) -> usize {
        let cells = self.clean_cells();
        let in_world = |&(cx, cy): &(u32, u32)| {
            (0..i64::from(ww)).contains(&x.saturating_add(cx.into()))
                && (0..i64::from(wh)).contains(&y.saturating_add(cy.into()))
        };
        let clipped = cells.iter().filter(|c| !in_world(c)).count();
        // Saturating: `x`, `y` come from callers and may be anything; a box that starts far
        // outside gives an empty range, so `wx - x` below stays small.
        let xs = x.clamp(0, ww.into())..x.saturating_add(self.width.into()).clamp(0, ww.into());
        let ys = y.clamp(0, wh.into())..y.saturating_add(self.height.into()).clamp(0, wh.into());
        let mut live = cells.iter().filter(|c| in_world(c)).peekable();
        for wy in ys {
            for wx in xs.clone() {
                let here = ((wx - x) as u32, (wy - y) as u32);
                let alive = live.next_if(|&&c| c == here).is_some();
                apply(CellEdit {
                    x: wx as u32,
                    y: wy as u32,
                    alive,
                });
            }
        }
        clipped
    }

    /// Put the pattern into `world`: the part of its box inside the world becomes exactly the
    /// pattern (dead cells of the box are erased; cells alive before and after keep their
    /// age; dying cells of a Generations pattern take their state when the world's rule has
    /// it). Cells outside the world are clipped and counted. The world's rule is not changed.
    pub fn place(&self, world: &mut World, placement: Placement) -> PlaceReport {
        let (ww, wh) = (world.width(), world.height());
        let (x, y) = match placement {
            Placement::Centred => (
                (i64::from(ww) - i64::from(self.width)).div_euclid(2),
                (i64::from(wh) - i64::from(self.height)).div_euclid(2),
            ),
            Placement::At { x, y } => (x, y),
        };
        let mut placed = 0;
        let clipped = self.for_each_edit(x, y, ww, wh, |e| {
            placed += usize::from(e.alive);
            world.apply_edit(e);
        });
        let states = world.rule().states();
        let dying = world.dying_mut();
        if !dying.is_empty() {
            for (cx, cy, state) in self.clean_dying() {
                let (wx, wy) = (x.saturating_add(cx.into()), y.saturating_add(cy.into()));
                if (0..i64::from(ww)).contains(&wx)
                    && (0..i64::from(wh)).contains(&wy)
                    && u16::from(state) < states
                {
                    dying[wy as usize * ww as usize + wx as usize] = state;
                    placed += 1;
                }
            }
        }
        PlaceReport {
            placed,
            clipped,
            x,
            y,
            world_width: ww,
            world_height: wh,
        }
    }
}

impl Pattern {
    /// The world the file's bounded grid names (`:T72,48`, `:K40*,20`, `:T0,68` …) under
    /// `rule`, with the pattern where Golly puts it: a bounded grid's top-left cell is Golly's
    /// `(-(width / 2), -(height / 2))`, so the file's position is kept (without one, the box
    /// is centred on the origin as Golly centres it); an infinite side
    /// (a tube or strip) gets `margin` cells beyond the pattern each way and the pattern
    /// centred along it. `None` when the file names no grid; an error when the pattern does
    /// not fit the grid or the grid does not fit golab.
    pub fn open_in_grid(
        &self,
        rule: crate::rule::Rule,
        margin: u64,
    ) -> Option<Result<(World, PlaceReport), String>> {
        let grid = self.grid?;
        Some((|| {
            let (w, h) = grid.size_around(self.width, self.height, margin).ok_or_else(|| {
                format!(
                    "the pattern ({}x{}) with {margin} cells of room each way along the grid's infinite side is beyond golab's largest world edge ({})",
                    self.width,
                    self.height,
                    crate::world::MAX_EDGE
                )
            })?;
            if self.width > w || self.height > h {
                return Err(format!(
                    "the pattern ({}x{}) is larger than the {}x{} grid its rule names",
                    self.width, self.height, grid.width, grid.height
                ));
            }
            let mut world = World::new(w, h, grid.topology, rule).map_err(|e| e.to_string())?;
            let along = |own: u32, world: u32, pattern: u32, at: i64| {
                if own == 0 {
                    i64::from((world - pattern) / 2)
                } else {
                    at.saturating_add(i64::from(world / 2))
                }
            };
            // Without a position Golly centres the box on the origin: left at -(width / 2).
            let (x, y) = self
                .position
                .unwrap_or((-i64::from(self.width / 2), -i64::from(self.height / 2)));
            let placement = Placement::At {
                x: along(grid.width, w, self.width, x),
                y: along(grid.height, h, self.height, y),
            };
            let report = self.place(&mut world, placement);
            world.generation = self.generation.unwrap_or(0);
            // A tube grows along its open side as the pattern nears an end (a strip, `:P30,0`,
            // keeps the room it was given).
            world.grows = matches!(
                grid.topology,
                crate::world::Topology::Joined(join) if join.open_sides().is_some()
            );
            Ok((world, report))
        })())
    }
}
