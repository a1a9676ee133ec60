//! `golab patterns`: list the bundled pattern library.

use clap::Args;

use super::CliError;
use crate::pattern::library;

/// Arguments of `golab patterns`.
#[derive(Debug, Args)]
pub struct PatternsArgs {
    /// Print the named pattern as RLE instead of listing the library.
    #[arg(long)]
    pub show: Option<String>,
    /// Measure saving and reading back a large soup as RLE and macrocell instead.
    #[arg(long)]
    pub bench_io: bool,
    /// Edge of the --bench-io soup.
    #[arg(long, default_value_t = 8192)]
    pub size: u32,
    /// Density (percent) of the --bench-io soup.
    #[arg(long, default_value_t = 50.0)]
    pub density: f64,
}

/// Execute `golab patterns`.
pub fn run(args: &PatternsArgs) -> Result<(), CliError> {
    if args.bench_io {
        return super::patterns_bench::run(args.size, args.density);
    }
    if let Some(name) = &args.show {
        let pattern = library::find(name).ok_or_else(|| {
            CliError(format!(
                "no bundled pattern named '{name}'; run `golab patterns` for the list"
            ))
        })?;
        print!("{}", pattern.to_rle());
        return Ok(());
    }
    println!("{:<22} {:>9} {:>6}  description", "name", "size", "cells");
    for entry in library::library() {
        let pattern = crate::pattern::parse(entry.text, None)?;
        let about = pattern.comments.first().cloned().unwrap_or_default();
        println!(
            "{:<22} {:>9} {:>6}  {}",
            entry.name,
            format!("{}x{}", pattern.width, pattern.height),
            pattern.population(),
            about
        );
    }
    Ok(())
}
