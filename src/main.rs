use clap::Parser;

/// `println!` panics when standard output is closed or full. A closed pipe
/// (`boardlab games | head -1`) ends the program quietly, as other command-line
/// tools do; any other write failure is one line and exit code 2.
fn exit_cleanly_when_stdout_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = text.strip_prefix("failed printing to stdout: ") {
            if why.contains("Broken pipe") {
                std::process::exit(0);
            }
            eprintln!("boardlab: error: cannot write to standard output: {why}");
            std::process::exit(2);
        }
        default(info);
    }));
}

fn main() -> std::process::ExitCode {
    exit_cleanly_when_stdout_fails();
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
                .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
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
