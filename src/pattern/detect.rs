//! [`parse`]: pattern text in a named format, or the format told from the text itself.

use super::encoding::unify_line_ends;
use super::{Format, Pattern, PatternError, apgcode, life_read, macrocell, mcell, plaintext};
use super::{rle, rle_header, syntax};

/// The warning for a file that starts with a UTF-8 byte-order mark.
const BOM_WARNING: &str = "the file starts with a UTF-8 byte-order mark: skipped (Golly does \
                           not skip it, and reads such a file as a picture of text)";

/// Parse pattern text. `format: None` detects it from the first meaningful line:
/// `#Life 1.05` or a bare `#P` block is Life 1.05, `#Life 1.06` or an `X Y` line of two
/// whole numbers Life 1.06, `[M2]` macrocell, a lone `xs…`/`xp…`/`xq…` word an apgcode;
/// then RLE when the line is a `#` comment, an `x = …` header or RLE body tokens, plaintext
/// when it is a `!` comment or a row of `.`/`O`/`*`. LF, CRLF and lone CR line ends are
/// accepted; a UTF-8 BOM is skipped with a warning.
pub fn parse(text: &str, format: Option<Format>) -> Result<Pattern, PatternError> {
    let text = unify_line_ends(text);
    let (text, bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, true),
        None => (&*text, false),
    };
    let text = embedded_rule(text)?;
    if text.trim().is_empty() {
        return Err(PatternError::Empty);
    }
    let format = match format {
        Some(format) => format,
        None => detect(text)?,
    };
    let mut pattern = match format {
        Format::Rle => rle::parse(text),
        Format::Plaintext => plaintext::parse(text),
        Format::Life105 | Format::Life106 => life_read::parse(text),
        Format::Macrocell => macrocell::parse(text),
        Format::Apgcode => apgcode::parse_text(text),
        Format::MCell => mcell::parse(text),
    }?;
    if bom {
        pattern.warnings.insert(0, BOM_WARNING.to_string());
    }
    Ok(pattern)
}

/// The version a `#Life 1.0x` header names, if the first non-blank line is one.
fn life_version(text: &str) -> Option<Format> {
    let first = text.lines().find(|l| !l.trim().is_empty())?.trim();
    let version = first.strip_prefix("#Life")?.trim();
    Some(if version.starts_with("1.06") {
        Format::Life106
    } else {
        Format::Life105
    })
}

/// The format of pattern text, told from its first meaningful line as [`parse`] tells it.
pub fn detect_format(text: &str) -> Result<Format, PatternError> {
    let text = unify_line_ends(text);
    detect(text.strip_prefix('\u{feff}').unwrap_or(&text))
}

/// The format the text itself announces, whatever the file's name says: a `#Life`,
/// `#MCell` or `[M2]` first line, a `!` first line (plaintext) or an RLE header as the
/// first line that is not a `#` line. `None` when it announces none of these.
pub(super) fn announced_format(text: &str) -> Option<Format> {
    let text = unify_line_ends(text);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next()?;
    let t = first.trim();
    if let Some(version) = life_version(text) {
        Some(version)
    } else if t.starts_with("#MCell") {
        Some(Format::MCell)
    } else if t.starts_with("[M2]") {
        Some(Format::Macrocell)
    } else if first.starts_with('!') {
        Some(Format::Plaintext)
    } else {
        let mut rest = std::iter::once(first).chain(lines);
        let line = rest.find(|l| !l.trim_start().starts_with('#'))?;
        rle_header::is_header(line.trim_start()).then_some(Format::Rle)
    }
}

/// Whether a line is a Life 1.06 cell: two whole numbers and nothing else.
fn is_cell_line(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().take(3).collect();
    words.len() == 2 && words.iter().all(|w| w.parse::<i64>().is_ok())
}

/// Decide the format from the first non-blank line.
pub(super) fn detect(text: &str) -> Result<Format, PatternError> {
    let Some((index, line)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) else {
        return Err(PatternError::Empty);
    };
    let lead = line.chars().take_while(|c| c.is_whitespace()).count();
    let t = line.trim();
    let is_header = t
        .strip_prefix(['x', 'X'])
        .is_some_and(|rest| rest.trim_start().starts_with('='));
    if let Some(version) = life_version(text) {
        Ok(version)
    } else if t.starts_with("#P") && t[2..].starts_with(char::is_whitespace) {
        Ok(Format::Life105)
    } else if t.starts_with("#MCell") {
        Ok(Format::MCell)
    } else if t.starts_with("[M2]") {
        Ok(Format::Macrocell)
    } else if apgcode::looks_like(text.trim()) {
        Ok(Format::Apgcode)
    } else if t.starts_with('#') || is_header {
        Ok(Format::Rle)
    } else if t.starts_with('!') || t.chars().all(|c| matches!(c, '.' | 'O' | '*')) {
        Ok(Format::Plaintext)
    } else if is_cell_line(t) {
        Ok(Format::Life106)
    } else if t
        .chars()
        .all(|c| c.is_ascii_digit() || c.is_whitespace() || "bo$!.".contains(c))
    {
        Ok(Format::Rle)
    } else {
        Err(syntax(
            index + 1,
            lead + 1,
            "cannot tell the pattern format: expected an RLE header (x = WIDTH, y = HEIGHT), \
             plaintext rows of '.' and 'O', a #Life 1.05/1.06 header, a macrocell [M2] line \
             or an apgcode such as xs4_33",
        ))
    }
}

/// A rule file embedded after the pattern (Golly 4's "local" `@RULE` section: a line
/// starting with `@RULE` and everything after it) is compiled and registered, so the
/// pattern's rule names it, ahead of any rule file of that name (as in Golly); the pattern
/// text before it is returned. An error in the rule is reported at its line in the file.
fn embedded_rule(text: &str) -> Result<&str, PatternError> {
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_start().starts_with("@RULE") && index > 0 {
            let rule = &text[offset..];
            let table = crate::rule::table::RuleTable::parse(rule).map_err(|e| {
                let line = if e.line == 0 {
                    index + 1
                } else {
                    index + e.line
                };
                syntax(
                    line,
                    e.column.max(1),
                    format!("embedded rule: {}", e.message),
                )
            })?;
            crate::rule::table::intern(table);
            return Ok(&text[..offset]);
        }
        offset += line.len();
    }
    Ok(text)
}
