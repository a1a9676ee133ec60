//! Life 1.06 reader: `golab::pattern::parse(text, Some(Format::Life106))`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_life106(data));
