//! The one rule interface for n states: a cell's next state from the states of its 3×3
//! neighbourhood. Every range-1 neighbourhood a rule names (Moore, von Neumann, hexagonal
//! as golab lays it on the square grid, one-dimensional) lies inside that square, so this
//! is what the multi-state hashed engine evaluates, and what rule tables (`@TABLE`,
//! `@TREE`) implement to run there and on the grids.

/// A rule over `states()` cell states evaluated on 3×3 neighbourhoods.
pub trait CellRule: Send + Sync {
    /// Number of states (2..=256); state 0 is the empty state.
    fn states(&self) -> u16;
    /// The next state of the centre of `cells` (row-major, north row first: index 4 is
    /// the cell itself).
    fn next(&self, cells: [u8; 9]) -> u8;
}

/// A rule ready to evaluate: a two-state or Generations [`super::Rule`] by its table, a
/// rule table by its tree (fetched once from the registry, not per cell).
#[derive(Clone, Debug)]
pub enum Evaluator {
    /// Two-state and Generations rules.
    Life(super::Rule),
    /// Rule tables and trees.
    Table(std::sync::Arc<super::table::RuleTable>),
}

impl Evaluator {
    /// The evaluator of `rule`.
    pub fn of(rule: &super::Rule) -> Evaluator {
        match rule.rule_table() {
            Some(table) => Evaluator::Table(table),
            None => Evaluator::Life(*rule),
        }
    }
}

impl CellRule for Evaluator {
    fn states(&self) -> u16 {
        match self {
            Evaluator::Life(rule) => CellRule::states(rule),
            Evaluator::Table(table) => table.states(),
        }
    }

    #[inline]
    fn next(&self, cells: [u8; 9]) -> u8 {
        match self {
            Evaluator::Life(rule) => rule.next(cells),
            Evaluator::Table(table) => table.tree.next(&cells),
        }
    }
}

/// Two-state and Generations rules (a rule table's `Rule` is only its handle: evaluate
/// it through [`Evaluator`]).
impl CellRule for super::Rule {
    fn states(&self) -> u16 {
        super::Rule::states(self)
    }

    /// Two-state and Generations rules: the index of the state-1 cells (dying cells do
    /// not count), then [`super::Rule::next_state`].
    #[inline]
    fn next(&self, cells: [u8; 9]) -> u8 {
        let index = cells
            .iter()
            .fold(0u16, |acc, &s| acc << 1 | u16::from(s == 1));
        self.next_state(u16::from(cells[4]), index) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rule::Rule;

    #[test]
    fn generations_cells_age_and_only_live_cells_count() {
        let brain: Rule = "/2/3".parse().unwrap();
        // A dead cell with two live neighbours is born; dying neighbours do not count.
        assert_eq!(brain.next([1, 0, 1, 0, 0, 0, 0, 0, 0]), 1);
        assert_eq!(brain.next([1, 0, 2, 0, 0, 0, 0, 0, 0]), 0);
        // Brian's Brain: live cells never survive, dying state 2 then empty.
        assert_eq!(brain.next([1, 1, 0, 0, 1, 0, 0, 0, 0]), 2);
        assert_eq!(brain.next([0, 0, 0, 0, 2, 0, 0, 0, 0]), 0);
        let life = Rule::CONWAY;
        assert_eq!(life.next([1, 1, 0, 0, 1, 0, 0, 0, 0]), 1);
        assert_eq!(CellRule::states(&life), 2);
    }
}
