//! Source of the stream step kernel for a given number of levels: expands the `//@` lines of
//! shaders/life/bitpacked_subgroup.wgsl into straight-line WGSL.
//!
//! Every level's state must live in named registers with fixed roles, and the first steps
//! must run only the levels whose input is already exact. WGSL has neither loop unrolling
//! nor generics, so the walk is written out here: `//@prefetch` becomes the rows loaded ahead,
//! `//@declare` the level variables, `//@warm` the first steps (each with only its running
//! levels), `//@step q T` one step of parity `q` at step number `T` (the loop body is two of
//! them), `//@cool` the last (at most HALO + 1) steps, where level j runs only while
//! HALO - j more steps follow (below that its rows are outside the strip's need).

use std::fmt::Write;

/// How a level takes part in a step.
#[derive(Debug, Clone, PartialEq)]
enum Run {
    /// Every time.
    Always,
    /// When the WGSL condition holds.
    If(String),
    /// One of its first two steps: fill its slots only; its output is not used yet.
    Prime,
}

const TEMPLATE: &str = include_str!("../../../shaders/life/bitpacked_subgroup.wgsl");

/// First step whose levels all run (level j runs from step 3 j - 2), rounded up to even so
/// the loop's steps keep their parity.
fn warm_steps(halo: u32) -> u32 {
    3 * halo - 2 + (halo & 1)
}

/// One step: every running level from the top down, then the new generation-0 row, then the
/// final row if the step has one. Slot `q` holds a level's row above and takes the new row.
/// `levels` are (level, how it runs).
fn step(out: &mut String, shape: Shape, q: u32, t: &str, levels: &[(u32, Run)]) {
    let Shape { halo, prefetch } = shape;
    let (up, mid) = if q == 0 { ("a", "b") } else { ("b", "a") };
    let pad = "            ";
    let _ = writeln!(out, "{pad}{{");
    let _ = writeln!(out, "{pad}    let y = first + i32({t});");
    let _ = writeln!(out, "{pad}    let fresh = ahead0;");
    for i in 1..prefetch {
        let _ = writeln!(out, "{pad}    ahead{} = ahead{i};", i - 1);
    }
    let _ = writeln!(
        out,
        "{pad}    ahead{} = load(y + {prefetch}, lane);",
        prefetch - 1
    );
    for (j, when) in levels {
        let call = format!(
            "{{ let d = o{prev}; let x = advance(s{j}{up}, s{j}{mid}, c{j}{mid}, k{j}{mid}, \
             d.c, {j}u, y - {row}, lane); s{j}{up} = x.sums; c{j}{up} = d.c; k{j}{up} = d.code; \
             o{j} = x.out; }}",
            prev = j - 1,
            row = 2 * j,
        );
        let _ = match when {
            Run::Always => writeln!(out, "{pad}    {call}"),
            Run::If(condition) => writeln!(out, "{pad}    if ({condition}) {call}"),
            Run::Prime => writeln!(
                out,
                "{pad}    {{ let d = o{prev}; s{j}{up} = row_sums(d.c); c{j}{up} = d.c; \
                 k{j}{up} = d.code; }}",
                prev = j - 1
            ),
        };
    }
    let _ = writeln!(out, "{pad}    o0 = Rec(fresh, vec4<u32>(0u));");
    let _ = writeln!(
        out,
        "{pad}    if ({t} >= {first}u && writes) {{ store(o{halo}, p.y0 + ys + {t} - {first}u, u32(xw)); }}",
        first = 3 * halo
    );
    let _ = writeln!(out, "{pad}}}");
}

/// What the generated walk depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Levels = generations per dispatch (1..=15).
    pub halo: u32,
    /// Rows loaded ahead of the step that uses them (≥ 1), to hide memory latency.
    pub prefetch: u32,
}

/// WGSL of the stream kernel for `shape`.
pub fn source(shape: Shape) -> String {
    let Shape { halo, prefetch } = shape;
    assert!(
        (1..=15).contains(&halo),
        "stream kernel levels out of range"
    );
    assert!(prefetch >= 1, "stream kernel prefetch out of range");
    let mut out = format!("const HALO: u32 = {halo}u;\n");
    let all: Vec<(u32, Run)> = (1..=halo).rev().map(|j| (j, Run::Always)).collect();
    for line in TEMPLATE.lines() {
        let spec: Vec<&str> = line.split_whitespace().collect();
        match spec.as_slice() {
            ["//@prefetch"] => {
                for i in 0..prefetch {
                    let _ = writeln!(out, "        var ahead{i} = load(first + {i}, lane);");
                }
            }
            ["//@declare"] => {
                for j in 1..=halo {
                    let _ = writeln!(
                        out,
                        "        var s{j}a: vec2<u32>; var s{j}b: vec2<u32>; var c{j}a: u32; \
                         var c{j}b: u32; var k{j}a: vec4<u32>; var k{j}b: vec4<u32>; var o{j}: Rec;"
                    );
                }
            }
            ["//@warm"] => {
                for t in 0..warm_steps(halo) {
                    // Level j runs from step 3 j - 2; its output is exact from step 3 j.
                    let running: Vec<_> = all
                        .iter()
                        .filter(|(j, _)| t + 2 >= 3 * j)
                        .map(|&(j, _)| (j, if t < 3 * j { Run::Prime } else { Run::Always }))
                        .collect();
                    step(&mut out, shape, t & 1, &format!("{t}u"), &running);
                }
                let _ = writeln!(out, "        var t = {}u;", warm_steps(halo));
            }
            ["//@step", q, t @ ..] => {
                let q = q.parse().expect("template: step parity");
                step(&mut out, shape, q, &t.join(" "), &all);
            }
            ["//@cool"] => {
                // Entered at an even step with 1..=HALO + 1 steps left: level j runs while at
                // least HALO - j steps follow.
                for c in 0..=halo {
                    let t = format!("(t + {c}u)");
                    let _ = writeln!(out, "        if ({t} < steps) {{");
                    let running: Vec<_> = all
                        .iter()
                        .map(|&(j, _)| match halo - j {
                            0 => (j, Run::Always),
                            need => (j, Run::If(format!("steps - 1u - {t} >= {need}u"))),
                        })
                        .collect();
                    step(&mut out, shape, c & 1, &t, &running);
                    let _ = writeln!(out, "        }}");
                }
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_every_marker_and_runs_each_level_from_its_first_exact_input() {
        for (halo, prefetch) in [(1, 1), (2, 3), (7, 2), (8, 1), (15, 2)] {
            let src = source(Shape { halo, prefetch });
            assert!(
                !src.lines().any(|l| l.trim_start().starts_with("//@")),
                "halo {halo}: unexpanded marker"
            );
            assert!(src.starts_with(&format!("const HALO: u32 = {halo}u;")));
            // Level j first appears in the step 3 j - 2 of the warm-up.
            let warm_end = src
                .find(&format!("var t = {}u;", warm_steps(halo)))
                .unwrap();
            let warm = &src[..warm_end];
            for j in 1..=halo {
                let call = format!("s{j}{} = row_sums(d.c)", if j % 2 == 0 { "a" } else { "b" });
                let first = warm.find(&call);
                let step_of = |at: usize| warm[..at].matches("let fresh = ahead0;").count() - 1;
                match first {
                    Some(at) => assert_eq!(step_of(at) as u32, 3 * j - 2, "halo {halo} level {j}"),
                    None => assert!(3 * j - 2 >= warm_steps(halo), "halo {halo} level {j}"),
                }
            }
            assert_eq!(warm_steps(halo) % 2, 0);
            // The last steps run level j only while HALO - j steps follow.
            let cool = &src[src.rfind("t += 2u;").unwrap()..];
            assert_eq!(cool.matches("let fresh = ahead0;").count() as u32, halo + 1);
            for j in 1..halo {
                let guard = format!(
                    "if (steps - 1u - (t + 0u) >= {}u) {{ let d = o{}",
                    halo - j,
                    j - 1
                );
                assert!(cool.contains(&guard), "halo {halo} level {j}: {guard}");
            }
        }
    }
}
