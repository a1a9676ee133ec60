//! What the user chooses for the GPU strategies (memory mode, read-back interval) plus the
//! tuning that tests and measurements pass explicitly: one typed value, handed to the
//! [`super::StepperFactory`] and from there to every GPU stepper it builds.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::config::{BitpackedTuning, FaultPlan};

/// How host↔device transfers are done (the reference article's three memory modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum MemoryMode {
    /// `write_buffer` + a fresh read-back buffer per download (pageable-memory analogue).
    #[default]
    Normal,
    /// Persistent mapped staging buffers, reused every time (page-locked analogue).
    Pinned,
    /// Host-mapped storage buffers, no copies.
    ZeroCopy,
}

impl MemoryMode {
    /// Every mode, in table order.
    pub const ALL: [MemoryMode; 3] = [MemoryMode::Normal, MemoryMode::Pinned, MemoryMode::ZeroCopy];

    /// CLI / UI name.
    pub fn name(self) -> &'static str {
        match self {
            MemoryMode::Normal => "normal",
            MemoryMode::Pinned => "pinned",
            MemoryMode::ZeroCopy => "zero-copy",
        }
    }
}

impl fmt::Display for MemoryMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MemoryMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        MemoryMode::ALL
            .into_iter()
            .find(|m| {
                m.name().eq_ignore_ascii_case(s.trim())
                    || (s.trim().eq_ignore_ascii_case("zerocopy") && *m == MemoryMode::ZeroCopy)
            })
            .ok_or_else(|| format!("unknown memory mode '{s}': use normal, pinned or zero-copy"))
    }
}

/// Knobs shared by the GPU strategies, set from the CLI and the UI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpuSettings {
    /// Memory mode of host↔device transfers.
    pub memory: MemoryMode,
    /// Download period of `gpu-readback-skip`.
    pub readback_interval: u32,
    /// Lower per-chunk byte limit (tests use it to force several chunks on small worlds).
    pub chunk_limit: Option<u64>,
    /// Step kernel and shape of `gpu-bitpacked`.
    pub bitpacked: BitpackedTuning,
    /// An injected device loss (rehearsing recovery); GPU steppers are wrapped in
    /// [`super::fault::FaultyStepper`] while it is set.
    pub fault: Option<FaultPlan>,
    /// Compile the pipelines a world may want later on a background thread (the window and
    /// benchmarks), rather than only when first used (`golab run`, which exits as soon as
    /// its generations are done instead of waiting for a compile in flight).
    pub background_compile: bool,
}

impl Default for GpuSettings {
    fn default() -> Self {
        GpuSettings {
            memory: MemoryMode::Normal,
            readback_interval: 10,
            chunk_limit: None,
            bitpacked: BitpackedTuning::default(),
            fault: None,
            background_compile: true,
        }
    }
}
