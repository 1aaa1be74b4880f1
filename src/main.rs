//! Thin binary: all behaviour lives in the library (`skirmish::cli`).

fn main() -> std::process::ExitCode {
    skirmish::cli::main()
}
