//! Pattern files and the bundled pattern library: RLE (with Golly's `#CXRLE` line, bounded-grid
//! rule suffixes and many-state cells), plaintext `.cells`, Life 1.05 and 1.06, Golly's
//! macrocell, Catagolue's apgcodes, and any of them gzip-compressed.
//!
//! A [`Pattern`] is a rectangle of cells with its live cells listed in row-major order, plus
//! the metadata the formats carry (name, author, comments, rule, position, generation,
//! bounded grid). Readers are as lenient as Golly's: what Golly reads opens (a header's
//! size is a hint, characters Golly skips are skipped, bytes that are not UTF-8 read as
//! Windows-1252), each repair named with its line and column in [`Pattern::warnings`]; where
//! Golly makes nothing of a file (a BOM, `*` in a `.cells` file) golab reads what it means,
//! also with a warning (docs/user-guide.md, "What golab accepts as Golly does", lists them).
//! Readers never panic and keep memory bounded whatever the input: sizes beyond
//! [`MAX_PATTERN_EDGE`], more than [`MAX_PATTERN_CELLS`] live cells or files over
//! [`MAX_FILE_BYTES`] (compressed or not) are refused with [`PatternError::TooLarge`], and
//! text Golly refuses gets a [`PatternError::Syntax`] naming the 1-based line and column of
//! the problem (binary input a [`PatternError::Corrupt`] naming the byte offset).

pub mod apgcode;
pub(crate) mod apgcode_classify;
mod bundle;
mod compressed;
mod detect;
mod encoding;
mod from_world;
pub mod identify;
pub mod library;
mod life106;
mod life_read;
pub(crate) mod macrocell;
pub(crate) mod macrocell_tree;
pub(crate) mod macrocell_write;
mod mcell;
mod notes;
mod place;
mod plaintext;
mod plaintext_write;
mod rle;
mod rle_body;
mod rle_header;
mod rle_write;
mod rule_text;

use std::borrow::Cow;
use std::path::Path;

pub use compressed::{decode_bytes, decode_text, is_gzip, save_file, write_text};
pub use detect::{detect_format, parse};
pub use library::{FileText, load_file, read_text, resolve};
pub use macrocell_tree::Node as MacrocellNode;
pub use place::{PlaceReport, Placement};
pub use rule_text::Grid;

use thiserror::Error;

use crate::rule::Rule;

/// Largest pattern edge accepted: 2^30. A pattern lists its cells, so a wide box costs
/// nothing until cells are placed; a grid holds at most [`crate::world::MAX_EDGE`] a side (a wider
/// pattern opens on the unbounded plane), and Golly's collection has patterns 210 515 cells
/// wide.
pub const MAX_PATTERN_EDGE: u32 = 1 << 30;

/// Most live cells a pattern may hold (64 Mi): bounds the memory a reader can be made to use.
pub const MAX_PATTERN_CELLS: usize = 64 << 20;

/// Largest pattern file [`load_file`] reads (256 MiB, and the same once decompressed), so a
/// wrong path or a compression bomb cannot exhaust memory; an 8192² soup is about 52 MB as
/// RLE and 70 MB as macrocell, both well inside.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// A pattern: a `width × height` box of cells and the metadata its file carried.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pattern {
    /// Name (`#N` in RLE, `!Name:` in plaintext).
    pub name: Option<String>,
    /// Author or discoverer (`#O` in RLE, `!Author:` in plaintext).
    pub author: Option<String>,
    /// Free comment lines, blank ones dropped.
    pub comments: Vec<String>,
    /// The rule the pattern was written for, if its file named one.
    pub rule: Option<Rule>,
    /// Width of the box in cells.
    pub width: u32,
    /// Height of the box in cells.
    pub height: u32,
    /// Live cells `(x, y)` inside the box, sorted row-major (by `y`, then `x`), no duplicates.
    /// Readers and transforms keep this invariant; writers and placement tolerate a broken
    /// one (cells outside the box are dropped, order and duplicates are fixed).
    pub cells: Vec<(u32, u32)>,
    /// Dying cells `(x, y, state)` of a Generations pattern (states 2..C-1, RLE letters `B`
    /// onwards), sorted row-major, none where a cell is live; empty for two-state patterns.
    pub dying: Vec<(u32, u32, u8)>,
    /// Where the box's top-left cell lies in Golly's coordinates (origin at the centre of the
    /// universe, `y` down): `#CXRLE Pos=`, the macrocell root's placement, Life 1.05/1.06
    /// coordinates. `None` when the file gave none; writers then centre the box on the origin.
    pub position: Option<(i64, i64)>,
    /// The generation the file was saved at (`#CXRLE Gen=`, macrocell `#G`).
    pub generation: Option<u64>,
    /// The bounded grid the rule named (`B3/S23:T72,48` torus, `:P100,80` dead border).
    pub grid: Option<Grid>,
    /// What the reader changed to make the file one golab runs (clipped cells, MCell's
    /// states beyond the rule's, cells beyond an RLE header's size, characters skipped as
    /// Golly skips them, …), each with its line and column where it has one, for the user to
    /// see; empty for a faithful read.
    pub warnings: Vec<String>,
}

/// A pattern file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Run-length encoded (`.rle`), the common exchange format; carries the rule.
    Rle,
    /// Plaintext rows of `.` and `O` (`.cells`), readable by eye.
    Plaintext,
    /// Life 1.05 (`#Life 1.05`): `#P x y` blocks of `.`/`*` rows.
    Life105,
    /// Life 1.06 (`#Life 1.06`): one `x y` live cell per line.
    Life106,
    /// Golly's macrocell (`[M2]`): a quadtree of 8×8 leaves, for large and regular patterns.
    Macrocell,
    /// Catagolue's apgcode (`xs4_33`, `xp2_7`, `xq4_153`): one object in extended Wechsler form.
    Apgcode,
    /// MCell (`.mcl`, `#MCell` first line): read only, as Golly reads it.
    MCell,
}

impl Format {
    /// Every format, in the order the user guide lists them.
    pub const ALL: [Format; 7] = [
        Format::Rle,
        Format::Plaintext,
        Format::Life105,
        Format::Life106,
        Format::Macrocell,
        Format::Apgcode,
        Format::MCell,
    ];

    /// The format a file's extension names, case-insensitive, looking through a final `.gz`:
    /// `.rle`; `.cells` or `.txt` (plaintext); `.lif` or `.life` (Life 1.06 when writing; the
    /// reader tells 1.05 from 1.06 by the header); `.mc`; `.apg` (an apgcode).
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let (_, ext) = name.rsplit_once('.')?;
        match ext {
            "rle" => Some(Format::Rle),
            "cells" | "txt" => Some(Format::Plaintext),
            "lif" | "life" => Some(Format::Life106),
            "mc" => Some(Format::Macrocell),
            "apg" => Some(Format::Apgcode),
            "mcl" => Some(Format::MCell),
            _ => None,
        }
    }

    /// Short name for messages and the CLI.
    pub fn name(self) -> &'static str {
        match self {
            Format::Rle => "rle",
            Format::Plaintext => "plaintext",
            Format::Life105 => "life 1.05",
            Format::Life106 => "life 1.06",
            Format::Macrocell => "macrocell",
            Format::Apgcode => "apgcode",
            Format::MCell => "mcell",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Rle => "rle",
            Format::Plaintext => "cells",
            Format::Life105 | Format::Life106 => "lif",
            Format::Macrocell => "mc",
            Format::Apgcode => "apg",
            Format::MCell => "mcl",
        }
    }
}

/// Why a pattern could not be read, found or loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PatternError {
    /// Malformed text, at a 1-based line and column (columns count characters, not bytes).
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A declared or actual size, cell count or file size over golab's limits.
    #[error("pattern too large: {what} (the limit is {limit})")]
    TooLarge {
        /// What was too large, with the offending value.
        what: String,
        /// The limit it exceeded.
        limit: u64,
    },
    /// The text holds nothing (empty or only whitespace).
    #[error(
        "the pattern is empty: expected an RLE header (x = WIDTH, y = HEIGHT) or plaintext rows of '.' and 'O'"
    )]
    Empty,
    /// The file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path as given.
        path: String,
        /// The operating system's reason.
        message: String,
    },
    /// Binary input (gzip) that is damaged, truncated or not what it claims, at a byte offset
    /// of the compressed stream.
    #[error("byte {offset}: {message}")]
    Corrupt {
        /// 0-based offset in the file's bytes where reading stopped.
        offset: u64,
        /// What is wrong there.
        message: String,
    },
    /// A pattern golab cannot represent (a surface other than a torus or plane, a rule with
    /// more states, an apgcode for something that is not one object…), with the reason.
    #[error("{0}")]
    Unsupported(String),
    /// Neither a bundled pattern nor an existing file.
    #[error("unknown pattern '{name}': not a bundled pattern or a file; bundled patterns: {list}", list = known.join(", "))]
    UnknownName {
        /// The name as given.
        name: String,
        /// Every bundled pattern name.
        known: Vec<String>,
    },
}

/// Build a [`PatternError::Syntax`].
pub(crate) fn syntax(line: usize, column: usize, message: impl Into<String>) -> PatternError {
    PatternError::Syntax {
        line,
        column,
        message: message.into(),
    }
}

impl Pattern {
    /// The pattern of `cells` in their tightest box: moved to the origin, sorted row-major,
    /// without duplicates (an empty pattern is 0 × 0). Everything else is the default.
    pub fn fitted(cells: impl IntoIterator<Item = (u32, u32)>) -> Pattern {
        let mut cells: Vec<(u32, u32)> = cells.into_iter().collect();
        let x0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let y0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
        for c in &mut cells {
            *c = (c.0 - x0, c.1 - y0);
        }
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        cells.dedup();
        Pattern {
            width: cells.iter().map(|c| c.0 + 1).max().unwrap_or(0),
            height: cells.iter().map(|c| c.1 + 1).max().unwrap_or(0),
            cells,
            ..Pattern::default()
        }
    }

    /// Number of live cells.
    pub fn population(&self) -> usize {
        self.clean_cells().len()
    }

    /// The live cells with the invariant enforced (borrowed when it already holds).
    pub(super) fn clean_cells(&self) -> Cow<'_, [(u32, u32)]> {
        let inside = |&(x, y): &(u32, u32)| x < self.width && y < self.height;
        let sorted = self
            .cells
            .windows(2)
            .all(|p| (p[0].1, p[0].0) < (p[1].1, p[1].0));
        if sorted && self.cells.iter().all(inside) {
            return Cow::Borrowed(&self.cells);
        }
        let mut cells: Vec<_> = self.cells.iter().copied().filter(inside).collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        cells.dedup();
        Cow::Owned(cells)
    }

    /// The dying cells inside the box, sorted row-major, without duplicates or live cells.
    pub(super) fn clean_dying(&self) -> Vec<(u32, u32, u8)> {
        if self.dying.is_empty() {
            return Vec::new(); // two-state patterns: no second pass over the live cells
        }
        let live = self.clean_cells();
        let mut dying: Vec<_> = self
            .dying
            .iter()
            .copied()
            .filter(|&(x, y, s)| {
                x < self.width
                    && y < self.height
                    && s >= 2
                    && live
                        .binary_search_by_key(&(y, x), |&(cx, cy)| (cy, cx))
                        .is_err()
            })
            .collect();
        dying.sort_unstable_by_key(|&(x, y, _)| (y, x));
        dying.dedup_by_key(|&mut (x, y, _)| (x, y));
        dying
    }

    /// The pattern as text in `format`. Every format but [`Format::Apgcode`] succeeds for
    /// two-state patterns;
    /// an apgcode needs the pattern to be one still life, oscillator or spaceship, and Life
    /// 1.05 is read but written as Life 1.06. States 2 and up (Generations, rule tables) are
    /// kept by RLE and macrocell only;
    /// the other formats refuse them rather than drop them.
    pub fn to_format(&self, format: Format) -> Result<String, PatternError> {
        let dying = self.dying.len();
        if dying > 0 && !matches!(format, Format::Rle | Format::Macrocell) {
            return Err(PatternError::Unsupported(format!(
                "{} holds live cells only; save as RLE (.rle) or macrocell (.mc) to keep the \
                 {dying} cell{} in states 2 and up (Generations' dying cells, a rule table's states)",
                format.name(),
                if dying == 1 { "" } else { "s" }
            )));
        }
        Ok(match format {
            Format::Rle => self.to_rle(),
            Format::Plaintext => self.to_plaintext(),
            Format::Life105 | Format::Life106 => self.to_life106(),
            Format::Macrocell => self.to_macrocell(),
            Format::Apgcode => format!("{}\n", apgcode::classify(self)?),
            Format::MCell => {
                return Err(PatternError::Unsupported(
                    "golab reads MCell files but does not write them; save as RLE (.rle), which Golly and MCell read".into(),
                ));
            }
        })
    }

    /// Golly's coordinates of the box's top-left: [`Pattern::position`], else the box centred
    /// on the origin (as Golly places a pattern without a position).
    pub fn origin(&self) -> (i64, i64) {
        self.position
            .unwrap_or((-i64::from(self.width / 2), -i64::from(self.height / 2)))
    }

    /// A copy with cells mapped by `f` into a `width × height` box, re-sorted.
    fn mapped(&self, width: u32, height: u32, f: impl Fn(u32, u32) -> (u32, u32)) -> Pattern {
        let mut cells: Vec<_> = self.clean_cells().iter().map(|&(x, y)| f(x, y)).collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        Pattern {
            width,
            height,
            cells,
            position: None,
            ..self.clone()
        }
    }

    /// Rotated a quarter turn clockwise: the box becomes `height × width`.
    pub fn rotated_cw(&self) -> Pattern {
        let h = self.height;
        self.mapped(self.height, self.width, |x, y| (h - 1 - y, x))
    }

    /// Mirrored left-right (each `x` becomes `width - 1 - x`).
    pub fn flipped_x(&self) -> Pattern {
        let w = self.width;
        self.mapped(self.width, self.height, |x, y| (w - 1 - x, y))
    }

    /// Mirrored top-bottom (each `y` becomes `height - 1 - y`).
    pub fn flipped_y(&self) -> Pattern {
        let h = self.height;
        self.mapped(self.width, self.height, |x, y| (x, h - 1 - y))
    }
}
