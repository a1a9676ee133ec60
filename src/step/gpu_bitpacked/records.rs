//! The stream kernel's epoch records and the plan of their folds.
//!
//! In a batch that writes births into records ([`super::births`]), every word with births
//! alive at a block's end writes them into its *epoch record*
//! (shaders/life/bitpacked_step_bindings.wgsl: an 8-bit offset per cell from the epoch's
//! birth code, bitsliced into one 32-byte sector a word): one coalesced load and store where
//! the per-cell birth codes would take a scattered store per birth. The fold
//! (bitpacked_fold.wgsl) moves records into the birth codes. [`plan_ops`] places the folds in
//! a batch: before a block whose records would pass 8 bits, and at its end.

/// Largest epoch record (8 bits): a record `r` of a cell means birth code `epoch + r`.
pub const RECORD_MAX: u32 = 255;

/// One dispatch of a batch, in order: a block of generations, or a fold of the records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Step `gens` generations from birth code `base`, recording births from `epoch`.
    Step { gens: u32, base: u32, epoch: u32 },
    /// Move the records (counted from `epoch`) into the birth codes and clear them.
    Fold { epoch: u32 },
}

/// The dispatches of a batch of `blocks` (`(gens, base)` each). With `records`, a block's
/// records must fit 8 bits (`base - epoch + gens ≤ RECORD_MAX`): a fold closes the epoch
/// before a block that would not fit, and one ends the batch, so no records outlive it
/// (the statistics, view, edits and read-back see only birth codes).
pub fn plan_ops(blocks: &[(u32, u32)], records: bool) -> Vec<Op> {
    let mut ops = Vec::with_capacity(2 * blocks.len() + 1);
    let mut epoch = None;
    for &(gens, base) in blocks {
        if records {
            match epoch {
                Some(e) if base.wrapping_sub(e) + gens <= RECORD_MAX => {}
                Some(e) => {
                    ops.push(Op::Fold { epoch: e });
                    epoch = Some(base);
                }
                None => epoch = Some(base),
            }
        }
        let epoch = epoch.unwrap_or(base);
        ops.push(Op::Step { gens, base, epoch });
    }
    if let Some(epoch) = epoch {
        ops.push(Op::Fold { epoch });
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(gens, base)` of `count` blocks of `k` generations from birth code `n_y`.
    fn blocks(count: u32, k: u32, n_y: u32) -> Vec<(u32, u32)> {
        (0..count).map(|b| (k, n_y.wrapping_add(b * k))).collect()
    }

    #[test]
    fn every_record_fits_eight_bits_and_the_batch_ends_folded() {
        for (count, k, n_y) in [
            (1, 8, 5),
            (40, 8, 0x8000_0001),
            (100, 15, u32::MAX - 1_600),
            (64, 1, 7),
        ] {
            let ops = plan_ops(&blocks(count, k, n_y), true);
            let mut open = None;
            for op in &ops {
                match *op {
                    Op::Step { gens, base, epoch } => {
                        assert!(base.wrapping_sub(epoch) + gens <= RECORD_MAX, "{op:?}");
                        assert!(open.is_none_or(|e| e == epoch), "{op:?} in epoch {open:?}");
                        open = Some(epoch);
                    }
                    Op::Fold { epoch } => {
                        assert_eq!(open, Some(epoch), "a fold closes the open epoch");
                        open = None;
                    }
                }
            }
            assert_eq!(open, None, "the batch ends with a fold");
            let steps = ops.iter().filter(|o| matches!(o, Op::Step { .. })).count();
            assert_eq!(steps, count as usize);
            // Epochs are as long as 8 bits allow: one fold per ≈ 255 generations.
            let folds = ops.len() - steps;
            assert_eq!(
                folds as u32,
                (count * k).div_ceil(RECORD_MAX - RECORD_MAX % k).max(1)
            );
        }
    }

    #[test]
    fn without_records_a_batch_is_its_blocks() {
        let b = blocks(9, 8, 3);
        let ops = plan_ops(&b, false);
        assert_eq!(ops.len(), 9);
        assert!(ops.iter().all(|o| matches!(o, Op::Step { .. })));
    }
}
