//! Where patterns come from: the bundled library of classic patterns compiled into the
//! binary, and pattern files ([`load_file`], [`resolve`]).
//!
//! Each library entry is an RLE file under `assets/patterns/`, named in kebab-case; its library name
//! is the file stem. Every file carries `#N` (display name), `#C` (what it is) and a rule in
//! its header, and its claimed behaviour is checked by simulation in `tests/known_behaviour.rs`.

use std::io::Read;
use std::path::Path;

use super::detect::announced_format;
use super::{Format, MAX_FILE_BYTES, Pattern, PatternError, apgcode, decode_text, parse};

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
    entry!("5x5-infinite-growth"),
    entry!("acorn"),
    entry!("b-heptomino"),
    entry!("beacon"),
    entry!("beehive"),
    entry!("blinker"),
    entry!("block"),
    entry!("boat"),
    entry!("byls-loop"),
    entry!("clock"),
    entry!("copperhead"),
    entry!("diehard"),
    entry!("evoloop-species-13"),
    entry!("figure-eight"),
    entry!("glider"),
    entry!("gosper-glider-gun"),
    entry!("highlife-replicator"),
    entry!("hwss"),
    entry!("koks-galaxy"),
    entry!("langtons-loop"),
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

/// The `#N` display name in an entry's text, if any.
fn display_name(text: &str) -> Option<&str> {
    text.lines()
        .find_map(|l| l.strip_prefix("#N"))
        .map(str::trim)
}

/// The entry called `name` (its file stem or its `#N` display name), case-insensitively and
/// ignoring `-`, `_`, spaces and apostrophes: `Gosper Glider Gun`, `gosperglidergun` and
/// `gosper-glider-gun` all match, and so do `lwss` and `Lightweight spaceship`.
pub fn entry(name: &str) -> Option<&'static LibraryEntry> {
    let wanted = key(name.trim());
    if wanted.is_empty() {
        return None;
    }
    let stem = LIBRARY.iter().find(|e| key(e.name) == wanted);
    stem.or_else(|| {
        LIBRARY
            .iter()
            .find(|e| display_name(e.text).is_some_and(|n| key(n) == wanted))
    })
}

/// The bundled pattern called `name` (matched as by [`entry`]), parsed.
pub fn find(name: &str) -> Option<Pattern> {
    entry(name).and_then(|e| e.pattern().ok())
}

/// Read a pattern file of at most [`MAX_FILE_BYTES`], gzip-compressed or not (told by its
/// first bytes; the decompressed text has the same limit). The format comes from the
/// extension, looking through `.gz` (`.rle`, `.cells`, `.lif`/`.life` — 1.05 or 1.06 by the
/// header —, `.mc`, `.apg`), unless the text announces another (see [`read_text`]); for
/// `.txt`, which several formats use, and unknown extensions it is detected from the content.
/// What reading repaired is in the pattern's warnings.
pub fn load_file(path: &Path) -> Result<Pattern, PatternError> {
    let file = read_text(path)?;
    file.parse(file.format)
}

/// A pattern file's text, as [`read_text`] gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileText {
    /// The text, decompressed; bytes that are not UTF-8 read as Windows-1252.
    pub text: String,
    /// The format to read it as (`None`: detect it from the text).
    pub format: Option<Format>,
    /// What reading the file repaired (bytes that are not UTF-8, a misleading extension).
    pub warnings: Vec<String>,
}

impl FileText {
    /// The text parsed as `format` (detected when `None`), with the file's warnings before
    /// the reader's.
    pub fn parse(&self, format: Option<Format>) -> Result<Pattern, PatternError> {
        let mut pattern = parse(&self.text, format)?;
        pattern.warnings.splice(0..0, self.warnings.iter().cloned());
        Ok(pattern)
    }
}

/// The text of a pattern file (decompressed, at most [`MAX_FILE_BYTES`]) and the format to
/// read it as: the one its extension names (`None` for `.txt` and unknown extensions: detect
/// it from the text), except where the text announces another (a `#Life`, `#MCell` or `[M2]`
/// first line, a `!` plaintext first line, an RLE header): Golly tells formats by their text,
/// so a misnamed file opens as that, with a warning.
pub fn read_text(path: &Path) -> Result<FileText, PatternError> {
    let io = |e: std::io::Error| PatternError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file
        .metadata()
        .map_or(0, |m| m.len())
        .min(MAX_FILE_BYTES + 1);
    let mut bytes = Vec::with_capacity(size as usize + 1);
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(PatternError::TooLarge {
            what: format!("file {} is over {MAX_FILE_BYTES} bytes", path.display()),
            limit: MAX_FILE_BYTES,
        });
    }
    let (text, warning) = decode_text(bytes)?;
    let mut warnings: Vec<String> = warning.into_iter().collect();
    let named = Format::from_path(path).filter(|_| {
        let name = path.to_string_lossy().to_ascii_lowercase();
        !name.trim_end_matches(".gz").ends_with(".txt")
    });
    let format = match (named, announced_format(&text)) {
        (Some(named), Some(told)) if family(named) != family(told) => {
            warnings.push(format!(
                "the file is named .{} but its text is {}: read as {}, as Golly tells formats \
                 by their text",
                named.extension(),
                told.name(),
                told.name()
            ));
            Some(told)
        }
        (named, _) => named,
    };
    Ok(FileText {
        text,
        format,
        warnings,
    })
}

/// Life 1.05 and 1.06 are one family: the reader tells them apart by the header.
fn family(format: Format) -> Format {
    match format {
        Format::Life105 => Format::Life106,
        other => other,
    }
}

/// A bundled pattern by name (matched as by [`entry`]), else an apgcode (`xs4_33`), else a
/// file read by [`load_file`]. A name that is none of these and does not look like a path
/// (no `/` or `\`, no pattern extension) gives [`PatternError::UnknownName`] with the list of
/// bundled names; a missing path gives [`PatternError::Io`].
pub fn resolve(name_or_path: &str) -> Result<Pattern, PatternError> {
    if let Some(pattern) = find(name_or_path) {
        return Ok(pattern);
    }
    let path = Path::new(name_or_path);
    if !path.exists() && apgcode::looks_like(name_or_path.trim()) {
        return apgcode::parse_code(name_or_path.trim());
    }
    let looks_like_path = name_or_path.contains(['/', '\\']) || Format::from_path(path).is_some();
    if path.exists() || looks_like_path {
        return load_file(path);
    }
    Err(PatternError::UnknownName {
        name: name_or_path.to_string(),
        known: LIBRARY.iter().map(|e| e.name.to_string()).collect(),
    })
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
