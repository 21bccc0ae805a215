//! A tiny seeded random number generator: the same seed gives the same numbers on every machine
//! and every run, which the test-case generator and the randomized tests both rely on. Not for
//! anything that needs unpredictability.

/// xorshift64*: fast, fixed by its seed, and plenty random for choosing moves and noise.
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed` (zero is replaced, since xorshift stays at zero).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`; `n` must not be zero.
    pub fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n).unwrap();
        usize::try_from(self.next() % n).unwrap()
    }

    /// Puts `items` in a random order (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
