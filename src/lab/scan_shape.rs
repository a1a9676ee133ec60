//! The single-pass scan's tile shapes: a tile of `threads` × `rows` `vec4`s, the tuned
//! default, `THREADSxROWS` as the scan variants write it (`decoupled-look-back@512x8`,
//! `decoupled-look-back-unrolled@256x16`), and the module of each shape, rolled
//! (`scan_lookback.wgsl`) or written out straight ([`super::scan_unrolled`]).

use crate::config::LabTuning;
use crate::gpu::GpuContext;
use crate::gpu::shader::Shader;

use super::scanner::{SINGLE_PASS_ROWS, SPIN, STATUS_STRIDE};

/// The single pass's variant name (the scanner's form).
pub const LOOK_BACK: &str = "decoupled-look-back";
/// The single pass written out straight for its shape.
pub const LOOK_BACK_UNROLLED: &str = "decoupled-look-back-unrolled";

/// Threads of a single-pass workgroup unless [`LabTuning::scan_threads`] says otherwise.
pub const SINGLE_PASS_THREADS: u32 = 256;

/// The shape of the single-pass scan: a tile is `threads` × `rows` `vec4`s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SinglePass {
    /// Threads a workgroup: 256, 512 or 1024 tuned; 128 to 1024, a power of two, by name.
    pub threads: u32,
    /// `vec4` rows a tile (a multiple of 4): each thread holds one `vec4` of each.
    pub rows: u32,
    /// Stalled look-back rounds before the fallback ([`SPIN`] by default).
    pub spin: u32,
    /// `false` ignores every publication, so each tile reduces all its predecessors itself
    /// (the fallback alone, for tests).
    pub trust: bool,
    /// The kernel written out straight for this shape ([`super::scan_unrolled`]) instead of
    /// the rolled `scan_lookback`.
    pub unrolled: bool,
}

impl SinglePass {
    /// The shape `tuning` asks for (defaults [`SINGLE_PASS_THREADS`], [`SINGLE_PASS_ROWS`],
    /// [`SPIN`]), threads limited to what `ctx` allows in a workgroup.
    pub fn tuned(ctx: &GpuContext, tuning: &LabTuning) -> SinglePass {
        let wanted = tuning.scan_threads.map_or(SINGLE_PASS_THREADS, |t| {
            t.clamp(256, 1024).next_power_of_two()
        });
        let allowed = wanted <= ctx.limits.max_compute_invocations_per_workgroup;
        SinglePass {
            threads: if allowed { wanted } else { 256 },
            rows: tuning
                .scan_rows
                .map_or(SINGLE_PASS_ROWS, |r| (r.clamp(4, 16) / 4) * 4),
            spin: tuning.scan_spin.unwrap_or(SPIN),
            trust: true,
            unrolled: false,
        }
    }

    /// `THREADSxROWS` (e.g. `256x16`) over `base` (its spin, trust and form kept): threads
    /// 128 to 1024, a power of two; rows a multiple of 4, at most 16 (32 unrolled); `None` if
    /// not such a shape.
    pub fn parse(text: &str, base: SinglePass) -> Option<SinglePass> {
        let (threads, rows) = text.trim().split_once(['x', 'X'])?;
        let shape = SinglePass {
            threads: threads.trim().parse().ok()?,
            rows: rows.trim().parse().ok()?,
            ..base
        };
        let most_rows = if shape.unrolled { 32 } else { 16 };
        let threads_ok = shape.threads.is_power_of_two() && (128..=1024).contains(&shape.threads);
        let rows_ok = shape.rows.is_multiple_of(4) && (4..=most_rows).contains(&shape.rows);
        (threads_ok && rows_ok).then_some(shape)
    }

    /// As [`SinglePass::parse`] reads it.
    pub fn label(self) -> String {
        format!("{}x{}", self.threads, self.rows)
    }

    /// Values a workgroup scans.
    pub fn tile(self) -> u64 {
        4 * u64::from(self.threads) * u64::from(self.rows)
    }
}

/// The single-pass module of shape `shape`, with subgroup operations if `subgroups` (written
/// out straight when `shape.unrolled`: [`super::scan_unrolled`]).
pub fn single_pass_shader(subgroups: bool, shape: SinglePass) -> Shader {
    if shape.unrolled {
        return super::scan_unrolled::shader(subgroups, shape);
    }
    let root = if subgroups {
        "lab/scan_single_pass_subgroup.wgsl"
    } else {
        "lab/scan_single_pass.wgsl"
    };
    Shader::new(root)
        .constant("THREADS", shape.threads)
        .constant("ROWS", shape.rows)
        .constant("SPIN", shape.spin)
        .constant("TRUST", shape.trust)
        .constant("STRIDE", STATUS_STRIDE)
}

/// `decoupled-look-back[-unrolled][@THREADSxROWS]` as its single-pass shape (`tuned` where
/// the name gives none); `None` for any other name or a shape it cannot run.
pub fn single_pass_variant(name: &str, tuned: SinglePass) -> Option<SinglePass> {
    let (base, shape) = match name.trim().split_once('@') {
        Some((base, shape)) => (base, Some(shape)),
        None => (name.trim(), None),
    };
    let unrolled = match base {
        b if b.eq_ignore_ascii_case(LOOK_BACK) => false,
        b if b.eq_ignore_ascii_case(LOOK_BACK_UNROLLED) => true,
        _ => return None,
    };
    let form = SinglePass { unrolled, ..tuned };
    match shape {
        Some(shape) => SinglePass::parse(shape, form),
        None => Some(form),
    }
}
