//! The stream step kernel's walk for a given number of levels: the text of the `//!slot`
//! lines of shaders/life/bitpacked_subgroup.wgsl, filled through the one shader assembly path
//! ([`crate::gpu::shader::Shader`]).
//!
//! Every level's state must live in named registers with fixed roles, and the first steps
//! must run only the levels whose input is already exact. WGSL has neither loop unrolling
//! nor generics, so the walk is written out here: slot `prefetch` becomes the rows loaded
//! ahead, `declare` the level variables, `warm` the first steps (each with only its running
//! levels), `step_even` / `step_odd` one step of each parity at step `t` / `t + 1` (the loop
//! body), `cool` the last (at most LEVELS + 1) steps, where level j runs only while LEVELS - j
//! more steps follow (below that its rows are outside the strip's need).

use std::fmt::Write;

use crate::gpu::shader::Shader;

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

/// First step whose levels all run (level j runs from step 3 j - 2), rounded up to even so
/// the loop's steps keep their parity.
fn warm_steps(levels: u32) -> u32 {
    3 * levels - 2 + (levels & 1)
}

/// One step: every running level from the top down, then the new generation-0 row, then the
/// final row if the step has one. Slot `q` holds a level's row above and takes the new row.
/// `running` are (level, how it runs).
fn step(out: &mut String, shape: Shape, q: u32, t: &str, running: &[(u32, Run)]) {
    let Shape {
        levels,
        prefetch,
        dying,
    } = shape;
    let (up, mid) = if q == 0 { ("a", "b") } else { ("b", "a") };
    let pad = "            ";
    let _ = writeln!(out, "{pad}{{");
    let _ = writeln!(out, "{pad}    let y = first + i32({t});");
    let _ = writeln!(out, "{pad}    let fresh = ahead0;");
    if dying {
        let _ = writeln!(out, "{pad}    let fresh_dying = ahead_dying0;");
    }
    for i in 1..prefetch {
        let _ = writeln!(out, "{pad}    ahead{} = ahead{i};", i - 1);
        if dying {
            let _ = writeln!(out, "{pad}    ahead_dying{} = ahead_dying{i};", i - 1);
        }
    }
    let last = prefetch - 1;
    let _ = writeln!(out, "{pad}    ahead{last} = load(y + {prefetch}, lane);");
    if dying {
        let _ = writeln!(
            out,
            "{pad}    ahead_dying{last} = load_dying(y + {prefetch}, lane);"
        );
    }
    for (j, when) in running {
        let prev = j - 1;
        let row = 2 * j;
        let call = if dying {
            format!(
                "{{ let d = o{prev}; let x = advance_dying(s{j}{up}, s{j}{mid}, c{j}{mid}, \
                 k{j}{mid}, g{j}{mid}, d.c, {j}u, y - {row}, lane); s{j}{up} = x.sums; \
                 c{j}{up} = d.c; k{j}{up} = d.code; g{j}{up} = od{prev}; o{j} = x.out; \
                 od{j} = x.dying; }}"
            )
        } else {
            format!(
                "{{ let d = o{prev}; let x = advance(s{j}{up}, s{j}{mid}, c{j}{mid}, k{j}{mid}, \
                 d.c, {j}u, y - {row}, lane); s{j}{up} = x.sums; c{j}{up} = d.c; \
                 k{j}{up} = d.code; o{j} = x.out; }}"
            )
        };
        let prime_dying = if dying {
            format!(" g{j}{up} = od{prev};")
        } else {
            String::new()
        };
        let _ = match when {
            Run::Always => writeln!(out, "{pad}    {call}"),
            Run::If(condition) => writeln!(out, "{pad}    if ({condition}) {call}"),
            Run::Prime => writeln!(
                out,
                "{pad}    {{ let d = o{prev}; s{j}{up} = row_sums(d.c); c{j}{up} = d.c; \
                 k{j}{up} = d.code;{prime_dying} }}"
            ),
        };
    }
    let _ = writeln!(out, "{pad}    o0 = Rec(fresh, vec4<u32>(0u));");
    let store = if dying {
        let _ = writeln!(out, "{pad}    od0 = fresh_dying;");
        format!("store_dying(o{levels}, od{levels}, ")
    } else {
        format!("store(o{levels}, ")
    };
    let _ = writeln!(
        out,
        "{pad}    if ({t} >= {first}u) {{ let yo = p.y0 + ys + {t} - {first}u; \
         if (writes) {{ {store}yo, u32(xw)); }} finish_row(yo, col, tag, lane_id); }}",
        first = 3 * levels
    );
    let _ = writeln!(out, "{pad}}}");
}

/// What the generated walk depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Levels = generations per dispatch (1..=15).
    pub levels: u32,
    /// Rows loaded ahead of the step that uses them (≥ 1), to hide memory latency.
    pub prefetch: u32,
    /// Whether rows carry a Generations rule's countdown planes (in registers of their own,
    /// so two-state rules keep exactly their walk).
    pub dying: bool,
}

/// The stream kernel for `shape` (the host adds the rule, strip, group and topology).
pub fn shader(shape: Shape) -> Shader {
    let Shape {
        levels,
        prefetch,
        dying,
    } = shape;
    assert!(
        (1..=15).contains(&levels),
        "stream kernel levels out of range"
    );
    assert!(prefetch >= 1, "stream kernel prefetch out of range");
    let all: Vec<(u32, Run)> = (1..=levels).rev().map(|j| (j, Run::Always)).collect();
    let mut ahead = String::new();
    for i in 0..prefetch {
        let _ = writeln!(ahead, "        var ahead{i} = load(first + {i}, lane);");
        if dying {
            let _ = writeln!(
                ahead,
                "        var ahead_dying{i} = load_dying(first + {i}, lane);"
            );
        }
    }
    let mut declare = String::new();
    for j in 1..=levels {
        let _ = writeln!(
            declare,
            "        var s{j}a: Row; var s{j}b: Row; var c{j}a: u32; \
             var c{j}b: u32; var k{j}a: vec4<u32>; var k{j}b: vec4<u32>; var o{j}: Rec;"
        );
    }
    if dying {
        let _ = writeln!(declare, "        var od0: Dying;");
        for j in 1..=levels {
            let _ = writeln!(
                declare,
                "        var g{j}a: Dying; var g{j}b: Dying; var od{j}: Dying;"
            );
        }
    }
    let mut warm = String::new();
    for t in 0..warm_steps(levels) {
        // Level j runs from step 3 j - 2; its output is exact from step 3 j.
        let running: Vec<_> = all
            .iter()
            .filter(|(j, _)| t + 2 >= 3 * j)
            .map(|&(j, _)| (j, if t < 3 * j { Run::Prime } else { Run::Always }))
            .collect();
        step(&mut warm, shape, t & 1, &format!("{t}u"), &running);
    }
    let _ = writeln!(warm, "        var t = {}u;", warm_steps(levels));
    let (mut even, mut odd) = (String::new(), String::new());
    step(&mut even, shape, 0, "t", &all);
    step(&mut odd, shape, 1, "(t + 1u)", &all);
    let mut cool = String::new();
    // Entered at an even step with 1..=LEVELS + 1 steps left: level j runs while at least
    // LEVELS - j steps follow.
    for c in 0..=levels {
        let t = format!("(t + {c}u)");
        let _ = writeln!(cool, "        if ({t} < steps) {{");
        let running: Vec<_> = all
            .iter()
            .map(|&(j, _)| match levels - j {
                0 => (j, Run::Always),
                need => (j, Run::If(format!("steps - 1u - {t} >= {need}u"))),
            })
            .collect();
        step(&mut cool, shape, c & 1, &t, &running);
        let _ = writeln!(cool, "        }}");
    }
    Shader::new("life/bitpacked_subgroup.wgsl")
        .constant("LEVELS", levels)
        .slot("prefetch", ahead)
        .slot("declare", declare)
        .slot("warm", warm)
        .slot("step_even", even)
        .slot("step_odd", odd)
        .slot("cool", cool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_every_marker_and_runs_each_level_from_its_first_exact_input() {
        for (levels, prefetch, dying) in [
            (1, 1, false),
            (2, 3, false),
            (7, 2, true),
            (8, 1, false),
            (15, 2, true),
        ] {
            let src = shader(Shape {
                levels,
                prefetch,
                dying,
            })
            .constant("BIRTH", 8u32)
            .constant("SURVIVE", 12u32)
            .constant("GROUP", 128u32)
            .constant("TORUS", true)
            .slot("rule", super::super::pipelines::COUNT_RULE)
            .slot(
                "dying",
                super::super::countdown::slot(u32::from(dying) * 2, 2),
            )
            .source()
            .unwrap();
            assert!(
                !src.lines().any(|l| l.trim_start().starts_with("//!")),
                "levels {levels}: unexpanded directive"
            );
            assert!(src.contains(&format!("const LEVELS: u32 = {levels}u;")));
            // Level j first appears in the step 3 j - 2 of the warm-up.
            let warm_end = src
                .find(&format!("var t = {}u;", warm_steps(levels)))
                .unwrap();
            let warm = &src[..warm_end];
            for j in 1..=levels {
                let call = format!("s{j}{} = row_sums(d.c)", if j % 2 == 0 { "a" } else { "b" });
                let first = warm.find(&call);
                let step_of = |at: usize| warm[..at].matches("let fresh = ahead0;").count() - 1;
                match first {
                    Some(at) => {
                        assert_eq!(step_of(at) as u32, 3 * j - 2, "levels {levels} level {j}")
                    }
                    None => assert!(3 * j - 2 >= warm_steps(levels), "levels {levels} level {j}"),
                }
            }
            assert_eq!(warm_steps(levels) % 2, 0);
            // The last steps run level j only while LEVELS - j steps follow.
            let cool = &src[src.rfind("t += 2u;").unwrap()..];
            assert_eq!(
                cool.matches("let fresh = ahead0;").count() as u32,
                levels + 1
            );
            for j in 1..levels {
                let guard = format!(
                    "if (steps - 1u - (t + 0u) >= {}u) {{ let d = o{}",
                    levels - j,
                    j - 1
                );
                assert!(cool.contains(&guard), "levels {levels} level {j}: {guard}");
            }
        }
    }
}
