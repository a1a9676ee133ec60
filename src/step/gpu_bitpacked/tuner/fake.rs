//! Fake devices for the shape tuner's and controller's tests: a model of the stream kernel's
//! time per generation from a device's figures (SMs, registers, subgroup size) and a world's
//! size.

use super::{Shape, Space};

/// A fake device: what decides how many strips run at once.
#[derive(Debug, Clone, Copy)]
pub struct Device {
    pub name: &'static str,
    /// Streaming multiprocessors / compute units.
    pub sms: u32,
    /// 32-bit registers per SM.
    pub registers: u32,
    /// Subgroup size.
    pub lanes: u32,
}

pub const DEVICES: [Device; 4] = [
    Device {
        name: "132-SM GPU (H200/H100-like)",
        sms: 132,
        registers: 65_536,
        lanes: 32,
    },
    Device {
        name: "28-SM GPU",
        sms: 28,
        registers: 65_536,
        lanes: 32,
    },
    Device {
        name: "wave64 GPU, 60 CUs",
        sms: 60,
        registers: 131_072,
        lanes: 64,
    },
    Device {
        name: "lavapipe-like CPU, 8-wide",
        sms: 2,
        registers: 16_384,
        lanes: 8,
    },
];

/// Modelled seconds per generation of `shape` on `device` over a `width × rows` world:
/// strips run in waves of the resident subgroups (registers grow with the levels), a strip
/// costs its level-rows (its rows plus the halo levels recompute, `g² + g`) per generation.
pub fn model(device: Device, width: u32, rows: u32, shape: Shape) -> f64 {
    let Shape { gens: g, strip: s } = shape;
    let registers = 48 + 14 * g;
    let resident = (device.registers / (device.lanes * registers)).clamp(1, 16) * device.sms;
    let strips = width.div_ceil(32).div_ceil(device.lanes - 2) * rows.div_ceil(s);
    let waves = strips.div_ceil(resident);
    let level_rows = s * g + g * g + g;
    let dispatch = 1e-9 * f64::from(waves) * f64::from(level_rows) + 3e-6;
    dispatch / f64::from(g)
}

/// The fastest shape of `space`, found by trying every one, and its time.
pub fn exhaustive(device: Device, width: u32, space: &Space) -> (Shape, f64) {
    let strips: Vec<u32> = match space.strip {
        Some(s) => vec![s],
        None => (1..=space.rows).collect(),
    };
    space
        .gens
        .iter()
        .flat_map(|&gens| strips.iter().map(move |&strip| Shape { gens, strip }))
        .map(|shape| (shape, model(device, width, space.rows, shape)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

/// Modelled seconds per generation of a *settled* world with replay: a block lasts as long as
/// its slowest stepped strip (its rows plus the halo), plus a cost per strip for reading its
/// flags; best near 12 rows at 8192 rows, as measured on the H100.
pub fn settled(rows: u32, shape: Shape) -> f64 {
    let strips = f64::from(rows.div_ceil(shape.strip));
    let latency = 2e-8 * f64::from(shape.strip + 2 * shape.gens);
    let flags = 2e-8 * 144.0 / 8192.0 * strips;
    (latency + flags) / f64::from(shape.gens)
}
