use clap::Parser;

fn main() -> std::process::ExitCode {
    match boardlab::cli::Cli::try_parse() {
        Ok(cli) => boardlab::cli::main(cli),
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            // One line naming the problem; --help teaches the rest.
            let text = e.render().to_string();
            let problem: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let problem = problem.join(" ");
            eprintln!(
                "boardlab: error: {} (see boardlab --help)",
                problem.trim_start_matches("error: ")
            );
            std::process::ExitCode::from(2)
        }
    }
}
