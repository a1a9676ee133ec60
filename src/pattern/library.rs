//! The bundled pattern library: classic patterns compiled into the binary.
//!
//! Each entry is an RLE file under `assets/patterns/`, named in kebab-case; its library name
//! is the file stem. Every file carries `#N` (display name), `#C` (what it is) and a rule in
//! its header, and its claimed behaviour is checked by simulation in `tests/known_behaviour.rs`.

use super::{Format, Pattern, PatternError, parse};

/// One bundled pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LibraryEntry {
    /// Library name, the file stem (kebab-case), e.g. `gosper-glider-gun`.
    pub name: &'static str,
    /// File name under `assets/patterns/`.
    pub file: &'static str,
    /// The RLE text, compiled in so the library needs no files at run time.
    pub text: &'static str,
}

impl LibraryEntry {
    /// The parsed pattern (the library's tests guarantee every entry parses).
    pub fn pattern(&self) -> Result<Pattern, PatternError> {
        parse(self.text, Some(Format::Rle))
    }
}

/// An entry for `assets/patterns/<stem>.rle`.
macro_rules! entry {
    ($stem:literal) => {
        LibraryEntry {
            name: $stem,
            file: concat!($stem, ".rle"),
            text: include_str!(concat!("../../assets/patterns/", $stem, ".rle")),
        }
    };
}

/// Every bundled pattern, sorted by name.
static LIBRARY: &[LibraryEntry] = &[
    entry!("acorn"),
    entry!("b-heptomino"),
    entry!("beacon"),
    entry!("beehive"),
    entry!("blinker"),
    entry!("block"),
    entry!("boat"),
    entry!("clock"),
    entry!("copperhead"),
    entry!("diehard"),
    entry!("figure-eight"),
    entry!("glider"),
    entry!("gosper-glider-gun"),
    entry!("highlife-replicator"),
    entry!("hwss"),
    entry!("infinite-growth-5x5"),
    entry!("koks-galaxy"),
    entry!("loaf"),
    entry!("lwss"),
    entry!("mwss"),
    entry!("octagon-2"),
    entry!("pentadecathlon"),
    entry!("pi-heptomino"),
    entry!("pond"),
    entry!("pulsar"),
    entry!("r-pentomino"),
    entry!("ship"),
    entry!("simkin-glider-gun"),
    entry!("switch-engine"),
    entry!("toad"),
    entry!("tub"),
    entry!("tumbler"),
];

/// Every bundled pattern, sorted by name.
pub fn library() -> &'static [LibraryEntry] {
    LIBRARY
}

/// `name` lower-cased without `-`, `_`, spaces and apostrophes, for forgiving look-ups.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '\''))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The entry called `name`, case-insensitively and ignoring `-`, `_`, spaces and apostrophes
/// (so `Gosper Glider Gun`, `gosperglidergun` and `gosper-glider-gun` all match).
pub fn entry(name: &str) -> Option<&'static LibraryEntry> {
    let wanted = key(name.trim());
    if wanted.is_empty() {
        return None;
    }
    LIBRARY.iter().find(|e| key(e.name) == wanted)
}

/// The bundled pattern called `name` (matched as by [`entry`]), parsed.
pub fn find(name: &str) -> Option<Pattern> {
    entry(name).and_then(|e| e.pattern().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_unique_and_match_files() {
        assert!(LIBRARY.windows(2).all(|w| w[0].name < w[1].name));
        for e in LIBRARY {
            assert_eq!(e.file, format!("{}.rle", e.name));
            assert!(
                e.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            );
        }
    }

    #[test]
    fn lookups_forgive_case_and_separators() {
        for name in ["Gosper Glider Gun", "gosperglidergun", "GOSPER_glider-gun"] {
            assert_eq!(
                entry(name).map(|e| e.name),
                Some("gosper-glider-gun"),
                "{name}"
            );
        }
        assert_eq!(entry("Kok's galaxy").map(|e| e.name), Some("koks-galaxy"));
        assert!(entry("").is_none());
        assert!(entry("no such pattern").is_none());
    }
}
