//! Fuzz target: [`boardgames_fuzz::transcript`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardgames_fuzz::transcript(data));
