//! A rectangular selection and what it can do — clear (inside or outside), random fill,
//! rotate, flip, copy, paste — written once over the [`Universe`] interface, in plane
//! coordinates, for every world: a bounded grid clips the selection to itself, an unbounded
//! one takes it as it is.

use serde::{Deserialize, Serialize};

use crate::pattern::Pattern;
use crate::universe::{Rect, Universe, UniverseError};
use crate::world::{Topology, World};

/// Cells a selection operation reads or writes at most; beyond it the operation is refused
/// with the count (save the world as macrocell instead).
pub const MAX_SELECTION_CELLS: u64 = 1 << 24;

/// A rectangle the user selected, in plane coordinates, inclusive corners, not clipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    /// Left column.
    pub x0: i64,
    /// Top row.
    pub y0: i64,
    /// Right column (inclusive).
    pub x1: i64,
    /// Bottom row (inclusive).
    pub y1: i64,
}

impl Selection {
    /// The rectangle spanned by two corner cells (inclusive), in any order.
    pub fn from_corners(a: (i64, i64), b: (i64, i64)) -> Selection {
        Selection {
            x0: a.0.min(b.0),
            y0: a.1.min(b.1),
            x1: a.0.max(b.0),
            y1: a.1.max(b.1),
        }
    }

    /// Columns (a 64-bit count: a selection may be wider than any grid).
    pub fn width(&self) -> u64 {
        self.x1.abs_diff(self.x0) + 1
    }

    /// Rows.
    pub fn height(&self) -> u64 {
        self.y1.abs_diff(self.y0) + 1
    }

    /// Cells it covers.
    pub fn area(&self) -> u128 {
        u128::from(self.width()) * u128::from(self.height())
    }

    /// The plane rectangle it covers.
    pub fn rect(&self) -> Rect {
        Rect {
            x0: self.x0.into(),
            y0: self.y0.into(),
            x1: self.x1.into(),
            y1: self.y1.into(),
        }
    }

    /// The selection of a plane rectangle (clamped to what an `i64` holds).
    pub fn of_rect(r: Rect) -> Selection {
        let to = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        Selection {
            x0: to(r.x0),
            y0: to(r.y0),
            x1: to(r.x1),
            y1: to(r.y1),
        }
    }

    /// Its part inside `frame` (a bounded grid), or all of it when there is no frame;
    /// `None` when it misses the frame.
    pub fn clipped(&self, frame: Option<Rect>) -> Option<Selection> {
        let Some(f) = frame else {
            return Some(*self);
        };
        let r = self.rect();
        let clipped = Rect {
            x0: r.x0.max(f.x0),
            y0: r.y0.max(f.y0),
            x1: r.x1.min(f.x1),
            y1: r.y1.min(f.y1),
        };
        (clipped.x0 <= clipped.x1 && clipped.y0 <= clipped.y1).then(|| Selection::of_rect(clipped))
    }
}

/// What to do to a selection.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum RegionOp {
    /// Kill every cell inside.
    Clear,
    /// Kill every cell outside (Golly's Clear Outside).
    ClearOutside,
    /// Replace the contents with a random soup of `density` percent.
    RandomFill {
        /// Percent of live cells.
        density: f64,
        /// Soup seed.
        seed: u64,
    },
    /// Quarter turn clockwise about the selection's centre.
    RotateCw,
    /// Quarter turn anticlockwise.
    RotateCcw,
    /// Mirror left-right.
    FlipX,
    /// Mirror top-bottom.
    FlipY,
    /// Step the cells inside one generation as if nothing lay outside (Golly's Advance
    /// Selection; the generation count stays).
    Advance,
    /// Step the cells outside one generation as if the selection were empty (Golly's
    /// Advance Outside).
    AdvanceOutside,
}

/// Refuse work on more than [`MAX_SELECTION_CELLS`] cells.
fn check_size(count: u128, what: &str) -> Result<(), UniverseError> {
    if count > u128::from(MAX_SELECTION_CELLS) {
        return Err(UniverseError::Limit(format!(
            "{what} touches {count} cells, more than the {MAX_SELECTION_CELLS} a selection operation handles (save the world as macrocell, .mc, instead)"
        )));
    }
    Ok(())
}

/// The cells not in state 0 of `selection`, as a pattern (copy and cut).
pub fn copy(universe: &mut dyn Universe, selection: Selection) -> Result<Pattern, UniverseError> {
    let rect = selection.rect();
    let cells = universe.states_in(rect)?;
    check_size(cells.len() as u128, "the copy")?;
    let (w, h) = (selection.width(), selection.height());
    let (Ok(width), Ok(height)) = (u32::try_from(w), u32::try_from(h)) else {
        return Err(UniverseError::Limit(format!(
            "a {w} × {h} selection is wider than a pattern may be (save the world as macrocell, .mc)"
        )));
    };
    let mut pattern = Pattern {
        width,
        height,
        rule: Some(universe.rule()),
        ..Pattern::default()
    };
    for (x, y, state) in cells {
        let (x, y) = ((x - rect.x0) as u32, (y - rect.y0) as u32);
        match state {
            1 => pattern.cells.push((x, y)),
            _ => pattern.dying.push((x, y, state)),
        }
    }
    pattern.cells.sort_unstable_by_key(|&(x, y)| (y, x));
    Ok(pattern)
}

/// Clear `rect`.
fn clear(universe: &mut dyn Universe, rect: Rect) -> Result<(), UniverseError> {
    let cells = universe.states_in(rect)?;
    check_size(cells.len() as u128, "clearing the selection")?;
    let dead: Vec<_> = cells.into_iter().map(|(x, y, _)| (x, y, 0)).collect();
    universe.set_states(&dead)
}

/// Put `pattern`'s box with its top-left at `(x, y)`: its empty cells clear, its cells set
/// (a paste). On a bounded grid what lies outside is left out.
pub fn place(
    universe: &mut dyn Universe,
    pattern: &Pattern,
    (x, y): (i64, i64),
    frame: Option<Rect>,
) -> Result<(), UniverseError> {
    let (x, y) = (i128::from(x), i128::from(y));
    let rect = Rect {
        x0: x,
        y0: y,
        x1: x + i128::from(pattern.width.max(1)) - 1,
        y1: y + i128::from(pattern.height.max(1)) - 1,
    };
    let Some(inside) = Selection::of_rect(rect).clipped(frame) else {
        return Ok(());
    };
    clear(universe, inside.rect())?;
    let live = pattern.cells.iter().map(|&(cx, cy)| (cx, cy, 1));
    let dying = pattern.dying.iter().copied();
    let inside = inside.rect();
    let cells: Vec<_> = live
        .chain(dying)
        .map(|(cx, cy, s)| (x + i128::from(cx), y + i128::from(cy), s))
        .filter(|&(px, py, _)| {
            px >= inside.x0 && px <= inside.x1 && py >= inside.y0 && py <= inside.y1
        })
        .collect();
    check_size(cells.len() as u128, "the paste")?;
    universe.set_states(&cells)
}

/// Apply `op` to `selection` (clipped to `frame`, a bounded grid's rectangle).
pub fn apply(
    universe: &mut dyn Universe,
    selection: Selection,
    op: RegionOp,
    frame: Option<Rect>,
) -> Result<(), UniverseError> {
    let Some(selection) = selection.clipped(frame) else {
        return Ok(());
    };
    let rect = selection.rect();
    match op {
        RegionOp::Clear => clear(universe, rect),
        RegionOp::ClearOutside => clear_outside(universe, rect),
        RegionOp::RandomFill { density, seed } => {
            check_size(selection.area(), "filling the selection")?;
            let (w, h) = (selection.width() as u32, selection.height() as u32);
            let mut soup = World::blank(w.max(3), h.max(3), Topology::DeadBorder, universe.rule())
                .map_err(crate::sim::SimError::from)?;
            soup.fill_random(density, seed)
                .map_err(crate::sim::SimError::from)?;
            clear(universe, rect)?;
            let cells: Vec<_> = (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .filter(|&(x, y)| soup.is_alive(x, y))
                .map(|(x, y)| (rect.x0 + i128::from(x), rect.y0 + i128::from(y), 1))
                .collect();
            universe.set_states(&cells)
        }
        RegionOp::RotateCw | RegionOp::RotateCcw | RegionOp::FlipX | RegionOp::FlipY => {
            let pattern = copy(universe, selection)?;
            let moved = match op {
                RegionOp::RotateCw => pattern.rotated_cw(),
                RegionOp::RotateCcw => pattern.rotated_cw().rotated_cw().rotated_cw(),
                RegionOp::FlipX => pattern.flipped_x(),
                _ => pattern.flipped_y(),
            };
            clear(universe, rect)?;
            let cx = selection.x0 + (selection.width() / 2) as i64;
            let cy = selection.y0 + (selection.height() / 2) as i64;
            let at = (
                cx - i64::from(moved.width) / 2,
                cy - i64::from(moved.height) / 2,
            );
            place(universe, &moved, at, frame)
        }
        RegionOp::Advance => advance(universe, rect, true, frame),
        RegionOp::AdvanceOutside => advance(universe, rect, false, frame),
    }
}

/// Clear every cell outside `rect`.
fn clear_outside(universe: &mut dyn Universe, rect: Rect) -> Result<(), UniverseError> {
    let Some(all) = universe.bounds()? else {
        return Ok(());
    };
    let cells = universe.states_in(all)?;
    check_size(cells.len() as u128, "clearing outside the selection")?;
    let dead: Vec<_> = cells
        .into_iter()
        .filter(|&(x, y, _)| !(x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1))
        .map(|(x, y, _)| (x, y, 0))
        .collect();
    universe.set_states(&dead)
}

/// One generation of the cells inside `rect` alone (`inside`) or of those outside it alone,
/// written back to that part only; the generation count stays (Golly's Advance Selection
/// and Advance Outside). Births past a bounded grid's `frame` are left out.
fn advance(
    universe: &mut dyn Universe,
    rect: Rect,
    inside: bool,
    frame: Option<Rect>,
) -> Result<(), UniverseError> {
    let Some(all) = universe.bounds()? else {
        return Ok(());
    };
    let within = |x: i128, y: i128| x >= rect.x0 && x <= rect.x1 && y >= rect.y0 && y <= rect.y1;
    let cells: Vec<_> = universe
        .states_in(all)?
        .into_iter()
        .filter(|&(x, y, _)| within(x, y) == inside)
        .collect();
    check_size(cells.len() as u128, "advancing the selection")?;
    let mut scratch = crate::universe::HashedUniverse::empty(universe.rule(), 256 << 20)?;
    scratch.set_states(&cells)?;
    scratch.step(1, &|| false)?;
    let after = crate::universe::convert::all_states(&mut scratch)?;
    let mut edits: Vec<_> = cells.iter().map(|&(x, y, _)| (x, y, 0)).collect();
    let in_frame =
        |x: i128, y: i128| frame.is_none_or(|f| x >= f.x0 && x <= f.x1 && y >= f.y0 && y <= f.y1);
    edits.extend(
        after
            .into_iter()
            .filter(|&(x, y, _)| within(x, y) == inside && in_frame(x, y)),
    );
    universe.set_states(&edits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;
    use crate::universe::HashedUniverse;

    fn with(cells: &[(i128, i128)]) -> HashedUniverse {
        let mut u = HashedUniverse::empty(Rule::CONWAY, 64 << 20).unwrap();
        let states: Vec<_> = cells.iter().map(|&(x, y)| (x, y, 1)).collect();
        u.set_states(&states).unwrap();
        u
    }

    fn live(u: &mut HashedUniverse) -> Vec<(i128, i128)> {
        let mut cells: Vec<_> = crate::universe::convert::all_states(u)
            .unwrap()
            .into_iter()
            .map(|(x, y, _)| (x, y))
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        cells
    }

    fn sel(x0: i64, y0: i64, x1: i64, y1: i64) -> Selection {
        Selection { x0, y0, x1, y1 }
    }

    #[test]
    fn a_frame_clips_a_selection_and_none_keeps_it() {
        let frame = Rect {
            x0: -6,
            y0: -5,
            x1: 5,
            y1: 4,
        };
        assert_eq!(
            sel(-10, 2, 3, 20).clipped(Some(frame)),
            Some(sel(-6, 2, 3, 4))
        );
        assert_eq!(sel(10, 10, 20, 20).clipped(Some(frame)), None);
        assert_eq!(sel(10, 10, 20, 20).clipped(None), Some(sel(10, 10, 20, 20)));
    }

    #[test]
    fn clear_and_clear_outside_split_the_world() {
        let mut u = with(&[(1, 1), (5, 5), (9, 9)]);
        apply(&mut u, sel(4, 4, 6, 6), RegionOp::Clear, None).unwrap();
        assert_eq!(live(&mut u), vec![(1, 1), (9, 9)]);
        let mut u = with(&[(1, 1), (5, 5), (9, 9)]);
        apply(&mut u, sel(4, 4, 6, 6), RegionOp::ClearOutside, None).unwrap();
        assert_eq!(live(&mut u), vec![(5, 5)]);
    }

    #[test]
    fn rotations_and_flips_turn_in_place() {
        let mut u = with(&[(4, 5), (5, 5), (6, 5)]);
        apply(&mut u, sel(4, 4, 6, 6), RegionOp::RotateCw, None).unwrap();
        assert_eq!(live(&mut u), vec![(5, 4), (5, 5), (5, 6)]);
        apply(&mut u, sel(4, 4, 6, 6), RegionOp::RotateCcw, None).unwrap();
        assert_eq!(live(&mut u), vec![(4, 5), (5, 5), (6, 5)]);
        let mut u = with(&[(4, 4), (4, 5)]);
        apply(&mut u, sel(4, 4, 6, 5), RegionOp::FlipX, None).unwrap();
        assert_eq!(live(&mut u), vec![(6, 4), (6, 5)]);
        let mut u = with(&[(4, 4), (5, 4)]);
        apply(&mut u, sel(4, 4, 6, 5), RegionOp::FlipY, None).unwrap();
        assert_eq!(live(&mut u), vec![(4, 5), (5, 5)]);
    }

    #[test]
    fn random_fill_stays_inside_and_is_seeded() {
        let op = RegionOp::RandomFill {
            density: 50.0,
            seed: 3,
        };
        let mut a = with(&[(0, 0)]);
        let mut b = with(&[(0, 0)]);
        apply(&mut a, sel(2, 2, 7, 6), op, None).unwrap();
        apply(&mut b, sel(2, 2, 7, 6), op, None).unwrap();
        let cells = live(&mut a);
        assert_eq!(cells, live(&mut b));
        assert!(
            cells
                .iter()
                .all(|&(x, y)| (x, y) == (0, 0) || (2..=7).contains(&x) && (2..=6).contains(&y))
        );
        assert!(cells.len() > 5);
    }

    #[test]
    fn advancing_a_selection_steps_only_what_it_holds() {
        // A blinker inside, a blinker outside: only the inside one turns; the count stays.
        let mut u = with(&[(0, 1), (1, 1), (2, 1), (20, 1), (21, 1), (22, 1)]);
        apply(&mut u, sel(-1, -1, 3, 3), RegionOp::Advance, None).unwrap();
        assert_eq!(
            live(&mut u),
            vec![(1, 0), (1, 1), (20, 1), (21, 1), (22, 1), (1, 2)]
        );
        assert_eq!(u.generation(), 0);
        apply(&mut u, sel(-1, -1, 3, 3), RegionOp::AdvanceOutside, None).unwrap();
        let mut want = vec![(1, 0), (1, 1), (1, 2), (21, 0), (21, 1), (21, 2)];
        want.sort_unstable_by_key(|&(x, y)| (y, x));
        assert_eq!(live(&mut u), want);
    }
}
