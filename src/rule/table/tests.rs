//! Rule tables against a plain interpreter written here, trees against the functions they
//! were written from, and malformed files refused with their line and column.

use proptest::prelude::*;

use super::symmetry::{TableNeighbourhood, permutations};
use super::transitions::{StateSet, holds, read_table};
use super::*;

/// Lines of `text` numbered from 1, as the readers take them.
fn numbered(text: &str) -> Vec<(usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).collect()
}

/// The transition inputs of `neighbourhood` read from a 3×3 block (row-major).
fn inputs_of(neighbourhood: TableNeighbourhood, c: &[u8; 9]) -> Vec<u8> {
    match neighbourhood {
        TableNeighbourhood::VonNeumann => vec![c[4], c[1], c[5], c[7], c[3]],
        TableNeighbourhood::Moore => vec![c[4], c[1], c[2], c[5], c[8], c[7], c[6], c[3], c[0]],
        TableNeighbourhood::Hexagonal => vec![c[4], c[1], c[5], c[8], c[7], c[3], c[0]],
        TableNeighbourhood::OneDimensional => vec![c[4], c[3], c[5]],
    }
}

/// Whether the neighbours `cells[1..]` can be matched one-to-one to `sets[1..]`
/// (Kuhn's augmenting paths): the meaning of `permute`.
fn permuted_match(sets: &[StateSet], cells: &[u8]) -> bool {
    let n = cells.len();
    let mut owner: Vec<Option<usize>> = vec![None; n];
    fn augment(
        i: usize,
        sets: &[StateSet],
        cells: &[u8],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for j in 0..cells.len() {
            if !seen[j] && holds(&sets[i], cells[j]) {
                seen[j] = true;
                if owner[j].is_none_or(|k| augment(k, sets, cells, seen, owner)) {
                    owner[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    (0..n).all(|i| augment(i, sets, cells, &mut vec![false; n], &mut owner))
}

/// The plain interpreter: first transition (under any symmetry) that matches, else no change.
fn interpret(text: &str, c: &[u8; 9]) -> u8 {
    let spec = read_table(&numbered(text)).unwrap();
    let cells = inputs_of(spec.neighbourhood, c);
    for t in &spec.transitions {
        let hit = match permutations(spec.neighbourhood, spec.symmetry) {
            None => holds(&t.inputs[0], cells[0]) && permuted_match(&t.inputs[1..], &cells[1..]),
            Some(group) => group.iter().any(|p| {
                p.iter()
                    .enumerate()
                    .all(|(i, &from)| holds(&t.inputs[from], cells[i]))
            }),
        };
        if hit {
            return t.output;
        }
    }
    cells[0]
}

/// A random table's text: a few variables and transitions over `states` states.
fn random_table(
    seed: u64,
    states: u16,
    neighbourhood: TableNeighbourhood,
    symmetry: &str,
) -> String {
    let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut text = format!(
        "n_states:{states}\nneighborhood:{}\nsymmetries:{symmetry}\n",
        neighbourhood.keyword()
    );
    let vars = ["a", "b", "c"];
    for v in vars {
        let k = 1 + next(u64::from(states)) as usize;
        let values: Vec<String> = (0..k)
            .map(|_| next(u64::from(states)).to_string())
            .collect();
        text += &format!("var {v}={{{}}}\n", values.join(","));
    }
    for _ in 0..(3 + next(12)) {
        let mut tokens: Vec<String> = Vec::new();
        for _ in 0..neighbourhood.inputs() {
            tokens.push(match next(3) {
                0 => vars[next(3) as usize].to_string(),
                _ => next(u64::from(states)).to_string(),
            });
        }
        // The output: a state, or a variable already among the inputs (then bound).
        let inputs_vars: Vec<&String> = tokens
            .iter()
            .filter(|t| vars.contains(&t.as_str()))
            .collect();
        let output = match inputs_vars.first() {
            Some(v) if next(2) == 0 => (*v).clone(),
            _ => next(u64::from(states)).to_string(),
        };
        tokens.push(output);
        text += &(tokens.join(",") + "\n");
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn compiled_tables_agree_with_the_plain_interpreter(
        seed in any::<u64>(),
        states in 2u16..7,
        which in 0usize..4,
        sym in 0usize..7,
    ) {
        let neighbourhood = TableNeighbourhood::ALL[which];
        let symmetries = neighbourhood.symmetries();
        let symmetry = symmetries[sym % symmetries.len()];
        let text = random_table(seed, states, neighbourhood, symmetry);
        let spec = read_table(&numbered(&text)).unwrap();
        // Both compile orders (Golly's, and the cell first), and the one kept.
        let trees = [
            compile::compile_in(&spec, false).unwrap(),
            compile::compile_in(&spec, true).unwrap(),
            compile::compile(&spec).unwrap(),
        ];
        prop_assert!(!trees[2].cell_first(), "small tables keep Golly's order");
        let mut rng = seed ^ 0x5555;
        for _ in 0..300 {
            let mut c = [0u8; 9];
            for cell in &mut c {
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                *cell = ((rng >> 33) % u64::from(states)) as u8;
            }
            let expected = interpret(&text, &c);
            for tree in &trees {
                prop_assert_eq!(tree.next(&c), expected, "{}\n{:?} cell first: {}", text, c, tree.cell_first());
            }
        }
    }

    #[test]
    fn trees_read_back_the_function_they_were_written_from(seed in any::<u64>(), states in 2u16..4, eight in any::<bool>()) {
        let neighbours: u8 = if eight { 8 } else { 4 };
        let f = |inputs: &[u8]| -> u8 {
            let h = inputs.iter().fold(seed, |h, &s| (h ^ u64::from(s)).wrapping_mul(0x100_0000_01b3));
            (h >> 29) as u8 % states as u8
        };
        let (text, _) = write_full_tree(states, neighbours, &f);
        let tree = tree::read_tree(&numbered(&text)).unwrap();
        let order: &[usize] = if eight { &tree::ORDER_8 } else { &tree::ORDER_4 };
        for k in 0..200u64 {
            let mut c = [0u8; 9];
            for (i, cell) in c.iter_mut().enumerate() {
                *cell = ((k.wrapping_mul(2654435761) >> (3 * i)) % u64::from(states)) as u8;
            }
            let inputs: Vec<u8> = order.iter().map(|&i| c[i]).collect();
            prop_assert_eq!(tree.next(&c), f(&inputs));
        }
    }
}

/// An `@TREE` body for `f` over the inputs in Golly's order, every node written out (no
/// sharing), and its node count.
fn write_full_tree(states: u16, neighbours: u8, f: &dyn Fn(&[u8]) -> u8) -> (String, usize) {
    let depth = usize::from(neighbours) + 1;
    let mut lines = Vec::new();
    fn node(
        prefix: &mut Vec<u8>,
        depth: usize,
        states: u16,
        f: &dyn Fn(&[u8]) -> u8,
        lines: &mut Vec<String>,
    ) -> usize {
        let level = depth - prefix.len();
        let mut entries = Vec::new();
        for v in 0..states as u8 {
            prefix.push(v);
            entries.push(if level == 1 {
                usize::from(f(prefix))
            } else {
                node(prefix, depth, states, f, lines)
            });
            prefix.pop();
        }
        lines.push(format!(
            "{level} {}",
            entries
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
        lines.len() - 1
    }
    node(&mut Vec::new(), depth, states, f, &mut lines);
    let count = lines.len();
    let text = format!(
        "num_states={states}\nnum_neighbors={neighbours}\nnum_nodes={count}\n{}\n",
        lines.join("\n")
    );
    (text, count)
}

#[test]
fn wireworld_follows_its_definition() {
    let id = library::load_from("WireWorld", &library::RuleFolders::default()).unwrap();
    let ww = get(id);
    assert_eq!(ww.states(), 4);
    assert_eq!(ww.names[3], "conductor");
    // head → tail → conductor
    assert_eq!(ww.tree.next(&[0, 0, 0, 0, 1, 0, 0, 0, 0]), 2);
    assert_eq!(ww.tree.next(&[1, 1, 1, 0, 2, 0, 0, 0, 0]), 3);
    // conductor: one or two heads fire it, three do not
    assert_eq!(ww.tree.next(&[0, 0, 1, 3, 3, 3, 0, 0, 0]), 1);
    assert_eq!(ww.tree.next(&[1, 0, 0, 3, 3, 3, 0, 0, 1]), 1);
    assert_eq!(ww.tree.next(&[1, 1, 0, 3, 3, 3, 0, 0, 1]), 3);
    assert_eq!(ww.tree.next(&[2, 2, 2, 3, 3, 3, 0, 0, 0]), 3);
    assert!(ww.keeps_empty());
    let rule = crate::rule::Rule::from_rule_table(id);
    assert_eq!(rule.to_string(), "WireWorld");
    assert_eq!(rule.states(), 4);
    assert!(rule.has_dying_states() && rule.is_table());
}

#[test]
fn malformed_tables_are_refused_at_their_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("@RULE X\n@TABLE\nn_states:300\n", 3, 10, "out of range"),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:Square\n",
            4,
            14,
            "unsupported neighborhood",
        ),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:Moore\nsymmetries:rotate6\n",
            5,
            12,
            "unsupported symmetries",
        ),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n0,1,2,0,9,1\n",
            6,
            9,
            "state 9",
        ),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n  0,1,q,0,1,1\n",
            6,
            7,
            "'q'",
        ),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\n0,1,2\n",
            6,
            1,
            "too few",
        ),
        (
            "@RULE X\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:none\nvar a={0,1}\n0,a,0,0,0,a\n0,1,0,0,0,a\n",
            8,
            11,
            "output",
        ),
        ("@RULE X\n@TABLE\n0,1,0,0,0,1\n", 3, 1, "must come before"),
        (
            "@RULE X\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=1\n1 0 2\n",
            6,
            5,
            "state 2",
        ),
        (
            "@RULE X\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=2\n1 0 1\n3 0 0\n",
            7,
            3,
            "level 1",
        ),
        (
            "@RULE X\n@TREE\nnum_states=2\nnum_neighbors=5\n",
            4,
            15,
            "4 or 8",
        ),
        ("no header\n", 1, 1, "@RULE"),
        ("@RULE X\n@COLORS\n1 255 0 0\n", 1, 1, "no @TABLE or @TREE"),
    ];
    for &(text, line, column, needle) in cases {
        let e = RuleTable::parse(text).expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
        assert!(e.message.contains(needle), "{text}: {e}");
    }
}

#[test]
fn comma_free_lines_and_default_no_change() {
    let text = "@RULE T\n@TABLE\nn_states:3\nneighborhood:vonNeumann\nsymmetries:rotate4\n012001\n";
    let t = RuleTable::parse(text).unwrap();
    // C=0 with N=1, E=2 (rotations too) becomes 1; anything else stays.
    assert_eq!(t.tree.next(&[0, 1, 0, 0, 0, 2, 0, 0, 0]), 1);
    assert_eq!(t.tree.next(&[0, 0, 0, 0, 0, 1, 0, 2, 0]), 1);
    assert_eq!(t.tree.next(&[0, 2, 0, 0, 0, 1, 0, 0, 0]), 0);
    assert_eq!(t.tree.next(&[0, 0, 0, 0, 2, 0, 0, 0, 0]), 2);
}
