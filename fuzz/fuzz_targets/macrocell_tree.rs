//! Macrocell straight into the hashed universe's quadtree: `golab::hashlife::load::from_macrocell`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| golab_fuzz::check_macrocell_tree(data));
