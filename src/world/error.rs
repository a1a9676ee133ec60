//! Why a world could not be made, and the size checks that say so.

use thiserror::Error;

use super::{MAX_EDGE, MIN_EDGE};

/// Why a world could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum WorldError {
    /// Width or height outside `MIN_EDGE..=MAX_EDGE`.
    #[error(
        "world size {width}x{height} is out of range: each edge must be {MIN_EDGE}..={MAX_EDGE} cells"
    )]
    BadSize {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A size string that is not `WxH` or `N`.
    #[error("size '{0}' is not WIDTHxHEIGHT (e.g. 1024x768) or a single edge (e.g. 512)")]
    MalformedSize(String),
    /// A topology name golab does not know.
    #[error(
        "unknown topology '{0}': use torus, dead, klein, cross-surface, sphere or tube (a shifted torus comes from a rule suffix such as B3/S23:T30+5,20)"
    )]
    UnknownTopology(String),
    /// A joined surface under a rule that needs more than the one-cell ring of copied edges.
    #[error(
        "{rule} counts neighbours over a range beyond one cell; like Golly, golab runs Larger than Life on a torus or a plane, not on a {surface}"
    )]
    SurfaceRule {
        /// The surface.
        surface: String,
        /// The rule's canonical text.
        rule: String,
    },
    /// A joined surface that cannot have this size (a sphere is square).
    #[error("{surface} needs {need}; the world is {width}x{height}")]
    SurfaceSize {
        /// The surface, for the message.
        surface: &'static str,
        /// What it needs.
        need: &'static str,
        /// The world's width.
        width: u32,
        /// The world's height.
        height: u32,
    },
    /// The world would not fit the host's available memory.
    #[error(
        "a {width}x{height} world needs about {needed} of host memory while running (the world, \
         the stepper's state, the recovery and working copies) but {available} are available; \
         the largest square world that fits is {largest}x{largest}"
    )]
    OutOfMemory {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
        /// What it would need, in GiB for the message.
        needed: String,
        /// What is available, in GiB for the message.
        available: String,
        /// Edge of the largest square world that fits.
        largest: u32,
    },
    /// The host refused the allocation of a world's cells.
    #[error("could not allocate the cells of a {width}x{height} world: out of host memory")]
    AllocationFailed {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// Soup density outside 0..=100 percent.
    #[error("density {0}% is out of range 0..=100")]
    BadDensity(f64),
}

/// Parse `"WxH"` (also `W*H`, `W,H`) or a single edge `"N"` meaning N×N.
pub fn parse_size(text: &str) -> Result<(u32, u32), WorldError> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || WorldError::MalformedSize(text.to_string());
    let parse = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let (w, h) = match t.split_once(['x', '*', ',', '×']) {
        Some((w, h)) => (parse(w)?, parse(h)?),
        None => {
            let n = parse(&t)?;
            (n, n)
        }
    };
    check_size(w, h)?;
    Ok((w as u32, h as u32))
}

pub(super) fn check_size(width: u64, height: u64) -> Result<(), WorldError> {
    let ok = |e: u64| (u64::from(MIN_EDGE)..=u64::from(MAX_EDGE)).contains(&e);
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(WorldError::BadSize { width, height })
    }
}
