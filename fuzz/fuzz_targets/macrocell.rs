//! Macrocell reader: `golab::pattern::parse(text, Some(Format::Macrocell))`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_macrocell(data));
