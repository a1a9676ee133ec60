//! `golab search` against apgsearch: soups against python-lifelib's, censuses against
//! apgluxe's logs (tests/fixtures).

use golab::search::hashsoup::{Symmetry, hashsoup};

/// Every soup of tests/fixtures/hashsoup/lifelib-2.5.6.txt built by golab cell for cell.
#[test]
fn hashsoup_cells_equal_lifelibs() {
    let text = include_str!("fixtures/hashsoup/lifelib-2.5.6.txt");
    let mut checked = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (sym, seed) = (f[0], f[1]);
        let x0: i64 = f[2].parse().unwrap();
        let y0: i64 = f[3].parse().unwrap();
        let mut expected = Vec::new();
        for (dy, row) in f[6..].iter().enumerate() {
            // One hex word per row, bit i = column x0 + i.
            for (k, digit) in row.chars().rev().enumerate() {
                let v = digit.to_digit(16).unwrap();
                for b in 0..4 {
                    if v >> b & 1 == 1 {
                        expected.push((x0 + 4 * k as i64 + b, y0 + dy as i64));
                    }
                }
            }
        }
        expected.sort_unstable();
        let symmetry: Symmetry = sym.parse().unwrap();
        let mut got = hashsoup(seed, symmetry).cells();
        got.sort_unstable();
        assert_eq!(got, expected, "{sym} {seed}");
        checked.insert(sym);
    }
    assert!(
        checked.contains("C1") && checked.contains("D8_1"),
        "{checked:?}"
    );
    assert_eq!(checked.len(), golab::search::hashsoup::SYMMETRIES.len());
}
