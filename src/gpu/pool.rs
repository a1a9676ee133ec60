//! A small pool of GPU buffers keyed by size and usage, so that the read-back, parameter and
//! scratch buffers of repeated operations (statistics every 100 ms, views every frame, Lab
//! repeats) are made once and reused instead of created per call.
//!
//! A buffer is taken with [`BufferPool::take`] and handed back with [`BufferPool::give`] once
//! the GPU is done with it (after the submission that used it was waited for). Sizes are
//! rounded up to a power of two (at least 256 bytes) so near sizes share buffers; the pool
//! keeps at most [`MAX_IDLE_BYTES`] of idle buffers and drops the rest.

use std::collections::HashMap;
use std::sync::Mutex;

/// Most bytes of idle buffers the pool keeps.
pub const MAX_IDLE_BYTES: u64 = 64 << 20;

/// Idle buffers by (rounded size, usage), plus counters for tests and reports.
#[derive(Default)]
pub struct BufferPool {
    idle: Mutex<Idle>,
}

#[derive(Default)]
struct Idle {
    buffers: HashMap<(u64, u32), Vec<wgpu::Buffer>>,
    bytes: u64,
    created: u64,
}

/// The size class `bytes` falls in.
pub fn size_class(bytes: u64) -> u64 {
    bytes.max(256).next_power_of_two()
}

impl BufferPool {
    /// An empty pool.
    pub fn new() -> BufferPool {
        BufferPool::default()
    }

    /// A buffer of at least `bytes` bytes with `usage`: an idle one of its size class, or a new one.
    pub fn take(
        &self,
        device: &wgpu::Device,
        label: &str,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        let size = size_class(bytes);
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(buffer) = idle
            .buffers
            .get_mut(&(size, usage.bits()))
            .and_then(Vec::pop)
        {
            idle.bytes -= size;
            return buffer;
        }
        idle.created += 1;
        drop(idle);
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        })
    }

    /// Hand `buffer` back for reuse (unmapped, no longer used by pending GPU work).
    pub fn give(&self, buffer: wgpu::Buffer) {
        let size = buffer.size();
        if size != size_class(size) {
            return; // not one of ours
        }
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.bytes + size > MAX_IDLE_BYTES {
            return;
        }
        idle.bytes += size;
        idle.buffers
            .entry((size, buffer.usage().bits()))
            .or_default()
            .push(buffer);
    }

    /// Buffers this pool has created so far (reuse keeps this flat).
    pub fn created(&self) -> u64 {
        self.idle.lock().map_or(0, |i| i.created)
    }
}

#[cfg(test)]
mod tests {
    use super::size_class;

    #[test]
    fn sizes_round_to_power_of_two_classes() {
        assert_eq!(size_class(0), 256);
        assert_eq!(size_class(257), 512);
        assert_eq!(size_class(4096), 4096);
        assert_eq!(size_class(4097), 8192);
    }
}
