//! Life 1.05 reader: `golab::pattern::parse(text, Some(Format::Life105))`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_life105(data));
