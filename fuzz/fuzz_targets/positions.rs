//! Fuzz target: [`boardgames_fuzz::positions`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardgames_fuzz::positions(data));
