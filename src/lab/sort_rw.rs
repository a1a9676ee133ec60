//! golab's RW bitonic network: passes of up to 11 steps on 2048-pair workgroups, three
//! steps at a time in registers, regrouped through workgroup memory between
//! (`shaders/lab/sort_rw.wgsl`); its pass schedule and kernel permutations. The kernels run
//! through [`Bitonic`](super::sort_kernels::Bitonic) like the article's B and C families.

use crate::gpu::shader::Shader;

use super::sort_kernels::{Family, Pass};

/// Pairs an RW workgroup holds: 256 threads × 8 registers.
pub const RW_PAIRS: u32 = 2048;

/// 2048-pair blocks each RW workgroup sorts in turn, loading the next block's pairs before
/// it sorts the current one (docs/lab.md has the measured choice).
pub const RW_BLOCKS_PER_GROUP: u32 = 2;

/// Most steps an RW pass does at distances ≥ [`RW_PAIRS`] when
/// [`crate::config::LabTuning::sort_high_steps`] is unset: its pairs come in runs of
/// 2^(11 − 8) = 8 (64 bytes).
pub const RW_HIGH_STEPS: u32 = 8;

/// The RW network's passes for `n` (a power of two) elements: one pass sorts every
/// 2048-pair block; each larger stage takes passes of up to `high` (3..=8) steps at
/// distances ≥ 2048, then one pass of its 11 steps below 2048.
pub fn regrouped_schedule(n: u32, high: u32) -> Vec<Pass> {
    // Compiled kernels exist for 3..=8 (and fewer steps would never end a stage).
    let high = high.clamp(3, 8);
    let local = n.min(RW_PAIRS);
    let mut passes = vec![Pass {
        family: Family::R(0),
        inc: local / 2,
        block: local,
        first_block: 2,
        last_inc: 1,
    }];
    let mut block = 2 * RW_PAIRS;
    while block <= n {
        let mut top = (block / 2).trailing_zeros();
        while top >= 11 {
            let h = high.min(top - 10);
            passes.push(Pass {
                family: Family::R(11 - h),
                inc: 1 << top,
                block,
                first_block: block,
                last_inc: 1 << (top + 1 - h),
            });
            top -= h;
        }
        passes.push(Pass {
            family: Family::R(11),
            inc: RW_PAIRS / 2,
            block,
            first_block: block,
            last_inc: 1,
        });
        match block.checked_mul(2) {
            Some(next) => block = next,
            None => break,
        }
    }
    passes
}

/// The RW kernel (registers regrouped through workgroup memory, 2048 pairs a workgroup)
/// for one-stage passes on runs of 2^`low_bits` pairs (3..=11), or with `low_bits` 0 the
/// pass that sorts whole blocks.
pub fn rw_shader(low_bits: u32) -> Shader {
    Shader::new("lab/sort_rw.wgsl").constant("L", low_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rw_pass_keeps_its_steps_inside_its_workgroups_2048_pairs() {
        for high in 3..=8 {
            for log_n in 0..=31 {
                for p in regrouped_schedule(1 << log_n, high) {
                    let steps = p.steps();
                    assert!(steps.len() <= 66, "{p:?}");
                    let h = match p.family {
                        Family::R(l) if l != 0 => 11 - l,
                        _ => 0,
                    };
                    assert!(h <= high, "{p:?}");
                    for (_, inc) in steps {
                        // A distance is one of the run's low bits or one of the h bits from
                        // last_inc up: inside the 2048 local indices.
                        let bit = inc.trailing_zeros();
                        let local = if h == 0 {
                            bit < 11
                        } else {
                            bit >= p.last_inc.trailing_zeros()
                                && bit < p.last_inc.trailing_zeros() + h
                                && p.last_inc.trailing_zeros() >= 11
                        };
                        assert!(local, "{p:?}: distance {inc}");
                    }
                }
            }
        }
    }
}
