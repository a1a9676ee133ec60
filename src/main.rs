fn main() -> std::process::ExitCode {
    golab::cli::main()
}
