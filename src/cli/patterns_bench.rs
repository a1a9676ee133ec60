//! `golab patterns --bench-io`: how long a large soup takes to save and read back in each
//! large-pattern format (the budget: 8192², 50 %, ≤ 2 s each way on a 2-core box).

use std::time::Instant;

use super::CliError;
use crate::pattern::{self, Format, Pattern};
use crate::rule::Rule;
use crate::world::{Topology, World};

/// Save and read back an `edge`² soup of `density` % (seed 1) as RLE and as macrocell in the
/// temp directory, checking the cells survive; prints a markdown table of the times.
pub fn run(edge: u32, density: f64) -> Result<(), CliError> {
    let mut world = World::new(edge, edge, Topology::Torus, Rule::CONWAY)?;
    world.fill_random(density, 1)?;
    let population = world.population();
    println!("{edge}x{edge} soup, {density} %, {population} live cells\n");
    println!("| format | save (world → file) | file size | read (file → pattern) |");
    println!("|---|---|---|---|");
    let dir = std::env::temp_dir();
    for format in [Format::Rle, Format::Macrocell] {
        let path = dir.join(format!(
            "golab-bench-io-{}.{}",
            std::process::id(),
            format.extension()
        ));
        let start = Instant::now();
        let saved = Pattern::of_world(&world);
        pattern::save_file(&saved, &path)?;
        let save_s = start.elapsed().as_secs_f64();
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let start = Instant::now();
        let back = pattern::load_file(&path);
        let read_s = start.elapsed().as_secs_f64();
        let _ = std::fs::remove_file(&path);
        let back = back?;
        if back.cells != saved.cells || back.position != saved.position {
            return Err(CliError(format!(
                "{}: the cells read back differ from the cells saved",
                format.name()
            )));
        }
        println!(
            "| {} | {save_s:.2} s | {:.1} MB | {read_s:.2} s |",
            format.name(),
            bytes as f64 / 1e6
        );
    }
    Ok(())
}
