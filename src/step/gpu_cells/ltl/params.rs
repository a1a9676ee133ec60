//! What the Larger than Life passes are told: the count's mode, the uniform parameters
//! every LtL kernel reads (shaders/life/ltl_params.wgsl), the transition as intervals where
//! it is one, and how many rows a count thread walks.

/// Count-pass threads wanted before a thread walks more rows than its shape needs (runs
/// are halved until this many are in flight: docs/experiments/ltl-diamond.md).
const COUNT_THREADS: u64 = 1 << 17;

/// How the count pass counts a cell's neighbourhood (`mode` in ltl_params.wgsl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Count {
    /// The Moore square: a running column sum of row windows.
    Square = 0,
    /// Any other unweighted shape: two row-sum reads per run of its rows.
    Runs = 1,
    /// Weighted shapes: every cell read.
    Weighted = 2,
    /// The von Neumann diamond: a running sum of diagonal runs.
    Diamond = 3,
    /// The Gaussian: a tent of tents, (r+1−|dx|)(r+1−|dy|): each row's tent sum from its
    /// prefix sums, then a running tent sum down the column (O(r) a cell, not O(r²)).
    Tent = 4,
}

/// Mirrors `LtlParams` in shaders/life/ltl_params.wgsl.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(super) struct LtlParams {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) pitch: u32,
    pub(super) range: u32,
    pub(super) stride: u32,
    pub(super) torus: u32,
    pub(super) states: u32,
    pub(super) mode: u32,
    pub(super) items: u32,
    pub(super) run: u32,
    pub(super) odd: u32,
    pub(super) flags_len: u32,
    pub(super) bonus: u32,
    pub(super) band: u32,
    pub(super) flip: u32,
    pub(super) blocks: u32,
    pub(super) diag_bits: u32,
    pub(super) mask_pitch: u32,
    pub(super) split: u32,
    pub(super) intervals: u32,
    pub(super) birth_lo: i32,
    pub(super) birth_hi: i32,
    pub(super) survive_lo: i32,
    pub(super) survive_hi: i32,
}

/// The counts a flag table holds true, when they are one interval (`lo..=hi`; empty as
/// `1..=0`), as Larger than Life's `Smin..smax` and `Bmin..bmax` always are.
pub(super) fn interval(table: &[bool]) -> Option<(i32, i32)> {
    let Some(lo) = table.iter().position(|f| *f) else {
        return Some((1, 0));
    };
    let hi = table.iter().rposition(|f| *f).unwrap_or(lo);
    table[lo..=hi]
        .iter()
        .all(|f| *f)
        .then_some((lo as i32, hi as i32))
}

/// Rows one count-pass thread walks: for the Moore square r rows (at least 64), so its
/// O(r) start-up costs about one more read per cell while enough threads stay in flight
/// (docs/experiments/ltl-run-length.md: longer runs lost at r = 100 and 500); for the
/// diamond over 16-bit sums, whose start reads 2r + 1 diagonal runs, 2r rows (the
/// Gaussian's tent, whose start reads 2r + 2 row tents, as the square); for the diamond
/// over bytes (four columns a thread), whose start is chained along its workgroup's row
/// (a few runs whatever r), 8 rows below r = 16 and 16 from there
/// (docs/experiments/ltl-diamond.md); halved until [`COUNT_THREADS`] threads are in flight
/// (the diamond at r = 500 on 8192²: 500 rows).
pub(super) fn rows_per_thread(
    width: u32,
    height: u32,
    range: u32,
    count: Count,
    columns: u32,
) -> u32 {
    let threads_at = |run: u32| u64::from(width) * u64::from(height.div_ceil(run));
    let mut run = match count {
        Count::Square | Count::Tent => range.max(64),
        Count::Diamond if columns == 4 => {
            if range < 16 {
                8
            } else {
                16
            }
        }
        Count::Diamond => (2 * range).max(64),
        Count::Runs | Count::Weighted => 8,
    };
    while run > 8 && threads_at(run) < COUNT_THREADS {
        run /= 2;
    }
    run.clamp(1, height)
        .max(height.div_ceil(crate::step::gpu_cells::kernels::MAX_GROUPS_PER_DIMENSION))
}

#[cfg(test)]
mod tests {
    use super::{LtlParams, interval};

    #[test]
    fn the_parameters_match_their_wgsl_struct() {
        // Every LtL kernel reads LtlParams from one uniform buffer: a field added on one side
        // only would shift every field after it.
        for root in super::super::shaders() {
            let source = root.source().unwrap();
            let module = naga::front::wgsl::parse_str(&source).unwrap();
            let mut layouter = naga::proc::Layouter::default();
            layouter.update(module.to_ctx()).unwrap();
            let (handle, ty) = module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some("LtlParams"))
                .unwrap();
            let naga::TypeInner::Struct { members, .. } = &ty.inner else {
                panic!("LtlParams is a struct");
            };
            assert!(members.iter().all(|m| matches!(
                module.types[m.ty].inner,
                naga::TypeInner::Scalar(naga::Scalar { width: 4, .. })
            )));
            assert_eq!(
                layouter[handle].size as usize,
                std::mem::size_of::<LtlParams>(),
                "{}",
                root.label()
            );
        }
    }

    #[test]
    fn a_flag_table_is_an_interval_only_when_its_counts_are_contiguous() {
        assert_eq!(interval(&[false, true, true, true, false]), Some((1, 3)));
        assert_eq!(interval(&[true]), Some((0, 0)));
        assert_eq!(interval(&[false, false]), Some((1, 0)));
        assert_eq!(interval(&[]), Some((1, 0)));
        assert_eq!(interval(&[true, false, true]), None);
    }
}
