//! [`parse`]: pattern text in a named format, or the format told from the text itself.

use super::{
    Format, Pattern, PatternError, apgcode, life105, life106, macrocell, mcell, plaintext,
};
use super::{rle, syntax};

/// Parse pattern text. `format: None` detects it from the first meaningful line:
/// `#Life 1.05` or a bare `#P` block is Life 1.05, `#Life 1.06` Life 1.06, `[M2]` macrocell,
/// a lone `xs…`/`xp…`/`xq…` word an apgcode; then, as before, RLE when the line is a `#`
/// comment, an `x = …` header or RLE body tokens, plaintext when it is a `!` comment or a row
/// of `.`/`O`/`*`. A UTF-8 BOM and CRLF line ends are accepted.
pub fn parse(text: &str, format: Option<Format>) -> Result<Pattern, PatternError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let text = embedded_rule(text)?;
    if text.trim().is_empty() {
        return Err(PatternError::Empty);
    }
    let format = match format {
        Some(format) => format,
        None => detect(text)?,
    };
    match format {
        Format::Rle => rle::parse(text),
        Format::Plaintext => plaintext::parse(text),
        Format::Life105 | Format::Life106 => life105_or_106(text, format),
        Format::Macrocell => macrocell::parse(text),
        Format::Apgcode => apgcode::parse_text(text),
        Format::MCell => mcell::parse(text),
    }
}

/// Life 1.05 and 1.06 share the `#Life` header: the header decides, the caller's choice
/// applies to headerless text.
fn life105_or_106(text: &str, format: Format) -> Result<Pattern, PatternError> {
    match life_version(text) {
        Some(Format::Life106) => life106::parse(text),
        Some(_) => life105::parse(text),
        None if format == Format::Life106 => life106::parse(text),
        None => life105::parse(text),
    }
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
    detect(text.strip_prefix('\u{feff}').unwrap_or(text))
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
