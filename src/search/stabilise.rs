//! When a soup has settled, as apgsearch decides it: first by its population (the same
//! over 15–30 checks 8 or 12 generations apart, the gap switching at each change), or at
//! once when no tile changed in the last step; failing that within 1000 checks, by a
//! periodic hash of the plane (every 30 generations, up to 120 000).

use super::tile::RowRule;
use super::tiles::Universe;

/// Run `u` until it settles; the generations of history a separation should then take
/// (the period seen, 2 when nothing changes any more).
pub fn stabilise<const R: usize, L: RowRule>(u: &mut Universe<R, L>) -> u64 {
    let period = by_population(u);
    if period > 0 {
        return period;
    }
    by_hash(u)
}

/// The population check; 0 when it never settles in 1000 checks.
fn by_population<const R: usize, L: RowRule>(u: &mut Universe<R, L>) -> u64 {
    let mut depth = 0;
    let mut previous = 0;
    let mut period = 12;
    let mut security = 15;
    for i in 0..1000 {
        match i {
            40 => security = 20,
            60 => security = 25,
            80 => security = 30,
            400 => period = 18,
            500 => period = 24,
            600 => period = 30,
            _ => {}
        }
        u.advance(false, period);
        if u.is_static() {
            return 2;
        }
        let population = u.total_population();
        if population == previous {
            depth += 1;
        } else {
            depth = 0;
            period ^= 4;
        }
        previous = population;
        if depth == security {
            return period;
        }
    }
    0
}

/// The hash check: a repeat of the plane's hash (among the ascending run of hashes kept)
/// gives the period, confirmed by 20 periods of equal population (else 1280).
fn by_hash<const R: usize, L: RowRule>(u: &mut Universe<R, L>) -> u64 {
    let mut hashes: Vec<u64> = Vec::new();
    let mut gens: Vec<u64> = Vec::new();
    let mut generation = 0u64;
    for _ in 0..4000 {
        u.advance(false, 30);
        generation += 30;
        let h = u.total_hash(120);
        let mut pos = 0;
        while pos < hashes.len() {
            if h > hashes[pos] {
                pos += 1;
            } else if h < hashes[pos] {
                hashes.truncate(pos);
                gens.truncate(pos);
                break;
            } else {
                let mut period = generation - gens[pos];
                let mut previous = u.total_population();
                for _ in 0..20 {
                    u.advance(false, period);
                    let population = u.total_population();
                    if population != previous {
                        period = period.max(1280);
                        break;
                    }
                    previous = population;
                }
                return period;
            }
        }
        hashes.push(h);
        gens.push(generation);
    }
    u.advance(false, 1280);
    1280
}
