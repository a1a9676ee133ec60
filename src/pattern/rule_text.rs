//! Rule text as pattern files write it: a B/S rule, Golly's `LifeHistory`, and Golly's
//! bounded-grid suffix (`B3/S23:T72,48` torus, `:P100,80` plane with a dead border).
//!
//! The suffix is split off here, before [`Rule::from_str`], so the rule parser stays about
//! rules. golab's worlds are finite rectangles that wrap (torus) or not (dead border); Golly's
//! other surfaces (Klein bottle, cross-surface, sphere, a sheared torus) and unbounded
//! dimensions (a tube or strip) are refused with the reason.

use std::str::FromStr;

use crate::rule::Rule;
use crate::world::{MAX_EDGE, MIN_EDGE, Topology};

/// A bounded grid from a rule suffix: the world's size and what lies beyond its edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Width in cells.
    pub width: u32,
    /// Height in cells.
    pub height: u32,
    /// `:T` is a torus, `:P` a plane with a dead border.
    pub topology: Topology,
}

impl Grid {
    /// The suffix Golly writes for this grid, e.g. `:T72,48` or `:P100,80`.
    pub fn suffix(&self) -> String {
        let letter = match self.topology {
            Topology::Torus => 'T',
            Topology::DeadBorder => 'P',
        };
        format!(":{letter}{},{}", self.width, self.height)
    }
}

/// A parsed rule field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RuleSpec {
    /// The two-state rule golab runs.
    pub rule: Rule,
    /// The bounded grid of the suffix, if any.
    pub grid: Option<Grid>,
    /// `LifeHistory`: a 7-state B3/S23 whose odd states 1, 3, 5 are alive.
    pub history: bool,
}

impl RuleSpec {
    /// How the file's multi-state cells read under this rule.
    pub fn cell_states(&self) -> CellStates {
        CellStates {
            history: self.history,
            states: if self.rule.has_dying_states() {
                self.rule.states()
            } else {
                2
            },
        }
    }
}

/// How a file's multi-state cells (RLE letters, macrocell state nodes) read under its rule:
/// LifeHistory's, a Generations rule's states, or a two-state rule's. The default is a file
/// with no rule (B3/S23).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CellStates {
    /// `LifeHistory`: states 1, 3, 5 alive, the others dead.
    pub history: bool,
    /// The Generations rule's C (2 for two-state rules).
    pub states: u16,
}

impl Default for CellStates {
    fn default() -> Self {
        CellStates {
            history: false,
            states: 2,
        }
    }
}

/// What one multi-state cell of a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CellRead {
    /// State 0.
    Dead,
    /// State 1 (and LifeHistory's 3 and 5).
    Live,
    /// A LifeHistory state read as dead (the readers count them in a note).
    HistoryDead,
    /// A Generations dying state 2..C−1.
    Dying(u8),
}

impl CellStates {
    /// Read cell state `state`; a state the rule does not have is an error message.
    pub fn read(self, state: u64) -> Result<CellRead, String> {
        match state {
            0 => Ok(CellRead::Dead),
            1 => Ok(CellRead::Live),
            3 | 5 if self.history => Ok(CellRead::Live),
            2..=255 if self.history => Ok(CellRead::HistoryDead),
            s if s < u64::from(self.states) => Ok(CellRead::Dying(s as u8)),
            _ if self.states > 2 => Err(format!(
                "cell state {state} is beyond the rule's states 0-{} (Generations C = {})",
                self.states - 1,
                self.states
            )),
            _ => Err(format!(
                "cell state {state} in a two-state rule (multi-state cells are read for \
                 Generations rules and LifeHistory only)"
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
    // LifeHistory runs as Golly runs it, the 7-state table, when a rule file has it (an
    // installed Golly's, or the user's); without one its live states are read as B3/S23.
    let history_table = || {
        crate::rule::table::library::load("LifeHistory")
            .ok()
            .map(Rule::from_rule_table)
    };
    let named_history = rule_text.trim().eq_ignore_ascii_case("LifeHistory");
    let table = if named_history { history_table() } else { None };
    let history = named_history && table.is_none();
    let rule = if let Some(table) = table {
        table
    } else if history {
        Rule::CONWAY
    } else {
        Rule::from_str(rule_text.trim_end()).map_err(|e| (0, e.to_string()))?
    };
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
    Ok(RuleSpec {
        rule,
        grid,
        history,
    })
}

/// Parse a suffix starting with `:`; offsets in errors count characters from the `:`.
fn parse_suffix(suffix: &str) -> Result<Option<Grid>, RuleTextError> {
    let body = &suffix[1..];
    let mut chars = body.chars();
    let Some(kind) = chars.next() else {
        return Ok(None); // ":" alone is Golly's unbounded universe
    };
    let topology = match kind.to_ascii_uppercase() {
        'T' => Topology::Torus,
        'P' => Topology::DeadBorder,
        'K' => return Err((0, refused("a Klein bottle (:K)"))),
        'C' => return Err((0, refused("a cross-surface (:C)"))),
        'S' => return Err((0, refused("a sphere (:S)"))),
        other => {
            let message = format!(
                "unknown bounded-grid type ':{other}' (Golly's are :T torus, :P plane, \
                 :K Klein bottle, :C cross-surface, :S sphere)"
            );
            return Err((0, message));
        }
    };
    let rest = chars.as_str();
    if rest.is_empty() {
        return Ok(None); // ":T" alone is unbounded too
    }
    if let Some(at) = rest.find(['+', '-']) {
        let what = "a sheared torus (a shift such as :T100+5,80)";
        return Err((2 + rest[..at].chars().count(), refused(what)));
    }
    if let Some(at) = rest.find('*') {
        return Err((
            2 + rest[..at].chars().count(),
            refused("a twisted edge (*)"),
        ));
    }
    let (w, h) = match rest.split_once(',') {
        Some((w, h)) => (w, Some(h)),
        None => (rest, None),
    };
    let width = edge(w.trim(), 2, "width")?;
    let height = match h {
        Some(h) => edge(h.trim(), 2 + w.chars().count() + 1, "height")?,
        None => width, // ":T100" is ":T100,100"
    };
    Ok(Some(Grid {
        width,
        height,
        topology,
    }))
}

/// The message for a surface golab does not have.
fn refused(what: &str) -> String {
    format!(
        "the rule's bounded grid is {what}: golab's worlds are a torus (:T) or a plane with a \
         dead border (:P)"
    )
}

/// A grid edge: digits, `MIN_EDGE..=MAX_EDGE` (0 is Golly's unbounded dimension).
fn edge(text: &str, offset: usize, what: &str) -> Result<u32, RuleTextError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err((
            offset,
            format!("the bounded grid's {what} must be a whole number, found '{text}'"),
        ));
    }
    let value = text.trim_start_matches('0');
    let value = if value.is_empty() {
        0
    } else if value.len() > 9 {
        u64::MAX
    } else {
        value.parse::<u64>().unwrap_or(u64::MAX)
    };
    if value == 0 {
        return Err((
            offset,
            format!(
                "the bounded grid's {what} is 0, an unbounded dimension (a tube or strip): \
                 golab's worlds are finite"
            ),
        ));
    }
    if !(u64::from(MIN_EDGE)..=u64::from(MAX_EDGE)).contains(&value) {
        return Err((
            offset,
            format!(
                "the bounded grid's {what} {value} is outside golab's world edges \
                 {MIN_EDGE}..={MAX_EDGE}"
            ),
        ));
    }
    Ok(value as u32)
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
        // LifeHistory is the 7-state table where a rule file has it, else read as B3/S23.
        let history = parse_rule("LifeHistory").unwrap();
        let table = crate::rule::table::library::load("LifeHistory").is_ok();
        assert_eq!(history.history, !table);
        assert_eq!(history.rule.is_table(), table);
    }

    #[test]
    fn larger_than_life_grids_are_at_least_twice_the_range() {
        let spec = parse_rule("R10,C0,M1,S2..3,B3..3,NM:T12,50").unwrap();
        let grid = spec.grid.unwrap();
        assert_eq!((grid.width, grid.height), (20, 50));
    }

    #[test]
    fn other_surfaces_are_refused_at_their_position() {
        for (text, at, word) in [
            ("B3/S23:K10,20*", 6, "Klein"),
            ("B3/S23:C10,20", 6, "cross-surface"),
            ("B3/S23:S10", 6, "sphere"),
            ("B3/S23:T10+2,20", 10, "sheared"),
            ("B3/S23:T0,20", 8, "unbounded"),
            ("B3/S23:T10,x", 11, "whole number"),
            ("B3/S23:T99999999,5", 8, "outside"),
        ] {
            let (offset, message) = parse_rule(text).unwrap_err();
            assert_eq!(offset, at, "{text}: {message}");
            assert!(message.contains(word), "{text}: {message}");
        }
    }
}
