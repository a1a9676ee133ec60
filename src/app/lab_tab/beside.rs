//! What shares the device with a Lab run, as its report records it.

/// The `beside` line of a Lab run started now: what the simulation is doing on the device
/// the Lab shares with it (from the runner's latest snapshot).
pub fn describe_simulation(snap: &crate::runner::Snapshot) -> String {
    let size = match snap.grid_size() {
        Some((w, h)) if w == h => format!("{w}²"),
        Some((w, h)) => format!("{w}×{h}"),
        None => "the unbounded plane".to_string(),
    };
    let strategy = snap.strategy.name();
    if !snap.running {
        return format!(
            "the simulation, paused ({strategy} on {size}); only the window's drawing shares the GPU"
        );
    }
    if !snap.strategy.is_gpu() {
        return format!(
            "the simulation, running {strategy} on {size} on the CPU; only the window's drawing shares the GPU"
        );
    }
    let speed = match snap.speed {
        crate::runner::Speed::Max => "max speed".to_string(),
        crate::runner::Speed::PerFrame(n) => format!("{n} generation(s) per frame"),
        crate::runner::Speed::Every(d) => format!("one generation every {:.2} s", d.as_secs_f64()),
    };
    format!(
        "the simulation, running {strategy} on {size} at {speed} (its GPU work shares the queue: \
         kernel times are the Lab's own, wall times include waiting behind it)"
    )
}
