//! The rules `golab search` runs and how apgsearch treats each: B3/S23 on its tall tiles
//! with every Life-specific shortcut, other Life-like (outer-totalistic) rules without
//! B0 on square tiles; anything else is refused with the reason.

use super::aperiodic::PopSeq;
use super::classify::Classifier;
use super::lanes::Bits;
use super::soup::{Options, SoupCensus, census_soup, populations};
use super::tile::{Life, RowRule};
use super::{SearchConfig, Tiles};
use crate::rule::Rule;

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

/// A rule `golab search` can search, with apgsearch's name for it.
#[derive(Debug, Clone)]
pub struct SearchRule {
    rule: Rule,
    name: String,
    kind: Kind,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Life,
    LifeLike(LifeLike),
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
            return Err(format!(
                "rule '{text}': golab searches two-state Moore rules (as apgsearch's CPU search does here)"
            ));
        }
        let masks = rule.as_totalistic().ok_or_else(|| {
            format!(
                "rule '{text}': golab searches Life-like (outer-totalistic, two-state Moore) rules so far; \
                 isotropic non-totalistic rules such as b3s2-i34q are not yet rebuilt (apgsearch runs \
                 them on a different plane)"
            )
        })?;
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
        let popseq: Box<PopSeq> = match self.kind {
            Kind::Life => {
                Box::new(|cells: &[(i64, i64)], n| populations::<32, Life>(&Life, cells, n))
            }
            Kind::LifeLike(r) => {
                Box::new(move |cells: &[(i64, i64)], n| populations::<32, LifeLike>(&r, cells, n))
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
        match (self.kind, config.tiles) {
            (Kind::Life, Tiles::Tall) => {
                census_soup::<48, Life>(&Life, classifier, options, name, config.symmetry)
            }
            (Kind::Life, Tiles::Square) => {
                census_soup::<32, Life>(&Life, classifier, options, name, config.symmetry)
            }
            // apgsearch runs other rules on its square tiles whatever the processor.
            (Kind::LifeLike(r), _) => {
                census_soup::<32, LifeLike>(&r, classifier, options, name, config.symmetry)
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
        assert!(
            SearchRule::parse("b3s2-i34q")
                .unwrap_err()
                .contains("isotropic")
        );
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
