//! The rule → boolean circuit compiler: for every named rule and for random tables, the
//! circuit evaluated on all 512 neighbourhoods at once (packed into 8 words of bit lanes)
//! equals the table; block evaluation equals word evaluation; the WGSL it emits compiles.
//! Run with `--nocapture` to see the operation counts.

use golab::rule::circuit::{COUNT_INPUT, INPUTS, count_planes};
use golab::rule::spec::symmetry;
use golab::rule::{Circuit, Family, NAMED_SPECS, Neighbourhood, Notation, Rule};
use proptest::prelude::*;

/// The 9 cell planes of all 512 neighbourhoods: lane `l` of word `w` is neighbourhood
/// `64 w + l`, so plane `i` holds bit `i` of each index.
fn all_neighbourhoods() -> [[u64; 9]; 8] {
    std::array::from_fn(|w| {
        std::array::from_fn(|i| {
            (0..64u64).fold(0, |acc, lane| {
                acc | ((64 * w as u64 + lane) >> i & 1) << lane
            })
        })
    })
}

/// Circuit output on all 512 neighbourhoods, as a table.
fn circuit_table(circuit: &Circuit) -> [u64; 8] {
    let words = all_neighbourhoods();
    std::array::from_fn(|w| circuit.eval_cells(&words[w]))
}

fn check(rule: &Rule) -> Circuit {
    let circuit = Circuit::for_rule(rule);
    assert_eq!(&circuit_table(&circuit), rule.table(), "{rule}");
    circuit
}

#[test]
fn count_planes_count_the_block() {
    let words = all_neighbourhoods();
    for (w, cells) in words.iter().enumerate() {
        let t = count_planes(cells);
        for lane in 0..64u32 {
            let index = 64 * w as u32 + lane;
            let count = (0..4).fold(0, |acc, k| acc | ((t[k] >> lane & 1) as u32) << k);
            assert_eq!(count, index.count_ones());
        }
    }
}

#[test]
fn named_rules_compile_exactly() {
    for (name, _) in NAMED_SPECS {
        let rule = Rule::parse(name).unwrap();
        let circuit = check(&rule);
        println!(
            "{name:>16} {:<16} {:>3} ops",
            rule.canonical(),
            circuit.op_count()
        );
    }
}

#[test]
fn op_counts_of_sample_rules() {
    let mut state = 0x853c_49e6_748f_ea9bu64;
    let mut random = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let map_rule = Rule::from_table(
        Family::TwoState,
        Neighbourhood::Moore,
        Notation::Map,
        2,
        std::array::from_fn(|_| random()),
    );
    let iso_rule = Rule::parse(&random_isotropic(random())).unwrap();
    let mut rows = vec![];
    for rule in [
        "B3/S23",
        "B36/S23",
        "B2-a/S12",
        "B3/S2-i34q",
        "B2n3/S23-q",
        "345/2/4",
        "B2/S34H",
        "B2/S013V",
    ]
    .iter()
    .map(|t| Rule::parse(t).unwrap())
    .chain([iso_rule, map_rule])
    {
        let start = std::time::Instant::now();
        let circuit = Circuit::for_rule(&rule);
        let compile_ms = start.elapsed().as_secs_f64() * 1e3;
        assert_eq!(&circuit_table(&circuit), rule.table(), "{rule}");
        let text = rule.canonical();
        let short: String = text.chars().take(24).collect();
        println!(
            "{short:<26} {:>4} ops (counts used: {}, compiled in {compile_ms:.1} ms)",
            circuit.op_count(),
            circuit.uses_counts()
        );
        rows.push((text, circuit.op_count()));
    }
    // Guard rails: the totalistic cases stay near the hand-written kernels.
    assert!(rows[0].1 <= 7, "Conway: {}", rows[0].1);
    assert!(rows[1].1 <= 9, "HighLife: {}", rows[1].1);
}

/// A random isotropic rule string from a seed: each count on, off, or split by letters.
fn random_isotropic(seed: u64) -> String {
    let mut out = String::from("B");
    for (part, shift) in [("", 0), ("/S", 32)] {
        out.push_str(part);
        for count in 0..=8u32 {
            let bits = (seed >> (shift + 3 * count as u64 % 30)) & 7;
            let letters = golab::rule::hensel::letters_for(count);
            if bits == 0 || bits > 5 {
                continue;
            }
            out.push(char::from_digit(count, 10).unwrap());
            for (i, c) in letters.chars().enumerate() {
                if (seed.rotate_left(count * 7 + i as u32 + shift as u32)) & 1 == 1 {
                    out.push(c);
                }
            }
        }
    }
    out
}

#[test]
fn block_evaluation_matches_word_evaluation() {
    let rule = Rule::parse("B3/S2-i34q").unwrap();
    let circuit = Circuit::for_rule(&rule);
    let words = all_neighbourhoods();
    let mut planes: Vec<Vec<u64>> = vec![vec![0; 8]; INPUTS];
    for (w, cells) in words.iter().enumerate() {
        for i in 0..9 {
            planes[i][w] = cells[i];
        }
        for (k, t) in count_planes(cells).into_iter().enumerate() {
            planes[COUNT_INPUT + k][w] = t;
        }
    }
    let inputs: [&[u64]; INPUTS] = std::array::from_fn(|i| planes[i].as_slice());
    let mut out = vec![0; 8];
    let mut scratch = vec![];
    circuit.eval_block(&inputs, &mut out, &mut scratch);
    assert_eq!(out.as_slice(), rule.table());
}

#[test]
fn emitted_wgsl_compiles() {
    use wgpu::naga;
    for text in [
        "B3/S23",
        "B2-a/S12",
        "B3/S2-i34q",
        "/2/3",
        "B2/S34H",
        "B/S",
        "B0/S012345678",
    ] {
        let circuit = Circuit::for_rule(&Rule::parse(text).unwrap());
        let source = circuit.to_wgsl("rule_next");
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{text}: {e}\n{source}"));
        naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::empty(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{text}: {e:?}\n{source}"));
        assert!(
            circuit
                .to_rust("rule_next")
                .contains("fn rule_next(nw: u64")
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_tables_compile_exactly(table in prop::array::uniform8(any::<u64>())) {
        let rule = Rule::from_table(Family::TwoState, Neighbourhood::Moore, Notation::Map, 2, table);
        prop_assert_eq!(&circuit_table(&Circuit::for_rule(&rule)), rule.table());
    }

    #[test]
    fn random_isotropic_rules_compile_exactly(seed in any::<u64>(), states in 2u16..6) {
        let text = format!("{}/{states}", random_isotropic(seed));
        let rule = Rule::parse(&text).unwrap();
        for i in 0..512u16 {
            prop_assert_eq!(rule.next_alive(symmetry(i, 5)), rule.next_alive(i));
        }
        prop_assert_eq!(&circuit_table(&Circuit::for_rule(&rule)), rule.table());
    }

    #[test]
    fn sparse_and_dense_tables_compile_exactly(bits in prop::collection::vec(0u16..512, 0..12), dense in any::<bool>()) {
        let mut table = [0u64; 8];
        for b in bits {
            table[usize::from(b / 64)] |= 1 << (b % 64);
        }
        if dense {
            table = table.map(|w| !w);
        }
        let rule = Rule::from_table(Family::TwoState, Neighbourhood::Moore, Notation::Map, 2, table);
        prop_assert_eq!(&circuit_table(&Circuit::for_rule(&rule)), rule.table());
    }
}

/// One generation of a `words`-wide torus (width `64 · words`), single-threaded, by `next`:
/// a function from a row's 9 neighbour planes and its count planes to the row's next words.
#[allow(clippy::needless_range_loop)] // k indexes 13 planes at once
fn generation(
    cur: &[u64],
    next: &mut [u64],
    words: usize,
    mut row_rule: impl FnMut(&[Vec<u64>; INPUTS], &mut [u64]),
) {
    let height = cur.len() / words;
    let mut planes: [Vec<u64>; INPUTS] = std::array::from_fn(|_| vec![0; words]);
    for y in 0..height {
        let row = |dy: usize| &cur[((y + height + dy - 1) % height) * words..][..words];
        for (r, base) in [(0usize, 8usize), (1, 5), (2, 2)] {
            let line = row(r);
            for k in 0..words {
                let w = line[k];
                let prev = line[(k + words - 1) % words];
                let nxt = line[(k + 1) % words];
                planes[base][k] = (w << 1) | (prev >> 63); // west neighbours
                planes[base - 1][k] = w;
                planes[base - 2][k] = (w >> 1) | (nxt << 63); // east neighbours
            }
        }
        for k in 0..words {
            let cells: [u64; 9] = std::array::from_fn(|i| planes[i][k]);
            let t = count_planes(&cells);
            for (j, plane) in t.into_iter().enumerate() {
                planes[COUNT_INPUT + j][k] = plane;
            }
        }
        row_rule(&planes, &mut next[y * words..(y + 1) * words]);
    }
}

/// Speed of the interpreted circuit against the hard-coded B3/S23 expression of
/// `cpu_bitsliced` (same neighbour planes and adders for all), single-threaded, 2048² torus.
/// The variants run interleaved, best of 7 rounds each, to be fair on a shared machine.
/// `cargo test --release --test rule_circuit -- --ignored --nocapture`
#[test]
#[ignore = "timing, not a test"]
fn circuit_speed() {
    let (words, height, gens) = (32usize, 2048usize, 10);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let soup: Vec<u64> = (0..words * height)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        })
        .collect();
    type Run<'a> = Box<dyn FnMut(&[u64], &mut [u64]) + 'a>;
    let mut variants: Vec<(String, Run)> = vec![];
    variants.push((
        "planes and counts only (rule: copy C)".into(),
        Box::new(move |a, b| generation(a, b, words, |p, out| out.copy_from_slice(&p[4]))),
    ));
    variants.push((
        "B3/S23 hard-coded (cpu_bitsliced expression)".into(),
        Box::new(move |a, b| {
            generation(a, b, words, |p, out| {
                for (k, o) in out.iter_mut().enumerate() {
                    let t = [p[9][k], p[10][k], p[11][k], p[12][k]];
                    *o = !t[3] & ((t[0] & t[1] & !t[2]) | (p[4][k] & !t[0] & !t[1] & t[2]));
                }
            })
        }),
    ));
    for text in ["B3/S23", "B2-a/S12", "B3/S2-i34q", "345/2/4"] {
        let circuit = Circuit::for_rule(&Rule::parse(text).unwrap());
        let ops = circuit.op_count();
        let block = circuit.clone();
        let mut scratch = vec![];
        variants.push((
            format!("{text} circuit, block ({ops} ops)"),
            Box::new(move |a, b| {
                generation(a, b, words, |p, out| {
                    let inputs: [&[u64]; INPUTS] = std::array::from_fn(|i| p[i].as_slice());
                    block.eval_block(&inputs, out, &mut scratch);
                })
            }),
        ));
        variants.push((
            format!("{text} circuit, word by word ({ops} ops)"),
            Box::new(move |a, b| {
                generation(a, b, words, |p, out| {
                    for (k, o) in out.iter_mut().enumerate() {
                        *o = circuit.eval(&std::array::from_fn(|i| p[i][k]));
                    }
                })
            }),
        ));
    }
    let table = *Rule::parse("B3/S2-i34q").unwrap().table();
    variants.push((
        "B3/S2-i34q table lookup per cell".into(),
        Box::new(move |a, b| {
            generation(a, b, words, |p, out| {
                for (k, o) in out.iter_mut().enumerate() {
                    let mut word = 0;
                    for lane in 0..64 {
                        let index = (0..9)
                            .fold(0usize, |acc, i| acc | ((p[i][k] >> lane & 1) as usize) << i);
                        word |= (table[index / 64] >> (index % 64) & 1) << lane;
                    }
                    *o = word;
                }
            })
        }),
    ));
    let mut best = vec![f64::INFINITY; variants.len()];
    let mut results = vec![vec![]; variants.len()];
    for _ in 0..7 {
        for (v, (_, run)) in variants.iter_mut().enumerate() {
            let (mut a, mut b) = (soup.clone(), vec![0; soup.len()]);
            let start = std::time::Instant::now();
            for _ in 0..gens {
                run(&a, &mut b);
                std::mem::swap(&mut a, &mut b);
            }
            best[v] = best[v].min(start.elapsed().as_secs_f64());
            results[v] = a;
        }
    }
    assert_eq!(
        results[1], results[2],
        "the B3/S23 circuit agrees with the hard-coded path"
    );
    let updates = (words * 64 * height * gens) as f64;
    for ((label, _), secs) in variants.iter().zip(&best) {
        println!(
            "{label:<46} {:>6.3} ns/cell  {:>8.2e} cells/s",
            secs * 1e9 / updates,
            updates / secs
        );
    }
}
