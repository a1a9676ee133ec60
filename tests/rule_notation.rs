//! The rule parser ([`Rule`]) against Golly's canonical forms, its refusals, round trips
//! and the table invariants (isotropy, ignored cells of the hexagonal and von Neumann
//! neighbourhoods).
//!
//! Sources of the expected canonical forms (Golly, `gollybase/` and `Help/Algorithms/`):
//! [QL] QuickLife.html — its examples and the "Non-totalistic rules" canonicalisation list;
//! [GEN] Generations.html — its example rules, printed as Golly lists them (S/B/C);
//! [LR] liferules.cpp `createCanonicalName`/`addLetters` — B/S order, ascending counts,
//! letters sorted, the shorter of letters or `-`complement (positive on a tie, 7 of 13
//! letters stays positive), H/V suffix, MAP kept as MAP with `==` dropped;
//! [GA] generationsalgo.cpp `createCanonicalName` — survival first, then birth, then states;
//! [LW] LifeWiki rule pages (Just Friends, tlife) for the rules themselves.

use golab::rule::spec::{cell, symmetry};
use golab::rule::{Family, Neighbourhood, Rule, RuleError, Symmetry, Totalistic};
use proptest::prelude::*;

fn canon(text: &str) -> String {
    match Rule::parse(text) {
        Ok(rule) => rule.canonical(),
        Err(e) => panic!("{text}: {e}"),
    }
}

#[test]
fn outer_totalistic_rules_print_like_golly() {
    for (input, want) in [
        ("B3/S23", "B3/S23"),             // [QL] Life
        ("b3/s23", "B3/S23"),             // [LR] case-insensitive
        ("23/3", "B3/S23"),               // [LR] no letters: S/B
        ("S23/B3", "B3/S23"),             // [LR] S first, either side of the slash
        ("B3S23", "B3/S23"),              // [LR] no slash
        ("S23B3", "B3/S23"),              // [LR]
        ("B36/S23", "B36/S23"),           // [QL] HighLife
        ("B63/S32", "B36/S23"),           // [LR] counts ascending
        ("B33/S223", "B3/S23"),           // [LR] repeats collapse
        ("B3678/S34678", "B3678/S34678"), // [QL] Day & Night
        ("B35678/S5678", "B35678/S5678"), // [QL] Diamoeba
        ("B2/S", "B2/S"),                 // [QL] Seeds
        ("B234/S", "B234/S"),             // [QL] Serviettes
        ("B345/S5", "B345/S5"),           // [QL] LongLife
        ("B0/S8", "B0/S8"),               // [LR] B0 kept as written
        ("B/S", "B/S"),                   // [LR] nothing at all
        ("B3", "B3/S"),                   // [LR] just B
        ("S23", "B/S23"),                 // [LR] just S
        (" B3 / S23 ", "B3/S23"),         // [LR] spaces ignored
        ("B13/S012V", "B13/S012V"),       // [QL] von Neumann example
        ("B2/S013V", "B2/S013V"),         // [QL] von Neumann example
        ("b2/s013v", "B2/S013V"),         // [LR]
        ("23/3V", "B3/S23V"),             // [LR]
        ("B245/S3H", "B245/S3H"),         // [QL] hexagonal example
        ("B2/S34H", "B2/S34H"),           // issue #14 example
        ("3/245H", "B245/S3H"),           // [LR]
        ("Life", "B3/S23"),               // golab name
        ("HighLife", "B36/S23"),          // golab name
        ("Day & Night", "B3678/S34678"),  // golab name
    ] {
        assert_eq!(canon(input), want, "{input}");
    }
}

#[test]
fn hensel_rules_print_like_golly() {
    for (input, want) in [
        ("B2nic/S", "B2cin/S"),         // [QL] letters sorted
        ("B2ceikn/S", "B2-a/S"),        // [QL] shorter with minus
        ("B4-qjrtwz/S", "B4aceikny/S"), // [QL] tie: no minus
        ("B2aceikn3/S", "B23/S"),       // [QL] all letters: bare count
        ("B2-3/S", "B23/S"),            // [QL] minus without letters
        ("B2-aceikn3/S", "B3/S"),       // [QL] minus all letters: count gone
        ("B2cekin/S12", "B2-a/S12"),    // [QL] Just Friends, both spellings
        ("B2-a/S12", "B2-a/S12"),       // [LW] Just Friends
        ("B3/S2a34", "B3/S2a34"),       // [QL] example
        ("B3/S2-i34q", "B3/S2-i34q"),   // [LW] tlife
        ("B2n3/S23-q", "B2n3/S23-q"),   // issue #14 example
        ("B2a_S12", "B2a/S12"),         // [QL] underscore for the slash
        ("b2A/s12", "B2a/S12"),         // [LR] letters lower-cased
        ("12/2-a", "B2-a/S12"),         // [LR] S/B with letters
        ("S12/B2-a", "B2-a/S12"),       // [LR]
        ("B2-aS12", "B2-a/S12"),        // [LR] no slash
        ("B4aceiknyq/S", "B4-jrtwz/S"), // [LR] 8 of 13: minus
        ("B4aceikn/S", "B4aceikn/S"),   // [LR] 6 of 13: letters
        ("B3-aceijk/S", "B3nqry/S"),    // [LR] 6 of 10 on: 4 letters shorter
        ("B3aceik/S", "B3aceik/S"),     // [LR] 5 of 10: letters (5 < 1 + 5)
        ("B3acei/S", "B3acei/S"),       // [LR] 4 of 10
        ("B1c/S", "B1c/S"),             // [LR] 1 of 2
        ("B1ce/S", "B1/S"),             // [LR] all of count 1
        ("B7e/S7c", "B7e/S7c"),         // [LR] counts 5-7 have letters too
        ("B6-k/S5-ai", "B6-k/S5-ai"),   // [LR]
        ("B2-ae/S", "B2-ae/S"),         // [LR] 2 of 6 missing
        ("B2-a2-e/S", "B2-ae/S"),       // [LR] negations accumulate
        ("B2ce2a/S", "B2ace/S"),        // [LR] letters accumulate
        ("B08/S1e7c", "B08/S1e7c"),     // [LR] 0 and 8 bare
    ] {
        assert_eq!(canon(input), want, "{input}");
    }
}

#[test]
fn generations_print_like_golly() {
    for (input, want) in [
        ("2367/3457/5", "2367/3457/5"),     // [GEN] Banners
        ("234/34678/24", "234/34678/24"),   // [GEN] Bloomerang
        ("/2/3", "/2/3"),                   // [GEN] Brian's Brain
        ("124567/378/4", "124567/378/4"),   // [GEN] Caterpillars
        ("23/2/8", "23/2/8"),               // [GEN] Cooties
        ("2/13/21", "2/13/21"),             // [GEN] Fireworks
        ("12/34/3", "12/34/3"),             // [GEN] Frogs
        ("12345/45678/8", "12345/45678/8"), // [GEN] Lava
        ("012345/458/3", "012345/458/3"),   // [GEN] Lines
        ("345/2/4", "345/2/4"),             // [GEN] Star Wars
        ("3456/2/6", "3456/2/6"),           // [GEN] Sticks
        ("345/26/5", "345/26/5"),           // [GEN] Transers
        ("1456/2356/16", "1456/2356/16"),   // [GEN] Xtasy
        ("B2/S/3", "/2/3"),                 // [GA] B/S/N
        ("B2/S/C3", "/2/3"),                // LifeViewer's B/S/C form
        ("b3/s23/c4", "23/3/4"),            // LifeViewer's B/S/C form
        ("S23/B3/2", "23/3/2"),             // [GA] two states stay Generations
        ("B2-a/S12/3", "12/2-a/3"),         // [GA] letters
        ("12/2-a/3", "12/2-a/3"),           // [GA]
        ("34/2/4V", "34/2/4V"),             // [GA] neighbourhood last
        ("B2/S34/C5H", "34/2/5H"),          // [GA]
        ("345/2/256", "345/2/256"),         // [GA] most states
        ("Brian's Brain", "/2/3"),          // golab name
        ("Star Wars", "345/2/4"),           // golab name
    ] {
        assert_eq!(canon(input), want, "{input}");
    }
}

/// Golly's help ("MAP rules") spells Life as this MAP string.
const LIFE_MAP: &str =
    "MAPARYXfhZofugWaH7oaIDogBZofuhogOiAaIDogIAAgAAWaH7oaIDogGiA6ICAAIAAaIDogIAAgACAAIAAAAAAAA";

#[test]
fn map_rules_stay_maps() {
    let life = Rule::parse(LIFE_MAP).unwrap();
    assert_eq!(life.canonical(), LIFE_MAP); // [LR] MAP stays MAP
    assert_eq!(canon(&format!("{LIFE_MAP}==")), LIFE_MAP); // [LR] padding dropped
    assert_eq!(canon(&format!("map{}", &LIFE_MAP[3..])), LIFE_MAP); // [LR] prefix any case
    assert_eq!(life.table(), Rule::parse("B3/S23").unwrap().table());
    assert_eq!(life.as_totalistic(), Some(Totalistic::CONWAY));
    // [LR] the unused low bits of the last character are cleared: 'B' (000001) -> 'A'.
    let mut noisy = LIFE_MAP.to_string();
    noisy.pop();
    noisy.push('B');
    assert_eq!(canon(&noisy), LIFE_MAP);
    // von Neumann (6 characters) and hexagonal (22) MAPs; Generations MAPs end in /C.
    assert_eq!(canon("MAPAAAAAA"), "MAPAAAAAA");
    assert_eq!(canon("MAP//////"), "MAP/////w"); // [LR] unused bits cleared
    assert_eq!(
        canon(&format!("MAP{}", "A".repeat(22))),
        format!("MAP{}", "A".repeat(22))
    );
    assert_eq!(canon(&format!("{LIFE_MAP}/3")), format!("{LIFE_MAP}/3"));
    let gens = Rule::parse(&format!("{LIFE_MAP}/3")).unwrap();
    assert_eq!((gens.family(), gens.states()), (Family::Generations, 3));
    assert_eq!(
        Rule::parse("MAPAAAAAA").unwrap().neighbourhood(),
        Neighbourhood::VonNeumann
    );
}

#[test]
fn notations_agree_on_tables() {
    let same = |a: &str, b: &str| {
        assert_eq!(
            Rule::parse(a).unwrap().table(),
            Rule::parse(b).unwrap().table(),
            "{a} vs {b}"
        )
    };
    same("B2-a/S12", "B2cekin/S12");
    same("B2-a/S12", "B2-a/S12/3");
    same("B3/S23", "23/3/2");
    same("B3/S2-i34q", "B3/S2acekn34q");
    same("B2-3/S", "B23/S");
    // Every totalistic rule agrees with the masks of the steppers' neighbour-count path.
    for (text, birth, survive) in [
        ("B3/S23", 0b1000, 0b1100),
        ("B36/S23", 0b100_1000, 0b1100),
        ("B0/S8", 1, 1 << 8),
        ("B/S", 0, 0),
        ("B12345678/S012345678", 0x1fe, 0x1ff),
    ] {
        let masks = Totalistic { birth, survive };
        let rule = Rule::parse(text).unwrap();
        assert_eq!(rule, Rule::from(masks), "{text}");
        assert_eq!(rule.as_totalistic(), Some(masks), "{text}");
        assert_eq!(masks.to_string(), text);
    }
    assert_eq!(Rule::parse("B2-a/S12").unwrap().as_totalistic(), None);
    assert_eq!(Rule::parse("/2/3").unwrap().as_totalistic(), None);
}

#[test]
fn letters_pick_golly_configurations() {
    use cell::*;
    let b2a = Rule::parse("B2a/S").unwrap();
    assert!(b2a.next_alive(1 << NW | 1 << N)); // corner + adjacent edge
    assert!(b2a.next_alive(1 << SE | 1 << E));
    assert!(!b2a.next_alive(1 << NW | 1 << NE)); // 2c
    assert!(!b2a.next_alive(1 << NW | 1 << N | 1 << C)); // survival is separate
    let s2i = Rule::parse("B/S2i").unwrap();
    assert!(s2i.next_alive(1 << C | 1 << N | 1 << S)); // opposite edges
    assert!(!s2i.next_alive(1 << C | 1 << N | 1 << E));
    let b4z = Rule::parse("B4z/S").unwrap();
    // 4z: Golly's picture is a Z: two cells of the top row and two of the bottom, offset.
    assert!(b4z.next_alive(1 << NW | 1 << N | 1 << S | 1 << SE));
    assert!(!b4z.next_alive(1 << NW | 1 << N | 1 << NE | 1 << S));
}

#[test]
fn refusals_name_the_family_and_why() {
    // Larger than Life runs (tests/ltl.rs); written without its neighbourhood it is refused
    // at the column, as Golly refuses it.
    assert!(Rule::parse("R2,C0,M1,S2..3,B3..3,NM").unwrap().is_ltl());
    assert!(Rule::parse("5,34,45,34,58").unwrap().is_ltl());
    let missing = Rule::parse("R2,C0,M1,S2..3,B3..3").unwrap_err().to_string();
    assert!(
        missing.contains("Larger than Life") && missing.contains("column"),
        "{missing}"
    );
    // Golly's Super algorithm's families run (tests/layered_rules.rs); a base rule it
    // refuses is refused with its reason.
    assert_eq!(Rule::parse("B3/S23History").unwrap().states(), 7);
    let b0 = Rule::parse("B03/S23Super").unwrap_err().to_string();
    assert!(b0.contains("B0") && b0.contains("S8"), "{b0}");
    for (input, family) in [
        ("M0,8,4,3,2,5,9,7,1,6,10,11,12,13,14,15", "Margolus"),
        ("B3/S23:T100,100", "bounded-grid"),
        ("B3/S23:P50,50", "bounded-grid"),
    ] {
        match Rule::parse(input) {
            Err(RuleError::Refused { family: f, .. }) => assert_eq!(f, family, "{input}"),
            other => panic!("{input}: {other:?}"),
        }
        let message = Rule::parse(input).unwrap_err().to_string();
        assert!(
            message.contains(family) && message.contains("not supported"),
            "{message}"
        );
    }
    for (input, needle) in [
        (
            "NoSuchRule-xyz",
            "no NoSuchRule-xyz.rule in golab's bundled rules",
        ),
        ("@RULE Foo", "unknown rule '@RULE Foo'"),
        ("", "empty"),
        ("B9/S23", "0-8"),
        ("B5/S23V", "4 neighbours"),
        ("B7/S23H", "6 neighbours"),
        ("B2a/S3H", "Moore"),
        ("B2z/S23", "not a class of 2"),
        ("B0a/S23", "0 and 8"),
        ("B2a-e/S", "minus"),
        ("B2a2-e/S", "plain and negated"),
        ("B2_S12", "underscore"),
        ("B3/S23/1", "2 to 256"),
        ("B3/S23/257", "2 to 256"),
        ("B3/S23/x", "number of states"),
        ("B3/S23/4/5", "too many slashes"),
        ("B3/B23", "only one B"),
        ("B3H/S23", "at the end"),
        ("MAPAB", "86 (Moore)"),
        ("MAP!AAAAA", "base64"),
        ("a3/S23", "must follow"),
        ("B3/S2!3", "not in B/S"),
    ] {
        let message = match Rule::parse(input) {
            Err(e) => e.to_string(),
            Ok(r) => panic!("{input} parsed as {r}"),
        };
        assert!(message.contains(needle), "{input}: {message}");
    }
}

/// A random isotropic rule in Hensel notation, with a random spelling of each count.
fn hensel_rule() -> impl Strategy<Value = String> {
    let part =
        prop::collection::vec((0u32..=8, any::<u16>(), any::<bool>()), 0..6).prop_map(|counts| {
            let mut out = String::new();
            for (count, letters, negate) in counts {
                out.push(char::from_digit(count, 10).unwrap());
                let valid = golab::rule::hensel::letters_for(count);
                let chosen: String = valid
                    .chars()
                    .enumerate()
                    .filter(|(i, _)| letters >> i & 1 == 1)
                    .map(|(_, c)| c)
                    .collect();
                if !chosen.is_empty() && negate {
                    out.push('-');
                }
                out.push_str(&chosen);
            }
            out
        });
    (part.clone(), part).prop_map(|(b, s)| format!("B{b}/S{s}"))
}

/// Counts with a unique letter spelling per count (no repeats), so Golly's semantics of
/// repeats do not enter.
fn unique_counts(rule: &str) -> bool {
    let digits: Vec<char> = rule.chars().filter(|c| c.is_ascii_digit()).collect();
    let (b, s) = rule.split_once('/').unwrap_or((rule, ""));
    let unique = |p: &str| {
        let d: Vec<char> = p.chars().filter(|c| c.is_ascii_digit()).collect();
        let mut sorted = d.clone();
        sorted.sort_unstable();
        sorted.dedup();
        sorted.len() == d.len()
    };
    !digits.is_empty() && unique(b) && unique(s)
}

#[test]
fn multibyte_text_is_refused_not_a_panic() {
    for text in ["Mé", "MAé", "é", "B3/S2é", "Bé/S", "ß3/S23", "B3/S23Hé"] {
        assert!(Rule::parse(text).is_err(), "{text}");
    }
}

proptest! {
    #[test]
    fn never_panics_on_any_text(text in ".{0,40}") {
        let _ = Rule::parse(&text);
    }

    #[test]
    fn never_panics_on_rule_like_text(text in "[BbSsMmAaPpCcVvHh0-9/_:,@=+eiknjqrytwz -]{0,24}") {
        if let Ok(rule) = Rule::parse(&text) {
            let again = Rule::parse(&rule.canonical());
            prop_assert_eq!(again, Ok(rule), "{} -> {}", text, rule.canonical());
        }
    }

    #[test]
    fn isotropic_rules_round_trip(rule in hensel_rule()) {
        let Ok(spec) = Rule::parse(&rule) else { return Ok(()); };
        let canonical = spec.canonical();
        prop_assert_eq!(Rule::parse(&canonical), Ok(spec), "{} -> {}", rule, canonical);
        prop_assert_eq!(Rule::parse(&canonical).unwrap().canonical(), canonical.clone());
        prop_assert!(canonical.len() <= rule.len() + 1 || !unique_counts(&rule));
        prop_assert_ne!(spec.symmetry(), Symmetry::Anisotropic);
        // The table is invariant under the 8 symmetries of the square.
        for i in 0..512u16 {
            for k in 1..8 {
                prop_assert_eq!(spec.next_alive(symmetry(i, k)), spec.next_alive(i));
            }
        }
    }

    #[test]
    fn generations_round_trip(rule in hensel_rule(), states in 2u16..=256, vn in any::<bool>()) {
        let text = format!("{rule}/{states}");
        if let Ok(spec) = Rule::parse(&text) {
            prop_assert_eq!(spec.family(), Family::Generations);
            prop_assert_eq!(Rule::parse(&spec.canonical()), Ok(spec));
        }
        // Totalistic von Neumann / hexagonal Generations.
        let digits: String = rule.chars().filter(|c| c.is_ascii_digit() && *c <= '4' || *c == '/').collect();
        let suffix = if vn { "V" } else { "H" };
        if let Ok(spec) = Rule::parse(&format!("B{}/{states}{suffix}", digits.replacen('/', "/S", 1))) {
            prop_assert_eq!(Rule::parse(&spec.canonical()), Ok(spec));
        }
    }

    #[test]
    fn map_rules_round_trip(table in prop::array::uniform8(any::<u64>()), which in 0usize..3) {
        let neighbourhood = [Neighbourhood::Moore, Neighbourhood::Hexagonal, Neighbourhood::VonNeumann][which];
        let spec = Rule::from_table(
            Family::TwoState, neighbourhood, golab::rule::Notation::Map, 2, table);
        let text = spec.canonical();
        prop_assert!(text.starts_with("MAP"));
        prop_assert_eq!(Rule::parse(&text), Ok(spec));
        prop_assert_eq!(Rule::parse(&format!("{text}==")), Ok(spec));
    }

    #[test]
    fn small_neighbourhoods_ignore_the_other_cells(b in 0u16..128, s in 0u16..128, hex in any::<bool>()) {
        let (max, suffix, ignored) = if hex {
            (6, "H", vec![cell::NE, cell::SW])
        } else {
            (4, "V", vec![cell::NW, cell::NE, cell::SW, cell::SE])
        };
        let digits = |m: u16| (0..=max).filter(|n| m >> n & 1 == 1).map(|n| char::from_digit(n, 10).unwrap()).collect::<String>();
        let spec = Rule::parse(&format!("B{}/S{}{suffix}", digits(b), digits(s))).unwrap();
        for i in 0..512u16 {
            for &c in &ignored {
                prop_assert_eq!(spec.next_alive(i ^ 1 << c), spec.next_alive(i));
            }
        }
    }
}

/// Wolfram's rules as Golly writes and emulates them: `W` and an even number up to 254.
#[test]
fn wolfram_rules_parse_print_back_and_refuse_odd_numbers() {
    for text in ["W0", "W22", "w90", "W254"] {
        let rule = Rule::parse(text).unwrap();
        assert_eq!(rule.canonical(), text.to_uppercase());
        assert_eq!(Rule::parse(&rule.canonical()).unwrap(), rule);
    }
    for bad in ["W111", "W256", "W1000"] {
        let message = Rule::parse(bad).unwrap_err().to_string();
        assert!(message.contains("even number from 0 to 254"), "{message}");
    }
}
