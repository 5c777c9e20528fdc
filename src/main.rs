fn main() -> std::process::ExitCode {
    boardlab::cli::Registry::builtin().run_main()
}
