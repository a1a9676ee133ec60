//! Identify: what an object is and its figures, as LifeViewer's Identify and Golly's oscar
//! report them — still life, oscillator, spaceship (period, displacement, speed in c/p with
//! its direction), gun or puffer (period, what it emits), or growth golab cannot name;
//! population min/max/average, bounding box, heat, temperature, volatility, strict
//! volatility and the apgcode.
//!
//! It runs on an unbounded plane (a ship on a torus would show a false period): the sparse
//! stepper of [`super::apgcode_classify`], for two-state rules without B0.
//!
//! Definitions (those of LifeWiki's infoboxes): *heat* is the average number of cells that
//! change state from one generation to the next over a period; for an oscillator, of the
//! cells alive in some phase (*active*), the *stator* is alive in every phase and the
//! *rotor* is the rest; *temperature* is heat ÷ active cells, *volatility* rotor ÷ active,
//! *strict volatility* the rotor cells whose own period is the full period ÷ active.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::apgcode_classify::{classify, normalised, step};
use super::{Pattern, PatternError};
use crate::rule::Rule;

/// Generations Identify looks at, at most.
pub const MAX_GENERATIONS: u64 = 4096;
/// Live cells Identify follows, at most.
pub const MAX_CELLS: usize = 20_000;
/// Cells of all generations kept at once, at most (memory: the history and the shapes seen).
const MAX_STORED: usize = 2_000_000;
/// Longest gun or puffer period recognised.
const MAX_GROWTH_PERIOD: usize = 512;

/// What kind of object a pattern is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Unchanging.
    StillLife,
    /// Returns to itself in place after `period` generations.
    Oscillator,
    /// Returns to itself displaced.
    Spaceship,
    /// Grows linearly with a periodic part that stays in place (it emits objects).
    Gun,
    /// Grows linearly and moves (it leaves debris or objects behind).
    Puffer,
    /// Dies out completely.
    Dies,
}

/// What Identify found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Identity {
    /// The kind.
    pub kind: Kind,
    /// One line: "p15 oscillator", "c/4 diagonal spaceship", "p30 gun emitting xq4_153".
    pub description: String,
    /// Period (generations); 1 for a still life, 0 when it dies.
    pub period: u64,
    /// Generation (from the given one) where the periodic behaviour starts: 0 for an object
    /// given in its cycle (and for guns and puffers, whose start is not searched).
    pub settles_at: u64,
    /// Displacement per period `(dx, dy)` (x to the right, y down).
    pub displacement: (i64, i64),
    /// Speed as c/p notation (`c/4`, `c/2`, `2c/5`, `(2,1)c/6`), for ships and puffers.
    pub speed: Option<String>,
    /// `orthogonal`, `diagonal` or `oblique`, with the heading (`north`, `south-east`, …).
    pub direction: Option<String>,
    /// Smallest and largest population over the period.
    pub population: (u64, u64),
    /// Average population over the period.
    pub average_population: f64,
    /// Width and height of the box covering every phase of the period (for a ship: its
    /// largest phase; for a gun: the gun without what it emitted).
    pub bounding_box: (u64, u64),
    /// Width and height of the box of its first phase of smallest population: the figure
    /// LifeWiki's infoboxes give (a blinker's 3 × 1).
    pub phase_box: (u64, u64),
    /// Average cells changing state a generation over the period.
    pub heat: Option<f64>,
    /// Heat ÷ active cells (oscillators).
    pub temperature: Option<f64>,
    /// Rotor ÷ active cells (oscillators).
    pub volatility: Option<f64>,
    /// Full-period rotor cells ÷ active cells (oscillators).
    pub strict_volatility: Option<f64>,
    /// Catagolue's code of the periodic object (in the phase it settled into).
    pub apgcode: Option<String>,
    /// What a gun or puffer emits: the apgcode of the farthest object it sent out.
    pub emits: Option<String>,
}

impl Identity {
    /// The report as `(name, value)` lines, the figures that apply to this kind of object:
    /// what `golab identify` prints and the window shows.
    pub fn report(&self) -> Vec<(&'static str, String)> {
        let mut lines: Vec<(&'static str, String)> = vec![("object", self.description.clone())];
        if self.period > 0 {
            lines.push(("period", self.period.to_string()));
        }
        if self.settles_at > 0 {
            lines.push(("settles at", format!("generation {}", self.settles_at)));
        }
        if let (Some(speed), Some(direction)) = (&self.speed, &self.direction) {
            lines.push(("speed", format!("{speed} ({direction})")));
            lines.push((
                "displacement",
                format!(
                    "({}, {}) a period",
                    self.displacement.0, self.displacement.1
                ),
            ));
        }
        lines.push((
            "population",
            format!(
                "{}..{} (average {:.2})",
                self.population.0, self.population.1, self.average_population
            ),
        ));
        lines.push((
            "bounding box",
            format!(
                "{} x {} (smallest phase {} x {})",
                self.bounding_box.0, self.bounding_box.1, self.phase_box.0, self.phase_box.1
            ),
        ));
        let figure = |v: Option<f64>| v.map(|v| format!("{v:.3}"));
        for (name, value) in [
            ("heat", figure(self.heat)),
            ("temperature", figure(self.temperature)),
            ("volatility", figure(self.volatility)),
            ("strict volatility", figure(self.strict_volatility)),
            ("apgcode", self.apgcode.clone()),
            ("emits", self.emits.clone()),
        ] {
            if let Some(value) = value {
                lines.push((name, value));
            }
        }
        lines
    }
}

type Cells = HashSet<(i64, i64)>;
/// A phase's normalised shape → the generation it was first seen and its top-left there.
type Seen = HashMap<Vec<(i64, i64)>, (usize, (i64, i64))>;

/// Width and height of `cells`' box.
fn box_of<'a>(cells: impl IntoIterator<Item = &'a (i64, i64)>) -> (u64, u64) {
    let (mut x0, mut x1, mut y0, mut y1) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
    for &(x, y) in cells {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        return (0, 0);
    }
    ((x1 - x0 + 1) as u64, (y1 - y0 + 1) as u64)
}

/// The box of the first phase (from the one identified) of the smallest population: the
/// phase LifeWiki's infoboxes show, and the one given when it is such a phase.
fn smallest_box(phases: &[Cells]) -> (u64, u64) {
    phases
        .iter()
        .enumerate()
        .min_by_key(|(i, c)| (c.len(), *i))
        .map_or((0, 0), |(_, c)| box_of(c))
}

/// `k` cells in `p` generations as c/p notation: `c/4`, `2c/5`, `c`.
fn fraction(k: u64, p: u64) -> String {
    let g = gcd(k, p);
    let (a, b) = (k / g, p / g);
    let c = if a == 1 {
        "c".to_string()
    } else {
        format!("{a}c")
    };
    if b == 1 { c } else { format!("{c}/{b}") }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a.max(1) } else { gcd(b, a % b) }
}

/// Speed and direction of a displacement `(dx, dy)` per `p` generations.
pub fn speed(dx: i64, dy: i64, p: u64) -> (String, String) {
    let (ax, ay) = (dx.unsigned_abs(), dy.unsigned_abs());
    let heading = [
        (dy < 0, "north"),
        (dy > 0, "south"),
        (dx > 0, "east"),
        (dx < 0, "west"),
    ]
    .iter()
    .filter(|h| h.0)
    .map(|h| h.1)
    .collect::<Vec<_>>()
    .join("-");
    if ax == 0 || ay == 0 {
        (fraction(ax + ay, p), format!("orthogonal, {heading}"))
    } else if ax == ay {
        (fraction(ax, p), format!("diagonal, {heading}"))
    } else {
        let g = gcd(gcd(ax, ay), p);
        let (a, b) = (ax.max(ay) / g, ax.min(ay) / g);
        (
            format!("({a},{b})c/{}", p / g),
            format!("oblique, {heading}"),
        )
    }
}

/// Identify `pattern` (its rule, B3/S23 when it names none) by running it on the plane for
/// up to [`MAX_GENERATIONS`] generations (fewer when it grows past [`MAX_CELLS`] cells or
/// the generations kept pass [`MAX_STORED`] cells).
pub fn identify(pattern: &Pattern) -> Result<Identity, PatternError> {
    let rule = pattern.rule.unwrap_or_default();
    if rule.has_dying_states() || rule.is_table() || rule.is_ltl() || rule.next_alive(0) {
        return Err(PatternError::Unsupported(format!(
            "Identify runs two-state range-1 rules without B0; {rule} is not one"
        )));
    }
    let start: Cells = pattern
        .clean_cells()
        .iter()
        .map(|&(x, y)| (i64::from(x), i64::from(y)))
        .collect();
    if start.is_empty() {
        return Err(PatternError::Unsupported(
            "nothing to identify: the pattern is empty".into(),
        ));
    }
    let mut history: Vec<Cells> = vec![start.clone()];
    let mut seen: Seen = HashMap::new();
    let (shape, at) = normalised(&start);
    seen.insert(shape, (0, at));
    let mut cells = start;
    let mut stored = 0usize;
    for t in 1..=MAX_GENERATIONS as usize {
        cells = step(&cells, rule);
        if cells.is_empty() {
            return Ok(dies(&history, t));
        }
        stored += cells.len();
        if cells.len() > MAX_CELLS || stored > MAX_STORED {
            break;
        }
        let (shape, at) = normalised(&cells);
        history.push(cells.clone());
        if let Some(&(t0, at0)) = seen.get(&shape) {
            return Ok(periodic(
                &history,
                t0,
                t,
                (at.0 - at0.0, at.1 - at0.1),
                rule,
            ));
        }
        seen.insert(shape, (t, at));
    }
    growth(&history, rule, pattern)
}

/// A pattern that is empty at generation `t`.
fn dies(history: &[Cells], t: usize) -> Identity {
    let pops: Vec<u64> = history.iter().map(|c| c.len() as u64).collect();
    Identity {
        kind: Kind::Dies,
        description: format!("dies at generation {t}"),
        period: 0,
        settles_at: t as u64,
        displacement: (0, 0),
        speed: None,
        direction: None,
        population: (0, pops.iter().copied().max().unwrap_or(0)),
        average_population: 0.0,
        bounding_box: (0, 0),
        phase_box: (0, 0),
        heat: None,
        temperature: None,
        volatility: None,
        strict_volatility: None,
        apgcode: None,
        emits: None,
    }
}

/// Cells changing state from each phase to the next, averaged over `phases` (the period's
/// phases and the one after, which closes the cycle).
fn heat(phases: &[Cells]) -> f64 {
    let changes: usize = phases
        .windows(2)
        .map(|w| w[0].symmetric_difference(&w[1]).count())
        .sum();
    changes as f64 / (phases.len() - 1) as f64
}

/// The object repeating from generation `t0` to `t1` displaced by `d`.
fn periodic(history: &[Cells], t0: usize, t1: usize, d: (i64, i64), rule: Rule) -> Identity {
    let p = (t1 - t0) as u64;
    let phases = &history[t0..=t1];
    let cycle = &phases[..phases.len() - 1];
    let pops: Vec<u64> = cycle.iter().map(|c| c.len() as u64).collect();
    let (kind, mut description) = match (p, d) {
        (1, (0, 0)) => (Kind::StillLife, format!("{}-cell still life", pops[0])),
        (_, (0, 0)) => (Kind::Oscillator, format!("p{p} oscillator")),
        _ => (Kind::Spaceship, String::new()),
    };
    let (speed_text, direction) = match kind {
        Kind::Spaceship => {
            let (s, dir) = speed(d.0, d.1, p);
            description = format!("{s} {} spaceship", dir.split(',').next().unwrap_or(""));
            (Some(s), Some(dir))
        }
        _ => (None, None),
    };
    let bounding_box = if kind == Kind::Spaceship {
        cycle
            .iter()
            .map(box_of)
            .fold((0, 0), |a, b| (a.0.max(b.0), a.1.max(b.1)))
    } else {
        box_of(cycle.iter().flatten())
    };
    let mut identity = Identity {
        kind,
        description,
        period: p,
        settles_at: t0 as u64,
        displacement: d,
        speed: speed_text,
        direction,
        population: (
            pops.iter().copied().min().unwrap_or(0),
            pops.iter().copied().max().unwrap_or(0),
        ),
        average_population: pops.iter().sum::<u64>() as f64 / p as f64,
        bounding_box,
        phase_box: smallest_box(cycle),
        heat: (p > 1).then(|| heat(phases)),
        temperature: None,
        volatility: None,
        strict_volatility: None,
        apgcode: None,
        emits: None,
    };
    if kind == Kind::Oscillator {
        rotor_figures(cycle, &mut identity);
    }
    identity.apgcode = classify(&pattern_of(&cycle[0], rule)).ok();
    identity
}

/// Temperature, volatility and strict volatility of an oscillator's `cycle`.
fn rotor_figures(cycle: &[Cells], identity: &mut Identity) {
    let p = cycle.len();
    let active: Cells = cycle.iter().flatten().copied().collect();
    let mut rotor = 0usize;
    let mut strict = 0usize;
    for cell in &active {
        let alive: Vec<bool> = cycle.iter().map(|phase| phase.contains(cell)).collect();
        if alive.iter().all(|&a| a) {
            continue;
        }
        rotor += 1;
        // Strict: no proper divisor of p is a period of this cell's on/off sequence.
        let repeats = |q: usize| (0..p).all(|i| alive[i] == alive[(i + q) % p]);
        if !(1..p).filter(|&q| p.is_multiple_of(q)).any(repeats) {
            strict += 1;
        }
    }
    let n = active.len() as f64;
    identity.temperature = identity.heat.map(|h| h / n);
    identity.volatility = Some(rotor as f64 / n);
    identity.strict_volatility = Some(strict as f64 / n);
}

/// `cells` as a pattern under `rule` (its box at the origin).
fn pattern_of(cells: &Cells, rule: Rule) -> Pattern {
    let (shape, _) = normalised(cells);
    Pattern {
        rule: Some(rule),
        ..Pattern::fitted(shape.iter().map(|&(x, y)| (x as u32, y as u32)))
    }
}

/// A pattern that did not repeat: a gun or a puffer when its population grows by the same
/// amount every period (what it emits named by the farthest object it sent out), else
/// refused with what was seen.
fn growth(history: &[Cells], rule: Rule, pattern: &Pattern) -> Result<Identity, PatternError> {
    let pops: Vec<i64> = history.iter().map(|c| c.len() as i64).collect();
    let n = pops.len();
    let linear = (1..=MAX_GROWTH_PERIOD.min(n / 4)).find(|&p| {
        let diff = pops[n - 1] - pops[n - 1 - p];
        diff > 0 && (n - 1 - 3 * p..n - 1 - p).all(|t| pops[t + p] - pops[t] == diff)
    });
    let Some(p) = linear else {
        return Err(PatternError::Unsupported(format!(
            "not identified: {} did not repeat or grow periodically within {} generations (population {} at the end)",
            pattern.name.as_deref().unwrap_or("the pattern"),
            n - 1,
            pops[n - 1]
        )));
    };
    // The part within the box it started in: periodic for a gun.
    let (w0, h0) = box_of(&history[0]);
    let near = |c: &&(i64, i64)| (0..w0 as i64).contains(&c.0) && (0..h0 as i64).contains(&c.1);
    let last = &history[n - 1];
    let earlier = &history[n - 1 - p];
    let here: Cells = last.iter().filter(near).copied().collect();
    let before: Cells = earlier.iter().filter(near).copied().collect();
    let gun = !here.is_empty() && here == before;
    let emits = farthest_object(last, rule);
    let what = emits.as_deref().unwrap_or("objects golab cannot name");
    let per = pops[n - 1] - pops[n - 1 - p];
    let (kind, description) = if gun {
        (Kind::Gun, format!("p{p} gun emitting {what}"))
    } else {
        (
            Kind::Puffer,
            format!("p{p} puffer or growing pattern leaving {what}"),
        )
    };
    // A gun's figures are those of the gun, without what it sent out; a puffer's, all of it.
    let cycle: Vec<Cells> = history[n - 1 - p..n - 1]
        .iter()
        .map(|c| {
            if gun {
                c.iter().filter(near).copied().collect()
            } else {
                c.clone()
            }
        })
        .collect();
    let cyc: Vec<u64> = cycle.iter().map(|c| c.len() as u64).collect();
    Ok(Identity {
        kind,
        description: format!("{description} (+{per} cells a period)"),
        period: p as u64,
        settles_at: 0,
        displacement: (0, 0),
        speed: None,
        direction: None,
        population: (
            cyc.iter().copied().min().unwrap_or(0),
            cyc.iter().copied().max().unwrap_or(0),
        ),
        average_population: cyc.iter().sum::<u64>() as f64 / p as f64,
        bounding_box: box_of(cycle.iter().flatten()),
        phase_box: smallest_box(&cycle),
        heat: None,
        temperature: None,
        volatility: None,
        strict_volatility: None,
        apgcode: None,
        emits,
    })
}

/// The apgcode of the object of `cells` farthest from the origin (cells within two of each
/// other are one object), if it is a still life, oscillator or spaceship.
fn farthest_object(cells: &Cells, rule: Rule) -> Option<String> {
    let far = cells
        .iter()
        .max_by_key(|c| c.0 * c.0 + c.1 * c.1)
        .copied()?;
    let mut object: Cells = HashSet::from([far]);
    let mut frontier = vec![far];
    while let Some((x, y)) = frontier.pop() {
        for dy in -2..=2 {
            for dx in -2..=2 {
                let c = (x + dx, y + dy);
                if cells.contains(&c) && object.insert(c) {
                    frontier.push(c);
                }
            }
        }
    }
    classify(&pattern_of(&object, rule)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_read_as_lifewiki_writes_them() {
        assert_eq!(
            speed(1, 1, 4),
            ("c/4".into(), "diagonal, south-east".into())
        );
        assert_eq!(speed(-2, 0, 4), ("c/2".into(), "orthogonal, west".into()));
        assert_eq!(speed(0, -2, 5), ("2c/5".into(), "orthogonal, north".into()));
        assert_eq!(
            speed(1, -2, 6),
            ("(2,1)c/6".into(), "oblique, north-east".into())
        );
        assert_eq!(speed(0, 3, 3), ("c".into(), "orthogonal, south".into()));
    }
}
