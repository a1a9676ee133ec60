//! Moving a world between the two implementations, keeping every state at its plane
//! coordinates, the rule and the generation: onto the hashed universe (for huge steps, huge
//! patterns, `hashlife` picked from the strategy list) and back into a grid (a grid strategy
//! picked, a bounded surface chosen). Each refuses, naming the size, what does not fit.

use super::{Bounds, GridUniverse, HashedUniverse, Rect, Universe, UniverseError, plane_states};
use crate::hashlife::Hashed;
use crate::rule::Rule;
use crate::sim::Simulation;
use crate::step::{StepperFactory, Strategy};
use crate::world::{MAX_EDGE, Topology, World};

/// Cells a growing grid leaves around its pattern when it is made.
const MARGIN: u32 = 32;

/// Whether an unbounded grid (a dead border that grows with its pattern) runs `rule`:
/// every rule but B0 ones outside Larger than Life (an empty cell of the infinite plane
/// would be born; the hashed universe emulates those as Golly does).
pub fn grows_under(rule: &Rule) -> bool {
    rule.is_ltl() || !rule.next_alive(0)
}

/// The hashed universe holding every cell of `from`. An unbounded world stays unbounded; a
/// bounded one keeps its bound where hashlife runs it (a torus or a dead border under a
/// two-state rule) and is refused otherwise.
pub fn to_hashed(
    from: &mut dyn Universe,
    limit_bytes: usize,
) -> Result<HashedUniverse, UniverseError> {
    let rule = from.rule();
    let mut inner = Hashed::new(rule, limit_bytes)?;
    let cells = match from.bounds()? {
        Some(b) => from.states_in(b)?,
        None => Vec::new(),
    };
    inner.load_states(cells)?;
    inner.set_generation(from.generation());
    let hashed = HashedUniverse::new(inner);
    match from.capabilities().bounded {
        Some(bounds) => {
            let frame = frame_of(from, bounds)?;
            hashed.bounded_at(bounds, frame)
        }
        None => Ok(hashed),
    }
}

/// The plane rectangle a bounded universe's grid covers.
fn frame_of(from: &mut dyn Universe, bounds: Bounds) -> Result<Rect, UniverseError> {
    let world = from.to_world()?;
    let (x0, y0) = world.plane_origin();
    Ok(Rect {
        x0: x0.into(),
        y0: y0.into(),
        x1: i128::from(x0) + i128::from(bounds.width) - 1,
        y1: i128::from(y0) + i128::from(bounds.height) - 1,
    })
}

/// A grid holding every cell of `from`, stepped by `strategy`: of `bounds` (its centre at
/// the origin, as Golly centres a bounded grid), or unbounded — a dead-border grid around
/// the pattern that grows with it — when `bounds` is `None`.
pub fn to_grid(
    from: &mut dyn Universe,
    factory: StepperFactory,
    strategy: Strategy,
    bounds: Option<Bounds>,
) -> Result<GridUniverse, UniverseError> {
    let world = world_of(from, bounds)?;
    let sim = Simulation::new(factory, world, strategy)?;
    Ok(GridUniverse::new(sim))
}

/// The host grid of `from`'s cells: of `bounds` centred on the origin, or a growing grid
/// around the pattern (at least [`MARGIN`] cells each side).
pub fn world_of(from: &mut dyn Universe, bounds: Option<Bounds>) -> Result<World, UniverseError> {
    let rule = from.rule();
    let generation = u64::try_from(from.generation()).map_err(|_| {
        UniverseError::Limit(format!(
            "a grid counts generations up to 2^64 - 1; this world is at generation {}",
            from.generation()
        ))
    })?;
    let occupied = from.bounds()?;
    let mut world = match bounds {
        Some(b) => {
            let world = World::new(b.width, b.height, b.topology, rule)
                .map_err(crate::sim::SimError::from)?;
            if let Some(cells) = occupied {
                let (ox, oy) = world.plane_origin();
                let (x0, y0) = (i128::from(ox), i128::from(oy));
                let (x1, y1) = (x0 + i128::from(b.width) - 1, y0 + i128::from(b.height) - 1);
                if cells.x0 < x0 || cells.y0 < y0 || cells.x1 > x1 || cells.y1 > y1 {
                    return Err(UniverseError::Limit(format!(
                        "the pattern spans {} × {} cells from ({}, {}); a {}×{} grid centred on the origin covers ({x0}, {y0}) to ({x1}, {y1})",
                        cells.x1 - cells.x0 + 1,
                        cells.y1 - cells.y0 + 1,
                        cells.x0,
                        cells.y0,
                        b.width,
                        b.height
                    )));
                }
            }
            world
        }
        None => growing_world(occupied, rule)?,
    };
    world.generation = generation;
    if let Some(cells) = occupied {
        let (ox, oy) = world.plane_origin();
        for (x, y, state) in from.states_in(cells)? {
            let (gx, gy) = ((x - i128::from(ox)) as u32, (y - i128::from(oy)) as u32);
            world.set_state(gx, gy, state);
        }
    }
    Ok(world)
}

/// An empty unbounded grid under `rule` (Golly's New), refused for B0 rules.
pub fn empty_unbounded(rule: Rule) -> Result<World, UniverseError> {
    growing_world(None, rule)
}

/// An empty growing dead-border grid around `occupied` (plane coordinates kept through the
/// world's shift), refused with the size when it would pass the largest grid.
fn growing_world(occupied: Option<Rect>, rule: Rule) -> Result<World, UniverseError> {
    if !grows_under(&rule) {
        return Err(UniverseError::Unsupported(format!(
            "{rule} has B0: on an unbounded plane every empty cell would be born; it runs unbounded on hashlife (Golly's emulation) or on a bounded grid"
        )));
    }
    let cells = occupied.unwrap_or(Rect {
        x0: 0,
        y0: 0,
        x1: 0,
        y1: 0,
    });
    let span = |lo: i128, hi: i128| hi - lo + 1 + 2 * i128::from(MARGIN);
    let (w, h) = (span(cells.x0, cells.x1), span(cells.y0, cells.y1));
    if w > i128::from(MAX_EDGE) || h > i128::from(MAX_EDGE) {
        return Err(UniverseError::Limit(format!(
            "the pattern spans {} × {} cells: a grid holds at most {MAX_EDGE} a side (hashlife holds it)",
            cells.x1 - cells.x0 + 1,
            cells.y1 - cells.y0 + 1
        )));
    }
    // Even sizes keep a triangular grid's parity through every later move.
    let even = |v: i128| (v + (v & 1)) as u32;
    let (w, h) = (even(w), even(h));
    let mut world =
        World::new(w, h, Topology::DeadBorder, rule).map_err(crate::sim::SimError::from)?;
    world.grows = true;
    // plane_origin = shift − size/2 must be the box's corner less the margin.
    let x0 = cells.x0 - i128::from(MARGIN);
    let y0 = cells.y0 - i128::from(MARGIN);
    let shift = |corner: i128, len: u32| i64::try_from(corner + i128::from(len / 2));
    match (shift(x0, w), shift(y0, h)) {
        (Ok(sx), Ok(sy)) => world.shift = (sx, sy),
        _ => {
            return Err(UniverseError::Limit(format!(
                "the pattern lies at ({}, {}), beyond the ±2^63 cells a grid's position holds (hashlife holds it)",
                cells.x0, cells.y0
            )));
        }
    }
    Ok(world)
}

/// Every state of `from` at plane coordinates (tests and conversions).
pub fn all_states(from: &mut dyn Universe) -> Result<Vec<(i128, i128, u8)>, UniverseError> {
    Ok(match from.bounds()? {
        Some(b) => from.states_in(b)?,
        None => Vec::new(),
    })
}

/// A grid world's states at plane coordinates, sorted row by row (tests compare these).
pub fn sorted_states(world: &World) -> Vec<(i128, i128, u8)> {
    let mut cells: Vec<_> = plane_states(world).collect();
    cells.sort_unstable_by_key(|&(x, y, _)| (y, x));
    cells
}
