//! MCell files (`.mcl`, `#MCell` first line), read as Golly reads them (its `readmcell`):
//! `#GOLLY rule` or `#RULE rule` names the rule (the first one seen wins; MCell's own
//! comma lists for Life and HistoricalLife are read as B3/S23 and LifeHistory), `#BOARD
//! WxH` bounds the grid (a torus with `#WRAP 1`, else a plane with a dead border), `#D`
//! lines describe, and `#L` lines hold the cells: runs of `.` (empty), `$` (next row) and
//! states `A`..`X` (1–24), with a prefix `a`..`j` adding 24 each (up to 255). Other lines
//! (`#GAME`, `#SPEED`, `#PALETTE`, …) are display settings and are skipped. A pattern on a
//! board is centred on it as MCell centres it.

use super::rule_text::{CellRead, Grid, parse_rule};
use super::{MAX_PATTERN_EDGE, Pattern, PatternError, syntax};
use crate::world::Topology;

/// Most cells an MCell file may hold (its boards are at most a few thousand cells wide).
const MAX_CELLS: usize = 1 << 26;

/// Parse MCell text.
pub(super) fn parse(text: &str) -> Result<Pattern, PatternError> {
    let mut pattern = Pattern::default();
    let mut board: Option<(u32, u32)> = None;
    let mut wrap = false;
    let mut rule_seen = false;
    let mut history_states = false;
    let mut cells: Vec<(i64, i64, u8)> = Vec::new();
    let (mut x, mut y) = (0i64, 0i64);
    let mut states = super::rule_text::CellStates::default();
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim_end();
        if let Some(body) = line.strip_prefix("#L ") {
            read_row(body, line_no, &mut x, &mut y, board, &mut cells)?;
            if cells.len() > MAX_CELLS {
                return Err(PatternError::TooLarge {
                    what: format!("{} cells in an MCell file", cells.len()),
                    limit: MAX_CELLS as u64,
                });
            }
        } else if let Some(rest) = line.strip_prefix("#BOARD ") {
            let size = rest.trim();
            let parsed = size.split_once(['x', 'X']).and_then(|(w, h)| {
                Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?))
            });
            let Some((w, h)) = parsed
                .filter(|&(w, h)| w > 0 && h > 0 && w <= MAX_PATTERN_EDGE && h <= MAX_PATTERN_EDGE)
            else {
                return Err(syntax(
                    line_no,
                    8,
                    format!("#BOARD takes WIDTHxHEIGHT, not '{size}'"),
                ));
            };
            board = Some((w, h));
            x = -i64::from(w / 2);
            y = -i64::from(h / 2);
        } else if let Some(rest) = line.strip_prefix("#WRAP ") {
            wrap = rest.trim().starts_with('1');
        } else if let Some(rest) = line.strip_prefix("#D") {
            let comment = rest.strip_prefix(' ').unwrap_or(rest).trim_end();
            if !comment.is_empty() {
                pattern.comments.push(comment.to_string());
            }
        } else if let Some(rest) = (!rule_seen)
            .then(|| {
                line.strip_prefix("#GOLLY")
                    .or_else(|| line.strip_prefix("#RULE"))
            })
            .flatten()
        {
            let word = rest.split_whitespace().next().unwrap_or("");
            let column = line.len() - rest.trim_start().len() + 1;
            let rule_text = if word
                .starts_with("1,0,1,0,0,0,1,0,0,0,0,0,0,2,2,1,1,2,2,2,2,2,0,2,2,2,1,2,2,2,2,2")
            {
                history_states = true;
                "LifeHistory"
            } else if word.starts_with("1,0,0,0,0,0,1,0,0,0,0,0,0,0,0,1,1") {
                "B3/S23"
            } else {
                word
            };
            let spec = parse_rule(rule_text)
                .map_err(|(offset, message)| syntax(line_no, column + offset, message))?;
            pattern.rule = Some(spec.rule);
            states = spec.cell_states();
            rule_seen = true;
        }
    }
    if history_states {
        pattern
            .warnings
            .push("MCell's HistoricalLife states are read as LifeHistory's".into());
    }
    finish(&mut pattern, cells, states, board, wrap)?;
    Ok(pattern)
}

/// One `#L` line's runs, continuing at (`x`, `y`).
fn read_row(
    body: &str,
    line_no: usize,
    x: &mut i64,
    y: &mut i64,
    board: Option<(u32, u32)>,
    cells: &mut Vec<(i64, i64, u8)>,
) -> Result<(), PatternError> {
    let mut count: i64 = 0;
    let mut prefix: u32 = 0;
    for (i, c) in body.chars().enumerate() {
        let column = i + 4;
        match c {
            '0'..='9' => {
                count = count
                    .saturating_mul(10)
                    .saturating_add(i64::from(c as u8 - b'0'));
                if count > i64::from(MAX_PATTERN_EDGE) {
                    return Err(syntax(
                        line_no,
                        column,
                        "run count beyond golab's pattern size",
                    ));
                }
            }
            '.' => {
                *x += count.max(1);
                count = 0;
            }
            '$' => {
                *x = -board.map_or(0, |(w, _)| i64::from(w / 2));
                *y += count.max(1);
                count = 0;
            }
            'a'..='j' if prefix == 0 => prefix = 24 * (u32::from(c as u8 - b'a') + 1),
            'A'..='X' => {
                let state = prefix + u32::from(c as u8 - b'A') + 1;
                if state > 255 {
                    return Err(syntax(
                        line_no,
                        column,
                        format!("state {state} is beyond 255"),
                    ));
                }
                for _ in 0..count.max(1) {
                    cells.push((*x, *y, state as u8));
                    *x += 1;
                }
                count = 0;
                prefix = 0;
            }
            c if c <= ' ' => {}
            c => {
                return Err(syntax(
                    line_no,
                    column,
                    format!("'{c}' is not an MCell state, '.' or '$'"),
                ));
            }
        }
    }
    if prefix != 0 {
        return Err(syntax(
            line_no,
            body.len() + 3,
            "a state prefix a-j must be followed by A-X",
        ));
    }
    Ok(())
}

/// Box, cells by state, position and grid from the cells read.
fn finish(
    pattern: &mut Pattern,
    mut cells: Vec<(i64, i64, u8)>,
    states: super::rule_text::CellStates,
    board: Option<(u32, u32)>,
    wrap: bool,
) -> Result<(), PatternError> {
    let (left, top, right, bottom) = cells.iter().fold(
        (i64::MAX, i64::MAX, i64::MIN, i64::MIN),
        |(l, t, r, b), &(x, y, _)| (l.min(x), t.min(y), r.max(x), b.max(y)),
    );
    if let Some((w, h)) = board {
        pattern.grid = Some(Grid {
            width: w,
            height: h,
            topology: if wrap {
                Topology::Torus
            } else {
                Topology::DeadBorder
            },
        });
        // Centred on the board as MCell does (Golly's shift, one more than half the slack).
        if !cells.is_empty() {
            let shift_x = ((i64::from(w) + 1 - (right - left + 1)) / 2).max(0);
            let shift_y = ((i64::from(h) + 1 - (bottom - top + 1)) / 2).max(0);
            let (dx, dy) = (
                -i64::from(w / 2) + shift_x - left,
                -i64::from(h / 2) + shift_y - top,
            );
            for c in &mut cells {
                c.0 += dx;
                c.1 += dy;
            }
            return finish_cells(
                pattern,
                cells,
                states,
                (left + dx, top + dy),
                (right - left + 1, bottom - top + 1),
            );
        }
    }
    if cells.is_empty() {
        pattern.width = 0;
        pattern.height = 0;
        return Ok(());
    }
    finish_cells(
        pattern,
        cells,
        states,
        (left, top),
        (right - left + 1, bottom - top + 1),
    )
}

fn finish_cells(
    pattern: &mut Pattern,
    cells: Vec<(i64, i64, u8)>,
    states: super::rule_text::CellStates,
    (left, top): (i64, i64),
    (width, height): (i64, i64),
) -> Result<(), PatternError> {
    if width > i64::from(MAX_PATTERN_EDGE) || height > i64::from(MAX_PATTERN_EDGE) {
        return Err(PatternError::TooLarge {
            what: format!("a {width}x{height} MCell pattern"),
            limit: u64::from(MAX_PATTERN_EDGE),
        });
    }
    pattern.width = width as u32;
    pattern.height = height as u32;
    pattern.position = Some((left, top));
    for (x, y, state) in cells {
        let (x, y) = ((x - left) as u32, (y - top) as u32);
        match states.read(u64::from(state)) {
            Ok(CellRead::Live) => pattern.cells.push((x, y)),
            Ok(CellRead::Dying(s)) => pattern.dying.push((x, y, s)),
            Ok(CellRead::Dead) => {}
            // MCell turns a state the rule lacks into state 1 (Golly does the same).
            Err(_) => pattern.cells.push((x, y)),
        }
    }
    pattern.cells.sort_unstable_by_key(|&(x, y)| (y, x));
    pattern.cells.dedup();
    pattern.dying.sort_unstable_by_key(|&(x, y, _)| (y, x));
    pattern.dying.dedup_by_key(|c| (c.0, c.1));
    Ok(())
}
