//! gzip and UTF-8 decoding: `golab::pattern::decode_bytes`, then format detection.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_gzip(data));
