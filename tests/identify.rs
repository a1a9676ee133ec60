//! Identify against published figures (LifeWiki's infoboxes, Catagolue's apgcodes): still
//! lifes, oscillators of periods 2, 3 and 15, the four standard spaceships and a c/10 one,
//! a c/3 ship from Golly's collection, a gun; and `golab identify` on the command line.

use golab::pattern::identify::{Kind, identify};
use golab::pattern::{Pattern, library, resolve};

fn bundled(name: &str) -> Pattern {
    library::find(name).unwrap_or_else(|| panic!("{name} is bundled"))
}

#[test]
fn still_lifes_and_oscillators_have_their_published_periods_and_figures() {
    let block = identify(&bundled("block")).unwrap();
    assert_eq!((block.kind, block.period), (Kind::StillLife, 1));
    assert_eq!((block.population, block.bounding_box), ((4, 4), (2, 2)));
    assert_eq!(block.apgcode.as_deref(), Some("xs4_33"));
    assert_eq!(
        identify(&bundled("beehive")).unwrap().apgcode.as_deref(),
        Some("xs6_696")
    );

    // Blinker (LifeWiki): period 2, 3 cells, heat 4, volatility 0.80, strict volatility 0.80.
    let blinker = identify(&bundled("blinker")).unwrap();
    assert_eq!((blinker.kind, blinker.period), (Kind::Oscillator, 2));
    assert_eq!(blinker.population, (3, 3));
    assert_eq!(blinker.bounding_box, (3, 3), "the box of both phases");
    assert_eq!(blinker.heat, Some(4.0));
    assert_eq!(blinker.volatility, Some(0.8));
    assert_eq!(blinker.strict_volatility, Some(0.8));
    assert_eq!(blinker.apgcode.as_deref(), Some("xp2_7"));

    let toad = identify(&bundled("toad")).unwrap();
    assert_eq!((toad.period, toad.population), (2, (6, 6)));
    assert_eq!(toad.apgcode.as_deref(), Some("xp2_7e"));

    // Pulsar: period 3, 48, 56 and 72 cells, 13 × 13, heat 42.7 (128 changes in 3
    // generations).
    let pulsar = identify(&bundled("pulsar")).unwrap();
    assert_eq!((pulsar.period, pulsar.population), (3, (48, 72)));
    assert_eq!(pulsar.average_population, (48.0 + 56.0 + 72.0) / 3.0);
    assert_eq!(pulsar.phase_box, (13, 13));
    assert_eq!(pulsar.heat, Some(128.0 / 3.0));
    assert_eq!(
        pulsar.apgcode.as_deref(),
        Some("xp3_co9nas0san9oczgoldlo0oldlogz1047210127401")
    );

    // Pentadecathlon: period 15, 12 cells and 10 × 3 in its smallest phase, heat 22.4.
    let penta = identify(&bundled("pentadecathlon")).unwrap();
    assert_eq!(
        (penta.kind, penta.period, penta.population.0),
        (Kind::Oscillator, 15, 12)
    );
    let (w, h) = penta.phase_box;
    assert!((w, h) == (10, 3) || (w, h) == (3, 10), "{w} x {h}");
    assert!((penta.heat.unwrap() - 22.4).abs() < 1e-9);
    assert_eq!(penta.apgcode.as_deref(), Some("xp15_4r4z4r4"));
    let strict = penta.strict_volatility.unwrap();
    let volatility = penta.volatility.unwrap();
    assert!(strict > 0.0 && strict <= volatility && volatility <= 1.0);
}

#[test]
fn spaceships_have_their_published_speeds_periods_and_sizes() {
    // (name, speed, direction, period, smallest population, its box, heat, apgcode)
    let cases = [
        ("glider", "c/4", "diagonal", 4, 5, (3, 3), 4.0, "xq4_153"),
        ("lwss", "c/2", "orthogonal", 4, 9, (5, 4), 11.0, "xq4_6frc"),
        (
            "mwss",
            "c/2",
            "orthogonal",
            4,
            11,
            (6, 5),
            15.0,
            "xq4_27dee6",
        ),
        (
            "hwss",
            "c/2",
            "orthogonal",
            4,
            13,
            (7, 5),
            19.0,
            "xq4_27deee6",
        ),
        (
            "copperhead",
            "c/10",
            "orthogonal",
            10,
            28,
            (8, 12),
            26.8,
            "xq10_o5995ozes88sezw33",
        ),
    ];
    for (name, speed, direction, period, smallest, size, heat, code) in cases {
        let ship = identify(&bundled(name)).unwrap();
        assert_eq!(ship.kind, Kind::Spaceship, "{name}");
        assert_eq!(ship.speed.as_deref(), Some(speed), "{name}");
        assert!(
            ship.direction
                .as_deref()
                .is_some_and(|d| d.starts_with(direction)),
            "{name}: {:?}",
            ship.direction
        );
        assert_eq!(
            (ship.period, ship.population.0),
            (period, smallest),
            "{name}"
        );
        let (w, h) = ship.phase_box;
        assert!(
            (w, h) == size || (h, w) == size,
            "{name}: {w} x {h}, published {size:?}"
        );
        assert_eq!(ship.apgcode.as_deref(), Some(code), "{name}");
        assert!(
            ship.heat.is_some_and(|h| (h - heat).abs() < 1e-9),
            "{name}: {:?}",
            ship.heat
        );
    }
}

#[test]
fn a_gun_is_named_with_its_period_and_what_it_emits() {
    let gun = identify(&bundled("gosper-glider-gun")).unwrap();
    assert_eq!((gun.kind, gun.period), (Kind::Gun, 30));
    assert_eq!(gun.emits.as_deref(), Some("xq4_153"), "{gun:?}");
    assert!(
        gun.description.contains("p30 gun emitting xq4_153"),
        "{}",
        gun.description
    );
}

#[test]
fn the_ships_of_gollys_c3_collection_move_at_c_3() {
    // Golly's Life/Spaceships/c3-orthogonal.rle holds every known c/3 ship up to 50 cells
    // (and its labels, written in cells): every object Identify calls a spaceship there
    // moves at c/3, orthogonally.
    let path = "/usr/share/golly/Patterns/Life/Spaceships/c3-orthogonal.rle";
    let all = resolve(path).unwrap_or_else(|e| {
        panic!(
            "{path}: {e} (Golly's patterns come with the test command: scripts/setup-system --test)"
        )
    });
    let mut left: std::collections::HashSet<(u32, u32)> = all.cells.iter().copied().collect();
    let mut ships = 0;
    while let Some(&first) = left.iter().min() {
        // One object: cells within 3 of each other.
        let mut object = vec![first];
        left.remove(&first);
        let mut i = 0;
        while i < object.len() {
            let (x, y) = object[i];
            let near: Vec<_> = left
                .iter()
                .filter(|c| c.0.abs_diff(x) <= 3 && c.1.abs_diff(y) <= 3)
                .copied()
                .collect();
            for c in near {
                left.remove(&c);
                object.push(c);
            }
            i += 1;
        }
        let pattern = Pattern::fitted(object.iter().copied());
        if let Ok(id) = identify(&pattern)
            && id.kind == Kind::Spaceship
        {
            assert_eq!(id.speed.as_deref(), Some("c/3"), "{id:?}");
            assert!(
                id.direction
                    .as_deref()
                    .is_some_and(|d| d.starts_with("orthogonal"))
            );
            assert_eq!(id.period, 3);
            ships += 1;
        }
    }
    assert!(ships >= 10, "only {ships} c/3 ships identified");
}

#[test]
fn what_cannot_be_identified_is_refused_with_the_reason() {
    let empty = Pattern::default();
    assert!(identify(&empty).unwrap_err().to_string().contains("empty"));
    let mut generations = bundled("glider");
    generations.rule = Some("/2/3".parse().unwrap());
    assert!(
        identify(&generations)
            .unwrap_err()
            .to_string()
            .contains("two-state")
    );
    // A methuselah that settles: the R-pentomino becomes a p2 mix after 1103 generations.
    let r = identify(&bundled("r-pentomino"));
    assert!(r.is_ok() || r.unwrap_err().to_string().contains("not identified"));
}

#[test]
fn golab_identify_prints_text_and_json() {
    let golab = env!("CARGO_BIN_EXE_golab");
    let out = std::process::Command::new(golab)
        .args(["identify", "lwss"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("c/2 orthogonal spaceship") && text.contains("xq4_6frc"),
        "{text}"
    );
    let out = std::process::Command::new(golab)
        .args(["identify", "xp2_7", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "oscillator");
    assert_eq!(v["period"], 2);
    let out = std::process::Command::new(golab)
        .args(["identify", "no-such-thing"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
