//! Zip bundles as Golly opens them: the `.rule` files inside are compiled and registered
//! (found by name ahead of every rules folder, as Golly installs a bundle's rules), and the
//! first pattern file (`.rle`, `.mc`, `.mcl`, `.lif`, `.cells`, `.txt`, with or without
//! `.gz`) is the pattern opened. Scripts (`.lua`, `.py`) are not run. Read from the central
//! directory; entries stored or deflated; every entry's output and their total are held to
//! [`MAX_FILE_BYTES`] as they are decompressed, so a zip bomb is refused, nothing lost.

use std::io::Read;

use flate2::read::DeflateDecoder;

use super::{MAX_FILE_BYTES, PatternError};

/// A zip archive's first bytes (a local file header).
pub const ZIP_MAGIC: [u8; 4] = *b"PK\x03\x04";

/// Most entries a bundle may list.
const MAX_ENTRIES: usize = 4096;

fn corrupt(offset: usize, message: impl Into<String>) -> PatternError {
    PatternError::Corrupt {
        offset: offset as u64,
        message: message.into(),
    }
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn u32_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// One file of the archive: its name and where its data lies.
struct Entry {
    name: String,
    method: usize,
    data: usize,
    compressed: usize,
}

/// The entries of the central directory.
fn entries(b: &[u8]) -> Result<Vec<Entry>, PatternError> {
    // The end-of-central-directory record: its signature, searched back over a comment.
    let end = (b.len().saturating_sub(22 + 65535)..=b.len().saturating_sub(22))
        .rev()
        .find(|&i| b.get(i..i + 4) == Some(b"PK\x05\x06"))
        .ok_or_else(|| corrupt(b.len(), "not a complete zip archive (no central directory)"))?;
    let count = u16_at(b, end + 10).unwrap_or(0);
    let mut at = u32_at(b, end + 16).unwrap_or(usize::MAX);
    if count > MAX_ENTRIES {
        return Err(corrupt(
            end,
            format!("{count} entries, more than golab reads ({MAX_ENTRIES})"),
        ));
    }
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        if b.get(at..at + 4) != Some(b"PK\x01\x02") {
            return Err(corrupt(at, "damaged zip central directory"));
        }
        let field = |o| u16_at(b, at + o).ok_or_else(|| corrupt(at, "truncated zip directory"));
        let method = field(10)?;
        let compressed =
            u32_at(b, at + 20).ok_or_else(|| corrupt(at, "truncated zip directory"))?;
        let (name_len, extra, comment) = (field(28)?, field(30)?, field(32)?);
        let local = u32_at(b, at + 42).ok_or_else(|| corrupt(at, "truncated zip directory"))?;
        let name = b
            .get(at + 46..at + 46 + name_len)
            .ok_or_else(|| corrupt(at, "truncated zip directory"))?;
        let name = String::from_utf8_lossy(name).into_owned();
        if b.get(local..local + 4) != Some(b"PK\x03\x04") {
            return Err(corrupt(local, format!("{name}: damaged local header")));
        }
        let data =
            local + 30 + u16_at(b, local + 26).unwrap_or(0) + u16_at(b, local + 28).unwrap_or(0);
        if data.checked_add(compressed).is_none_or(|e| e > b.len()) {
            return Err(corrupt(
                local,
                format!("{name}: its data runs past the end of the file"),
            ));
        }
        out.push(Entry {
            name,
            method,
            data,
            compressed,
        });
        at += 46 + name_len + extra + comment;
    }
    Ok(out)
}

/// An entry's bytes, at most `budget` of them.
fn read(b: &[u8], e: &Entry, budget: u64) -> Result<Vec<u8>, PatternError> {
    let raw = &b[e.data..e.data + e.compressed];
    let mut out = Vec::new();
    let limit = budget.min(MAX_FILE_BYTES) + 1;
    match e.method {
        0 => out.extend_from_slice(raw),
        8 => {
            DeflateDecoder::new(raw)
                .take(limit)
                .read_to_end(&mut out)
                .map_err(|err| {
                    corrupt(e.data, format!("{}: damaged deflate data ({err})", e.name))
                })?;
        }
        m => {
            return Err(corrupt(
                e.data,
                format!(
                    "{}: zip compression method {m} (golab reads stored and deflated entries)",
                    e.name
                ),
            ));
        }
    }
    if out.len() as u64 >= limit {
        return Err(PatternError::TooLarge {
            what: format!("{} in the zip bundle decompresses past the limit", e.name),
            limit: MAX_FILE_BYTES,
        });
    }
    Ok(out)
}

/// Open a bundle: register its rules, return the bytes of its first pattern file.
pub fn open(b: &[u8]) -> Result<Vec<u8>, PatternError> {
    let entries = entries(b)?;
    let mut budget = MAX_FILE_BYTES;
    let visible = |e: &&Entry| !e.name.starts_with("__MACOSX/") && !e.name.ends_with('/');
    for e in entries
        .iter()
        .filter(visible)
        .filter(|e| e.name.to_ascii_lowercase().ends_with(".rule"))
    {
        let bytes = read(b, e, budget)?;
        budget -= bytes.len() as u64;
        let text = String::from_utf8_lossy(&bytes);
        let table = crate::rule::table::RuleTable::parse(&text).map_err(|err| {
            PatternError::Unsupported(format!("{} in the zip bundle: {err}", e.name))
        })?;
        crate::rule::table::intern(table);
    }
    let pattern = entries.iter().filter(visible).find(|e| {
        super::Format::from_path(std::path::Path::new(&e.name))
            .is_some_and(|f| f != super::Format::Apgcode)
    });
    match pattern {
        Some(e) => read(b, e, budget),
        None => Err(PatternError::Unsupported(format!(
            "the zip bundle holds no pattern file (it has: {}); golab does not run its scripts",
            entries
                .iter()
                .filter(visible)
                .map(|e| e.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
