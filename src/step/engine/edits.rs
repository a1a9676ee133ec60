//! Edit batches folded to one operation per cell before they go to a device.

use std::collections::HashMap;

use crate::world::CellEdit;

/// Fold a batch of edits into one operation per cell with the same result as applying them
/// in order through [`crate::world::edit_age`]: 0 erase, 1 paint keeping age, 2 newborn.
pub fn fold_edits(edits: &[CellEdit], width: u32, height: u32) -> HashMap<(u32, u32), u32> {
    let mut ops: HashMap<(u32, u32), u32> = HashMap::new();
    for e in edits.iter().filter(|e| e.x < width && e.y < height) {
        let op = match (e.alive, ops.get(&(e.x, e.y))) {
            (false, _) => 0,
            (true, None) => 1,
            (true, Some(0)) => 2,
            (true, Some(&previous)) => previous,
        };
        ops.insert((e.x, e.y), op);
    }
    ops
}
