//! [`Rule`]: any rule golab understands, as a 512-entry transition table over the 3×3
//! neighbourhood, plus its family (two-state or Generations), neighbourhood and notation.
//!
//! # Neighbourhood index (the bit order every table, circuit and kernel shares)
//!
//! A 3×3 neighbourhood is the 9-bit number whose bits are the cells in row-major order,
//! most significant first:
//!
//! ```text
//!   NW N  NE        256 128  64        bit 8 7 6
//!   W  C  E    ->    32  16   8    =       5 4 3
//!   SW S  SE          4   2   1            2 1 0
//! ```
//!
//! so the centre is bit 4 (16) and NW is bit 8. This is LifeWiki's and Golly's numbering of
//! `MAP` rules (Golly's help, "MAP rules": cell 0 is the most significant bit), which makes
//! entry `i` of a table exactly bit `i` of a Moore `MAP` string. North is the row above
//! (smaller y on screen). The hexagonal neighbourhood ignores NE and SW (Golly's help,
//! "Hexagonal neighborhood": `NW N / W C E / S SE`); von Neumann keeps N, W, E and S.

use super::RuleError;

/// Cell position in the neighbourhood index (see the module docs): the bit of each cell.
pub mod cell {
    /// North-west neighbour.
    pub const NW: u32 = 8;
    /// North neighbour.
    pub const N: u32 = 7;
    /// North-east neighbour.
    pub const NE: u32 = 6;
    /// West neighbour.
    pub const W: u32 = 5;
    /// The cell itself.
    pub const C: u32 = 4;
    /// East neighbour.
    pub const E: u32 = 3;
    /// South-west neighbour.
    pub const SW: u32 = 2;
    /// South neighbour.
    pub const S: u32 = 1;
    /// South-east neighbour.
    pub const SE: u32 = 0;
}

/// Which neighbours count. Cells outside it never influence the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Neighbourhood {
    /// All 8 surrounding cells.
    Moore,
    /// Golly's hexagonal emulation on a square grid: the Moore cells but NE and SW.
    Hexagonal,
    /// The 4 orthogonal cells.
    VonNeumann,
}

impl Neighbourhood {
    /// Mask over the 9-bit index of the neighbours (centre excluded).
    pub const fn mask(self) -> u16 {
        match self {
            Neighbourhood::Moore => 0x1ef,
            Neighbourhood::Hexagonal => 0x1ef & !(1 << cell::NE) & !(1 << cell::SW),
            Neighbourhood::VonNeumann => {
                (1 << cell::N) | (1 << cell::W) | (1 << cell::E) | (1 << cell::S)
            }
        }
    }

    /// Number of neighbours (8, 6 or 4).
    pub const fn size(self) -> u32 {
        self.mask().count_ones()
    }

    /// The suffix Golly writes after B/S rules of this neighbourhood (`""`, `"H"`, `"V"`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Neighbourhood::Moore => "",
            Neighbourhood::Hexagonal => "H",
            Neighbourhood::VonNeumann => "V",
        }
    }
}

/// How many states cells have and how they advance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// Two states: the table gives the next state directly.
    TwoState,
    /// Generations: state 0 dead, 1 alive, 2..C-1 dying. Only state-1 cells count as
    /// neighbours; a live cell the table does not keep starts dying; dying cells advance one
    /// state per generation (the last wraps to 0) and are never revived.
    Generations,
    /// A rule Golly loads from a `.rule` file (`@TABLE` or `@TREE`, 2–256 states): the
    /// next state of every cell comes from its compiled tree ([`super::table`]).
    Table,
    /// Larger than Life ([`super::ltl`]): counts over a range-r neighbourhood, C states with
    /// Generations-style decay.
    Ltl,
}

/// How the rule was written, which decides its canonical form (Golly prints a `MAP` rule as
/// `MAP…` even when the table happens to be totalistic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Notation {
    /// B/S (or S/B) counts, possibly with Hensel letters.
    BirthSurvival,
    /// A base64 `MAP` table.
    Map,
    /// Wolfram's elementary (one-dimensional) rule `W<n>`, n even, emulated as Golly does:
    /// each generation is the row below the last, a cell is born from the three cells
    /// above it (Wolfram's numbering: left·4 + centre·2 + right) and never dies.
    Wolfram(u8),
}

/// How much of the neighbourhood's arrangement the table looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Only the number of live neighbours (and the cell's own state) matters.
    Totalistic,
    /// Invariant under the 8 symmetries of the square (Hensel notation describes it).
    Isotropic,
    /// Anything else (only a `MAP` string describes it).
    Anisotropic,
}

/// A parsed rule of any family golab understands. Build one with [`Rule::parse`] (or
/// `str::parse`); print Golly's canonical form with [`Rule::canonical`] (or `Display`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule {
    pub(super) family: Family,
    pub(super) neighbourhood: Neighbourhood,
    pub(super) notation: Notation,
    pub(super) states: u16,
    pub(super) table: [u64; 8],
    /// The loaded rule table of [`Family::Table`] rules.
    pub(super) rule_table: Option<super::table::TableId>,
    /// The Larger than Life rule of [`Family::Ltl`] rules.
    pub(super) ltl: Option<super::ltl::LtlId>,
}

/// The 9-bit index of a neighbourhood given as 3 rows of 3 cells, north row first.
pub fn index_of(rows: [[bool; 3]; 3]) -> u16 {
    let mut index = 0u16;
    for row in rows {
        for alive in row {
            index = index << 1 | u16::from(alive);
        }
    }
    index
}

/// The image of `index` under symmetry `k` of the square (0..8: four rotations, then the
/// same four after a left-right mirror). Symmetry 0 is the identity.
pub fn symmetry(index: u16, k: u32) -> u16 {
    let mut out = 0;
    for bit in 0..9u16 {
        if index >> bit & 1 == 0 {
            continue;
        }
        let pos = 8 - bit;
        let (mut r, mut c) = (pos / 3, pos % 3);
        if k >= 4 {
            c = 2 - c;
        }
        for _ in 0..k % 4 {
            (r, c) = (c, 2 - r);
        }
        out |= 1 << (8 - (3 * r + c));
    }
    out
}

/// The table of an outer-totalistic Moore rule given as birth and survival masks, at
/// compile time (for [`Rule::CONWAY`]).
const fn totalistic_table(birth: u16, survive: u16) -> [u64; 8] {
    let mut table = [0u64; 8];
    let mut i = 0u16;
    while i < 512 {
        let n = (i & Neighbourhood::Moore.mask()).count_ones();
        let mask = if i >> cell::C & 1 == 1 {
            survive
        } else {
            birth
        };
        if mask >> n & 1 == 1 {
            table[(i / 64) as usize] |= 1 << (i % 64);
        }
        i += 1;
    }
    table
}

impl Rule {
    /// Conway's Game of Life, B3/S23: the default rule.
    pub const CONWAY: Rule = Rule {
        family: Family::TwoState,
        neighbourhood: Neighbourhood::Moore,
        notation: Notation::BirthSurvival,
        states: 2,
        table: totalistic_table(1 << 3, 1 << 2 | 1 << 3),
        rule_table: None,
        ltl: None,
    };

    /// Whether the rule is a Generations rule with dying states (C > 2); a Generations
    /// rule with C = 2 behaves as its two-state rule.
    ///
    /// A rule table of more than two states keeps its states 2.. where Generations keeps
    /// dying states (the world's second plane): state 1 is the cell with an age.
    pub fn has_dying_states(&self) -> bool {
        self.family != Family::TwoState && self.states > 2
    }

    /// A rule from a loaded rule table ([`super::table::library::load`]).
    pub fn from_rule_table(id: super::table::TableId) -> Rule {
        let table = super::table::get(id);
        Rule {
            family: Family::Table,
            neighbourhood: Neighbourhood::Moore,
            notation: Notation::BirthSurvival,
            states: table.states(),
            table: [0; 8],
            rule_table: Some(id),
            ltl: None,
        }
    }

    /// A Larger than Life rule ([`super::ltl`]).
    pub fn from_ltl(ltl: super::ltl::Ltl) -> Rule {
        let states = ltl.states;
        Rule {
            family: Family::Ltl,
            neighbourhood: Neighbourhood::Moore,
            notation: Notation::BirthSurvival,
            states,
            table: [0; 8],
            rule_table: None,
            ltl: Some(super::ltl::intern(ltl)),
        }
    }

    /// The Larger than Life rule of a [`Family::Ltl`] rule.
    pub fn ltl(&self) -> Option<std::sync::Arc<super::ltl::Ltl>> {
        self.ltl.map(super::ltl::get)
    }

    /// Whether the rule is Larger than Life (runs only where range-r counts are made).
    pub fn is_ltl(&self) -> bool {
        self.family == Family::Ltl
    }

    /// How far the neighbourhood reaches: 1, or for Larger than Life r (2r for the
    /// triangular neighbourhood, whose rows are twice as wide as they are many).
    pub fn range(&self) -> u32 {
        self.ltl().map_or(1, |l| l.reach() as u32)
    }

    /// The compiled rule table of a [`Family::Table`] rule.
    pub fn rule_table(&self) -> Option<std::sync::Arc<super::table::RuleTable>> {
        self.rule_table.map(super::table::get)
    }

    /// Whether the rule is a rule table (runs only where a tree is evaluated).
    pub fn is_table(&self) -> bool {
        self.family == Family::Table
    }

    /// The age at which live cells saturate under this rule: `u32::MAX` for rules without
    /// dying states; 256 less under Generations rules with dying states, so that an age and
    /// a dying state share one `u32` on the devices (age + 256, or 256 − state) exactly.
    pub fn age_max(&self) -> u32 {
        if self.has_dying_states() {
            u32::MAX - 256
        } else {
            u32::MAX
        }
    }

    /// A rule from a raw table; `states` is clamped to 2..=256 and forced to 2 for two-state
    /// rules. Cells outside `neighbourhood` are made irrelevant by copying each entry from
    /// the entry with those cells dead.
    pub fn from_table(
        family: Family,
        neighbourhood: Neighbourhood,
        notation: Notation,
        states: u16,
        table: [u64; 8],
    ) -> Rule {
        let keep = neighbourhood.mask() | 1 << cell::C;
        let mut clean = [0u64; 8];
        for i in 0..512u16 {
            let j = i & keep;
            if table[usize::from(j / 64)] >> (j % 64) & 1 == 1 {
                clean[usize::from(i / 64)] |= 1 << (i % 64);
            }
        }
        let states = match family {
            Family::TwoState => 2,
            Family::Generations | Family::Table | Family::Ltl => states.clamp(2, 256),
        };
        Rule {
            family,
            neighbourhood,
            notation,
            states,
            table: clean,
            rule_table: None,
            ltl: None,
        }
    }

    /// Parse any notation Golly accepts for two-state, isotropic, MAP, hexagonal, von Neumann
    /// and Generations rules, plus names (see [`super::NAMED_SPECS`]); families golab cannot
    /// run are refused with the family named.
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        super::parse::parse(text)
    }

    /// Golly's canonical form of the rule (what Golly shows after setting it).
    pub fn canonical(&self) -> String {
        super::canonical::canonical(self)
    }

    /// Two-state or Generations.
    pub fn family(&self) -> Family {
        self.family
    }

    /// Moore, hexagonal or von Neumann.
    pub fn neighbourhood(&self) -> Neighbourhood {
        self.neighbourhood
    }

    /// Whether the rule lives on Golly's triangular grid, emulated on the square one
    /// (Larger than Life's `NL` and `L` suffix): the window draws it as triangles.
    pub fn is_triangular(&self) -> bool {
        self.ltl()
            .is_some_and(|l| l.grid == super::ltl::CellGrid::Triangular)
    }

    /// Whether the rule lives on Golly's hexagonal grid, emulated on the square one (the
    /// `H` neighbourhood, Larger than Life's hexagonal, asterisk and tripod shapes and `H`
    /// suffix, a rule table's `neighborhood:hexagonal`): the window draws it as hexagons.
    pub fn is_hexagonal(&self) -> bool {
        if let Some(ltl) = self.ltl() {
            return ltl.grid == super::ltl::CellGrid::Hexagonal;
        }
        if let Some(table) = self.rule_table() {
            return table.source.contains("hexagonal neighbourhood");
        }
        self.neighbourhood == Neighbourhood::Hexagonal
    }

    /// B/S or MAP (decides the canonical form).
    pub fn notation(&self) -> Notation {
        self.notation
    }

    /// Number of cell states: 2, or C for Generations.
    pub fn states(&self) -> u16 {
        self.states
    }

    /// The transition table: bit `i` (word `i / 64`, bit `i % 64`) says whether a cell whose
    /// neighbourhood index is `i` (centre bit = alive now) is alive next generation.
    pub fn table(&self) -> &[u64; 8] {
        &self.table
    }

    /// The table as 16 `u32` words (bit `i % 32` of word `i / 32`), the form for GPU buffers.
    pub fn table_u32(&self) -> [u32; 16] {
        let mut out = [0u32; 16];
        for (k, word) in self.table.iter().enumerate() {
            out[2 * k] = *word as u32;
            out[2 * k + 1] = (*word >> 32) as u32;
        }
        out
    }

    /// Whether the cell at the centre of neighbourhood `index` (9 bits; higher bits ignored)
    /// is alive next generation (for Generations: the state-1 cells only are set in `index`).
    #[inline]
    pub fn next_alive(&self, index: u16) -> bool {
        let i = index & 0x1ff;
        self.table[usize::from(i / 64)] >> (i % 64) & 1 == 1
    }

    /// Next state of a cell in `state` whose live-neighbour index is `index` (its own bit is
    /// taken from `state == 1`). Covers both families; states wrap modulo [`Self::states`].
    #[inline]
    pub fn next_state(&self, state: u16, index: u16) -> u16 {
        let alive = state == 1;
        let index = (index & !(1 << cell::C)) | u16::from(alive) << cell::C;
        match state {
            0 => u16::from(self.next_alive(index)),
            1 if self.next_alive(index) => 1,
            _ => (state + 1) % self.states,
        }
    }

    /// Totalistic, isotropic or anisotropic, from the table.
    pub fn symmetry(&self) -> Symmetry {
        if self.is_table() || self.is_ltl() {
            return Symmetry::Anisotropic;
        }
        let mask = self.neighbourhood.mask();
        let totalistic = (0..512u16).all(|i| {
            let n = (i & mask).count_ones();
            let rep = (1u16 << n) - 1; // n live neighbours: the lowest n bits...
            // ...spread over the neighbourhood's own cells
            let rep = spread(rep, mask) | (i & 1 << cell::C);
            self.next_alive(i) == self.next_alive(rep)
        });
        if totalistic {
            Symmetry::Totalistic
        } else if self.neighbourhood == Neighbourhood::Moore
            && (0..512u16)
                .all(|i| (1..8).all(|k| self.next_alive(symmetry(i, k)) == self.next_alive(i)))
        {
            Symmetry::Isotropic
        } else {
            Symmetry::Anisotropic
        }
    }

    /// The outer-totalistic Moore masks equal to this rule, if it is one (two-state, Moore,
    /// totalistic): the steppers' neighbour-count fast path.
    pub fn as_totalistic(&self) -> Option<super::Totalistic> {
        self.count_masks()
            .filter(|_| self.family == Family::TwoState)
    }

    /// The birth/survive masks of the live-neighbour count when this rule's table is
    /// outer-totalistic on the Moore neighbourhood, of any family: under Generations the
    /// table decides which cells are alive next with live cells as neighbours, and the
    /// dying countdown is applied after it, so bit-plane kernels can take the count path.
    pub fn count_masks(&self) -> Option<super::Totalistic> {
        if self.is_table()
            || self.is_ltl()
            || self.neighbourhood != Neighbourhood::Moore
            || self.symmetry() != Symmetry::Totalistic
        {
            return None;
        }
        let mut rule = super::Totalistic {
            birth: 0,
            survive: 0,
        };
        for n in 0..=8u16 {
            let rep = spread((1 << n) - 1, Neighbourhood::Moore.mask());
            rule.birth |= u16::from(self.next_alive(rep)) << n;
            rule.survive |= u16::from(self.next_alive(rep | 1 << cell::C)) << n;
        }
        Some(rule)
    }
}

/// Deposit the low bits of `bits` into the set bits of `mask`, lowest first.
fn spread(bits: u16, mask: u16) -> u16 {
    let (mut out, mut m, mut k) = (0, mask, 0);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if bits >> k & 1 == 1 {
            out |= low;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

impl From<super::Totalistic> for Rule {
    fn from(rule: super::Totalistic) -> Self {
        Rule {
            table: totalistic_table(rule.birth, rule.survive),
            ..Rule::CONWAY
        }
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl std::str::FromStr for Rule {
    type Err = RuleError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Rule::parse(text)
    }
}
