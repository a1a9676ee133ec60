//! A layered rule compiled to a [`Tree`] in Golly's order (NW, NE, SW, SE, N, W, E, S, then
//! the cell): a node is determined by what the neighbours above it said, so the builder
//! shares nodes by the [`Heard`] summary and the last level maps the cell's state to its
//! next one.

use std::collections::HashMap;

use super::super::TableError;
use super::super::tree::{Tree, TreeBuilder};
use super::next::{Heard, next};
use super::{Base, Variant};

/// The compiled tree of `variant` over `base`.
pub(super) fn tree(variant: Variant, base: &Base) -> Result<Tree, TableError> {
    let states = variant.states();
    let mut builder = TreeBuilder::new(states);
    let mut memo: HashMap<(usize, Heard), u32> = HashMap::new();
    let root = node(variant, base, &mut builder, &mut memo, 0, Heard::default())?;
    Ok(builder.finish(8, root, false))
}

/// The node testing input `depth` of [`ORDER_8`] after the neighbours before it said `heard`.
fn node(
    variant: Variant,
    base: &Base,
    builder: &mut TreeBuilder,
    memo: &mut HashMap<(usize, Heard), u32>,
    depth: usize,
    heard: Heard,
) -> Result<u32, TableError> {
    if let Some(&at) = memo.get(&(depth, heard)) {
        return Ok(at);
    }
    let states = variant.states() as u8;
    let entries: Vec<u32> = if depth == 8 {
        (0..states)
            .map(|c| u32::from(next(variant, base, c, heard)))
            .collect()
    } else {
        (0..states)
            .map(|s| {
                let heard = heard.hear(variant, base, depth, s);
                node(variant, base, builder, memo, depth + 1, heard)
            })
            .collect::<Result<_, _>>()?
    };
    let at = builder.node(9 - depth as u8, &entries)?;
    memo.insert((depth, heard), at);
    Ok(at)
}
