//! Every writer/reader pair round-trips (proptest): RLE with `#CXRLE`, bounded grids and
//! Generations' dying states,
//! Life 1.06, macrocell, apgcodes and gzip; saving picks the format from the extension;
//! gzip bombs and truncated or damaged gzip are refused, at a byte offset.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;
use golab::pattern::library::find;
use golab::pattern::{
    Format, Grid, MAX_FILE_BYTES, Pattern, PatternError, apgcode, decode_bytes, load_file, parse,
    save_file,
};
use golab::rule::Rule;
use golab::world::{CellEdit, Topology, World};
use proptest::prelude::*;

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A scratch directory of its own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("golab-formats-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Metadata text: trimmed, non-empty, no line breaks (what every writer keeps exactly).
fn text() -> impl Strategy<Value = String> {
    "[a-z0-9]([a-z0-9 ,.]{0,10}[a-z0-9])?"
}

/// Random patterns with every field a writer may carry.
fn patterns() -> impl Strategy<Value = Pattern> {
    (1u32..40, 1u32..30)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                proptest::collection::btree_set((0..w, 0..h), 0..60),
                proptest::option::of(text()),
                proptest::option::of(text()),
                proptest::collection::vec(text(), 0..3),
                proptest::option::of((-5000i64..5000, -5000i64..5000)),
                proptest::option::of(0u64..1_000_000),
                proptest::option::of((40u32..300, 30u32..300, any::<bool>())),
                prop_oneof![
                    Just("B3/S23"),
                    Just("B36/S23"),
                    Just("B2/S"),
                    Just("B2-a/S12"),
                    Just("B3/S2-i34q"),
                    Just("B2/S34H"),
                    Just("B2/S013V"),
                ],
            )
        })
        .prop_map(
            |((w, h), cells, name, author, comments, position, generation, grid, rule)| {
                let mut cells: Vec<(u32, u32)> = cells.into_iter().collect();
                cells.sort_unstable_by_key(|&(x, y)| (y, x));
                Pattern {
                    name,
                    author,
                    comments,
                    rule: Some(rule.parse::<Rule>().unwrap()),
                    width: w,
                    height: h,
                    cells,
                    dying: Vec::new(),
                    position,
                    generation,
                    grid: grid.map(|(width, height, torus)| Grid {
                        width,
                        height,
                        topology: if torus {
                            Topology::Torus
                        } else {
                            Topology::DeadBorder
                        },
                    }),
                    warnings: Vec::new(),
                }
            },
        )
}

/// Live cells at Golly coordinates.
fn absolute(p: &Pattern, origin: (i64, i64)) -> Vec<(i64, i64)> {
    p.cells
        .iter()
        .map(|&(x, y)| (origin.0 + i64::from(x), origin.1 + i64::from(y)))
        .collect()
}

/// `q`, read from `p` written in a boxless format, holds the same cells at the same place
/// and the same metadata.
fn same_cells_and_metadata(p: &Pattern, q: &Pattern) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        absolute(q, q.position.unwrap_or_default()),
        absolute(p, p.origin())
    );
    prop_assert_eq!(&q.name, &p.name);
    prop_assert_eq!(&q.author, &p.author);
    prop_assert_eq!(&q.comments, &p.comments);
    prop_assert_eq!(q.rule, p.rule);
    prop_assert_eq!(q.grid, p.grid);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn rle_keeps_everything(p in patterns()) {
        let back = parse(&p.to_rle(), None).unwrap();
        prop_assert_eq!(back, p);
    }

    #[test]
    fn rle_keeps_generations_dying_states(
        cells in proptest::collection::btree_map((0u32..40, 0u32..30), 1u8..=39, 1..200),
        which in 0usize..3,
    ) {
        // Live cells (state 1) and dying states up to 39 (two-letter RLE states from 25).
        let (rule, states) = [("/2/3", 3u8), ("345/2/4", 4), ("2/3/40", 40)][which];
        let mut p = Pattern {
            rule: Some(rule.parse::<Rule>().unwrap()),
            width: 40,
            height: 30,
            ..Pattern::default()
        };
        for ((x, y), state) in cells {
            match state % states {
                0 => {}
                1 => p.cells.push((x, y)),
                s => p.dying.push((x, y, s)),
            }
        }
        p.cells.sort_unstable_by_key(|&(x, y)| (y, x));
        p.dying.sort_unstable_by_key(|&(x, y, _)| (y, x));
        let back = parse(&p.to_rle(), None).unwrap();
        prop_assert_eq!((back.cells, back.dying), (p.cells, p.dying));
    }

    #[test]
    fn life106_keeps_cells_places_and_metadata(p in patterns()) {
        let text = p.to_life106();
        let q = parse(&text, None).unwrap();
        same_cells_and_metadata(&p, &q)?;
    }

    #[test]
    fn macrocell_keeps_cells_places_metadata_and_generation(p in patterns()) {
        let text = p.to_macrocell();
        let q = parse(&text, None).unwrap();
        same_cells_and_metadata(&p, &q)?;
        prop_assert_eq!(q.generation, p.generation);
    }

    #[test]
    fn gzip_of_any_writer_reads_back(p in patterns(), which in 0usize..4) {
        let format = [Format::Rle, Format::Plaintext, Format::Life106, Format::Macrocell][which];
        let text = p.to_format(format).unwrap();
        prop_assert_eq!(decode_bytes(gzip(text.as_bytes())).unwrap(), text);
    }

    #[test]
    fn apgcodes_are_canonical_and_decode_to_an_orientation(
        cells in proptest::collection::btree_set((0u32..12, 0u32..12), 1..30)
    ) {
        let cells: Vec<(u32, u32)> = cells.into_iter().collect();
        let p = Pattern { width: 12, height: 12, cells, ..Pattern::default() };
        let code = apgcode::encode("xp1", &p);
        let q = apgcode::parse_code(&code).unwrap();
        prop_assert_eq!(q.population(), p.population());
        // Encoding the decoded object again gives the same code, from any orientation.
        prop_assert_eq!(apgcode::encode("xp1", &q), code.clone());
        prop_assert_eq!(apgcode::encode("xp1", &p.rotated_cw().flipped_x()), code.clone());
        // And the decoded cells are one of the 8 orientations of the original's box.
        let tight = parse(&p.to_life106(), None).unwrap();
        let mut shapes = Vec::new();
        let mut r = tight.clone();
        for _ in 0..4 {
            shapes.push(r.cells.clone());
            shapes.push(r.flipped_x().cells);
            r = r.rotated_cw();
        }
        prop_assert!(shapes.contains(&q.cells), "{} decodes to another shape", code);
    }
}

#[test]
fn a_saved_world_reopens_with_its_grid_position_and_generation() {
    let dir = TempDir::new("world");
    let mut world = World::new(64, 48, Topology::Torus, Rule::CONWAY).unwrap();
    for (x, y) in [(11, 5), (12, 6), (10, 7), (11, 7), (12, 7)] {
        world.apply_edit(CellEdit { x, y, alive: true });
    }
    world.generation = 120;
    let mut pattern = Pattern::of_world(&world);
    pattern.name = Some("a glider".into());
    for name in [
        "w.rle", "w.mc", "w.lif", "w.rle.gz", "w.mc.gz", "w.cells", "w.apg",
    ] {
        let path = dir.0.join(name);
        let format = save_file(&pattern, &path).unwrap();
        assert_eq!(Some(format), Format::from_path(&path), "{name}");
        let back = load_file(&path).unwrap();
        if format == Format::Apgcode {
            assert_eq!(back.name.as_deref(), Some("xq4_153"));
            assert_eq!(back.population(), 5);
            continue;
        }
        assert_eq!(back.cells, find("glider").unwrap().cells, "{name}");
        if format != Format::Plaintext {
            assert_eq!(back.position, Some((10 - 32, 5 - 24)), "{name}");
            assert_eq!(back.grid.map(|g| (g.width, g.height)), Some((64, 48)));
            assert_eq!(back.name.as_deref(), Some("a glider"), "{name}");
        }
        if matches!(format, Format::Rle | Format::Macrocell) {
            assert_eq!(back.generation, Some(120), "{name}");
        }
    }
    let text = std::fs::read_to_string(dir.0.join("w.rle")).unwrap();
    assert!(text.starts_with("#CXRLE Pos=-22,-19 Gen=120\n"), "{text}");
    assert!(text.contains("rule = B3/S23:T64,48"), "{text}");
    // A world with two objects has no apgcode, and nothing is written.
    let mut two = world.clone();
    two.apply_edit(CellEdit {
        x: 40,
        y: 40,
        alive: true,
    });
    let path = dir.0.join("two.apg");
    let err = save_file(&Pattern::of_world(&two), &path).unwrap_err();
    assert!(matches!(err, PatternError::Unsupported(_)), "{err}");
    assert!(!path.exists());
}

#[test]
fn a_gzip_bomb_is_refused_after_the_limit_not_swallowed() {
    // MAX_FILE_BYTES + 1 MiB of zeros compresses to a few hundred KiB.
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..=(MAX_FILE_BYTES >> 20) {
        encoder.write_all(&chunk).unwrap();
    }
    let bomb = encoder.finish().unwrap();
    assert!(bomb.len() < 2 << 20, "{} bytes", bomb.len());
    let dir = TempDir::new("bomb");
    let path = dir.0.join("bomb.rle.gz");
    std::fs::write(&path, &bomb).unwrap();
    let start = Instant::now();
    match load_file(&path) {
        Err(e @ PatternError::TooLarge { .. }) => {
            let m = e.to_string();
            assert!(m.contains("decompresses to more than"), "{m}");
        }
        other => panic!("{:?}", other.map(|p| p.population())),
    }
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn truncated_and_damaged_gzip_are_refused_at_a_byte_offset() {
    let text = find("gosper-glider-gun").unwrap().to_rle();
    let whole = gzip(text.as_bytes());
    for cut in [whole.len() / 2, whole.len() - 4, 12] {
        match decode_bytes(whole[..cut].to_vec()) {
            Err(e @ PatternError::Corrupt { offset, .. }) => {
                assert!(offset <= cut as u64, "{e}");
                assert!(e.to_string().starts_with(&format!("byte {offset}:")), "{e}");
            }
            other => panic!("cut at {cut}: {other:?}"),
        }
    }
    let mut damaged = whole.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x5a;
    damaged[middle + 1] ^= 0xa5;
    assert!(matches!(
        decode_bytes(damaged),
        Err(PatternError::Corrupt { .. })
    ));
    // The name does not matter: gzip is told by its magic bytes.
    let dir = TempDir::new("gz");
    let path = dir.0.join("gun.txt");
    std::fs::write(&path, &whole).unwrap();
    assert_eq!(
        load_file(&path).unwrap(),
        find("gosper-glider-gun").unwrap()
    );
}
