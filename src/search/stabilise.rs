//! When a soup has settled, as apgsearch decides it: first by its population (the same
//! over 15–30 checks 8 or 12 generations apart, the gap switching at each change), or at
//! once when no tile changed in the last step; failing that within 1000 checks, by a
//! periodic hash of the plane (every 30 generations, up to 120 000).

use super::tile::RowRule;
use super::tiles::Universe;

/// What the stabilisation looks at, on apgsearch's tiled plane ([`Universe`]) and on the
/// plain 16×16-tile plane of the rules it runs without an incubator (`super::plain`): one
/// algorithm, two planes.
pub trait Settling {
    /// Step `gens` generations; whether nothing changed in the last step.
    fn step(&mut self, gens: u64) -> bool;
    /// Live cells on the whole plane.
    fn population(&mut self) -> i64;
    /// apgsearch's hash of the plane within `radius` tiles of the origin.
    fn hash(&mut self, radius: i64) -> u64;
}

impl<const R: usize, L: RowRule> Settling for Universe<R, L> {
    fn step(&mut self, gens: u64) -> bool {
        self.advance(false, gens);
        self.is_static()
    }

    fn population(&mut self) -> i64 {
        self.total_population()
    }

    fn hash(&mut self, radius: i64) -> u64 {
        self.total_hash(radius)
    }
}

/// Run `u` until it settles; the generations of history a separation should then take
/// (the period seen, 2 when nothing changes any more).
pub fn stabilise(u: &mut impl Settling) -> u64 {
    let period = by_population(u);
    if period > 0 {
        return period;
    }
    by_hash(u)
}

/// The population check; 0 when it never settles in 1000 checks.
fn by_population(u: &mut impl Settling) -> u64 {
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
        if u.step(period) {
            return 2;
        }
        let population = u.population();
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
fn by_hash(u: &mut impl Settling) -> u64 {
    let mut hashes: Vec<u64> = Vec::new();
    let mut gens: Vec<u64> = Vec::new();
    let mut generation = 0u64;
    for _ in 0..4000 {
        u.step(30);
        generation += 30;
        let h = u.hash(120);
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
                let mut previous = u.population();
                for _ in 0..20 {
                    u.step(period);
                    let population = u.population();
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
    u.step(1280);
    1280
}
