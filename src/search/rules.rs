//! The rules `golab search` runs and how apgsearch treats each: B3/S23 on its tall tiles
//! with every Life-specific shortcut, other Life-like (outer-totalistic) rules without
//! B0 on square tiles; anything else is refused with the reason.

use super::aperiodic::PopSeq;
use std::mem::MaybeUninit;
use std::sync::Arc;

use super::classify::Classifier;
use super::lanes::Bits;
use super::soup::{Options, SoupCensus, census_soup, populations};
use super::tile::{Life, RowRule};
use super::{SearchConfig, Tiles};
use crate::rule::Rule;
use crate::rule::circuit::Circuit;

/// A Life-like rule by its birth and survival counts (bit k: k neighbours).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LifeLike {
    /// Birth counts.
    pub birth: u16,
    /// Survival counts.
    pub survival: u16,
}

impl RowRule for LifeLike {
    #[inline(always)]
    fn next<B: Bits>(&self, a: B, b: B, c: B) -> B {
        // The eight neighbours added into a 4-bit count, bit-sliced.
        let ns = [
            a.shl1(),
            a,
            a.shr1(),
            b.shl1(),
            b.shr1(),
            c.shl1(),
            c,
            c.shr1(),
        ];
        let zero = !B::ones();
        let (mut s0, mut s1, mut s2, mut s3) = (zero, zero, zero, zero);
        for n in ns {
            let c0 = s0 & n;
            s0 = s0 ^ n;
            let c1 = s1 & c0;
            s1 = s1 ^ c0;
            let c2 = s2 & c1;
            s2 = s2 ^ c1;
            s3 = s3 | c2;
        }
        let mut out = zero;
        for k in 0..9u16 {
            let (birth, survive) = (self.birth >> k & 1 == 1, self.survival >> k & 1 == 1);
            if !birth && !survive {
                continue;
            }
            let bit = |plane: B, on: bool| if on { plane } else { !plane };
            let is_k = bit(s0, k & 1 != 0)
                & bit(s1, k & 2 != 0)
                & bit(s2, k & 4 != 0)
                & bit(s3, k & 8 != 0);
            let when = match (birth, survive) {
                (true, true) => B::ones(),
                (true, false) => !b,
                _ => b,
            };
            out = out | (is_k & when);
        }
        out
    }
}

/// Any two-state Moore rule, as its circuit (golab's [`Circuit`]: straight-line bitwise
/// code over the nine cells and the 3×3 count), run on rows by interpreting it.
#[derive(Debug, Clone)]
pub struct CircuitRule(pub Arc<Circuit>);

impl RowRule for CircuitRule {
    #[inline(always)]
    fn next<B: Bits>(&self, a: B, b: B, c: B) -> B {
        use crate::rule::circuit::{COUNT_INPUT, INPUTS, Op, Value};
        let zero = !B::ones();
        // Cell i of the index: 8 the north-west … 0 the south-east.
        let cells = [
            c.shr1(),
            c,
            c.shl1(),
            b.shr1(),
            b,
            b.shl1(),
            a.shr1(),
            a,
            a.shl1(),
        ];
        let full = |x: B, y: B, z: B| {
            let xy = x ^ y;
            (xy ^ z, (x & y) | (z & xy))
        };
        let up = full(cells[8], cells[7], cells[6]);
        let mid = full(cells[5], cells[4], cells[3]);
        let down = full(cells[2], cells[1], cells[0]);
        let (b0, carry) = full(up.0, mid.0, down.0);
        let (m0, m1) = full(up.1, mid.1, down.1);
        let (b1, cc) = (carry ^ m0, carry & m0);
        let counts = [b0, b1, m1 ^ cc, m1 & cc];
        // Registers: the inputs, then one per operation (on the stack for circuits of up to
        // 256 operations, the longest the compiler makes for these rules by far).
        const STACK: usize = 256 + INPUTS;
        let needed = INPUTS + self.0.ops.len();
        let mut stack = [MaybeUninit::<B>::uninit(); STACK];
        let mut heap = Vec::new();
        let regs: &mut [MaybeUninit<B>] = if needed <= STACK {
            &mut stack[..needed]
        } else {
            heap.resize(needed, MaybeUninit::new(zero));
            &mut heap
        };
        for (r, v) in regs.iter_mut().zip(cells.iter().chain(&counts)) {
            r.write(*v);
        }
        debug_assert_eq!(COUNT_INPUT, 9);
        for (k, op) in self.0.ops.iter().enumerate() {
            // SAFETY: an operation reads inputs and earlier operations' registers only (the
            // circuit is straight-line code), all written by now.
            let r = |i: u16| unsafe { regs[usize::from(i)].assume_init() };
            let v = match *op {
                Op::And(x, y) => r(x) & r(y),
                Op::Or(x, y) => r(x) | r(y),
                Op::Xor(x, y) => r(x) ^ r(y),
                Op::AndNot(x, y) => r(x) & !r(y),
                Op::Not(x) => !r(x),
            };
            regs[INPUTS + k].write(v);
        }
        match self.0.output {
            Value::Zero => zero,
            Value::Ones => B::ones(),
            // SAFETY: as above.
            Value::Reg(i) => unsafe { regs[usize::from(i)].assume_init() },
        }
    }
}

/// A rule `golab search` can search, with apgsearch's name for it.
#[derive(Debug, Clone)]
pub struct SearchRule {
    rule: Rule,
    name: String,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Life,
    LifeLike(LifeLike),
    Isotropic(CircuitRule),
}

impl SearchRule {
    /// Parse any rule notation golab reads (`b3s23`, `B36/S23` …) and check it is one
    /// golab searches.
    pub fn parse(text: &str) -> Result<SearchRule, String> {
        let rule = Rule::parse(text).map_err(|e| format!("rule '{text}': {e}"))?;
        let two_state_moore = rule.states() == 2
            && rule.neighbourhood() == crate::rule::Neighbourhood::Moore
            && !rule.is_table()
            && !rule.is_ltl();
        if !two_state_moore {
            let what = if rule.is_hexagonal() {
                "hexagonal rules (apgsearch's …h) are not rebuilt yet"
            } else {
                "not this family"
            };
            return Err(format!(
                "rule '{text}': golab searches two-state rules on the square grid's Moore \
                 neighbourhood (Life-like and isotropic); {what}"
            ));
        }
        if rule.table()[0] & 1 != 0 {
            return Err(format!(
                "rule '{text}': B0 rules are not searched (apgsearch runs them in alternating phases)"
            ));
        }
        let Some(masks) = rule.as_totalistic() else {
            if rule.symmetry() != crate::rule::Symmetry::Isotropic {
                return Err(format!(
                    "rule '{text}': golab searches Life-like and isotropic rules (as apgsearch does \
                     with these symmetries); this one is not isotropic"
                ));
            }
            let name = rule.canonical().to_lowercase().replace('/', "");
            let circuit = CircuitRule(Arc::new(Circuit::for_rule(&rule)));
            return Ok(SearchRule {
                rule,
                name,
                kind: Kind::Isotropic(circuit),
            });
        };
        let (birth, survival) = (masks.birth, masks.survive);
        if birth & 1 != 0 {
            return Err(format!(
                "rule '{text}': B0 rules are not searched (apgsearch runs them in alternating phases)"
            ));
        }
        let digits = |mask: u16| -> String {
            (0..9)
                .filter(|k| mask >> k & 1 == 1)
                .map(|k| char::from(b'0' + k as u8))
                .collect()
        };
        let name = format!("b{}s{}", digits(birth), digits(survival));
        let kind = if name == "b3s23" {
            Kind::Life
        } else {
            Kind::LifeLike(LifeLike { birth, survival })
        };
        Ok(SearchRule { rule, name, kind })
    }

    /// apgsearch's rule string (`b3s23`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A classifier for this rule.
    pub fn classifier(&self) -> Classifier {
        let popseq: Box<PopSeq> = match &self.kind {
            Kind::Life => {
                Box::new(|cells: &[(i64, i64)], n| populations::<32, Life>(&Life, cells, n))
            }
            &Kind::LifeLike(r) => {
                Box::new(move |cells: &[(i64, i64)], n| populations::<32, LifeLike>(&r, cells, n))
            }
            Kind::Isotropic(r) => {
                let r = r.clone();
                Box::new(move |cells: &[(i64, i64)], n| {
                    populations::<32, CircuitRule>(&r, cells, n)
                })
            }
        };
        Classifier::new(&self.rule, popseq)
    }

    /// Whether gliders exist as apgsearch decides it (B3 plus any of 6, 7, 8; S2 and S3 with
    /// any of 0, 5, 6, 7, 8, not 1 or 4): then lone gliders are removed at the rim.
    fn gliders(&self) -> bool {
        let (b, s) = self.name[1..].split_once('s').unwrap_or(("", ""));
        let b_ok = b.starts_with('3') && b[1..].chars().all(|c| "678".contains(c));
        let s_rest = s.trim_start_matches('0');
        let s_ok = s_rest.starts_with("23") && s_rest[2..].chars().all(|c| "5678".contains(c));
        b_ok && s_ok
    }

    /// The census of soup `name`.
    pub fn census_soup(
        &self,
        classifier: &mut Classifier,
        config: &SearchConfig,
        name: &str,
    ) -> SoupCensus {
        let options = Options {
            standard_life: matches!(self.kind, Kind::Life),
            gliders: self.gliders(),
        };
        match (&self.kind, config.tiles) {
            (Kind::Life, Tiles::Tall) => {
                census_soup::<48, Life>(&Life, classifier, options, name, config.symmetry)
            }
            (Kind::Life, Tiles::Square) => {
                census_soup::<32, Life>(&Life, classifier, options, name, config.symmetry)
            }
            // apgsearch runs other rules on its square tiles whatever the processor.
            (Kind::LifeLike(r), _) => {
                census_soup::<32, LifeLike>(r, classifier, options, name, config.symmetry)
            }
            // Isotropic rules: apgsearch's plane without incubator or glider removal.
            (Kind::Isotropic(r), _) => {
                let wide = classifier.wide();
                super::plain::census_soup(r, classifier, name, config.symmetry, wide)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_refusals() {
        assert_eq!(SearchRule::parse("B3/S23").unwrap().name(), "b3s23");
        assert_eq!(SearchRule::parse("b36s23").unwrap().name(), "b36s23");
        assert!(SearchRule::parse("b36s23").unwrap().gliders());
        assert!(!SearchRule::parse("b3s24").unwrap().gliders());
        assert!(SearchRule::parse("/2/3").unwrap_err().contains("two-state"));
        assert!(SearchRule::parse("b0s8").unwrap_err().contains("B0"));
        assert_eq!(SearchRule::parse("B3/S2-i34q").unwrap().name(), "b3s2-i34q");
        assert!(SearchRule::parse("B3/S23H").is_err());
    }

    #[test]
    fn life_like_matches_life() {
        let ll = LifeLike {
            birth: 1 << 3,
            survival: 1 << 2 | 1 << 3,
        };
        assert_eq!(ll.table(), Life.table());
    }
}
