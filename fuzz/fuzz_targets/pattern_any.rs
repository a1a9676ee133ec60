//! Format detection, `golab::pattern::parse(text, None)`, and `load_file`'s UTF-8 check
//! for bytes that are not UTF-8 (through a scratch `.txt` file in the temp directory).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("golab-fuzz-any-{}.txt", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| golab_fuzz::check_any(data, scratch()));
