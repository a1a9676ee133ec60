//! Host memory: how much is available, and whether a world of a given size fits in it.
//!
//! A running world lives on the host several times over (the simulation's copy, the
//! stepper's own state, the recovery copy the app keeps, a working copy while it is resized
//! or replaced), so a size is checked against the memory the OS says is available *before*
//! anything is allocated: a 65536² world needs 64 GiB, and allocating it on a 24 GiB machine
//! would end in the OOM killer rather than in a message.

/// Host bytes a running world needs per cell: four u32 copies (see the module doc).
pub const HOST_BYTES_PER_CELL: u64 = 16;

/// Bytes of memory the OS reports available for new allocations (`MemAvailable` in
/// /proc/meminfo), or `None` where that is not known (then only the allocation itself can
/// fail, which [`crate::world::World::new`] also turns into an error).
pub fn available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available(&text)
}

fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line
        .trim_start_matches("MemAvailable:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// Why a world does not fit the host's memory, or `None` when it does (or when the available
/// memory is unknown).
pub fn world_shortfall(width: u32, height: u32, available: Option<u64>) -> Option<Shortfall> {
    let available = available?;
    let needed = u64::from(width) * u64::from(height) * HOST_BYTES_PER_CELL;
    (needed > available).then(|| Shortfall {
        needed,
        available,
        largest_square: (available / HOST_BYTES_PER_CELL).isqrt() as u32,
    })
}

/// A world too large for the host's available memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shortfall {
    /// Bytes the world would need while running.
    pub needed: u64,
    /// Bytes available.
    pub available: u64,
    /// Edge of the largest square world that fits.
    pub largest_square: u32,
}

/// `bytes` as GiB with one decimal, for messages.
pub fn gib(bytes: u64) -> String {
    format!("{:.1} GiB", bytes as f64 / f64::from(1u32 << 30))
}

/// The process's peak resident memory (`VmHWM` of `/proc/self/status`), where Linux
/// reports it: what benchmarks compare with other programs' peak memory.
pub fn peak_rss_bytes() -> Option<u64> {
    status_bytes("VmHWM:")
}

/// The process's resident memory now (`VmRSS` of `/proc/self/status`), where Linux
/// reports it.
pub fn rss_bytes() -> Option<u64> {
    status_bytes("VmRSS:")
}

/// The bytes of a `key` line of `/proc/self/status` (given there in kB).
fn status_bytes(key: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Hand memory the process has freed back to the OS. glibc unmaps a big block when it is
/// freed, but keeps freed heap memory of smaller blocks in its arenas (and raises its mmap
/// threshold after large frees, so later large blocks may land on the heap too). Called
/// after a world is replaced, resized or moved between engines, so what the old world
/// left in the arenas goes back; elsewhere (musl, macOS, Windows) nothing is done.
pub fn return_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Ask the kernel to back the 2 MiB-aligned part of an allocation (`bytes` from `data`)
/// with transparent huge pages. The hashed universe's node table is probed at random over
/// tens of MiB: with 4 KiB pages nearly every probe also misses the TLB. Measured on the
/// table only (docs/experiments/hashlife-lookups.md): on the node arena too it cost resident memory (its
/// reserved, untouched capacity became resident) for no gain. A hint only: without THP,
/// or off Linux, nothing changes.
pub fn advise_huge_pages(data: *const u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (data as usize).next_multiple_of(HUGE);
        let end = (data as usize + bytes) / HUGE * HUGE;
        if end > start {
            // SAFETY: the range lies inside one live allocation of this process;
            // MADV_HUGEPAGE changes how its pages are backed, never their contents.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (data, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mem_available_is_read_from_meminfo() {
        let text = "MemTotal:       24576000 kB\nMemFree:  100 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(parse_mem_available(text), Some(23_000_000 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available("MemAvailable: lots\n"), None);
    }

    #[test]
    fn a_world_fits_when_its_copies_fit() {
        let gib = 1u64 << 30;
        assert_eq!(world_shortfall(16384, 16384, Some(22 * gib)), None);
        let short = world_shortfall(65536, 65536, Some(22 * gib)).unwrap();
        assert_eq!(short.needed, 64 * gib);
        assert_eq!(short.largest_square, 38_423);
        assert_eq!(world_shortfall(65536, 65536, None), None);
        // The largest square really fits, one more cell of edge does not.
        let edge = short.largest_square;
        assert!(world_shortfall(edge, edge, Some(22 * gib)).is_none());
        assert!(world_shortfall(edge + 1, edge + 1, Some(22 * gib)).is_some());
    }
}
