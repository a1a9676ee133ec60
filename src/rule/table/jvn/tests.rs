//! The compiled tree against the rule, and published behaviour.

use super::*;

/// Every state decodes and encodes back, and the tree gives what [`step`] gives on
/// random neighbourhoods.
#[test]
fn the_tree_is_the_rule() {
    for variant in [Variant::JvN29, Variant::Nobili32, Variant::Hutton32] {
        for s in 0..variant.states() as u8 {
            assert_eq!(Cell::decode(s).encode(), s);
        }
        let tree = tree(variant).unwrap();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pick = |k: u32| ((x >> (8 * k)) % u64::from(variant.states())) as u8;
            let (c, n, w, e, s) = (pick(0), pick(1), pick(2), pick(3), pick(4));
            let cells = [0, n, 0, w, c, e, 0, s, 0];
            assert_eq!(tree.next(&cells), step(variant, c, [n, w, e, s]));
        }
    }
}

/// Published behaviour: an excited ordinary transmission line carries its signal one
/// cell a generation; a sensitised cell under a signal takes the "1" branch; special
/// excitation destroys an ordinary transmission state; a confluent delays by two.
#[test]
fn signals_move_build_and_destroy_as_published() {
    let v = Variant::JvN29;
    let east_quiet = 9;
    let east_excited = 13;
    // The quiescent cell east of an excited east-pointing one becomes excited.
    assert_eq!(step(v, east_quiet, [0, east_excited, 0, 0]), east_excited);
    // Without input it relaxes.
    assert_eq!(step(v, east_excited, [0, 0, 0, 0]), east_quiet);
    // U under excitation becomes S; S without becomes S0.
    assert_eq!(step(v, 0, [0, east_excited, 0, 0]), 1);
    assert_eq!(step(v, 1, [0, 0, 0, 0]), 2);
    // S000 without excitation becomes an ordinary east-pointing state.
    assert_eq!(step(v, 8, [0, 0, 0, 0]), east_quiet);
    // An excited special state pointing east kills an ordinary one.
    assert_eq!(step(v, east_quiet, [0, 21, 0, 0]), 0);
    // A confluent fed by an excited ordinary state emits two generations later.
    let c1 = step(v, 25, [0, east_excited, 0, 0]);
    let c2 = step(v, c1, [0, 0, 0, 0]);
    assert_eq!((c1, c2), (26, 27));
}

/// Hutton's signal trains (his notes in Golly's Hutton32 patterns) fed into a one-wire
/// construction arm pointing each of the four ways: every train writes the cell it names,
/// turned relative to the arm (so the rule is rotation invariant), and retracts the arm's
/// last cell when it says so.
#[test]
fn hutton32_trains_write_and_retract_as_published() {
    // (train, arm retracted, cell written: kind (0 ordinary, 8 special, None confluent or
    // nothing) and quarter turns to the left of the arm's direction)
    type Train = (&'static str, bool, Option<(u8, u8)>);
    let trains: [Train; 13] = [
        ("100000", false, Some((0, 0))), // move forward
        ("100010", false, Some((0, 1))), // turn left
        ("10100", false, Some((0, 3))),  // turn right
        ("100001", true, Some((0, 0))),  // write a forward ordinary arrow, retract
        ("100011", true, Some((0, 1))),  // … a left one
        ("10011", true, Some((0, 2))),   // … a reverse one
        ("10101", true, Some((0, 3))),   // … a right one
        ("101101", true, Some((8, 0))),  // write a forward special arrow, retract
        ("110001", true, Some((8, 1))),  // … left
        ("110101", true, Some((8, 2))),  // … reverse
        ("111001", true, Some((8, 3))),  // … right
        ("1111", true, None),            // write a confluent state, retract
        ("101111", true, None),          // retract
    ];
    for dir in 0..4u8 {
        for (train, retracted, written) in trains {
            let (end, next) = after_train(train, dir);
            let expected_next = match (train, written) {
                ("1111", _) => 25,
                (_, Some((kind, turn))) => 9 + kind + (dir + turn) % 4,
                _ => 0,
            };
            let expected_end = if retracted { 0 } else { 9 + dir };
            assert_eq!(
                (end, next),
                (expected_end, expected_next),
                "train {train}, arm pointing {dir} (east, north, west, south)"
            );
        }
    }
}

/// The arm's last cell and the cell beyond it after `train` has been fed into an ordinary
/// wire of six cells pointing `dir` (its first cell driven: excited for a 1, quiescent for
/// a 0), then 40 quiet generations, on a 13 × 13 dead-border grid.
fn after_train(train: &str, dir: u8) -> (u8, u8) {
    const N: usize = 13;
    let (ux, uy) = [(1, 0), (0, -1), (-1, 0), (0, 1)][usize::from(dir)];
    let along = |k: isize| ((6 + k * ux) as usize, (6 + k * uy) as usize);
    let mut grid = [[0u8; N]; N];
    for k in 0..6 {
        let (x, y) = along(k);
        grid[y][x] = 9 + dir;
    }
    let bits: Vec<bool> = train.bytes().map(|b| b == b'1').collect();
    let at = |grid: &[[u8; N]; N], x: isize, y: isize| {
        if (0..N as isize).contains(&x) && (0..N as isize).contains(&y) {
            grid[y as usize][x as usize]
        } else {
            0
        }
    };
    for g in 0..bits.len() + 40 {
        let driven = bits.get(g).copied().unwrap_or(false);
        let (x0, y0) = along(0);
        grid[y0][x0] = 9 + dir + if driven { 4 } else { 0 };
        let mut next = grid;
        for y in 0..N as isize {
            for x in 0..N as isize {
                let around = [
                    at(&grid, x, y - 1),
                    at(&grid, x - 1, y),
                    at(&grid, x + 1, y),
                    at(&grid, x, y + 1),
                ];
                next[y as usize][x as usize] = step(Variant::Hutton32, at(&grid, x, y), around);
            }
        }
        grid = next;
    }
    let ((ex, ey), (nx, ny)) = (along(5), along(6));
    (grid[ey][ex], grid[ny][nx])
}
