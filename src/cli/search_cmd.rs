//! `golab search`: apgsearch's soup search on the CPU — the same soups, the same census,
//! written as apgsearch's local log ([`crate::search`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::CliError;
use crate::search::{CpuRunner, SearchConfig, SearchRule, Symmetry, Tiles, search};

/// Arguments of `golab search`.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Rule: b3s23 or another Life-like rule without B0 (any notation: B36/S23, HighLife).
    #[arg(long, default_value = "b3s23")]
    pub rule: String,
    /// Symmetry, as apgsearch names them: C1, C2_1, C2_2, C2_4, C4_1, C4_4, D2_+1, D2_+2,
    /// D2_x, D4_+1, D4_+2, D4_+4, D4_x1, D4_x4, D8_1, D8_4, 8x32, 4x64, 2x128, 1x256.
    #[arg(long, default_value = "C1")]
    pub symmetry: String,
    /// The root: soup i is named ROOT followed by i (apgsearch's seed, e.g. k_abc123).
    #[arg(long)]
    pub seed: String,
    /// Soups to run (100000, 1e5 or 10^5).
    #[arg(long, value_parser = parse_soups)]
    pub soups: u64,
    /// Write the haul (apgsearch's log format) here; without it the log goes to stdout.
    #[arg(long)]
    pub haul: Option<PathBuf>,
    /// apgsearch build to match: tall (28×44 tiles, its AVX-512 build: the default) or
    /// square (28×28, its other builds); they differ in a few objects per 10^5 soups.
    #[arg(long, default_value = "tall")]
    pub tiles: String,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// A soup count: digits, `1e5` or `10^5`.
pub fn parse_soups(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let n = if let Some((m, e)) = t.split_once(['e', 'E']) {
        let (m, e): (u64, u32) = (
            m.parse().map_err(|_| bad(text))?,
            e.parse().map_err(|_| bad(text))?,
        );
        10u64.checked_pow(e).and_then(|p| p.checked_mul(m))
    } else if let Some(e) = t.strip_prefix("10^") {
        10u64.checked_pow(e.parse().map_err(|_| bad(text))?)
    } else {
        t.parse().ok()
    }
    .ok_or_else(|| bad(text))?;
    if n == 0 {
        return Err("--soups must be at least 1".into());
    }
    Ok(n)
}

fn bad(text: &str) -> String {
    format!("'{text}' is not a soup count (100000, 1e5 or 10^5)")
}

/// A file next to the haul, written and renamed onto it when the search is done, so a
/// failed or interrupted search leaves nothing behind. Made and removed now to prove the
/// place can be written before any soup is run.
fn scratch_beside(haul: &Path) -> Result<PathBuf, CliError> {
    if haul.is_dir() {
        return Err(CliError(format!("--haul {}: is a folder", haul.display())));
    }
    let name = haul
        .file_name()
        .ok_or_else(|| CliError(format!("--haul {}: not a file name", haul.display())))?;
    let scratch = haul.with_file_name(format!(".{}.partial", name.to_string_lossy()));
    std::fs::File::create(&scratch).map_err(|e| {
        CliError(format!(
            "--haul {}: cannot write there: {e}",
            haul.display()
        ))
    })?;
    std::fs::remove_file(&scratch)?;
    Ok(scratch)
}

/// Execute `golab search`.
pub fn run(args: &SearchArgs) -> Result<(), CliError> {
    let rule = SearchRule::parse(&args.rule).map_err(CliError)?;
    let symmetry: Symmetry = args.symmetry.parse().map_err(CliError)?;
    if args.seed.is_empty() || args.seed.chars().any(char::is_whitespace) {
        return Err(CliError("--seed: a root is one word without spaces".into()));
    }
    let tiles = match args.tiles.as_str() {
        "tall" => Tiles::Tall,
        "square" => Tiles::Square,
        other => return Err(CliError(format!("--tiles '{other}': tall or square"))),
    };
    let scratch = args.haul.as_deref().map(scratch_beside).transpose()?;
    let config = SearchConfig {
        rule,
        symmetry,
        root: args.seed.clone(),
        soups: args.soups,
        tiles,
    };
    let threads = args
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError(e.to_string()))?;
    let start = Instant::now();
    let mut last_report = Instant::now();
    let haul = pool.install(|| {
        search(&config, &CpuRunner, &mut |done| {
            if last_report.elapsed().as_secs_f64() >= 10.0 || done == config.soups {
                let secs = start.elapsed().as_secs_f64();
                eprintln!(
                    "{}/{}: {done} soups completed ({:.0} soups/second on {threads} threads)",
                    config.rule.name(),
                    config.symmetry,
                    done as f64 / secs
                );
                last_report = Instant::now();
            }
        })
    });
    let log = haul.to_log();
    match (&args.haul, scratch) {
        (Some(path), Some(scratch)) => {
            let written =
                std::fs::write(&scratch, &log).and_then(|()| std::fs::rename(&scratch, path));
            if let Err(e) = written {
                let _ = std::fs::remove_file(&scratch);
                return Err(CliError(format!("--haul {}: {e}", path.display())));
            }
            eprintln!(
                "{} objects in {} soups; haul written to {}",
                haul.census.objects(),
                config.soups,
                path.display()
            );
        }
        _ => {
            std::io::stdout().write_all(log.as_bytes())?;
        }
    }
    Ok(())
}
