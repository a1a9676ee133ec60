//! `golab search`: apgsearch's soup search, soup for soup and object for object.
//!
//! Soups are apgsearch's ([`hashsoup`]), run on a rebuilt copy of the tiled plane apgsearch
//! runs them on ([`tiles`], [`tile`]) until they settle ([`stabilise`]), then separated
//! ([`incubator`]) and named ([`classify`], [`object`], [`separate3d`], [`aperiodic`]) as
//! apgsearch does ([`soup`]), counted into a census with sample soups ([`census`]) and
//! written as apgsearch's local log ([`log`]). [`SoupRunner`] is the seam where soups are
//! run: [`CpuRunner`] runs them on every core.

pub mod aperiodic;
pub mod census;
pub mod classify;
pub mod hashsoup;
pub mod incubator;
pub mod lanes;
pub mod log;
pub mod object;
pub mod plain;
pub mod rim;
pub mod rules;
pub mod separate3d;
pub mod soup;
pub mod stabilise;
pub mod tile;
pub mod tiles;

use std::ops::Range;

use rayon::prelude::*;

pub use census::Census;
pub use hashsoup::Symmetry;
pub use log::Haul;
pub use rules::SearchRule;
pub use soup::SoupCensus;

/// apgsearch's version golab's census follows (apgluxe 5.2 on lifelib 2.5.6).
pub const APGSEARCH_VERSION: &str = "v5.2-ll2.5.6";

/// Tile height of apgsearch's plane: its AVX-512 build's (44 rows of its own) or its other
/// builds' (28). The two give slightly different censuses (a glider's removal, which ends
/// stabilisation sooner, depends on where tile edges lie).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tiles {
    /// 28 × 44 tiles (apgluxe built for AVX-512).
    Tall,
    /// 28 × 28 tiles (apgluxe built without AVX-512).
    Square,
}

/// What to search.
#[derive(Debug, Clone)]
pub struct SearchConfig {
    /// The rule.
    pub rule: SearchRule,
    /// The symmetry.
    pub symmetry: Symmetry,
    /// The root soups are named from (`k_…`).
    pub root: String,
    /// Soups 0 … soups − 1.
    pub soups: u64,
    /// Tile height to match.
    pub tiles: Tiles,
}

/// Runs soups and takes their censuses: the CPU does it on every core; a GPU batch runner
/// can stand in, as long as each soup's census comes out the same.
pub trait SoupRunner: Sync {
    /// The census of each soup of `range` (`root` followed by the index), in order.
    fn run(&self, config: &SearchConfig, range: Range<u64>) -> Vec<SoupCensus>;
}

/// Every soup on the CPU, spread over rayon's threads, each with its own classifier.
#[derive(Debug, Clone, Copy, Default)]
pub struct CpuRunner;

impl SoupRunner for CpuRunner {
    fn run(&self, config: &SearchConfig, range: Range<u64>) -> Vec<SoupCensus> {
        let indices: Vec<u64> = range.collect();
        indices
            .into_par_iter()
            .with_min_len(64)
            .map_init(
                || config.rule.classifier(),
                |classifier, i| {
                    config
                        .rule
                        .census_soup(classifier, config, &format!("{}{i}", config.root))
                },
            )
            .collect()
    }
}

/// Run the search: soups in chunks through `runner`, added to the census in order.
/// `progress` hears the soups done so far.
pub fn search(
    config: &SearchConfig,
    runner: &dyn SoupRunner,
    progress: &mut dyn FnMut(u64),
) -> Haul {
    let mut census = Census::default();
    let chunk = 20_000u64;
    let mut start = 0;
    while start < config.soups {
        let end = (start + chunk).min(config.soups);
        let soups = runner.run(config, start..end);
        for (i, soup) in (start..end).zip(&soups) {
            census.add(&i.to_string(), soup);
        }
        progress(end);
        start = end;
    }
    Haul {
        version: format!("golab-{} ({APGSEARCH_VERSION})", env!("CARGO_PKG_VERSION")),
        root: config.root.clone(),
        rule: config.rule.name().to_string(),
        symmetry: config.symmetry.name().to_string(),
        soups: config.soups,
        census,
    }
}
