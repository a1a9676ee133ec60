//! One soup's census, step by step as apgsearch takes it: the soup is run until it settles
//! ([`super::stabilise`]), then run once more recording history and separated into named
//! objects ([`super::incubator`], [`super::classify`]). When something pathological is
//! left (an object that does not repeat yet), the soup is run further and separated again,
//! up to five times. Under B3/S23 very large, long-lived or slow-to-vanish soups are also
//! entered as `megasized_…`, `methuselah_…` and `messless_…`.

use super::classify::{Classifier, Tally};
use super::hashsoup::{Blocks, Symmetry, hashsoup};
use super::incubator::Incubator;
use super::object::{Table, step};
use super::stabilise::stabilise;
use super::tile::RowRule;
use super::tiles::Universe;

/// How an entry's soup is kept among the samples of its object (see [`super::census`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sampling {
    /// An object of the census: kept while the object has been seen at most 1000 times.
    Census,
    /// A soup-wide record (`megasized_`, `messless_`, `methuselah_`): kept among the first ten.
    Record,
}

/// What one soup adds to the census, in the order apgsearch adds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SoupCensus {
    /// (apgcode, count, sampling).
    pub entries: Vec<(String, i64, Sampling)>,
}

/// What differs between the rules apgsearch searches with its tiled plane.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// B3/S23: common objects taken on sight, megasized/methuselah/messless records, and
    /// chaotic growth treated as pathological on the first tries.
    pub standard_life: bool,
    /// Gliders exist (B3 or B36 with S2 and S3 among others): lone gliders are removed at the
    /// rim and counted.
    pub gliders: bool,
}

/// The census of soup `name` (root and index) under `symmetry`.
pub fn census_soup<const R: usize, L: RowRule + Clone>(
    rule: &L,
    classifier: &mut Classifier,
    options: Options,
    name: &str,
    symmetry: Symmetry,
) -> SoupCensus {
    let mut u = Universe::<R, L>::new(rule.clone());
    if options.gliders {
        u.extremal_mask = 15;
    }
    u.insert(&hashsoup(name, symmetry));
    let mut duration = stabilise(&mut u);
    let mut out = SoupCensus::default();
    let (mut attempt, mut step) = (0u32, 120u64);
    loop {
        let failed = if u.nonempty() {
            let soup = (name, symmetry);
            separate(
                &mut u, rule, duration, attempt, classifier, options, &mut out, soup,
            )
        } else {
            if options.standard_life {
                records(&mut u, rule, name, symmetry, &mut out);
            }
            false
        };
        if !failed {
            return out;
        }
        attempt += 1;
        u.clear_history();
        u.decache();
        u.advance(false, step);
        step *= 4;
        duration = (step * 2).min(7680);
    }
}

/// Separate and name; `true` when something pathological was found and the soup should be
/// run further (only before the sixth attempt).
#[allow(clippy::too_many_arguments)]
fn separate<const R: usize, L: RowRule + Clone>(
    u: &mut Universe<R, L>,
    rule: &L,
    duration: u64,
    attempt: u32,
    classifier: &mut Classifier,
    options: Options,
    out: &mut SoupCensus,
    (name, symmetry): (&str, Symmetry),
) -> bool {
    let mut tally = Tally::new();
    classifier.gmax = 1024 << (2 * attempt);
    u.decache();
    u.advance(true, duration);
    let mut inc = Incubator::from_universe(u);
    classifier.census(&mut tally, &mut inc, options.standard_life, options.gliders);
    let gliders = inc.population() / 5 + u.glider_count;
    if gliders > 0 {
        *tally.entry("xq4_153".into()).or_insert(0) += gliders as i64;
    }
    classifier.gmax = 1_048_576;

    let mut ignore_pathological = false;
    let mut pathological = 0;
    for code in tally.keys() {
        if code.starts_with('z') {
            if options.standard_life && attempt <= 2 {
                pathological += 1;
            }
        } else if code.starts_with('y') {
            ignore_pathological = true;
        } else if code == "PATHOLOGICAL" {
            pathological += 1;
        }
    }
    if pathological > 0 && attempt < 5 {
        return true;
    }
    for (code, n) in tally {
        if ignore_pathological && code == "PATHOLOGICAL" {
            continue;
        }
        out.entries.push((code, n, Sampling::Census));
    }
    if options.standard_life && attempt == 0 && !ignore_pathological {
        records(u, rule, name, symmetry, out);
    }
    false
}

/// The soup-wide records: a final population of 3000 or more, and soups that take 25 000
/// generations or more to settle (or 500 or more to die out), timed from a rerun.
fn records<const R: usize, L: RowRule + Clone>(
    u: &mut Universe<R, L>,
    rule: &L,
    name: &str,
    symmetry: Symmetry,
    out: &mut SoupCensus,
) {
    let population = u.total_population();
    if population >= 3000 {
        out.entries.push((
            format!("megasized_{}h", population / 100),
            1,
            Sampling::Record,
        ));
    }
    let nonempty = u.nonempty();
    let gens = u.gens;
    if gens < if nonempty { 24_000 } else { 500 } {
        return;
    }
    let pops = populations::<R, L>(
        rule,
        &hashsoup(name, symmetry).cells(),
        gens as usize + 8000,
    );
    let g = gens as usize;
    let mut settled = 0;
    for p in 1..4000 {
        if (g..g + 8000).any(|i| pops[i] != pops[i - p]) {
            continue;
        }
        if let Some(i) = (1..=g + 8000 - (p + 1))
            .rev()
            .find(|&i| pops[i] != pops[i + p])
        {
            settled = i + 1;
        }
        break;
    }
    if !nonempty && settled >= 500 {
        out.entries
            .push((format!("messless_{}h", settled / 100), 1, Sampling::Record));
    }
    if settled >= 25_000 {
        out.entries.push((
            format!("methuselah_{}k", settled / 1000),
            1,
            Sampling::Record,
        ));
    }
}

/// The true populations of a pattern at generations 0 … n − 1, on two tiled planes a
/// generation apart (no glider is removed), as apgsearch times a pattern.
pub fn populations<const R: usize, L: RowRule + Clone>(
    rule: &L,
    cells: &[(i64, i64)],
    n: usize,
) -> Vec<i64> {
    let mut even = Universe::<R, L>::new(rule.clone());
    even.insert(&Blocks::from_cells(cells));
    let mut sorted = cells.to_vec();
    sorted.sort_unstable_by_key(|&(x, y)| (y, x));
    let table = Table::new(rule.table());
    let mut odd = Universe::<R, L>::new(rule.clone());
    odd.insert(&Blocks::from_cells(&step(&sorted, &table)));
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let u = if i % 2 == 0 { &mut even } else { &mut odd };
        out.push(u.total_population());
        u.advance(false, 2);
    }
    out
}
