//! Periods, displacements and apgcodes of patterns in the hashed universe, with lifelib's
//! semantics: a pattern is periodic when some generation `p > 0` equals generation 0 moved
//! by `(dx, dy)` (its bounding box's top-left); the period is the least such `p`.
//!
//! Detection samples generations at step sizes that double every `2^⌊log₂(gmax)/2⌋`
//! samples (as lifelib's `pdetect` does), remembering each sample's shape by its digest; a
//! shape seen twice gives a candidate `delta`, which is confirmed against generation 0 and
//! then divided by its prime factors while generation 0 still returns. The apgcode is
//! Catagolue's: `xs`/`xp`/`xq`, then the best canonical Wechsler string over all phases
//! (`ov_` for objects too large to name, as lifelib limits them).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use golab::pattern::apgcode::{better, canonical_wechsler};
use golab::universe::{HashedUniverse, Kept, Universe, UniverseError};

use crate::interrupt;
use crate::tree::Cell;

/// Largest area (bounding box plus a border of one) an apgcode phase may have (lifelib's).
const MAX_AREA: i128 = 40_000;
/// Longest Wechsler string an apgcode takes (lifelib's).
const MAX_LENGTH: usize = 1280;

/// A generation's shape: its bounding box's top-left and size, and its cells relative to
/// that corner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// Left column of the bounding box.
    pub x0: i128,
    /// Top row of the bounding box.
    pub y0: i128,
    /// Width and height.
    pub size: (i128, i128),
    /// Cells relative to the top-left, row by row.
    pub cells: Vec<Cell>,
}

impl Shape {
    fn key(&self) -> (u64, (i128, i128)) {
        let mut h = DefaultHasher::new();
        self.cells.hash(&mut h);
        (h.finish(), self.size)
    }
}

/// What detection found: the least period and the displacement over it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periodic {
    /// Generations until the pattern returns.
    pub period: u128,
    /// How far its bounding box moved in x over one period.
    pub dx: i128,
    /// How far it moved in y.
    pub dy: i128,
}

/// The universe's current shape (`None` when empty).
pub fn shape(u: &mut HashedUniverse) -> Result<Option<Shape>, UniverseError> {
    let Some(b) = u.bounds()? else {
        return Ok(None);
    };
    let cells = u
        .states_in(b)?
        .into_iter()
        .map(|(x, y, s)| (x - b.x0, y - b.y0, s))
        .collect();
    Ok(Some(Shape {
        x0: b.x0,
        y0: b.y0,
        size: (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1),
        cells,
    }))
}

/// Step exactly `n` generations, or fail as interrupted.
pub fn step_exact(u: &mut HashedUniverse, n: u128) -> Result<(), UniverseError> {
    let done = u.step(n, &interrupt::raised)?;
    if done < n {
        return Err(UniverseError::Interrupted {
            generation: u.generation(),
        });
    }
    Ok(())
}

/// Whether `start` (whose shape is `first`) returns after `delta` generations, and where to.
fn returns(
    u: &mut HashedUniverse,
    start: &Kept,
    first: &Shape,
    delta: u128,
) -> Result<Option<(i128, i128)>, UniverseError> {
    u.restore(start)?;
    step_exact(u, delta)?;
    Ok(shape(u)?
        .filter(|s| s.cells == first.cells)
        .map(|s| (s.x0 - first.x0, s.y0 - first.y0)))
}

/// The least period dividing `delta`, a period of `start` (and its displacement).
fn least(
    u: &mut HashedUniverse,
    start: &Kept,
    first: &Shape,
    delta: u128,
) -> Result<Periodic, UniverseError> {
    let mut period = delta;
    for q in prime_factors(delta) {
        while period.is_multiple_of(q) && returns(u, start, first, period / q)?.is_some() {
            period /= q;
        }
    }
    let (dx, dy) = returns(u, start, first, period)?.unwrap_or((0, 0));
    Ok(Periodic { period, dx, dy })
}

/// The distinct prime factors of `n`.
fn prime_factors(mut n: u128) -> Vec<u128> {
    let mut out = Vec::new();
    let mut q = 2u128;
    while q * q <= n {
        if n.is_multiple_of(q) {
            out.push(q);
            while n.is_multiple_of(q) {
                n /= q;
            }
        }
        q += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// Look for the period of `start` within about `gmax` generations. Returns what was found
/// and the state the search reached (kept: where an eventual oscillator is looked for next).
pub fn detect(
    u: &mut HashedUniverse,
    start: &Kept,
    gmax: u64,
) -> Result<(Option<Periodic>, Kept), UniverseError> {
    u.restore(start)?;
    let Some(first) = shape(u)? else {
        let found = Periodic {
            period: 1,
            dx: 0,
            dy: 0,
        };
        return Ok((Some(found), u.keep()?));
    };
    let per_size = 1u64 << ((63 - gmax.max(1).leading_zeros()) / 2);
    let mut seen: HashMap<(u64, (i128, i128)), u64> = HashMap::new();
    seen.insert(first.key(), 0);
    let (mut g, mut stride, mut count) = (0u64, 1u64, 0u64);
    while g < gmax {
        step_exact(u, u128::from(stride))?;
        g += stride;
        let Some(now) = shape(u)? else { break };
        if let Some(&g2) = seen.get(&now.key()) {
            let here = u.keep()?;
            let delta = u128::from(g - g2);
            let confirmed = returns(u, start, &first, delta)?;
            if confirmed.is_some() {
                let found = least(u, start, &first, delta)?;
                u.release(here);
                return Ok((Some(found), u.keep()?));
            }
            // Generations g2 and g alike: it repeats from later on, not from the start.
            u.restore(start)?;
            step_exact(u, u128::from(g2))?;
            let earlier = shape(u)?;
            u.restore(&here)?;
            u.release(here);
            if earlier.is_some_and(|e| e.cells == now.cells) {
                break;
            }
        } else {
            seen.insert(now.key(), g);
        }
        count += 1;
        if count == per_size {
            stride *= 2;
            count = 0;
        }
    }
    Ok((None, u.keep()?))
}

/// The apgcode of `start`, periodic as `found`, for a two-state rule.
pub fn apgcode(
    u: &mut HashedUniverse,
    start: &Kept,
    found: Periodic,
) -> Result<String, UniverseError> {
    let rule = u.rule();
    if rule.states() > 2 {
        return Err(UniverseError::Unsupported(format!(
            "golab names objects of two-state rules; {rule} has {} states",
            rule.states()
        )));
    }
    u.restore(start)?;
    let mut rep = String::from("#");
    let mut population = 0u128;
    for t in 0..found.period {
        if t > 0 {
            step_exact(u, 1)?;
        }
        let Some(s) = shape(u)? else {
            return Ok("xs0_0".into());
        };
        if t == 0 {
            population = s.cells.len() as u128;
        }
        if (s.size.0 + 2) * (s.size.1 + 2) > MAX_AREA {
            continue;
        }
        let cells: Vec<(i64, i64)> = s.cells.iter().map(|c| (c.0 as i64, c.1 as i64)).collect();
        let phase = canonical_wechsler(&cells);
        if phase.len() <= MAX_LENGTH {
            rep = if rep == "#" {
                phase
            } else {
                better(rep, phase)
            };
        }
    }
    let moves = found.dx != 0 || found.dy != 0;
    let prefix = match (found.period, moves) {
        (1, false) => format!("s{population}"),
        (p, false) => format!("p{p}"),
        (p, true) => format!("q{p}"),
    };
    Ok(if rep == "#" {
        format!("ov_{prefix}")
    } else {
        format!("x{prefix}_{rep}")
    })
}
