//! The bytes of a file of solved positions (`train --cache`): a header that names what the
//! positions were made for (the format, the board side, endgame or midgame and how midgame
//! ones are labelled, by which weights, the seed, how many were asked for), then the samples.
//! A file made for another training is refused, never fitted in silence. Bytes only: reading
//! and writing the file is the caller's.

use super::samples::Sample;

/// What a set of solved positions was made for: the same five give the same positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SampleSet {
    /// The board side.
    pub side: usize,
    /// Midgame positions (labelled by games played on), rather than the endgame's.
    pub midgame: bool,
    /// For midgame labels blended with a search's margin (`train --blend`) rather than
    /// results, what labelled them.
    pub labeller: Option<Labeller>,
    /// The seed of the games.
    pub seed: u64,
    /// How many positions were asked for.
    pub samples: usize,
}

/// The search that blended a set's midgame labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labeller {
    /// The FNV-1a hash of the weights the search scored with
    /// ([`crate::othello::evaluation::pattern::Patterns::weights_fnv1a`]): another build's
    /// weights label the same positions otherwise.
    pub weights: u64,
    /// The search's share of each label, in percent (the game's result has the rest).
    pub share: u8,
}

/// Why a file's bytes are not the positions asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// It does not start with the header: not such a file, or one from before the header.
    NoHeader,
    /// It has the header of another format version.
    Version(u32),
    /// It holds positions made for another training.
    MadeFor(SampleSet),
}

/// The first bytes of every such file.
const MAGIC: [u8; 8] = *b"bgsolved";

/// The format this build writes and reads.
/// (Version 1 had no labeller: its blended files did not say which weights labelled them;
/// version 2 no share: the search had half of every label.)
pub const VERSION: u32 = 3;

/// Bytes of the header: the magic, the version, the side, the phase, the labeller's weights
/// and share, the seed, the count.
const HEADER: usize = 8 + 4 + 4 + 1 + 8 + 1 + 8 + 8;

impl SampleSet {
    /// The file of `samples` made for this set: the header, then each sample.
    #[must_use]
    pub fn to_file(self, samples: &[Sample]) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER + 17 * samples.len());
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.side as u32).to_le_bytes());
        // The phase, and whether a labeller follows (its hash and share, else zeros).
        bytes.push(u8::from(self.midgame) | u8::from(self.labeller.is_some()) << 1);
        let labeller = self.labeller.unwrap_or(Labeller {
            weights: 0,
            share: 0,
        });
        bytes.extend_from_slice(&labeller.weights.to_le_bytes());
        bytes.push(labeller.share);
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        bytes.extend_from_slice(&(self.samples as u64).to_le_bytes());
        bytes.extend(samples.iter().flat_map(|s| s.to_bytes()));
        bytes
    }

    /// The samples of `file`, if it was made for this set.
    pub fn samples_in(self, file: &[u8]) -> Result<Vec<Sample>, Unfit> {
        if file.len() < HEADER || file[..8] != MAGIC {
            return Err(Unfit::NoHeader);
        }
        let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().expect("4 bytes"));
        let long = |at: usize| u64::from_le_bytes(file[at..at + 8].try_into().expect("8 bytes"));
        let version = word(8);
        if version != VERSION {
            return Err(Unfit::Version(version));
        }
        let made = SampleSet {
            side: word(12) as usize,
            midgame: file[16] & 1 != 0,
            labeller: (file[16] & 2 != 0).then(|| Labeller {
                weights: long(17),
                share: file[25],
            }),
            seed: long(26),
            samples: usize::try_from(long(34)).unwrap_or(usize::MAX),
        };
        if made != self {
            return Err(Unfit::MadeFor(made));
        }
        Ok(Sample::read_all(&file[HEADER..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_gives_its_samples_back_only_to_the_training_it_was_made_for() {
        let set = SampleSet {
            side: 8,
            midgame: false,
            labeller: None,
            seed: 1,
            samples: 2,
        };
        let samples = [
            Sample {
                me: 0x0000_0008_1000_0000,
                opp: 0x0000_0010_0800_0000,
                value: -3,
            },
            Sample {
                me: 1,
                opp: 1 << 63,
                value: 64,
            },
        ];
        let file = set.to_file(&samples);
        assert_eq!(set.samples_in(&file), Ok(samples.to_vec()));
        for other in [
            SampleSet { side: 6, ..set },
            SampleSet {
                midgame: true,
                ..set
            },
            SampleSet {
                midgame: true,
                labeller: Some(Labeller {
                    weights: 7,
                    share: 50,
                }),
                ..set
            },
            SampleSet { seed: 2, ..set },
            SampleSet { samples: 3, ..set },
        ] {
            assert_eq!(other.samples_in(&file), Err(Unfit::MadeFor(set)));
        }
        // Labels blended by a search on other weights, or with another share, are another
        // set's.
        let labeller = Labeller {
            weights: 7,
            share: 50,
        };
        let blended = SampleSet {
            midgame: true,
            labeller: Some(labeller),
            ..set
        };
        let blended_file = blended.to_file(&samples);
        assert_eq!(blended.samples_in(&blended_file), Ok(samples.to_vec()));
        for other in [
            Labeller {
                weights: 8,
                ..labeller
            },
            Labeller {
                share: 100,
                ..labeller
            },
        ] {
            let relabelled = SampleSet {
                labeller: Some(other),
                ..blended
            };
            assert_eq!(
                relabelled.samples_in(&blended_file),
                Err(Unfit::MadeFor(blended))
            );
        }
        for version in [2, 4] {
            let mut other = file.clone();
            other[8] = version;
            assert_eq!(
                set.samples_in(&other),
                Err(Unfit::Version(u32::from(version)))
            );
        }
        // A file from before the header: bare samples.
        let bare: Vec<u8> = samples.iter().flat_map(|s| s.to_bytes()).collect();
        assert_eq!(set.samples_in(&bare), Err(Unfit::NoHeader));
        assert_eq!(set.samples_in(&[]), Err(Unfit::NoHeader));
    }
}
