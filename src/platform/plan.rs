//! How a run's match indices split into chunks (one part file each) and chunks into shards.
//!
//! Chunk `c` always holds matches `c * chunk_size .. min((c + 1) * chunk_size, matches)`, whatever
//! the thread count or shard split, which is what makes part files comparable byte for byte.

use crate::error::Error;
use std::fmt;
use std::ops::Range;

/// Matches per chunk when `--chunk-size` is not given.
pub const DEFAULT_CHUNK: u64 = 50_000;

/// The K-th (0-based) of N equal slices of the chunk range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Parses `K/N` with 0 <= K < N.
    pub fn parse(text: &str) -> Result<Shard, Error> {
        let bad = || {
            Error::Input(format!(
                "--shard `{text}`: expected K/N with 0 <= K < N, e.g. 0/4 for the first of four \
                 machines (K counts from 0, like SLURM_ARRAY_TASK_ID with --array=0-3)"
            ))
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = k.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard a batch scheduler assigned, when `--shard` is absent: a Slurm job array
    /// (`SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN`, of `SLURM_ARRAY_TASK_COUNT`) or a
    /// Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, of `count`, the `--shard-count` flag).
    pub fn from_env(
        get: impl Fn(&str) -> Option<String>,
        count: Option<u64>,
    ) -> Result<Option<Shard>, Error> {
        let num = |name: &str| -> Result<Option<u64>, Error> {
            match get(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| {
                    Error::Input(format!(
                        "environment variable {name}=`{v}` is not a whole number"
                    ))
                }),
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let n = num("SLURM_ARRAY_TASK_COUNT")?.ok_or(
                "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: pass --shard K/N",
            )?;
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = id
                .checked_sub(min)
                .ok_or("SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN")?;
            return Shard::parse(&format!("{index}/{n}"))
                .map(Some)
                .map_err(|e| {
                    Error::Input(format!(
                        "from SLURM_ARRAY_TASK_ID/COUNT: {e} (use a contiguous --array range)"
                    ))
                });
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let n = count.ok_or(
                "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): pass --shard-count N, \
                 the Job's completions",
            )?;
            return Shard::parse(&format!("{index}/{n}")).map(Some);
        }
        Ok(None)
    }
}

/// The chunking of `matches` match indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub matches: u64,
    pub chunk_size: u64,
}

impl Plan {
    pub fn chunks(&self) -> u64 {
        self.matches.div_ceil(self.chunk_size)
    }

    /// The match indices of chunk `c`.
    pub fn chunk(&self, c: u64) -> Range<u64> {
        let start = c * self.chunk_size;
        start..(start + self.chunk_size).min(self.matches)
    }

    /// The chunks shard `s` runs: the s.index-th of s.count contiguous, near-equal slices (sizes
    /// differ by at most one chunk).
    pub fn shard_chunks(&self, s: Shard) -> Range<u64> {
        let n = self.chunks();
        let lo = n * s.index / s.count;
        let hi = n * (s.index + 1) / s.count;
        lo..hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_every_match_once_with_a_short_last_chunk() {
        let p = Plan {
            matches: 10,
            chunk_size: 4,
        };
        assert_eq!(p.chunks(), 3);
        assert_eq!(p.chunk(0), 0..4);
        assert_eq!(p.chunk(2), 8..10);
    }

    #[test]
    fn shards_partition_the_chunk_range() {
        let p = Plan {
            matches: 1000,
            chunk_size: 7,
        };
        for count in 1..20 {
            let mut next = 0;
            for index in 0..count {
                let r = p.shard_chunks(Shard { index, count });
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, p.chunks());
        }
    }

    #[test]
    fn shard_flag_is_zero_based_and_checked() {
        assert_eq!(Shard::parse("0/4"), Ok(Shard { index: 0, count: 4 }));
        assert!(Shard::parse("4/4").is_err());
        assert!(Shard::parse("1/0").is_err());
        assert!(Shard::parse("x").is_err());
    }

    #[test]
    fn slurm_and_indexed_job_variables_pick_the_shard() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ]);
        assert_eq!(
            Shard::from_env(slurm, None),
            Ok(Some(Shard { index: 2, count: 4 }))
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "5")]);
        assert_eq!(
            Shard::from_env(k8s, Some(8)),
            Ok(Some(Shard { index: 5, count: 8 }))
        );
        assert!(Shard::from_env(k8s, None).is_err());
        assert_eq!(Shard::from_env(env(&[]), None), Ok(None));
    }
}
