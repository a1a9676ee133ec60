//! `golab identify`: what a pattern is — still life, oscillator, spaceship, gun or puffer —
//! with its period, speed, populations, bounding box, heat, temperature, volatility and
//! apgcode ([`crate::pattern::identify`]), as text or JSON.

use clap::Args;

use super::CliError;
use crate::pattern::identify::{Identity, identify};

/// Arguments of `golab identify`.
#[derive(Debug, Args)]
pub struct IdentifyArgs {
    /// A pattern file, a bundled pattern's name or an apgcode (`xq4_153`).
    pub pattern: String,
    /// Rule to run it under (default: the pattern's, else B3/S23).
    #[arg(long)]
    pub rule: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Execute `golab identify`.
pub fn run(args: &IdentifyArgs) -> Result<(), CliError> {
    let mut pattern = crate::pattern::resolve(&args.pattern)?;
    if let Some(rule) = &args.rule {
        pattern.rule = Some(rule.parse()?);
    }
    let identity = identify(&pattern)?;
    if args.json {
        println!("{}", serde_json::to_string(&identity)?);
    } else {
        print!("{}", text(&identity));
    }
    Ok(())
}

/// The report as aligned `name  value` lines.
pub fn text(i: &Identity) -> String {
    let mut lines: Vec<(&str, String)> = vec![("object", i.description.clone())];
    if i.period > 0 {
        lines.push(("period", i.period.to_string()));
    }
    if i.settles_at > 0 {
        lines.push(("settles at", format!("generation {}", i.settles_at)));
    }
    if let (Some(speed), Some(direction)) = (&i.speed, &i.direction) {
        lines.push(("speed", format!("{speed} ({direction})")));
        lines.push((
            "displacement",
            format!("({}, {}) a period", i.displacement.0, i.displacement.1),
        ));
    }
    lines.push((
        "population",
        format!(
            "{}..{} (average {:.2})",
            i.population.0, i.population.1, i.average_population
        ),
    ));
    lines.push((
        "bounding box",
        format!(
            "{} x {} (smallest phase {} x {})",
            i.bounding_box.0, i.bounding_box.1, i.phase_box.0, i.phase_box.1
        ),
    ));
    let figure = |v: Option<f64>| v.map(|v| format!("{v:.3}"));
    for (name, value) in [
        ("heat", figure(i.heat)),
        ("temperature", figure(i.temperature)),
        ("volatility", figure(i.volatility)),
        ("strict volatility", figure(i.strict_volatility)),
        ("apgcode", i.apgcode.clone()),
        ("emits", i.emits.clone()),
    ] {
        if let Some(value) = value {
            lines.push((name, value));
        }
    }
    lines
        .into_iter()
        .map(|(name, value)| format!("{name:<18}{value}\n"))
        .collect()
}
