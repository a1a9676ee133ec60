//! JvN's rule compiled to a [`Tree`]: the cell first, then N, W, E, S, nodes shared by the
//! cell's state and what the neighbours above have said.

use std::collections::HashMap;

use super::super::TableError;
use super::super::tree::{Tree, TreeBuilder};
use super::{Cell, EAST, NORTH, SOUTH, Variant, WEST, hear, next, step};

/// The rule as a compiled tree, the cell tested first and then N, W, E, S: a node is
/// determined by the cell's state and what the neighbours above it said, so the builder
/// shares nodes by that pair.
pub(super) fn tree(variant: Variant) -> Result<Tree, TableError> {
    if variant == Variant::Hutton32 {
        return enumerated(variant);
    }
    let states = variant.states();
    let mut builder = TreeBuilder::new(states);
    let mut memo: HashMap<(usize, u8, u16), u32> = HashMap::new();
    // Neighbour k of N, W, E, S lies against this direction.
    const TOWARD: [u8; 4] = [SOUTH, EAST, WEST, NORTH];
    fn node(
        variant: Variant,
        builder: &mut TreeBuilder,
        memo: &mut HashMap<(usize, u8, u16), u32>,
        (depth, c, bits): (usize, u8, u16),
    ) -> Result<u32, TableError> {
        if let Some(&at) = memo.get(&(depth, c, bits)) {
            return Ok(at);
        }
        let cell = Cell::decode(c);
        let states = variant.states() as u8;
        let entries: Vec<u32> = (0..states)
            .map(|n| {
                let heard = bits | hear(cell, Cell::decode(n), TOWARD[depth]);
                if depth == 3 {
                    Ok(u32::from(next(variant, cell, heard).encode()))
                } else {
                    node(variant, builder, memo, (depth + 1, c, heard))
                }
            })
            .collect::<Result<_, _>>()?;
        let at = builder.node(depth as u8 + 1, &entries)?;
        memo.insert((depth, c, bits), at);
        Ok(at)
    }
    let roots: Vec<u32> = (0..states as u8)
        .map(|c| node(variant, &mut builder, &mut memo, (0, c, 0)))
        .collect::<Result<_, _>>()?;
    let root = builder.node(0, &roots)?;
    Ok(builder.finish(4, root, true))
}

/// The rule as a tree built by evaluating [`step`] on every neighbourhood, the cell first and
/// then N, W, E, S, equal nodes shared: for a rule whose next state is not a function of
/// what [`hear`] reports (Hutton32 looks at the state ahead of an arrow and at which
/// input came first). 32^5 evaluations, well under a second in a release build.
fn enumerated(variant: Variant) -> Result<Tree, TableError> {
    let states = variant.states() as u8;
    let mut builder = TreeBuilder::new(u16::from(states));
    let mut roots = Vec::with_capacity(usize::from(states));
    for c in 0..states {
        let mut norths = Vec::with_capacity(usize::from(states));
        for n in 0..states {
            let mut wests = Vec::with_capacity(usize::from(states));
            for w in 0..states {
                let mut easts = Vec::with_capacity(usize::from(states));
                for e in 0..states {
                    let leaves: Vec<u32> = (0..states)
                        .map(|s| u32::from(step(variant, c, [n, w, e, s])))
                        .collect();
                    easts.push(builder.node(4, &leaves)?);
                }
                wests.push(builder.node(3, &easts)?);
            }
            norths.push(builder.node(2, &wests)?);
        }
        roots.push(builder.node(1, &norths)?);
    }
    let root = builder.node(0, &roots)?;
    Ok(builder.finish(4, root, true))
}
