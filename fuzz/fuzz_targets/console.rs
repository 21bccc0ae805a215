//! Fuzz target: [`boardgames_fuzz::console`].

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| boardgames_fuzz::console(data));
