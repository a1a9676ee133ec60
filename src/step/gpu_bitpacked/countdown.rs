//! Slot `dying` of gpu-bitpacked's step kernels (shaders/life/bitpacked_step_common.wgsl): a
//! Generations rule's dying countdown (see [`crate::rule::generations`]) as straight-line WGSL
//! for the rule's exact number of planes. Each plane is a named vector component, never an
//! array element, so the planes stay in registers through the stream kernel's levels: an
//! array (or a fixed eight-plane vector pair) made the drivers keep more registers than the
//! rule needs and slowed the walk down.

use std::fmt::Write;

use crate::rule::Rule;
use crate::rule::generations::Planes;

/// Countdown planes `rule` needs (0 for rules without dying states).
pub fn planes(rule: &Rule) -> u32 {
    if rule.has_dying_states() {
        Planes::countdown_bits(rule.states()) as u32
    } else {
        0
    }
}

/// The WGSL type holding `n` planes (u32 for 0 and 1, vectors up to 4, a struct of two
/// vectors up to 8).
fn type_of(n: u32) -> String {
    match n {
        0 | 1 => "alias Dying = u32;".into(),
        2..=4 => format!("alias Dying = vec{n}<u32>;"),
        _ => format!(
            "struct Dying {{\n    lo: vec4<u32>,\n    hi: {},\n}}",
            vector(n - 4)
        ),
    }
}

fn vector(n: u32) -> String {
    if n == 1 {
        "u32".into()
    } else {
        format!("vec{n}<u32>")
    }
}

/// The expression of plane `j` of `d`, a `Dying` of `n` planes.
fn plane(d: &str, n: u32, j: u32) -> String {
    const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];
    match n {
        1 => d.into(),
        2..=4 => format!("{d}.{}", XYZW[j as usize]),
        _ if j < 4 => format!("{d}.lo.{}", XYZW[j as usize]),
        _ if n == 5 => format!("{d}.hi"),
        _ => format!("{d}.hi.{}", XYZW[j as usize - 4]),
    }
}

/// A `Dying` of `n` planes built from the plane expressions `p`.
fn build(n: u32, p: &[String]) -> String {
    match n {
        0 => "0u".into(),
        1..=4 => format!("Dying({})", p.join(", ")),
        _ => format!(
            "Dying(vec4<u32>({}), {}({}))",
            p[..4].join(", "),
            vector(n - 4),
            p[4..].join(", ")
        ),
    }
}

/// Slot `dying` for `n` countdown planes of a rule whose dying cells start at countdown
/// `start` (C − 2).
pub fn slot(n: u32, start: u32) -> String {
    assert!(n <= 8, "at most 8 countdown planes (256 states)");
    let mut out = type_of(n);
    out.push('\n');
    let planes_of = |f: &dyn Fn(u32) -> String| (0..n).map(f).collect::<Vec<_>>();
    // generations: the borrow chain of rule::generations::step_word, unrolled.
    let _ = writeln!(
        out,
        "fn generations(d: Dying, alive: u32, next: u32) -> Stepped {{"
    );
    if n == 0 {
        let _ = writeln!(out, "    return Stepped(next, d);\n}}");
    } else {
        let any = planes_of(&|j| plane("d", n, j)).join(" | ");
        let _ = writeln!(out, "    let any = {any};\n    let starts = alive & ~next;");
        let _ = writeln!(out, "    var borrow = any;");
        for j in 0..n {
            let load = if start >> j & 1 == 1 { " | starts" } else { "" };
            let _ = writeln!(
                out,
                "    let n{j} = (({p} ^ borrow) & any){load};",
                p = plane("d", n, j)
            );
            if j + 1 < n {
                let _ = writeln!(out, "    borrow &= ~{};", plane("d", n, j));
            }
        }
        let next = build(n, &planes_of(&|j| format!("n{j}")));
        let _ = writeln!(
            out,
            "    return Stepped((next & alive) | (next & ~alive & ~any), {next});\n}}"
        );
    }
    let at = build(n, &planes_of(&|j| format!("src[{}u * p.plane + i]", j + 1)));
    let _ = writeln!(out, "fn dying_at(i: u32) -> Dying {{\n    return {at};\n}}");
    let fetched = build(
        n,
        &planes_of(&|j| format!("fetch_plane({}u, row, x, xm)", j + 1)),
    );
    let _ = writeln!(
        out,
        "fn fetch_dying(row: i32, x: i32, xm: u32) -> Dying {{\n    return {fetched};\n}}"
    );
    let _ = writeln!(out, "fn store_countdown(d: Dying, i: u32, mask: u32) {{");
    for j in 0..n {
        let _ = writeln!(
            out,
            "    dst[{}u * p.plane + i] = {} & mask;",
            j + 1,
            plane("d", n, j)
        );
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_plane_count_names_each_plane_once() {
        for n in 0..=8 {
            let text = slot(n, 0b101);
            for j in 1..=n {
                assert!(
                    text.contains(&format!("dst[{j}u * p.plane + i]")),
                    "{n}: {text}"
                );
            }
            assert!(!text.contains(&format!("dst[{}u * p.plane + i]", n + 1)));
            // The start value's set bits load the newly dying cells.
            assert_eq!(
                text.matches("| starts").count() as u32,
                (0..n).filter(|j| 0b101 >> j & 1 == 1).count() as u32,
                "{n}"
            );
        }
    }
}
