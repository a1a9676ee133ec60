//! Patterns into the hashed universe: a macrocell file straight into the tree, any other
//! format (or a bundled name, an apgcode) through its cells, at the position the file gives
//! (Golly's coordinates) or centred on the origin.

use std::path::Path;

use thiserror::Error;

use super::{HashError, HashUniverse, Hashed};
use crate::pattern::{self, Format, Pattern, PatternError};
use crate::rule::Rule;

/// Why a pattern could not be opened in the hashed universe.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file (or name) could not be read.
    #[error(transparent)]
    Pattern(#[from] PatternError),
    /// The universe refused the rule or the size.
    #[error(transparent)]
    Hash(#[from] HashError),
    /// The file names a bounded grid, which the hashed universe does not emulate.
    #[error(
        "the pattern's rule names a bounded grid ({grid}); the hashed universe is an unbounded plane: run it on a grid strategy, or drop the suffix to run it unbounded"
    )]
    BoundedGrid {
        /// The grid suffix as written.
        grid: String,
    },
}

/// Open `source` (a bundled name, an apgcode or a file) in a new hashed universe with
/// `limit_bytes` of memory. `rule` overrides the file's rule. Returns the universe and the
/// pattern's metadata (name, comments, rule, generation; no cells).
pub fn open(
    source: &str,
    rule: Option<Rule>,
    limit_bytes: usize,
) -> Result<(Hashed, Pattern), LoadError> {
    let path = Path::new(source);
    // A file is read once: a two-state macrocell file goes straight into the tree; any
    // other file (a multi-state macrocell too: rule tables, Generations) is parsed from
    // the same text into cells for the engine its rule needs. A bundled pattern's name
    // wins over a file of that name, as in `pattern::resolve`.
    let read = if path.is_file() && pattern::library::find(source).is_none() {
        let file = pattern::read_text(path)?;
        let format = match file.format {
            Some(f) => f,
            None => pattern::detect_format(&file.text)?,
        };
        if format == Format::Macrocell {
            let text = &file.text;
            let (mut meta, nodes) =
                pattern::macrocell::parse_tree(text.strip_prefix('\u{feff}').unwrap_or(text))?;
            if !super::any::needs_multi(&rule.or(meta.rule).unwrap_or_default()) {
                meta.warnings.splice(0..0, file.warnings.iter().cloned());
                let u = from_tree(meta.clone(), &nodes, rule, limit_bytes)?;
                return Ok((Hashed::Two(u), meta));
            }
        }
        Some(file.parse(Some(format))?)
    } else {
        None
    };
    let mut pattern = match read {
        Some(pattern) => pattern,
        None => pattern::resolve(source)?,
    };
    check_grid(&pattern)?;
    let mut u = Hashed::new(rule.or(pattern.rule).unwrap_or_default(), limit_bytes)?;
    place(&mut u, &pattern)?;
    u.set_generation(pattern.generation.unwrap_or(0).into());
    pattern.cells = Vec::new();
    Ok((u, pattern))
}

/// A macrocell file's text straight into a new hashed universe (no cell expanded): the
/// reader's syntax, reference and level checks, then the tree. `rule` overrides the file's.
pub fn from_macrocell(
    text: &str,
    rule: Option<Rule>,
    limit_bytes: usize,
) -> Result<(HashUniverse, Pattern), LoadError> {
    let (meta, nodes) =
        pattern::macrocell::parse_tree(text.strip_prefix('\u{feff}').unwrap_or(text))?;
    let u = from_tree(meta.clone(), &nodes, rule, limit_bytes)?;
    Ok((u, meta))
}

/// A parsed macrocell tree into a new two-state hashed universe.
fn from_tree(
    meta: Pattern,
    nodes: &[pattern::macrocell_tree::Node],
    rule: Option<Rule>,
    limit_bytes: usize,
) -> Result<HashUniverse, LoadError> {
    check_grid(&meta)?;
    let mut u = HashUniverse::new(rule.or(meta.rule).unwrap_or_default(), limit_bytes)?;
    u.load_macrocell(nodes)?;
    u.set_generation(meta.generation.unwrap_or(0).into());
    Ok(u)
}

/// Put `pattern`'s cells (live, and dying under Generations) into `u` (replacing its
/// cells): at the file's position, or with its top-left cell at the origin as Golly's
/// readers put a pattern without one in an unbounded universe (the grid opens it the same
/// way: sim/growth.rs `world_for`).
pub fn place(u: &mut Hashed, pattern: &Pattern) -> Result<(), HashError> {
    let (x0, y0) = pattern
        .position
        .map_or((0, 0), |(x, y)| (i128::from(x), i128::from(y)));
    let at = |x: u32, y: u32| (x0 + i128::from(x), y0 + i128::from(y));
    let live = pattern.cells.iter().map(|&(x, y)| {
        let (x, y) = at(x, y);
        (x, y, 1)
    });
    let dying = pattern.dying.iter().map(|&(x, y, s)| {
        let (x, y) = at(x, y);
        (x, y, s)
    });
    u.load_states(live.chain(dying))
}

fn check_grid(pattern: &Pattern) -> Result<(), LoadError> {
    match &pattern.grid {
        Some(grid) => Err(LoadError::BoundedGrid {
            grid: grid.suffix(),
        }),
        None => Ok(()),
    }
}

/// The universe as a [`Pattern`] for the writers of every format but macrocell: refused
/// with the size when it holds more cells or a wider box than a pattern may
/// ([`pattern::MAX_PATTERN_CELLS`], [`pattern::MAX_PATTERN_EDGE`]).
pub fn to_pattern(u: &Hashed) -> Result<Pattern, PatternError> {
    let mut out = Pattern {
        rule: Some(u.rule()),
        generation: u64::try_from(u.generation()).ok(),
        ..Pattern::default()
    };
    let Some(b) = u.bounds() else {
        return Ok(out);
    };
    let population = u.occupied();
    if population > pattern::MAX_PATTERN_CELLS as u128 {
        return Err(PatternError::TooLarge {
            what: format!("{population} live cells (save it as macrocell, .mc)"),
            limit: pattern::MAX_PATTERN_CELLS as u64,
        });
    }
    let edge = b.width().max(b.height());
    if edge > u128::from(pattern::MAX_PATTERN_EDGE) {
        return Err(PatternError::TooLarge {
            what: format!(
                "a {} x {} box (save it as macrocell, .mc)",
                b.width(),
                b.height()
            ),
            limit: u64::from(pattern::MAX_PATTERN_EDGE),
        });
    }
    out.width = b.width() as u32;
    out.height = b.height() as u32;
    out.position = Some((b.x0 as i64, b.y0 as i64));
    for (x, y, state) in u.states_in(b) {
        let (x, y) = ((x - b.x0) as u32, (y - b.y0) as u32);
        if state == 1 {
            out.cells.push((x, y));
        } else {
            out.dying.push((x, y, state));
        }
    }
    out.cells.sort_unstable_by_key(|&(x, y)| (y, x));
    out.dying.sort_unstable_by_key(|&(x, y, _)| (y, x));
    Ok(out)
}

/// Save the universe to `path` in the format its extension names (macrocell straight from
/// the tree, whatever its size; the others through [`to_pattern`]), gzip-compressed for
/// `.gz`, with `meta`'s name, author and comments (a macrocell file keeps the comments).
/// Returns the format written.
pub fn save(u: &Hashed, path: &Path, meta: &Pattern) -> Result<Format, PatternError> {
    let format = Format::from_path(path).unwrap_or(Format::Rle);
    let with_meta = |mut p: Pattern| {
        p.name.clone_from(&meta.name);
        p.author.clone_from(&meta.author);
        p.comments.clone_from(&meta.comments);
        p
    };
    let text = if format == Format::Macrocell {
        match u {
            Hashed::Two(u) => u.to_macrocell(&meta.comments),
            // Multi-state planes through their cells (Golly's 2×2 state leaves).
            Hashed::Multi(_) => with_meta(to_pattern(u)?).to_macrocell(),
        }
    } else {
        with_meta(to_pattern(u)?).to_format(format)?
    };
    pattern::write_text(&text, path)?;
    Ok(format)
}
