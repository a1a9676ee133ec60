//! The GPU strategies as configurations of the one GPU engine ([`super::gpu_common`]).
//!
//! They differ only in kernel and in where the truth lives between generations, so each is
//! one row of [`gpu_config`]; docs/architecture.md draws the data flow of each.
//!
//! | strategy | reference | kernel | transfers per generation |
//! |---|---|---|---|
//! | `gpu-naive` | ALGORITHM_0 | bounds checks per neighbour column | upload + download |
//! | `gpu-padded` | ALGORITHM_1 | host-packed one-cell border, no checks | upload + download |
//! | `gpu-shared` | ALGORITHM_2 | 16×16 tile + halo in workgroup memory | upload + download |
//! | `gpu-streamed` | ALGORITHM_2_STREAM | shared, 8 strips each in its own submission | upload + download per strip |
//! | `gpu-no-upload` | ALGORITHM_3_STREAM | shared, state stays on device | download (edits upload only cells) |
//! | `gpu-readback-skip` | ALGORITHM_3_REPEAT | shared, state stays on device | download every N (default 10) |
//! | `gpu-resident` | beyond the article | column runs with a register window, state on device | none (stats by GPU reduction) |

use super::Strategy;
use super::gpu_common::kernels::Kernel;
use super::gpu_common::{GpuConfig, GpuSettings, Residency};

/// Strips of `gpu-streamed`, as in the reference article.
pub const STREAM_STRIPS: u32 = 8;

/// The engine configuration of a GPU strategy (`None` for CPU strategies and `gpu-bitpacked`).
pub fn gpu_config(strategy: Strategy, settings: &GpuSettings) -> Option<GpuConfig> {
    let transfer = Residency::Transfer { strips: 1 };
    let (kernel, residency) = match strategy {
        Strategy::Scalar | Strategy::Rayon | Strategy::CpuBitsliced => return None,
        // Its own stepper (super::gpu_bitpacked), not a configuration of this engine.
        Strategy::GpuBitpacked => return None,
        Strategy::GpuNaive => (Kernel::Naive, transfer),
        Strategy::GpuPadded => (Kernel::Padded, transfer),
        Strategy::GpuShared => (Kernel::Shared, transfer),
        Strategy::GpuStreamed => (
            Kernel::Shared,
            Residency::Transfer {
                strips: STREAM_STRIPS,
            },
        ),
        Strategy::GpuNoUpload => (
            Kernel::Shared,
            Residency::Resident {
                download_every: Some(1),
            },
        ),
        Strategy::GpuReadbackSkip => (
            Kernel::Shared,
            Residency::Resident {
                download_every: Some(settings.readback_interval.max(1)),
            },
        ),
        Strategy::GpuResident => (
            Kernel::Columns,
            Residency::Resident {
                download_every: None,
            },
        ),
    };
    Some(GpuConfig {
        strategy,
        kernel,
        residency,
    })
}
