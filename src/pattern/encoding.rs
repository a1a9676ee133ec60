//! Pattern text as Golly sees it: Golly reads bytes, so a file that is not UTF-8 (an old
//! collection's Latin-1 `é` in a `#C` line) opens all the same, and any of LF, CRLF and a
//! lone CR (classic Mac OS) ends a line. golab reads the bytes that are not UTF-8 as
//! Windows-1252 (Latin-1 with printable characters in 0x80–0x9F), one character each, so
//! columns in messages still count one per byte there, and says so in a warning.

use std::borrow::Cow;

/// Windows-1252's characters for the bytes 0x80–0x9F, where Latin-1 has control codes; the
/// five bytes Windows-1252 leaves undefined keep their Latin-1 meaning.
const WINDOWS_1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž', '\u{8f}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}', 'ž', 'Ÿ',
];

/// The character Windows-1252 gives a byte that is not part of valid UTF-8.
fn windows_1252(byte: u8) -> char {
    match byte {
        0x80..=0x9f => WINDOWS_1252_HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

/// `bytes` as text: UTF-8 where they are UTF-8, each other byte read as Windows-1252. The
/// warning (`None` for UTF-8 input) names the line and column of the first such byte and
/// how many there were.
pub(super) fn decode(bytes: Vec<u8>) -> (String, Option<String>) {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, None),
        Err(e) => e.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let (mut first, mut count) = (None, 0usize);
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for &byte in chunk.invalid() {
            if first.is_none() {
                first = Some((position(&text), windows_1252(byte)));
            }
            count += 1;
            text.push(windows_1252(byte));
        }
    }
    let warning = first.map(|((line, column), c)| {
        let more = match count {
            1 => String::new(),
            n => format!(" ({n} such bytes in all)"),
        };
        format!(
            "line {line}, column {column}: the file is not UTF-8 text: bytes that are not \
             UTF-8 are read as Windows-1252 (Latin-1), the first as {c:?}{more}; Golly reads \
             such files too"
        )
    });
    (text, warning)
}

/// The 1-based line and column just after `text` (where the next character goes).
fn position(text: &str) -> (usize, usize) {
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// `text` with every line ended by `\n` alone: CRLF and a lone CR (old Mac files, which
/// Golly reads) become LF. Borrowed when the text has no lone CR (the readers take CRLF
/// as it is).
pub(super) fn unify_line_ends(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone_cr = bytes
        .iter()
        .enumerate()
        .any(|(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
    if !lone_cr {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_passes_and_other_bytes_read_as_windows_1252() {
        assert_eq!(decode("café".as_bytes().to_vec()), ("café".into(), None));
        let (text, warning) = decode(b"#C caf\xe9 \x93q\x94\nx = 1, y = 1\n\xffo!".to_vec());
        assert_eq!(text, "#C café “q”\nx = 1, y = 1\nÿo!");
        let warning = warning.unwrap();
        assert!(warning.starts_with("line 1, column 7:"), "{warning}");
        assert!(
            warning.contains("'é'") && warning.contains("4 such bytes"),
            "{warning}"
        );
    }

    #[test]
    fn every_line_end_becomes_lf() {
        assert!(matches!(unify_line_ends("a\r\nb\n"), Cow::Borrowed(_)));
        assert_eq!(unify_line_ends("a\rb\r\nc\r"), "a\nb\nc\n");
    }
}
