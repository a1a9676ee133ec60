//! Rules Golly loads from `.rule` files (its RuleLoader algorithm): `@TABLE` transition
//! tables and `@TREE` decision trees of 2–256 states, with their `@COLORS` and `@NAMES`.
//!
//! Both compile to one form, [`tree::Tree`], which every strategy that runs them
//! evaluates through [`crate::rule::cell_rule::CellRule`]. A loaded rule is interned
//! ([`intern`]) and named by a small [`TableId`], so [`crate::rule::Rule`] stays a `Copy`
//! value however large the tree: the registry only grows (a session loads a handful of
//! rules) and equal rules share one id. [`library`] finds rule files the way Golly does.

pub mod colors;
pub mod compile;
pub mod file;
pub mod jvn;
pub mod layered;
pub mod library;
pub mod symmetry;
#[cfg(test)]
mod tests;
pub mod transitions;
pub mod tree;

use std::sync::Arc;

use super::registry::Registry;

use thiserror::Error;

pub use file::RuleFile;
pub use tree::Tree;

/// Where a `.rule` file is wrong: 1-based line and column (0 when not tied to a place).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {message}")]
pub struct TableError {
    /// 1-based line in the file (0: the file as a whole).
    pub line: usize,
    /// 1-based column (0: the line as a whole).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl TableError {
    /// An error at `line`, `column`.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Self {
        TableError {
            line,
            column,
            message: message.into(),
        }
    }
}

/// A compiled rule from a `.rule` file: name, description, tree, colours, state names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleTable {
    /// The `@RULE` name (what rule fields and pattern headers name it by).
    pub name: String,
    /// The text between `@RULE` and the next section (the author's description).
    pub description: String,
    /// The compiled rule.
    pub tree: Tree,
    /// One colour per state (`@COLORS`, else Golly's default gradient).
    pub colors: Vec<[u8; 3]>,
    /// One name per state (`@NAMES`, else "state N").
    pub names: Vec<String>,
    /// How the rule was given: `@TABLE` (its neighbourhood and symmetries) or `@TREE`.
    pub source: String,
}

impl RuleTable {
    /// Read and compile a `.rule` file's text.
    pub fn parse(text: &str) -> Result<RuleTable, TableError> {
        RuleFile::parse(text)?.compile()
    }

    /// Number of states.
    pub fn states(&self) -> u16 {
        self.tree.states()
    }

    /// Whether an all-empty neighbourhood stays empty (else an infinite plane would fill).
    pub fn keeps_empty(&self) -> bool {
        self.tree.next(&[0; 9]) == 0
    }
}

impl super::cell_rule::CellRule for RuleTable {
    fn states(&self) -> u16 {
        self.tree.states()
    }

    #[inline]
    fn next(&self, cells: [u8; 9]) -> u8 {
        self.tree.next(&cells)
    }
}

/// A loaded rule's handle in the registry (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(u32);

static REGISTRY: Registry<RuleTable> = Registry::new();

/// Register `table` and return its id: an equal rule already registered keeps its id. A
/// rule of the same name but other content gets a new id, and the name then means it.
pub fn intern(table: RuleTable) -> TableId {
    TableId(REGISTRY.intern(table))
}

/// The rule behind `id`.
pub fn get(id: TableId) -> Arc<RuleTable> {
    REGISTRY.get(id.0)
}

/// The most recently registered rule called `name` (exact, then ignoring ASCII case).
pub fn by_name(name: &str) -> Option<TableId> {
    let registry = REGISTRY.read();
    let find = |exact: bool| {
        registry.iter().rposition(|t| {
            if exact {
                t.name == name
            } else {
                t.name.eq_ignore_ascii_case(name)
            }
        })
    };
    find(true)
        .or_else(|| find(false))
        .map(|i| TableId(i as u32))
}
