//! The parallel hashed universe against the single-threaded one, node for node: Golly's
//! HashLife collection (Debian's `golly`, installed by `scripts/setup-system --test`) and
//! random soups, on rayon pools of 1, 2 and many threads built here, under memory limits
//! small enough that the store collects while the threads run; the hard limit holds with
//! threads; steps cancelled mid-flight from another thread leave the world whole. CI runs a
//! fixed sample of the collection; the whole of it at 2^20 is `--ignored`.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use common::*;
use golab::hashlife::{HashError, Hashed, Threads, load};
use golab::rule::Rule;
use golab::world::{Topology, World};

/// Golly's HashLife collection as Debian installs it.
const GOLLY_HASHLIFE: &str = "/usr/share/golly/Patterns/HashLife";

/// Thread counts every comparison runs with besides one: two (this box and CI have two
/// cores) and many (more threads than cores: tasks interleave and steal all the time).
const POOLS: [usize; 2] = [2, 5];

/// A rayon pool of `threads` threads, built here (not the universe's shared one).
fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
    Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool"),
    )
}

/// Everything that tells two universes apart: generation, population, and the tree as
/// macrocell text (node for node; the cells themselves for the multi-state engine).
fn fingerprint(u: &mut Hashed) -> (u128, u128, String) {
    let (generation, population) = (u.generation(), u.population());
    let tree = match u.two_state() {
        Some(two) => two.to_macrocell(&[]),
        None => format!("{:?}", u.bounds().map(|b| u.states_in(b))),
    };
    (generation, population, tree)
}

/// Open `file` under `limit_mib`, stepping on `pool` (single-threaded without one).
fn open(file: &str, limit_mib: usize, pool: Option<&Arc<rayon::ThreadPool>>) -> Hashed {
    assert!(
        std::path::Path::new(file).exists(),
        "{file} is missing: run scripts/setup-system --test (installs Debian's golly)"
    );
    let (mut u, _) = load::open(file, None, limit_mib << 20).expect("Golly's file opens");
    match pool {
        Some(p) => u.set_thread_pool(p.clone()),
        None => u.set_threads(Threads::ONE),
    }
    u
}

/// Step `file` by 2^`exponent` under `limit_mib` single-threaded and on each of [`POOLS`]:
/// every tree equal, the hard limit held. Returns the population and the parallel runs'
/// fewest collections.
fn compare_file(name: &str, exponent: u32, limit_mib: usize) -> (u128, u64) {
    let file = format!("{GOLLY_HASHLIFE}/{name}");
    let mut single = open(&file, limit_mib, None);
    single.step_pow2(exponent).expect("the step fits");
    let want = fingerprint(&mut single);
    let mut fewest = u64::MAX;
    for threads in POOLS {
        let mut u = open(&file, limit_mib, Some(&pool(threads)));
        assert_eq!(u.memory().threads, threads);
        u.step_pow2(exponent).expect("the step fits");
        let got = fingerprint(&mut u);
        assert_eq!(
            (got.0, got.1),
            (want.0, want.1),
            "{name} on {threads} threads"
        );
        assert!(
            got.2 == want.2,
            "{name}: the trees differ on {threads} threads"
        );
        let memory = u.memory();
        // The hard limit: the arena and table never pass the limit and one collection's
        // headroom (a quarter) by more than the cells threads may take past it.
        assert!(
            memory.bytes <= (limit_mib << 20) * 3 / 2,
            "{name} on {threads} threads: {} bytes under a {limit_mib} MiB limit",
            memory.bytes
        );
        fewest = fewest.min(memory.collections);
    }
    (want.1, fewest)
}

/// A fixed sample of Golly's HashLife files at powers of two that cost well under a second
/// each, under 16 MiB: most collect while the threads run. Three are checked against
/// bgolly's population too.
#[test]
fn parallel_steps_equal_single_threaded_ones_on_golly_hashlife_files() {
    let mut collected = 0;
    for (name, exponent, bgolly) in [
        ("catacryst.mc", 20, false),
        ("wedge-grow.mc", 20, false),
        ("demonoid-c512-hashlife-friendly.mc.gz", 14, true),
        ("totalperiodic.mc", 16, true),
        ("broken-lines.mc", 16, true),
        ("ruler.mc", 20, false),
    ] {
        let (population, collections) = compare_file(name, exponent, 16);
        if collections > 0 {
            collected += 1;
        }
        if bgolly {
            let file = format!("{GOLLY_HASHLIFE}/{name}");
            assert_eq!(
                population,
                bgolly_algo_population("HashLife", std::path::Path::new(&file), 1 << exponent),
                "{name} at 2^{exponent} against bgolly"
            );
        }
    }
    assert!(
        collected >= 3,
        "only {collected} files collected while threads ran: the limit is too large to test collections"
    );
}

/// Every file of Golly's HashLife collection at 2^20, under 64 MiB (several minutes: the
/// collecting files recompute much of what they drop).
#[test]
#[ignore = "the whole collection: minutes on two cores"]
fn parallel_steps_equal_single_threaded_ones_on_every_golly_hashlife_file() {
    let mut names: Vec<String> = std::fs::read_dir(GOLLY_HASHLIFE)
        .expect("Golly's HashLife folder: run scripts/setup-system --test")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let (population, _) = compare_file(&name, 20, 64);
        let file = format!("{GOLLY_HASHLIFE}/{name}");
        assert_eq!(
            population,
            bgolly_algo_population("HashLife", std::path::Path::new(&file), 1 << 20),
            "{name} at 2^20 against bgolly"
        );
    }
}

/// A `size`² soup of `rule` at 40 %, in a hashed universe under `limit_mib`.
fn soup(rule: &str, size: u32, seed: u64, limit_mib: usize) -> Hashed {
    let rule: Rule = rule.parse().unwrap();
    let mut world = World::new(size, size, Topology::Torus, rule).unwrap();
    world.fill_random(40.0, seed).unwrap();
    let mut u = Hashed::new(rule, limit_mib << 20).unwrap();
    u.load_states(golab::universe::plane_states(&world))
        .unwrap();
    u
}

/// Random soups of two-state rules (totalistic, non-totalistic, B0 emulated) and a
/// Generations rule (the multi-state engine), stepped by several powers of two and odd
/// counts under 4 MiB: the same trees on 1, 2 and 5 threads.
#[test]
fn parallel_soups_equal_single_threaded_ones() {
    let pools: Vec<_> = POOLS.iter().map(|&n| pool(n)).collect();
    let mut collected = 0;
    for (k, (rule, size, counts)) in [
        ("B3/S23", 256, &[1u128 << 11, 777][..]),
        ("B36/S23", 192, &[1 << 10, 1 << 9]),
        ("B2-a/S12", 64, &[1 << 7, 300]),
        ("B1357/S02468", 48, &[1 << 8, 101]),
        ("B0124/S025", 48, &[1 << 7, 77]),
        ("/2/3", 96, &[1 << 9, 513]),
    ]
    .into_iter()
    .enumerate()
    {
        let seed = 7 + k as u64;
        let mut single = soup(rule, size, seed, 4);
        single.set_threads(Threads::ONE);
        let mut many: Vec<Hashed> = pools
            .iter()
            .map(|p| {
                let mut u = soup(rule, size, seed, 4);
                u.set_thread_pool(p.clone());
                u
            })
            .collect();
        for &count in counts {
            single.advance(count, &|| false).unwrap();
            let want = fingerprint(&mut single);
            for u in &mut many {
                u.advance(count, &|| false).unwrap();
                let threads = u.memory().threads;
                let got = fingerprint(u);
                assert_eq!(
                    (got.0, got.1),
                    (want.0, want.1),
                    "{rule} on {threads} threads"
                );
                assert!(
                    got.2 == want.2,
                    "{rule}: the worlds differ on {threads} threads"
                );
            }
        }
        collected += many.iter().filter(|u| u.memory().collections > 0).count();
    }
    assert!(
        collected >= 4,
        "only {collected} soups collected while threads ran"
    );
}

/// A pattern that grows without end (Life without death from an R-pentomino) under a
/// 256 KiB limit on two threads: the step fails with the limit named, the world stays at
/// its generation, and the store stays within the hard limit.
#[test]
fn a_parallel_step_past_the_memory_limit_fails_and_leaves_the_world() {
    let rule: Rule = "B3/S012345678".parse().unwrap();
    let mut u = Hashed::new(rule, 256 << 10).unwrap();
    u.set_thread_pool(pool(2));
    for (x, y) in [(1, 0), (2, 0), (0, 1), (1, 1), (1, 2)] {
        u.set(x, y, true).unwrap();
    }
    let mut failed = None;
    for exponent in 0..40 {
        let before = fingerprint(&mut u);
        match u.step_pow2(exponent) {
            Ok(()) => {}
            Err(e) => {
                assert!(matches!(e, HashError::Memory { .. }), "{e}");
                assert!(fingerprint(&mut u) == before, "the world changed");
                failed = Some(exponent);
                break;
            }
        }
        assert!(u.memory().bytes <= 384 << 10, "{} bytes", u.memory().bytes);
    }
    assert!(
        failed.is_some(),
        "the growing pattern never reached the limit"
    );
    // The universe still steps what fits.
    let generation = u.generation();
    u.step_pow2(0).unwrap();
    assert_eq!(u.generation(), generation + 1);
}

/// Steps on many threads cancelled from another thread at moments spread over a step's
/// length, under a limit that collects: every cancelled step leaves the world as it was (the
/// same tree), every finished one matches the single-threaded universe, and the world
/// reaches the single-threaded result in the end.
#[test]
fn cancelled_parallel_steps_leave_the_world_whole() {
    let file = format!("{GOLLY_HASHLIFE}/wedge-grow.mc");
    let exponent = 18;
    let mut reference = open(&file, 16, None);
    let started = Instant::now();
    reference.step_pow2(exponent).unwrap();
    let step_time = started.elapsed();
    let want = fingerprint(&mut reference);

    let flag = Arc::new(AtomicBool::new(false));
    let (mut cancelled, mut finished) = (0, 0);
    for threads in POOLS {
        let mut u = open(&file, 16, Some(&pool(threads)));
        u.set_interrupt(Some(flag.clone()));
        let start = fingerprint(&mut u);
        for attempt in 0..12u32 {
            // Cancel after 0 % … 110 % of a step's length.
            let delay = step_time.mul_f64(f64::from(attempt) / 10.0);
            flag.store(false, Ordering::SeqCst);
            let outcome = std::thread::scope(|s| {
                let canceller = s.spawn(|| {
                    std::thread::sleep(delay);
                    flag.store(true, Ordering::SeqCst);
                });
                let outcome = u.step_pow2(exponent);
                canceller.join().unwrap();
                outcome
            });
            match outcome {
                Err(HashError::Interrupted { generation }) => {
                    assert_eq!(generation, 0);
                    assert!(
                        fingerprint(&mut u) == start,
                        "a cancelled step changed the world"
                    );
                    cancelled += 1;
                }
                Ok(()) => {
                    assert!(fingerprint(&mut u) == want, "a finished step is wrong");
                    finished += 1;
                    // Back to the start for the next attempt: the file again.
                    u = open(&file, 16, Some(&pool(threads)));
                    u.set_interrupt(Some(flag.clone()));
                }
                Err(e) => panic!("{e}"),
            }
        }
        flag.store(false, Ordering::SeqCst);
        u.step_pow2(exponent).unwrap();
        assert!(
            fingerprint(&mut u) == want,
            "the step after cancellations is wrong"
        );
    }
    assert!(cancelled >= 4, "only {cancelled} steps were cancelled");
    assert!(finished >= 1, "no step finished before its cancel");
}
