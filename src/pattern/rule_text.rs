//! Rule text as pattern files write it: any rule golab parses, and Golly's
//! bounded-grid suffix (`B3/S23:T72,48` torus, `:P100,80` plane with a dead border, and the
//! other surfaces of Golly's Help/bounded.html: `:T30+5,20` shifted torus, `:K30*,20` Klein
//! bottle, `:C30,20` cross-surface, `:S30` sphere, `:T0,20` tube, `:P30,0` strip).
//!
//! The suffix is split off here, before [`Rule::from_str`], so the rule parser stays about
//! rules; it is read with Golly's rules for which surface takes a twist or a shift.

use std::str::FromStr;

use crate::rule::Rule;
use crate::world::{Join, MAX_EDGE, MIN_EDGE, Topology};

/// A bounded grid from a rule suffix: the world's size and what lies beyond its edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Width in cells; 0 is Golly's infinite width (a tube `:T0,20` or a strip `:P0,20`).
    pub width: u32,
    /// Height in cells; 0 is an infinite height.
    pub height: u32,
    /// `:T` a torus (with a shift: [`Join::ShiftedTopBottom`] …; with an infinite side a
    /// [`Join::TubeTopBottom`] …), `:P` a plane with a dead border, `:K`, `:C`, `:S` the
    /// other joined surfaces.
    pub topology: Topology,
}

impl Grid {
    /// The suffix Golly writes for this grid, e.g. `:T72,48`, `:P100,80`, `:K40*,20`.
    pub fn suffix(&self) -> String {
        match self.topology {
            Topology::Torus => format!(":T{},{}", self.width, self.height),
            Topology::DeadBorder => format!(":P{},{}", self.width, self.height),
            Topology::Joined(join) => join.golly_suffix(self.width, self.height),
        }
    }

    /// Whether a side is infinite (a tube or a strip), run in a grid wide enough that the
    /// pattern never reaches its open ends ([`Grid::size_around`]).
    pub fn has_open_side(&self) -> bool {
        self.width == 0 || self.height == 0
    }

    /// The world size that runs this grid for a pattern of `width × height` cells: the
    /// grid's own sides, and an infinite side as the pattern's extent with `margin` cells
    /// beyond it each way (a pattern grows by at most one cell a generation, so `margin` =
    /// the generations to run makes the emulation exact); `None` past golab's largest edge.
    pub fn size_around(&self, width: u32, height: u32, margin: u64) -> Option<(u32, u32)> {
        let side = |own: u32, pattern: u32| -> Option<u32> {
            if own > 0 {
                return Some(own);
            }
            let want = u64::from(pattern) + 2 * margin + 2;
            let want = want.max(u64::from(MIN_EDGE));
            (want <= u64::from(MAX_EDGE)).then_some(want as u32)
        };
        Some((side(self.width, width)?, side(self.height, height)?))
    }
}

/// A parsed rule field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RuleSpec {
    /// The two-state rule golab runs.
    pub rule: Rule,
    /// The bounded grid of the suffix, if any.
    pub grid: Option<Grid>,
}

impl RuleSpec {
    /// How the file's multi-state cells read under this rule.
    pub fn cell_states(&self) -> CellStates {
        CellStates {
            states: if self.rule.has_dying_states() {
                self.rule.states()
            } else {
                2
            },
        }
    }
}

/// How a file's multi-state cells (RLE letters, macrocell state nodes) read under its rule:
/// a many-state rule's states (Generations, rule tables, LifeHistory and the other layered
/// rules), or a two-state rule's. The default is a file with no rule (B3/S23).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CellStates {
    /// The rule's number of states (2 for two-state rules).
    pub states: u16,
}

impl Default for CellStates {
    fn default() -> Self {
        CellStates { states: 2 }
    }
}

/// What one multi-state cell of a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CellRead {
    /// State 0.
    Dead,
    /// State 1.
    Live,
    /// A state 2..C−1 (Generations' dying states, a rule table's others).
    Dying(u8),
}

impl CellStates {
    /// Read cell state `state`; a state the rule does not have is an error message.
    pub fn read(self, state: u64) -> Result<CellRead, String> {
        match state {
            0 => Ok(CellRead::Dead),
            1 => Ok(CellRead::Live),
            s if s < u64::from(self.states) => Ok(CellRead::Dying(s as u8)),
            _ if self.states > 2 => Err(format!(
                "cell state {state} is beyond the rule's states 0-{} ({} states)",
                self.states - 1,
                self.states
            )),
            _ => Err(format!(
                "cell state {state} in a two-state rule (multi-state cells are read for \
                 rules of more than two states only)"
            )),
        }
    }
}

/// A rule-text error: the character offset in the text where it is, and the message.
pub(super) type RuleTextError = (usize, String);

/// Parse `text` (already trimmed) as a rule with an optional bounded-grid suffix.
pub(super) fn parse_rule(text: &str) -> Result<RuleSpec, RuleTextError> {
    let (rule_text, suffix) = match text.find(':') {
        Some(at) => (&text[..at], Some((at, &text[at..]))),
        None => (text, None),
    };
    let rule = Rule::from_str(rule_text.trim_end()).map_err(|e| (0, e.to_string()))?;
    let mut grid = match suffix {
        Some((at, suffix)) => {
            parse_suffix(suffix).map_err(|(i, m)| (text[..at].chars().count() + i, m))?
        }
        None => None,
    };
    if let (Some(g), Some(ltl)) = (grid.as_mut(), rule.ltl()) {
        // Golly's LtL raises a side shorter than twice the range to that.
        let least = ltl.min_side().clamp(MIN_EDGE, MAX_EDGE);
        g.width = g.width.max(least);
        g.height = g.height.max(least);
    }
    Ok(RuleSpec { rule, grid })
}

/// Parse a suffix starting with `:`, as Golly's `lifealgo::setgridsize` reads it;
/// offsets in errors count characters from the `:`.
fn parse_suffix(suffix: &str) -> Result<Option<Grid>, RuleTextError> {
    let body: Vec<char> = suffix[1..].chars().collect();
    let Some(&kind) = body.first() else {
        return Ok(None); // ":" alone is Golly's unbounded universe
    };
    let kind = kind.to_ascii_uppercase();
    if !"TPKCS".contains(kind) {
        let message = format!(
            "unknown bounded-grid type ':{kind}' (Golly's are :T torus, :P plane, \
             :K Klein bottle, :C cross-surface, :S sphere)"
        );
        return Err((0, message));
    }
    if body.len() == 1 {
        return Ok(None); // ":T" alone is unbounded too
    }
    let mut at = 1;
    let err = |at: usize, m: &str| Err((at + 1, m.to_string()));
    let width = side(&body, &mut at, "width")?;
    let (wide_twist, wide_shift) = twist_and_shift(&body, &mut at, kind, width)?;
    let height = if at == body.len() {
        width // ":T100" is ":T100,100", and ":S30" a 30×30 sphere
    } else if body[at] == ',' && kind != 'S' {
        at += 1;
        side(&body, &mut at, "height")?
    } else {
        return err(at, "unexpected text after the grid's width");
    };
    let (_, high_shift) = if at < body.len() {
        if wide_twist && body[at] == '*' {
            return err(at, "a Klein bottle cannot have both pairs of edges twisted");
        }
        if wide_shift.is_some() && matches!(body[at], '+' | '-') {
            return err(at, "a grid cannot have both horizontal and vertical shifts");
        }
        twist_and_shift(&body, &mut at, kind, height)?
    } else {
        (false, None)
    };
    if at < body.len() {
        return err(at, "unexpected text after the grid's height");
    }
    if width == 0 && height == 0 {
        return Ok(None); // an infinite grid is the unbounded universe
    }
    if matches!(kind, 'K' | 'C' | 'S') && (width == 0 || height == 0) {
        return Err((
            1,
            "a Klein bottle, cross-surface or sphere cannot have an infinite side (0)".into(),
        ));
    }
    let shift = wide_shift.or(high_shift).filter(|&s| s != 0);
    if shift.is_some() && (width == 0 || height == 0) {
        return Err((
            1,
            "shifting is not allowed if either grid dimension is infinite (0)".into(),
        ));
    }
    let topology = match kind {
        'P' => Topology::DeadBorder,
        'C' => Topology::Joined(Join::CrossSurface),
        'S' => Topology::Joined(Join::Sphere),
        // Golly reads ":K10,20" as ":K10,20*"; a shift on a twisted edge is the +1 shift,
        // which Golly makes only on an even number of cells.
        'K' if wide_twist => Topology::Joined(Join::KleinTopBottom {
            shift: shift.is_some() && width % 2 == 0,
        }),
        'K' => Topology::Joined(Join::KleinLeftRight {
            shift: shift.is_some() && height % 2 == 0,
        }),
        _ if width == 0 => Topology::Joined(Join::TubeTopBottom),
        _ if height == 0 => Topology::Joined(Join::TubeLeftRight),
        _ => match (
            wide_shift.filter(|&s| s != 0),
            high_shift.filter(|&s| s != 0),
        ) {
            (Some(s), _) => Topology::Joined(Join::ShiftedTopBottom(s)),
            (_, Some(s)) => Topology::Joined(Join::ShiftedLeftRight(s)),
            _ => Topology::Torus,
        },
    };
    Ok(Some(Grid {
        width,
        height,
        topology,
    }))
}

/// A grid side at `body[*at..]`: digits, 0 (Golly's infinite side) or
/// `MIN_EDGE..=MAX_EDGE`; `*at` moves past them.
fn side(body: &[char], at: &mut usize, what: &str) -> Result<u32, RuleTextError> {
    let start = *at;
    while *at < body.len() && body[*at].is_ascii_digit() {
        *at += 1;
    }
    let digits: String = body[start..*at].iter().collect();
    if digits.is_empty() {
        let found: String = body[start..].iter().collect();
        return Err((
            start + 1,
            format!("the bounded grid's {what} must be a whole number, found '{found}'"),
        ));
    }
    let value = digits.trim_start_matches('0');
    let value = if value.len() > 9 {
        u64::MAX
    } else {
        value.parse::<u64>().unwrap_or(0)
    };
    if value != 0 && !(u64::from(MIN_EDGE)..=u64::from(MAX_EDGE)).contains(&value) {
        return Err((
            start + 1,
            format!(
                "the bounded grid's {what} {value} is outside golab's world edges \
                 {MIN_EDGE}..={MAX_EDGE}"
            ),
        ));
    }
    Ok(value as u32)
}

/// The `*` (twist) and `+n`/`-n` (shift) that may follow a side of `len` cells, with Golly's
/// rules for which surfaces have them; the shift is reduced modulo the side.
fn twist_and_shift(
    body: &[char],
    at: &mut usize,
    kind: char,
    len: u32,
) -> Result<(bool, Option<i32>), RuleTextError> {
    let fail = |at: usize, m: &str| Err((at + 1, m.to_string()));
    let mut twist = false;
    if body.get(*at) == Some(&'*') {
        if kind != 'K' {
            return fail(*at, "only a Klein bottle (:K) has a twisted edge (*)");
        }
        twist = true;
        *at += 1;
    }
    let Some(&sign) = body.get(*at).filter(|c| matches!(c, '+' | '-')) else {
        return Ok((twist, None));
    };
    let why = match kind {
        'P' => Some("a plane cannot have a shift"),
        'S' => Some("a sphere cannot have a shift"),
        'C' => Some("a cross-surface cannot have a shift"),
        'K' if !twist => Some("a Klein bottle's shift must be on its twisted edges"),
        _ if len == 0 => Some("an infinite side cannot be shifted"),
        _ => None,
    };
    if let Some(why) = why {
        return fail(*at, why);
    }
    *at += 1;
    let start = *at;
    while *at < body.len() && body[*at].is_ascii_digit() {
        *at += 1;
    }
    let digits: String = body[start..*at].iter().collect();
    let value = if digits.len() > 9 {
        u64::MAX
    } else {
        digits.parse::<u64>().unwrap_or(0)
    };
    let reduced = (value % u64::from(len)) as i32;
    Ok((twist, Some(if sign == '-' { -reduced } else { reduced })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_set_size_and_topology() {
        let spec = parse_rule("B3/S23:T72,48").unwrap();
        assert_eq!(
            spec.grid,
            Some(Grid {
                width: 72,
                height: 48,
                topology: Topology::Torus
            })
        );
        let plane = parse_rule("B36/S23:p100").unwrap();
        assert_eq!(
            (plane.rule.to_string(), plane.grid.map(|g| g.suffix())),
            ("B36/S23".to_string(), Some(":P100,100".to_string()))
        );
        assert_eq!(parse_rule("B3/S23:").unwrap().grid, None);
        // LifeHistory is built in (Golly's Super algorithm), 7 states.
        let history = parse_rule("LifeHistory").unwrap();
        assert_eq!(
            (history.rule.states(), history.rule.to_string()),
            (7, "LifeHistory".to_string())
        );
    }

    #[test]
    fn larger_than_life_grids_are_at_least_twice_the_range() {
        let spec = parse_rule("R10,C0,M1,S2..3,B3..3,NM:T12,50").unwrap();
        let grid = spec.grid.unwrap();
        assert_eq!((grid.width, grid.height), (20, 50));
    }

    /// Every surface of Golly's Help/bounded.html reads as Golly reads it and prints back
    /// in Golly's canonical form.
    #[test]
    fn golly_surfaces_read_and_print_back() {
        for (text, topology, size, canonical) in [
            (
                "T30+5,20",
                Topology::Joined(Join::ShiftedTopBottom(5)),
                (30, 20),
                ":T30+5,20",
            ),
            (
                "T30,20-2",
                Topology::Joined(Join::ShiftedLeftRight(-2)),
                (30, 20),
                ":T30,20-2",
            ),
            (
                "T30+35,20",
                Topology::Joined(Join::ShiftedTopBottom(5)),
                (30, 20),
                ":T30+5,20",
            ),
            ("T30+30,20", Topology::Torus, (30, 20), ":T30,20"),
            (
                "K30*,20",
                Topology::Joined(Join::KleinTopBottom { shift: false }),
                (30, 20),
                ":K30*,20",
            ),
            (
                "k30,20*",
                Topology::Joined(Join::KleinLeftRight { shift: false }),
                (30, 20),
                ":K30,20*",
            ),
            (
                "K30,20",
                Topology::Joined(Join::KleinLeftRight { shift: false }),
                (30, 20),
                ":K30,20*",
            ),
            (
                "K30*+1,20",
                Topology::Joined(Join::KleinTopBottom { shift: true }),
                (30, 20),
                ":K30*+1,20",
            ),
            (
                "K31*+1,20",
                Topology::Joined(Join::KleinTopBottom { shift: false }),
                (31, 20),
                ":K31*,20",
            ),
            (
                "K3,4*+1",
                Topology::Joined(Join::KleinLeftRight { shift: true }),
                (3, 4),
                ":K3,4*+1",
            ),
            (
                "C40,20",
                Topology::Joined(Join::CrossSurface),
                (40, 20),
                ":C40,20",
            ),
            ("S30", Topology::Joined(Join::Sphere), (30, 30), ":S30"),
            (
                "T0,68",
                Topology::Joined(Join::TubeTopBottom),
                (0, 68),
                ":T0,68",
            ),
            (
                "T30,0",
                Topology::Joined(Join::TubeLeftRight),
                (30, 0),
                ":T30,0",
            ),
            ("P30,0", Topology::DeadBorder, (30, 0), ":P30,0"),
        ] {
            let spec = parse_rule(&format!("B3/S23:{text}")).unwrap();
            let grid = spec.grid.unwrap();
            assert_eq!(grid.topology, topology, "{text}");
            assert_eq!((grid.width, grid.height), size, "{text}");
            assert_eq!(grid.suffix(), canonical, "{text}");
        }
        assert_eq!(parse_rule("B3/S23:T0,0").unwrap().grid, None);
    }

    #[test]
    fn impossible_surfaces_are_refused_at_their_position() {
        for (text, at, word) in [
            ("B3/S23:C10+1,20", 10, "cross-surface cannot have a shift"),
            ("B3/S23:S10,10", 10, "unexpected"),
            ("B3/S23:T10*,20", 10, "only a Klein bottle"),
            ("B3/S23:K10*,20*", 14, "both pairs"),
            ("B3/S23:T10+1,20+1", 15, "both horizontal and vertical"),
            ("B3/S23:K10+1,20", 10, "twisted edges"),
            ("B3/S23:K0,20", 7, "infinite side"),
            ("B3/S23:T0+1,20", 9, "infinite side"),
            ("B3/S23:T10,x", 11, "whole number"),
            ("B3/S23:T99999999,5", 8, "outside"),
            ("B3/S23:Q10", 6, "unknown bounded-grid"),
        ] {
            let (offset, message) = parse_rule(text).unwrap_err();
            assert_eq!(offset, at, "{text}: {message}");
            assert!(message.contains(word), "{text}: {message}");
        }
    }
}
