//! Larger than Life: outer-totalistic rules over a range-r neighbourhood (r ≤ 500), in
//! Golly's three notations (LtL `R5,C0,M1,S34..58,B34..45,NM`, Kellie Evans' `5,34,45,34,58`
//! and HROT `R2,C0,S2-3,B3,N+`), with C states (C ≥ 3: Generations-style decay).
//!
//! Semantics are Golly's `ltlalgo` (read for this, not copied): a cell's count is the sum
//! over its neighbourhood ([`shape`]) of the state-1 cells, the cell itself included where
//! the shape covers it; state 0 is born on `B`, state 1 survives on `S` (limits that exclude
//! the middle cell are shifted by one), else decays to 2 (C ≥ 3) or dies; states ≥ 2
//! advance and wrap to 0. Two-state rules with B0 are emulated as Golly emulates them
//! (complemented rules, alternating when S has no maximum), so an empty world stays empty.
//!
//! A parsed rule is interned like rule tables ([`intern`], [`LtlId`]) so that
//! [`crate::rule::Rule`] stays `Copy`.

pub mod count;
pub mod diagonal;
mod neighbourhood_text;
pub mod parse;
pub mod shape;

use std::sync::Arc;

use super::registry::Registry;

pub use shape::{Neighbourhood, Shape};

/// Larger than Life rules by their common names, from Golly's help (Algorithms › Larger than
/// Life, "Examples"), then one HROT rule per other neighbourhood family: the rules menu.
pub const NAMED: &[(&str, &str)] = &[
    ("Bosco's Rule", "R5,C0,M1,S34..58,B34..45,NM"),
    ("Bugsmovie", "R10,C0,M1,S123..212,B123..170,NM"),
    ("Globe", "R8,C0,M0,S163..223,B74..252,NM"),
    ("Gnarl", "R1,C0,M1,S1..1,B1..1,NN"),
    ("Majority", "R4,C0,M1,S41..81,B41..81,NM"),
    ("Majorly", "R7,C0,M1,S113..225,B113..225,NM"),
    ("ModernArt", "R10,C255,M1,S2..3,B3..3,NM"),
    ("Waffle", "R7,C0,M1,S100..200,B75..170,NM"),
    ("von Neumann bugs", "R100,C0,M1,S5612..9776,B5612..7585,NN"),
    ("circular", "R5,C0,M1,S27..46,B27..36,NC"),
    ("Euclidean HROT", "R3,C0,S0,7-12,27,B8,12,20-27,N2"),
    // Saka's range-10 triangular rule of the 2c/15 "solid ship" (conwaylife.com forums,
    // 18 October 2020, in Golly 5's Larger-than-Life collection).
    ("triangular solid ships", "R10,C0,S230-392,B200-398,NL"),
];

/// Golly's largest range.
pub const MAX_RANGE: i32 = 500;
/// Golly's largest range for the Gaussian neighbourhood.
pub const MAX_GAUSSIAN_RANGE: i32 = 50;

/// How the rule was written: decides its canonical form, as in Golly.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Notation {
    /// LtL (`R…,C…,M…,S…..…,B…..…,N…`) or Kellie Evans' (printed back as LtL): the limits
    /// as written, `[smin, smax, bmin, bmax]`, and M.
    Ltl {
        /// `[smin, smax, bmin, bmax]`.
        limits: [i32; 4],
        /// M1: the middle cell counts.
        middle: bool,
    },
    /// HROT: comma lists and ranges, never the middle cell.
    Hrot,
}

/// One Larger than Life rule (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ltl {
    /// Range r (1..=500).
    pub range: i32,
    /// Cell states (2..=256; C0 and C1 are C2).
    pub states: u16,
    /// The neighbourhood.
    pub neighbourhood: Neighbourhood,
    /// How it was written.
    pub notation: Notation,
    /// Birth limits as written (index: count).
    pub birth_flags: Vec<bool>,
    /// Survival limits as written (index: count, middle cell included under M1).
    pub survive_flags: Vec<bool>,
    /// `(birth, survive)` per generation parity, indexed by Golly's internal count (the
    /// cell itself included): even generations use `[0]`, odd ones `[1]` (equal unless B0
    /// needs alternating rules).
    tables: [(Vec<bool>, Vec<bool>); 2],
    /// The grid the cells lie on: hexagonal for the hexagonal types and an `H` suffix of
    /// custom and weighted neighbourhoods (drawn so; counted on the square grid as Golly
    /// does), triangular for `NL` and an `L` suffix (counted with the neighbourhood turned
    /// upside down on every cell whose `x + y` is odd, as in Golly).
    pub grid: CellGrid,
}

/// The grid a Larger than Life rule's cells lie on (Golly's `H` and `L` suffixes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellGrid {
    /// Square cells.
    Square,
    /// Hexagons (Golly's skewed square grid).
    Hexagonal,
    /// Triangles, pointing down where `x + y` is even and up where it is odd.
    Triangular,
}

impl Ltl {
    /// The next state of a cell in `state` whose count is `count`, in a generation of
    /// parity `odd`.
    #[inline]
    pub fn next(&self, state: u8, count: i32, odd: bool) -> u8 {
        let (birth, survive) = &self.tables[usize::from(odd)];
        let at = |flags: &Vec<bool>| {
            usize::try_from(count)
                .ok()
                .and_then(|i| flags.get(i).copied())
                .unwrap_or(false)
        };
        match state {
            0 => u8::from(at(birth)),
            1 if at(survive) => 1,
            1 => u8::from(self.states > 2) * 2,
            s => {
                if u16::from(s) + 1 < self.states {
                    s + 1
                } else {
                    0
                }
            }
        }
    }

    /// The counting layout of the neighbourhood.
    pub fn shape(&self) -> Shape {
        Shape::new(
            &self.neighbourhood,
            self.range,
            self.grid == CellGrid::Triangular,
        )
    }

    /// How far a cell's neighbourhood reaches along either axis: r, except the triangular
    /// neighbourhood's 2r (as wide as Golly's doubled internal range).
    pub fn reach(&self) -> i32 {
        self.neighbourhood.reach(self.range)
    }

    /// Whether B0 emulation alternates rules between even and odd generations.
    pub fn alternates(&self) -> bool {
        self.tables[0] != self.tables[1]
    }

    /// The `(birth, survive)` flags by Golly's internal count for a generation of parity
    /// `odd` (what the GPU kernel uploads).
    pub fn flags(&self, odd: bool) -> (&[bool], &[bool]) {
        let (b, s) = &self.tables[usize::from(odd)];
        (b, s)
    }

    /// The smallest side of a bounded grid (Golly raises smaller sides to twice its
    /// internal range: 2r, 4r for the triangular neighbourhood).
    pub fn min_side(&self) -> u32 {
        2 * self.reach() as u32
    }

    /// Golly's canonical form (without a bounded-grid suffix).
    pub fn canonical(&self) -> String {
        let n = &self.neighbourhood;
        let c = if self.states > 2 { self.states } else { 0 };
        let (r, letter) = (self.range, n.letter());
        // Custom and weighted digits keep their grid suffix, as Golly prints them (the
        // other letters name their grid themselves).
        let suffix = match (n, self.grid) {
            (Neighbourhood::Custom { .. } | Neighbourhood::Weighted { .. }, grid) => match grid {
                CellGrid::Square => "",
                CellGrid::Hexagonal => "H",
                CellGrid::Triangular => "L",
            },
            _ => "",
        };
        let data = format!("{}{suffix}", n.data());
        match &self.notation {
            Notation::Ltl { limits, middle } => {
                let [s1, s2, b1, b2] = limits;
                let m = u8::from(*middle);
                format!("R{r},C{c},M{m},S{s1}..{s2},B{b1}..{b2},N{letter}{data}")
            }
            Notation::Hrot => {
                let s = flags_text(&self.survive_flags);
                let b = flags_text(&self.birth_flags);
                if matches!(n, Neighbourhood::Moore) {
                    format!("R{r},C{c},S{s},B{b}")
                } else {
                    format!("R{r},C{c},S{s},B{b},N{letter}{data}")
                }
            }
        }
    }

    /// Assemble a rule from written limits (Golly's `setrule` after parsing): B0
    /// emulation, then the middle-cell shift.
    pub(crate) fn build(
        range: i32,
        states: u16,
        neighbourhood: Neighbourhood,
        notation: Notation,
        birth_flags: Vec<bool>,
        survive_flags: Vec<bool>,
        grid: CellGrid,
    ) -> Ltl {
        let maxn = neighbourhood.max_count(range) as usize;
        let middle = matches!(notation, Notation::Ltl { middle: true, .. });
        let (mut even, mut odd) = (
            (birth_flags.clone(), survive_flags.clone()),
            (birth_flags.clone(), survive_flags.clone()),
        );
        let flag = |v: &Vec<bool>, i: usize| v.get(i).copied().unwrap_or(false);
        if flag(&birth_flags, 0) {
            let (b, s) = (&birth_flags, &survive_flags);
            let reversed =
                |v: &Vec<bool>| (0..=maxn).map(|i| flag(v, maxn - i)).collect::<Vec<_>>();
            let not = |v: &Vec<bool>| (0..=maxn).map(|i| !flag(v, i)).collect::<Vec<_>>();
            let keep_tail = |out: &mut Vec<bool>, src: &Vec<bool>| {
                // Entries past maxn (the middle cell's extra count) are kept as written.
                for i in maxn + 1..src.len() {
                    if out.len() <= i {
                        out.resize(i + 1, false);
                    }
                    out[i] = src[i];
                }
            };
            if flag(s, maxn) {
                // With Smax: one rule, NOT(reverse(bits)).
                let nb = not(&reversed(s));
                let ns = not(&reversed(b));
                even = (nb, ns);
                keep_tail(&mut even.0, b);
                keep_tail(&mut even.1, s);
                odd = even.clone();
            } else {
                // Without: even generations NOT(bits), odd ones reverse(bits).
                even = (not(b), not(s));
                odd = (reversed(s), reversed(b));
                keep_tail(&mut even.0, b);
                keep_tail(&mut even.1, s);
                keep_tail(&mut odd.0, b);
                keep_tail(&mut odd.1, s);
            }
        }
        let weighted = matches!(neighbourhood, Neighbourhood::Weighted { .. });
        if !middle && !weighted {
            // Golly's counts include the cell itself: shift the survival limits.
            for table in [&mut even, &mut odd] {
                table.1.insert(0, false);
            }
        }
        Ltl {
            range,
            states,
            neighbourhood,
            notation,
            birth_flags,
            survive_flags,
            tables: [even, odd],
            grid,
        }
    }
}

/// Golly's `flags_string`: runs of set flags as `a-b` (or `a`), comma-separated.
pub fn flags_text(flags: &[bool]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        if flags[i] {
            let start = i;
            while i + 1 < flags.len() && flags[i + 1] {
                i += 1;
            }
            parts.push(if i == start {
                start.to_string()
            } else {
                format!("{start}-{i}")
            });
        }
        i += 1;
    }
    parts.join(",")
}

/// A parsed rule's handle in the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LtlId(u32);

static REGISTRY: Registry<Ltl> = Registry::new();

/// Register `rule` and return its id (an equal rule keeps its id).
pub fn intern(rule: Ltl) -> LtlId {
    LtlId(REGISTRY.intern(rule))
}

/// The rule behind `id`.
pub fn get(id: LtlId) -> Arc<Ltl> {
    REGISTRY.get(id.0)
}

#[cfg(test)]
mod tests {
    use super::parse::parse;

    #[test]
    fn life_as_larger_than_life() {
        let life = parse("R1,C0,M0,S2..3,B3..3,NM").unwrap();
        // Golly's count includes the cell itself: a live cell with 2 neighbours counts 3.
        assert_eq!(life.next(1, 3, false), 1);
        assert_eq!(life.next(1, 4, false), 1);
        assert_eq!(life.next(1, 5, false), 0);
        assert_eq!(life.next(1, 2, false), 0);
        assert_eq!(life.next(0, 3, false), 1);
        assert_eq!(life.next(0, 2, false), 0);
        let evans = parse("1,3,3,3,4").unwrap();
        assert_eq!(evans.canonical(), "R1,C0,M1,S3..4,B3..3,NM");
        for count in 0..=9 {
            for state in 0..=1 {
                assert_eq!(
                    evans.next(state, count, false),
                    life.next(state, count, false)
                );
            }
        }
    }

    #[test]
    fn decay_and_b0() {
        let art = parse("R10,C255,M1,S2..3,B3..3,NM").unwrap();
        assert_eq!(art.next(1, 9, false), 2);
        assert_eq!(art.next(2, 3, false), 3);
        assert_eq!(art.next(254, 3, false), 0);
        // B0 without Smax alternates; an empty neighbourhood stays empty on both parities.
        let b0 = parse("R2,C0,S1-3,B0-2,NM").unwrap();
        assert!(b0.alternates());
        assert_eq!(b0.next(0, 0, false), 0);
        assert_eq!(b0.next(0, 0, true), 0);
        let smax = parse("R1,C0,S8,B0,NM").unwrap();
        assert!(!smax.alternates());
        assert_eq!(smax.next(0, 0, false), 0);
    }
}
