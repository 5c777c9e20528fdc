use clap::Parser;

fn main() -> std::process::ExitCode {
    boardlab::cli::main(boardlab::cli::Cli::parse())
}
