#![no_main]
//! cargo-fuzz target: `jungle_fuzz::shard` must not panic on any input.
libfuzzer_sys::fuzz_target!(|data: &[u8]| jungle_fuzz::shard(data));
