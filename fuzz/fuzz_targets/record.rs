//! Fuzz target: [`boardgames_fuzz::record`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardgames_fuzz::record(data));
