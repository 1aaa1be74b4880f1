//! Thin binary: all behaviour lives in the library (`skirmish::cli`).

fn main() -> std::process::ExitCode {
    keep_freed_memory();
    skirmish::cli::main()
}

/// Keeps memory a run frees for its next part rather than returning it to the system: glibc
/// otherwise maps each part's large buffers afresh and unmaps them when freed, and the page
/// faults that follow cost a main job about as much as hashing and writing its files (issue 66).
/// What is kept is what a run already used at its peak; buffers above the threshold (a huge
/// melee's) are still mapped and returned as before.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    const MAP_ABOVE: i32 = 256 << 20;
    const KEEP_UP_TO: i32 = 512 << 20;
    // SAFETY: mallopt only sets allocator parameters; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAP_ABOVE);
        libc::mallopt(libc::M_TRIM_THRESHOLD, KEEP_UP_TO);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
