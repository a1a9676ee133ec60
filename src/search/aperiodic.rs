//! Names for what never repeats, as apgsearch gives them: linear growth (`yl…`, from the
//! population's differences over 14 400 generations: the period of the differences, the
//! period of growth, the growth per period and an MD5 of two moments), the growth classes
//! `zz_REPLICATOR`, `zz_LINEAR`, `zz_EXPLOSIVE` and `zz_QUADRATIC` (from how the summed
//! population grows over a million generations) or `PATHOLOGICAL` (neither, e.g. something
//! that has not settled yet).

use md5::{Digest, Md5};

use crate::hashlife::{HashUniverse, PopulationMemo};
use crate::rule::Rule;

/// The hexadecimal MD5 of `text`.
pub fn md5_hex(text: &str) -> String {
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A pattern's populations at generations 0, 1 … `n − 1` (the rule's own plane).
pub type PopSeq = dyn Fn(&[(i64, i64)], usize) -> Vec<i64> + Send + Sync;

/// apgsearch's name for a pattern that is not periodic: `yl…`, `zz_…` or `PATHOLOGICAL`.
pub fn classify_aperiodic(cells: &[(i64, i64)], popseq: &PopSeq, rule: &Rule) -> String {
    let code = linear_growth(cells, 4800, popseq);
    if code.starts_with('y') {
        return code;
    }
    growth_class(cells, 128, 8000, 4800, rule)
}

/// The linear-growth code from the population differences, or `PATHOLOGICAL`.
fn linear_growth(cells: &[(i64, i64)], max_period: usize, popseq: &PopSeq) -> String {
    let pops = popseq(cells, 3 * max_period);
    // Differences over lag p must repeat with period p.
    let diff_repeats = |p: usize, q: usize| {
        (0..max_period).all(|i| pops[i + p] - pops[i] == pops[i + p + q] - pops[i + q])
    };
    let Some(period) = (1..max_period).find(|&p| diff_repeats(p, p)) else {
        return "PATHOLOGICAL".into();
    };
    let Some(qeriod) = (1..max_period).find(|&q| diff_repeats(period, q)) else {
        return "PATHOLOGICAL".into();
    };
    let (mut m0, mut m1, mut m2) = (0i64, 0i64, 0i64);
    for i in 0..period {
        let d = pops[i + qeriod] - pops[i];
        m0 += d;
        m1 += d * d;
        m2 += d * d * d;
    }
    if m0 == 0 {
        return "PATHOLOGICAL".into();
    }
    format!(
        "yl{period}_{qeriod}_{m0}_{}",
        md5_hex(&format!("{m1}#{m2}"))
    )
}

/// Slope of the least-squares line through `points`.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let mut var = 0.0;
    let mut cov = 0.0;
    for &(x, y) in points {
        var += (x - mx) * (x - mx);
        cov += (x - mx) * (y - my);
    }
    cov / var
}

/// The growth class from the summed population every `step_size` generations.
fn growth_class(
    cells: &[(i64, i64)],
    step_size: u32,
    steps: u32,
    start: u32,
    rule: &Rule,
) -> String {
    let mut u = match HashUniverse::new(*rule, crate::hashlife::default_memory_limit()) {
        Ok(u) => u,
        Err(_) => return "PATHOLOGICAL".into(),
    };
    if u.load_cells(cells.iter().map(|&(x, y)| (i128::from(x), i128::from(y))))
        .is_err()
    {
        return "PATHOLOGICAL".into();
    }
    let mut by_generation = Vec::with_capacity(steps as usize);
    let mut by_step = Vec::with_capacity(steps as usize);
    let mut total = 1.0f64;
    let mut memo = PopulationMemo::default();
    for i in 0..steps {
        if u.advance(u128::from(step_size), &|| false).is_err() {
            return "PATHOLOGICAL".into();
        }
        total += u.population_memo(&mut memo) as f64;
        by_generation.push((f64::from(i * step_size + start).ln(), total.ln()));
        by_step.push((f64::from(i + 1).ln(), total.ln()));
    }
    let power = slope(&by_generation);
    let power2 = slope(&by_step);
    if power2 < 1.15 {
        "PATHOLOGICAL"
    } else if power < 1.65 {
        "zz_REPLICATOR"
    } else if power < 2.1 {
        "zz_LINEAR"
    } else if power < 2.9 {
        "zz_EXPLOSIVE"
    } else {
        "zz_QUADRATIC"
    }
    .into()
}
