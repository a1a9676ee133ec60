//! Replaying what repeats: the stream kernel skips the work of strips whose neighbourhood
//! came back to where it was one block earlier.
//!
//! A soup settles into still lifes and small oscillators (blinkers above all, then period-3
//! pulsars): at generation 50 000 of an 8192² torus soup, over 99 % of the stream kernel's
//! strips repeat over a 6-generation block. Stepping them again only recomputes what the
//! destination buffer already holds, so a strip whose *cone* (the cells within one block's
//! generations of it) ended the previous block as it began it is **replayed** instead
//! (shaders/life/bitpacked_replay.wgsl gives the argument): no state is written, only the
//! birth codes of its cells born within the block move on by the block's length, which keeps
//! every age exact. Golly's QuickLife skips settled regions in the same spirit (it tracks
//! period-2 stability); here any period dividing the block length repeats.
//!
//! The kernel writes a *repeat flag* per world row and strip column every block (a tag of the
//! block length, the subgroup size and [`Repeats::stamp`]), and for every word it steps the
//! cells born within the block that are alive at its end. The birth-code moves of replayed
//! strips are counted per strip and made once, when the strip is stepped again or in the
//! batch's last full block. Replay needs equal blocks in a row (the engine keeps batches to
//! whole blocks where it can) and catches oscillators whose period divides the block length,
//! so with replay on blocks are [`PERIOD`] generations (unless the user fixes another), and
//! the shape controller chooses the strip height and follows a settling soup's best one
//! (see [`super::controller`]). It applies to two-state rules with ages and births written
//! one store each; records batches and Generations rules step every strip.

use super::device::storage_buffer as buffer;
use crate::gpu::GpuContext;

/// Generations per block while replay is on: oscillators of period 1, 2, 3 and 6 (nearly all
/// of a settled soup's ash) repeat within one. (8 would catch periods 4 and 8 instead of 3
/// and 6, and leaves more strips stepped: docs/experiments/replay-block-length.md.)
pub const PERIOD: u32 = 6;

/// Bits of the stamp in a repeat tag (the rest hold the flag bit, the block length and the
/// subgroup size: see `repeat_tag` in bitpacked_replay.wgsl).
const STAMP_BITS: u32 = 19;

/// Counters of replayed and stepped strips (32 each, summed).
const COUNTERS: u64 = 64;

/// A world's replay buffers and the host's stamp.
pub struct Repeats {
    /// Repeat flags, ping-ponged like the state: `flags[from]` is read by a block stepping
    /// `planes[from]`, the other written.
    pub flags: [wgpu::Buffer; 2],
    /// Per state word: its cells born within its last stepped block and alive at its end.
    pub born: wgpu::Buffer,
    /// Strips replayed (first 32 counters) and stepped (next 32) since the last read, then
    /// each strip's pending birth moves (zero between batches).
    pub counts: wgpu::Buffer,
    /// Strip columns per row of the flags (for the device's smallest subgroup).
    pub columns: u32,
    /// Whether the kernel replays at all (else the buffers are 16-byte placeholders).
    pub on: bool,
    /// The stamp of the flags.
    pub stamp: Stamp,
}

/// The host's part of a repeat tag: moved on after anything that changed the state without
/// writing flags, so flags written before never match again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    value: u32,
    stale: bool,
}

impl Default for Stamp {
    fn default() -> Stamp {
        // Zeroed flags never match a tag (its low bit is set), whatever the stamp.
        Stamp {
            value: 1,
            stale: false,
        }
    }
}

impl Stamp {
    /// The state changed other than by a block that writes flags (an edit, a batch of
    /// records): no flag written before may be trusted.
    pub fn invalidate(&mut self) {
        self.stale = true;
    }

    /// The stamp for a batch, `writes_flags` when its blocks write flags; a batch that does
    /// not invalidates them.
    pub fn for_batch(&mut self, writes_flags: bool) -> u32 {
        if !writes_flags {
            self.stale = true;
        } else if self.stale {
            self.value = (self.value + 1) & ((1 << STAMP_BITS) - 1);
            self.stale = false;
        }
        self.value
    }
}

impl Repeats {
    /// Replay buffers for a world of `height` rows of `wpr` words whose strips are
    /// `min_lanes - 2` words wide at the narrowest (placeholders when `on` is false).
    pub fn new(ctx: &GpuContext, on: bool, (wpr, height): (u32, u32), min_lanes: u32) -> Repeats {
        let columns = wpr.div_ceil(min_lanes.saturating_sub(2).max(1));
        let sized = |bytes: u64| if on { bytes } else { 16 };
        let flag_bytes = sized(u64::from(height) * u64::from(columns) * 4);
        Repeats {
            flags: [
                buffer(ctx, "bitpacked repeat flags 0", flag_bytes),
                buffer(ctx, "bitpacked repeat flags 1", flag_bytes),
            ],
            born: buffer(
                ctx,
                "bitpacked born in block",
                sized(u64::from(wpr) * u64::from(height) * 4),
            ),
            counts: buffer(
                ctx,
                "bitpacked replay counters",
                (COUNTERS + u64::from(height) * u64::from(columns)) * 4,
            ),
            columns,
            on,
            stamp: Stamp::default(),
        }
    }

    /// `(replayed, stepped)` strips from the counters' read-back (`COUNTERS` words).
    pub fn tally(words: &[u32]) -> (u64, u64) {
        let half = COUNTERS as usize / 2;
        let sum = |w: &[u32]| w.iter().map(|&c| u64::from(c)).sum();
        (sum(&words[..half]), sum(&words[half..2 * half]))
    }

    /// Bytes of the counters (to read back and clear).
    pub fn count_bytes() -> u64 {
        COUNTERS * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_moves_on_once_after_anything_that_wrote_no_flags() {
        let mut stamp = Stamp::default();
        assert_eq!(stamp.for_batch(true), 1);
        assert_eq!(stamp.for_batch(true), 1);
        assert_eq!(stamp.for_batch(false), 1);
        assert_eq!(stamp.for_batch(true), 2);
        assert_eq!(stamp.for_batch(true), 2);
        stamp.invalidate();
        assert_eq!(stamp.for_batch(true), 3);
        // The stamp stays within its bits of the tag.
        let mut stamp = Stamp {
            value: (1 << STAMP_BITS) - 1,
            stale: true,
        };
        assert_eq!(stamp.for_batch(true), 0);
    }

    #[test]
    fn tally_sums_each_half() {
        let mut words = vec![0u32; COUNTERS as usize];
        words[0] = 3;
        words[31] = 4;
        words[32] = 10;
        words[63] = 1;
        assert_eq!(Repeats::tally(&words), (7, 11));
    }
}
