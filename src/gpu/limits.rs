//! Fitting a world into a device's buffer and dispatch limits.
//!
//! GPU strategies store the world as horizontal *chunks*: each chunk is one storage buffer
//! holding `rows + 2` rows (a halo row above and below) of `pitch` u32 ages. A world that
//! fits one binding is one chunk; a larger one (8192² u32 ages are 256 MiB, twice
//! lavapipe's 128 MiB binding limit) is cut into as many chunks as needed. Every size is
//! checked here before anything is allocated.

/// Threads per workgroup edge of the 2-D Life kernels (16×16 = 256 invocations).
pub const TILE: u32 = 16;

/// Bytes per cell on the device (a u32 age).
pub const CELL_BYTES: u64 = 4;

/// Horizontal chunks of a world on the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkPlan {
    /// World width in cells.
    pub width: u32,
    /// World height in cells.
    pub height: u32,
    /// u32s per row in a chunk buffer (`width`, or `width + 2` with column halos).
    pub pitch: u32,
    /// Index of column 0 inside a row (1 with column halos, else 0).
    pub col0: u32,
    /// `(first world row, rows)` of each chunk, top to bottom.
    pub chunks: Vec<(u32, u32)>,
}

impl ChunkPlan {
    /// Bytes of the buffer holding chunk `i` (its rows plus two halo rows).
    pub fn chunk_bytes(&self, i: usize) -> u64 {
        (u64::from(self.chunks[i].1) + 2) * u64::from(self.pitch) * CELL_BYTES
    }

    /// Device bytes of one full copy of the world (all chunks).
    pub fn total_bytes(&self) -> u64 {
        (0..self.chunks.len()).map(|i| self.chunk_bytes(i)).sum()
    }
}

/// The most bytes one chunk buffer may have on `limits`.
pub fn max_chunk_bytes(limits: &wgpu::Limits) -> u64 {
    limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size)
}

/// Cut a `width × height` world into chunks for `limits`.
///
/// `column_halo` adds a one-cell border column on each side (the padded layout),
/// `pitch_align` rounds the row pitch up to a multiple of that many cells (vector loads);
/// `min_chunks` forces at least that many strips (the streamed strategy);
/// `chunk_limit` lowers the per-chunk byte limit (tests use it to exercise chunking
/// on small worlds). Errors name the limit and the largest size that fits.
pub fn plan_chunks(
    width: u32,
    height: u32,
    column_halo: bool,
    pitch_align: u32,
    min_chunks: u32,
    limits: &wgpu::Limits,
    chunk_limit: Option<u64>,
) -> Result<ChunkPlan, String> {
    let limit = chunk_limit.map_or(max_chunk_bytes(limits), |c| c.min(max_chunk_bytes(limits)));
    let pitch = (width + if column_halo { 2 } else { 0 }).next_multiple_of(pitch_align.max(1));
    let row_bytes = u64::from(pitch) * CELL_BYTES;
    let max_groups = u64::from(limits.max_compute_workgroups_per_dimension);
    let widest =
        (limit / CELL_BYTES / 3).min(max_groups * u64::from(TILE)) - u64::from(column_halo) * 2;
    if u64::from(width) > widest {
        return Err(format!(
            "a row of {width} cells does not fit the device (binding limit {} MiB, {} workgroups per dimension); \
             the widest world that fits is {widest} cells",
            limit >> 20,
            max_groups
        ));
    }
    let rows_fit = (limit / row_bytes - 2).min(max_groups * u64::from(TILE)) as u32;
    let count = height.div_ceil(rows_fit).max(min_chunks.clamp(1, height));
    let base = height / count;
    let extra = height % count;
    let mut chunks = Vec::with_capacity(count as usize);
    let mut y = 0;
    for i in 0..count {
        let rows = base + u32::from(i < extra);
        chunks.push((y, rows));
        y += rows;
    }
    Ok(ChunkPlan {
        width,
        height,
        pitch,
        col0: u32::from(column_halo),
        chunks,
    })
}

/// A one-line description of the largest world the GPU strategies accept on `limits`.
pub fn largest_square_world(limits: &wgpu::Limits) -> String {
    let limit = max_chunk_bytes(limits);
    let widest = (limit / CELL_BYTES / 3)
        .min(u64::from(limits.max_compute_workgroups_per_dimension) * u64::from(TILE));
    format!(
        "rows up to {widest} cells; a world is split into chunks of at most {} MiB, so height is bounded by device memory \
         (two copies of 4 bytes per cell)",
        limit >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lavapipe_like() -> wgpu::Limits {
        wgpu::Limits {
            max_storage_buffer_binding_size: 128 << 20,
            max_buffer_size: 2 << 30,
            ..wgpu::Limits::default()
        }
    }

    #[test]
    fn small_worlds_are_one_chunk() {
        let plan = plan_chunks(1000, 601, false, 1, 1, &lavapipe_like(), None).unwrap();
        assert_eq!(plan.chunks, vec![(0, 601)]);
        assert_eq!(plan.pitch, 1000);
        let padded = plan_chunks(1000, 601, true, 1, 1, &lavapipe_like(), None).unwrap();
        assert_eq!((padded.pitch, padded.col0), (1002, 1));
    }

    #[test]
    fn big_worlds_split_within_the_binding_limit() {
        let limits = lavapipe_like();
        let plan = plan_chunks(8192, 8192, true, 1, 1, &limits, None).unwrap();
        assert!(plan.chunks.len() >= 3, "{:?}", plan.chunks);
        for i in 0..plan.chunks.len() {
            assert!(plan.chunk_bytes(i) <= 128 << 20);
        }
        let covered: u32 = plan.chunks.iter().map(|c| c.1).sum();
        assert_eq!(covered, 8192);
        assert!(plan.chunks.windows(2).all(|w| w[0].0 + w[0].1 == w[1].0));
    }

    #[test]
    fn strips_and_test_limits_force_more_chunks() {
        let plan = plan_chunks(31, 17, false, 1, 8, &lavapipe_like(), None).unwrap();
        assert_eq!(plan.chunks.len(), 8);
        let tiny = plan_chunks(31, 17, false, 1, 1, &lavapipe_like(), Some(31 * 4 * 8)).unwrap();
        assert!(tiny.chunks.iter().all(|c| c.1 <= 6), "{:?}", tiny.chunks);
        let three = plan_chunks(5, 3, false, 1, 8, &lavapipe_like(), None).unwrap();
        assert_eq!(three.chunks.len(), 3);
    }

    #[test]
    fn pitch_is_aligned_for_vector_loads() {
        let plan = plan_chunks(1001, 7, false, 4, 1, &lavapipe_like(), None).unwrap();
        assert_eq!((plan.pitch, plan.col0), (1004, 0));
    }

    #[test]
    fn too_wide_is_a_clear_error() {
        let err = plan_chunks(20_000_000, 3, false, 1, 1, &lavapipe_like(), None).unwrap_err();
        assert!(err.contains("widest world that fits"), "{err}");
    }
}
