//! apgsearch's haul as its local log (`-L 1`) writes it: a first line (apgsearch's upload
//! authorisation, `testing` for a test run; golab writes `golab`), `@VERSION`, `@MD5` (of the
//! root), `@ROOT`, `@RULE`, `@SYMMETRY`, `@NUM_SOUPS`, `@NUM_OBJECTS`, the census by count
//! (`@CENSUS TABLE`) and the sample soups (`@SAMPLE_SOUPIDS`). Also read back, so that a
//! haul can be checked against another or against apgluxe's.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::aperiodic::md5_hex;
use super::census::Census;

/// A haul: what a search found, as its log holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Haul {
    /// The program and version that made it (`v5.2-ll2.5.6` for apgluxe 5.2).
    pub version: String,
    /// The root soups are named from.
    pub root: String,
    /// apgsearch's rule string (`b3s23`).
    pub rule: String,
    /// apgsearch's symmetry name (`C1`).
    pub symmetry: String,
    /// Soups searched.
    pub soups: u64,
    /// The census.
    pub census: Census,
}

impl Haul {
    /// The log text.
    pub fn to_log(&self) -> String {
        let list = self.census.by_count();
        let objects: i64 = list.iter().map(|(_, n)| n).sum();
        let mut out = String::new();
        let _ = writeln!(out, "golab");
        let _ = writeln!(out, "@VERSION {}", self.version);
        let _ = writeln!(out, "@MD5 {}", md5_hex(&self.root));
        let _ = writeln!(out, "@ROOT {}", self.root);
        let _ = writeln!(out, "@RULE {}", self.rule);
        let _ = writeln!(out, "@SYMMETRY {}", self.symmetry);
        let _ = writeln!(out, "@NUM_SOUPS {}", self.soups);
        let _ = writeln!(out, "@NUM_OBJECTS {objects}");
        let _ = writeln!(out, "\n@CENSUS TABLE");
        for (code, n) in &list {
            let _ = writeln!(out, "{code} {n}");
        }
        let _ = writeln!(out, "\n@SAMPLE_SOUPIDS");
        for (code, _) in &list {
            let Some(samples) = self.census.samples.get(code).filter(|s| !s.is_empty()) else {
                continue;
            };
            let _ = writeln!(out, "{code} {}", samples.join(" "));
        }
        out
    }

    /// Read a log (golab's or apgsearch's).
    pub fn parse(text: &str) -> Result<Haul, String> {
        let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
        let mut census = Census::default();
        let mut section = "";
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix('@') {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                match key {
                    "CENSUS" | "SAMPLE_SOUPIDS" => section = key,
                    _ => {
                        fields.insert(key, value.trim());
                        section = "";
                    }
                }
                continue;
            }
            let mut words = line.split_whitespace();
            let code = words.next().unwrap_or_default().to_string();
            match section {
                "CENSUS" => {
                    let count = words
                        .next()
                        .and_then(|w| w.parse::<i64>().ok())
                        .ok_or_else(|| format!("line {}: expected 'apgcode count'", n + 1))?;
                    census.counts.insert(code, count);
                }
                "SAMPLE_SOUPIDS" => {
                    census
                        .samples
                        .insert(code, words.map(str::to_string).collect());
                }
                _ => {}
            }
        }
        let field = |key: &str| {
            fields
                .get(key)
                .map(|v| v.to_string())
                .ok_or_else(|| format!("the log has no @{key} line"))
        };
        Ok(Haul {
            version: field("VERSION")?,
            root: field("ROOT")?,
            rule: field("RULE")?,
            symmetry: field("SYMMETRY")?,
            soups: field("NUM_SOUPS")?
                .parse()
                .map_err(|_| "@NUM_SOUPS is not a number".to_string())?,
            census,
        })
    }
}
