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

/// The report as aligned `name  value` lines ([`Identity::report`]).
pub fn text(i: &Identity) -> String {
    i.report()
        .into_iter()
        .map(|(name, value)| format!("{name:<18}{value}\n"))
        .collect()
}
