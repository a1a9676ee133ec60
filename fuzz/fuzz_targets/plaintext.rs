//! Plaintext (`.cells`) reader: `golab::pattern::parse(text, Some(Format::Plaintext))`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_plaintext(data));
