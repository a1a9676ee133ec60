//! Pattern files and the bundled pattern library: RLE (with Golly's `#CXRLE` line, bounded-grid
//! rule suffixes and LifeHistory states), plaintext `.cells`, Life 1.05 and 1.06, Golly's
//! macrocell, Catagolue's apgcodes, and any of them gzip-compressed.
//!
//! A [`Pattern`] is a rectangle of cells with its live cells listed in row-major order, plus
//! the metadata the formats carry (name, author, comments, rule, position, generation,
//! bounded grid). Readers never panic and keep memory bounded whatever the input: sizes
//! beyond [`MAX_PATTERN_EDGE`], more than [`MAX_PATTERN_CELLS`] live cells or files over
//! [`MAX_FILE_BYTES`] (compressed or not) are refused with [`PatternError::TooLarge`], and
//! malformed text gets a [`PatternError::Syntax`] naming the 1-based line and column of the
//! problem (binary input a [`PatternError::Corrupt`] naming the byte offset).

pub mod apgcode;
mod apgcode_classify;
mod compressed;
mod detect;
pub mod library;
mod life105;
mod life106;
mod macrocell;
mod macrocell_write;
mod plaintext;
mod rle;
mod rle_write;
mod rule_text;

use std::borrow::Cow;
use std::path::Path;

pub use compressed::{decode_bytes, is_gzip, save_file};
pub use detect::parse;
pub use library::{load_file, resolve};
pub use rule_text::Grid;

use thiserror::Error;

use crate::rule::Rule;
use crate::world::{CellEdit, MAX_EDGE, World};

/// Largest pattern edge accepted: the same as the largest world edge, so any pattern fits
/// the largest world.
pub const MAX_PATTERN_EDGE: u32 = MAX_EDGE;

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
    /// Where the box's top-left cell lies in Golly's coordinates (origin at the centre of the
    /// universe, `y` down): `#CXRLE Pos=`, the macrocell root's placement, Life 1.05/1.06
    /// coordinates. `None` when the file gave none; writers then centre the box on the origin.
    pub position: Option<(i64, i64)>,
    /// The generation the file was saved at (`#CXRLE Gen=`, macrocell `#G`).
    pub generation: Option<u64>,
    /// The bounded grid the rule named (`B3/S23:T72,48` torus, `:P100,80` dead border).
    pub grid: Option<Grid>,
    /// What the reader changed to make the file a two-state pattern (LifeHistory states read
    /// as live or dead, …), for the user to see; empty for a faithful read.
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
}

impl Format {
    /// Every format, in the order the user guide lists them.
    pub const ALL: [Format; 6] = [
        Format::Rle,
        Format::Plaintext,
        Format::Life105,
        Format::Life106,
        Format::Macrocell,
        Format::Apgcode,
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

/// The bounding box `(x0, y0, x1, y1)` (inclusive) of the world's live cells, walking
/// rows as slices (a large world has tens of millions of cells); `None` when all are dead.
fn live_box(world: &World) -> Option<(u32, u32, u32, u32)> {
    let width = (world.width() as usize).max(1);
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, row) in world.ages().chunks(width).enumerate() {
        let Some(first) = row.iter().position(|&a| a > 0) else {
            continue;
        };
        let last = row.iter().rposition(|&a| a > 0).unwrap_or(first);
        (x0, y0, x1, y1) = (x0.min(first), y0.min(y), x1.max(last), y);
    }
    (x0 != usize::MAX).then_some((x0 as u32, y0 as u32, x1 as u32, y1 as u32))
}

/// Where to put a pattern in a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Placement {
    /// The pattern's box centred in the world (rounded towards the top-left).
    #[default]
    Centred,
    /// The pattern's top-left corner at world cell `(x, y)`; may be negative or outside.
    At {
        /// Column of the pattern's left edge.
        x: i64,
        /// Row of the pattern's top edge.
        y: i64,
    },
}

/// What [`Pattern::place`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceReport {
    /// Live cells of the pattern now alive in the world.
    pub placed: usize,
    /// Live cells of the pattern that fell outside the world and were dropped.
    pub clipped: usize,
    /// World column where the pattern's left edge went.
    pub x: i64,
    /// World row where the pattern's top edge went.
    pub y: i64,
    /// Width of the world placed into (for the warning).
    pub world_width: u32,
    /// Height of the world placed into (for the warning).
    pub world_height: u32,
}

impl PlaceReport {
    /// A warning for the user when cells were clipped, so partial placement is never silent.
    pub fn warning(&self) -> Option<String> {
        (self.clipped > 0).then(|| {
            format!(
                "{} cell{} of the pattern fell outside the {}x{} world and {} clipped",
                self.clipped,
                if self.clipped == 1 { "" } else { "s" },
                self.world_width,
                self.world_height,
                if self.clipped == 1 { "was" } else { "were" },
            )
        })
    }
}

impl Pattern {
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

    /// The pattern as text in `format`. Every format but [`Format::Apgcode`] always succeeds;
    /// an apgcode needs the pattern to be one still life, oscillator or spaceship, and Life
    /// 1.05 is read but written as Life 1.06.
    pub fn to_format(&self, format: Format) -> Result<String, PatternError> {
        Ok(match format {
            Format::Rle => self.to_rle(),
            Format::Plaintext => self.to_plaintext(),
            Format::Life105 | Format::Life106 => self.to_life106(),
            Format::Macrocell => self.to_macrocell(),
            Format::Apgcode => format!("{}\n", apgcode::classify(self)?),
        })
    }

    /// Golly's coordinates of the box's top-left: [`Pattern::position`], else the box centred
    /// on the origin (as Golly places a pattern without a position).
    pub fn origin(&self) -> (i64, i64) {
        self.position
            .unwrap_or((-i64::from(self.width / 2), -i64::from(self.height / 2)))
    }

    /// The bounding box of the world's live cells (0×0 with no cells for an empty world),
    /// with the world's rule, for saving what is on screen.
    pub fn from_world(world: &World) -> Pattern {
        let Some((x0, y0, x1, y1)) = live_box(world) else {
            return Pattern {
                rule: Some(world.rule),
                ..Pattern::default()
            };
        };
        Pattern::from_region(world, x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }

    /// The whole world as a file keeps it: [`Pattern::from_world`] plus the world's size and
    /// topology as a bounded grid, its generation, and the box's position relative to the
    /// world's centre (Golly's origin of a bounded grid), so that golab and Golly reopen the
    /// cells where they were.
    pub fn of_world(world: &World) -> Pattern {
        let mut pattern = Pattern::from_world(world);
        pattern.grid = Some(Grid {
            width: world.width(),
            height: world.height(),
            topology: world.topology,
        });
        pattern.generation = (world.generation > 0).then_some(world.generation);
        if let Some((x0, y0, _, _)) = live_box(world) {
            let (x0, y0) = (i64::from(x0), i64::from(y0));
            pattern.position = Some((
                x0 - i64::from(world.width() / 2),
                y0 - i64::from(world.height() / 2),
            ));
        }
        pattern
    }

    /// The `w × h` region with top-left `(x, y)`, clipped to the world (no wrapping), with the
    /// world's rule: the box keeps the region's size, dead margins included, for selections.
    pub fn from_region(world: &World, x: u32, y: u32, w: u32, h: u32) -> Pattern {
        let x0 = x.min(world.width());
        let y0 = y.min(world.height());
        let x1 = (u64::from(x) + u64::from(w)).min(u64::from(world.width())) as u32;
        let y1 = (u64::from(y) + u64::from(h)).min(u64::from(world.height())) as u32;
        let width = world.width() as usize;
        let row = |wy: u32| &world.ages()[wy as usize * width..][x0 as usize..x1 as usize];
        // Counting first costs a fast pass; growing a vector of tens of millions of cells
        // by doubling costs more (the kernel zeroes every page it touches).
        let count: usize = (y0..y1)
            .map(|wy| row(wy).iter().filter(|a| **a > 0).count())
            .sum();
        let mut cells = Vec::with_capacity(count);
        for wy in y0..y1 {
            for (i, _) in row(wy).iter().enumerate().filter(|(_, a)| **a > 0) {
                cells.push((i as u32, wy - y0));
            }
        }
        Pattern {
            rule: Some(world.rule),
            width: x1 - x0,
            height: y1 - y0,
            cells,
            ..Pattern::default()
        }
    }

    /// One edit per cell of the pattern's box that lies in a `world_w × world_h` world when
    /// its top-left is at `(x, y)`, in row-major order: live cells painted and dead ones
    /// erased, so applying them makes the box exactly the pattern. Cells outside the world
    /// are dropped, not wrapped; the second value counts the live ones dropped.
    pub fn edits_at(&self, x: i64, y: i64, world_w: u32, world_h: u32) -> (Vec<CellEdit>, usize) {
        let mut edits = Vec::new();
        let clipped = self.for_each_edit(x, y, world_w, world_h, |e| edits.push(e));
        (edits, clipped)
    }

    /// Calls `apply` with the edits of [`Pattern::edits_at`] and returns the clipped count.
    fn for_each_edit(
        &self,
        x: i64,
        y: i64,
        ww: u32,
        wh: u32,
        mut apply: impl FnMut(CellEdit),
    ) -> usize {
        let cells = self.clean_cells();
        let in_world = |&(cx, cy): &(u32, u32)| {
            (0..i64::from(ww)).contains(&x.saturating_add(cx.into()))
                && (0..i64::from(wh)).contains(&y.saturating_add(cy.into()))
        };
        let clipped = cells.iter().filter(|c| !in_world(c)).count();
        // Saturating: `x`, `y` come from callers and may be anything; a box that starts far
        // outside gives an empty range, so `wx - x` below stays small.
        let xs = x.clamp(0, ww.into())..x.saturating_add(self.width.into()).clamp(0, ww.into());
        let ys = y.clamp(0, wh.into())..y.saturating_add(self.height.into()).clamp(0, wh.into());
        let mut live = cells.iter().filter(|c| in_world(c)).peekable();
        for wy in ys {
            for wx in xs.clone() {
                let here = ((wx - x) as u32, (wy - y) as u32);
                let alive = live.next_if(|&&c| c == here).is_some();
                apply(CellEdit {
                    x: wx as u32,
                    y: wy as u32,
                    alive,
                });
            }
        }
        clipped
    }

    /// Put the pattern into `world`: the part of its box inside the world becomes exactly the
    /// pattern (dead cells of the box are erased; cells alive before and after keep their
    /// age). Cells outside the world are clipped and counted. The world's rule is not changed.
    pub fn place(&self, world: &mut World, placement: Placement) -> PlaceReport {
        let (ww, wh) = (world.width(), world.height());
        let (x, y) = match placement {
            Placement::Centred => (
                (i64::from(ww) - i64::from(self.width)).div_euclid(2),
                (i64::from(wh) - i64::from(self.height)).div_euclid(2),
            ),
            Placement::At { x, y } => (x, y),
        };
        let mut placed = 0;
        let clipped = self.for_each_edit(x, y, ww, wh, |e| {
            placed += usize::from(e.alive);
            world.apply_edit(e);
        });
        PlaceReport {
            placed,
            clipped,
            x,
            y,
            world_width: ww,
            world_height: wh,
        }
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
