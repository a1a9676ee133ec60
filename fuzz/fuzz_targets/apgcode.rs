//! apgcode reader and encoder: `parse(text, Some(Format::Apgcode))`, `apgcode::encode`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_apgcode(data));
