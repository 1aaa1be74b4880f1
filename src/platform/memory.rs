//! How many workers fit in memory: a simulation says what one worker needs at most
//! ([`super::runner::Simulation::worker_bytes`]); a run lowers its thread count to what the
//! machine has free, or refuses, before anything is written. The output never depends on the
//! thread count, so lowering it changes nothing but the wall time.

use crate::error::Error;
/// The variable that caps the memory a run may use, e.g. `SKIRMISH_MEMORY=8G` (bytes, or with a
/// K, M, G or T suffix, powers of 1024). Without it: the machine's available memory.
pub const MEMORY_VAR: &str = "SKIRMISH_MEMORY";

/// `4096`, `512K`, `300M`, `8G`, `1T` (powers of 1024), or `None` when not a size.
pub fn parse_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let shift = match unit.trim().to_ascii_uppercase().trim_end_matches('B') {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => return None,
    };
    n.checked_mul(1u64 << shift)
}

/// Memory this run may use: [`MEMORY_VAR`] if set, else the least of what the OS has available
/// (Linux's `MemAvailable`), what this process's address-space limit leaves (`ulimit -v`) and
/// what its control group's limit leaves (issue 79: under a 1.5 GB cap 1,000 candidate powers
/// aborted instead of being refused), else `None` (unknown: no check).
pub fn available() -> Result<Option<u64>, Error> {
    if let Ok(v) = std::env::var(MEMORY_VAR) {
        return parse_size(&v).map(Some).ok_or_else(|| {
            Error::Input(format!("{MEMORY_VAR}={v}: not a size; give bytes or a number with K, M, G or T, e.g. {MEMORY_VAR}=8G"))
        });
    }
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let kb_field = |text: &str, key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map(|kb| kb.saturating_mul(1024))
    };
    let machine = read("/proc/meminfo").and_then(|t| kb_field(&t, "MemAvailable:"));
    // `Max address space  SOFT  HARD  bytes` in /proc/self/limits; what the process already
    // maps counts against it.
    let address_space = read("/proc/self/limits").and_then(|t| {
        let soft = t
            .lines()
            .find_map(|l| l.strip_prefix("Max address space"))?
            .split_whitespace()
            .next()?
            .parse::<u64>()
            .ok()?;
        let mapped = read("/proc/self/status").and_then(|s| kb_field(&s, "VmSize:"))?;
        Some(soft.saturating_sub(mapped))
    });
    // cgroup v2: this process's group's `memory.max` less its `memory.current`.
    let group = read("/proc/self/cgroup").and_then(|t| {
        let path = t
            .lines()
            .find_map(|l| l.strip_prefix("0::"))?
            .trim()
            .to_string();
        let dir = format!("/sys/fs/cgroup{path}");
        let max = read(&format!("{dir}/memory.max"))?
            .trim()
            .parse::<u64>()
            .ok()?;
        let current = read(&format!("{dir}/memory.current"))?
            .trim()
            .parse::<u64>()
            .ok()?;
        Some(max.saturating_sub(current))
    });
    Ok([machine, address_space, group].into_iter().flatten().min())
}

/// `bytes` as `1.8 GB` (powers of 1024, one decimal).
pub fn show(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= (1u64 << 30) as f64 {
        format!("{:.1} GB", b / (1u64 << 30) as f64)
    } else {
        format!("{:.0} MB", (b / (1u64 << 20) as f64).ceil())
    }
}

/// What fits: the threads to run, and a note when they are fewer than asked.
#[derive(Debug, PartialEq, Eq)]
pub struct Fit {
    pub threads: usize,
    pub note: Option<String>,
}

/// Threads that fit when each needs `per_thread` bytes and `available` are free: all `threads`
/// asked when they fit (or nothing is known), fewer when not, and an error naming the fix when
/// not even one fits. `what` says what needs the memory ("a melee at budget 100000000").
pub fn fit(
    per_thread: u64,
    threads: usize,
    available: Option<u64>,
    what: &str,
) -> Result<Fit, Error> {
    let Some(avail) = available else {
        return Ok(Fit {
            threads,
            note: None,
        });
    };
    if per_thread == 0 || per_thread.saturating_mul(threads as u64) <= avail {
        return Ok(Fit {
            threads,
            note: None,
        });
    }
    let can = (avail / per_thread) as usize;
    if can == 0 {
        return Err(Error::Input(format!(
            "{what} needs about {} of memory and {} is available ({}): play smaller budgets, or free memory (or raise {MEMORY_VAR} if it was set lower)",
            show(per_thread),
            show(avail),
            if std::env::var(MEMORY_VAR).is_ok() {
                MEMORY_VAR
            } else {
                "the machine's available memory"
            }
        )));
    }
    Ok(Fit {
        threads: can,
        note: Some(format!(
            "note: running {can} threads instead of {threads}: {what} needs about {} per thread and {} is available (the output does not depend on the thread count)",
            show(per_thread),
            show(avail)
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_bytes_and_binary_suffixes() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size("512K"), Some(512 << 10));
        assert_eq!(parse_size("8G"), Some(8 << 30));
        assert_eq!(parse_size("3gb"), Some(3 << 30));
        assert_eq!(parse_size("1T"), Some(1 << 40));
        assert_eq!(parse_size("eight"), None);
        assert_eq!(parse_size("8X"), None);
        assert_eq!(parse_size("99999999999T"), None);
    }

    #[test]
    fn threads_are_lowered_to_what_fits_and_none_fitting_is_refused() {
        let gb = 1u64 << 30;
        assert_eq!(fit(gb, 16, Some(64 * gb), "x").unwrap().threads, 16);
        let f = fit(2 * gb, 16, Some(7 * gb), "x").unwrap();
        assert_eq!(f.threads, 3);
        assert!(f.note.unwrap().contains("running 3 threads instead of 16"));
        let e = fit(8 * gb, 2, Some(7 * gb), "a melee at budget 100000000")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a melee at budget 100000000 needs about 8.0 GB"),
            "{e}"
        );
        assert_eq!(fit(8 * gb, 2, None, "x").unwrap().threads, 2);
    }
}
