//! `@COLORS` and `@NAMES` as Golly reads them (`gui-common/layer.cpp`): a line of four
//! numbers sets one state's colour (`1 0 128 255`), a line of six sets a gradient over
//! states 1..n−1 (`255 0 0 255 255 0`); `@NAMES` lines are `state name`. Other lines are
//! ignored, as Golly does, for upward compatibility.

/// Golly's default colours for rules it loads: state 0 black, states 1..n−1 a gradient from
/// red to yellow.
pub fn default_colors(states: u16) -> Vec<[u8; 3]> {
    let mut colors = vec![[0, 0, 0]; usize::from(states)];
    gradient(&mut colors, [255, 0, 0], [255, 255, 0]);
    colors
}

/// Colour states 1..n−1 from `from` to `to`, evenly.
fn gradient(colors: &mut [[u8; 3]], from: [u8; 3], to: [u8; 3]) {
    let top = colors.len().saturating_sub(1);
    for (s, c) in colors.iter_mut().enumerate().skip(1) {
        for k in 0..3 {
            let (a, b) = (i32::from(from[k]), i32::from(to[k]));
            let v = if top <= 1 {
                a
            } else {
                a + (b - a) * (s as i32 - 1) / (top as i32 - 1)
            };
            c[k] = v.clamp(0, 255) as u8;
        }
    }
}

/// Apply an `@COLORS` section to `colors`.
pub fn read_colors(lines: &[(usize, &str)], colors: &mut [[u8; 3]]) {
    for &(_, text) in lines {
        let numbers: Vec<i64> = text
            .split('#')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .map_while(|t| t.parse().ok())
            .collect();
        let byte = |v: i64| v.clamp(0, 255) as u8;
        match numbers.as_slice() {
            [r1, g1, b1, r2, g2, b2, ..] => gradient(
                colors,
                [byte(*r1), byte(*g1), byte(*b1)],
                [byte(*r2), byte(*g2), byte(*b2)],
            ),
            [s, r, g, b, ..] => {
                if let Some(c) = usize::try_from(*s).ok().and_then(|s| colors.get_mut(s)) {
                    *c = [byte(*r), byte(*g), byte(*b)];
                }
            }
            _ => {}
        }
    }
}

/// Apply an `@NAMES` section to `names`.
pub fn read_names(lines: &[(usize, &str)], names: &mut [String]) {
    for &(_, text) in lines {
        let text = text.trim();
        let Some((state, name)) = text.split_once(char::is_whitespace) else {
            continue;
        };
        if let Some(slot) = state.parse::<usize>().ok().and_then(|s| names.get_mut(s)) {
            *slot = name.trim().to_string();
        }
    }
}
