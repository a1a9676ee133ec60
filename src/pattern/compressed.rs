//! Bytes to pattern text and patterns to files: gzip-compressed input (any format, told by
//! the gzip magic bytes, not the name) is decompressed as a stream under the same size limit
//! as plain input, so a compression bomb is refused after [`MAX_FILE_BYTES`] bytes of output
//! rather than swallowed, and damaged or truncated gzip is refused at its byte offset. Text
//! that is not UTF-8 opens (see `encoding.rs`).

use std::io::{Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::bufread::MultiGzDecoder;
use flate2::write::GzEncoder;

use super::{Format, MAX_FILE_BYTES, Pattern, PatternError, encoding};

/// The first two bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `bytes` start like gzip data.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC)
}

/// Pattern text from a file's bytes: gunzipped when they are gzip (at most
/// [`MAX_FILE_BYTES`] of output, read as a stream), then read as UTF-8, bytes that are not
/// UTF-8 as Windows-1252 (Latin-1), as Golly opens such files; see [`decode_text`] for the
/// warning that says so.
pub fn decode_bytes(bytes: Vec<u8>) -> Result<String, PatternError> {
    decode_text(bytes).map(|(text, _)| text)
}

/// [`decode_bytes`], with the warning (line and column of the first byte that is not UTF-8,
/// and how many there were) when the text was not all UTF-8.
pub fn decode_text(bytes: Vec<u8>) -> Result<(String, Option<String>), PatternError> {
    // A zip bundle (Golly's: rule files and a pattern) gives its pattern's bytes.
    let bytes = if bytes.starts_with(&super::bundle::ZIP_MAGIC) {
        super::bundle::open(&bytes)?
    } else {
        bytes
    };
    let bytes = if is_gzip(&bytes) {
        gunzip(&bytes)?
    } else {
        bytes
    };
    Ok(encoding::decode(bytes))
}

/// Decompress gzip `data` (one or more members), refusing output over [`MAX_FILE_BYTES`].
fn gunzip(data: &[u8]) -> Result<Vec<u8>, PatternError> {
    let mut decoder = MultiGzDecoder::new(data);
    let mut out = Vec::new();
    let result = decoder
        .by_ref()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut out);
    let offset = (data.len() - decoder.get_ref().len()) as u64;
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(PatternError::Corrupt {
            offset,
            message: "the gzip data ends early (a truncated or partly downloaded file)".into(),
        }),
        Err(e) => Err(PatternError::Corrupt {
            offset,
            message: format!("the gzip data is damaged: {e}"),
        }),
        Ok(_) if out.len() as u64 > MAX_FILE_BYTES => Err(PatternError::TooLarge {
            what: format!(
                "the gzip data decompresses to more than {MAX_FILE_BYTES} bytes (stopped at \
                 compressed byte {offset}; a compression bomb?)"
            ),
            limit: MAX_FILE_BYTES,
        }),
        Ok(_) => Ok(out),
    }
}

/// Write `pattern` to `path` in the format its extension names (RLE when it names none),
/// gzip-compressed when the name ends in `.gz` (`world.mc.gz`). Returns the format written.
pub fn save_file(pattern: &Pattern, path: &Path) -> Result<Format, PatternError> {
    let format = Format::from_path(path).unwrap_or(Format::Rle);
    let text = pattern.to_format(format)?;
    write_text(&text, path)?;
    Ok(format)
}

/// Write pattern `text` to `path`, gzip-compressed when the name ends in `.gz`.
pub fn write_text(text: &str, path: &Path) -> Result<(), PatternError> {
    let io = |e: std::io::Error| PatternError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let gz = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.to_ascii_lowercase().ends_with(".gz"));
    let bytes = if gz {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(text.as_bytes()).map_err(io)?;
        encoder.finish().map_err(io)?
    } else {
        text.as_bytes().to_vec()
    };
    std::fs::write(path, bytes).map_err(io)
}
