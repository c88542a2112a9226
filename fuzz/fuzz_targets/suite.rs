#![no_main]
//! cargo-fuzz target: `jungle_fuzz::suite` must not panic on any input.
libfuzzer_sys::fuzz_target!(|data: &[u8]| jungle_fuzz::suite(data));
