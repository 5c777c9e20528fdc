//! `boardlab games`, `boardlab agents` (tables wrapped to the terminal, or JSON
//! with `--json`; one entry in full when named), `boardlab completions` and
//! `boardlab man`.

use std::io::Write;

use anyhow::{Result, bail};
use clap::CommandFactory;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

use super::{Cli, Registry};
use crate::agents::registry::{
    AGENT_KINDS, AgentKindInfo, PRESETS, Preset, SEARCH_PARAMS, TEST_AIDS,
};
use crate::games::{GameInfo, ParamInfo};

/// Arguments of `games`.
#[derive(Debug, clap::Args)]
pub struct GamesArgs {
    /// One game to show in full (every parameter with its default).
    pub name: Option<String>,
    /// Print one JSON value instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `agents`.
#[derive(Debug, clap::Args)]
pub struct AgentsArgs {
    /// One agent kind or preset to show in full.
    pub name: Option<String>,
    /// List the test aids too (agents that commit faults on purpose).
    #[arg(long)]
    pub all: bool,
    /// Print one JSON value instead of tables (always complete).
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Columns a listing wraps to when standard output is not a terminal.
const PIPED_WIDTH: u16 = 100;
/// The narrowest a listing gets, however narrow the terminal.
const MIN_WIDTH: u16 = 40;

/// The width listings wrap to: the terminal's, or [`PIPED_WIDTH`] when piped.
fn width() -> u16 {
    console::Term::stdout()
        .size_checked()
        .map_or(PIPED_WIDTH, |(_, cols)| cols.max(MIN_WIDTH))
}

/// A table in the style of every text table the CLI prints.
pub(super) fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.to_vec());
    t
}

/// A table of [`table`]'s style wrapped to the listing width.
fn fitted_table(header: &[&str]) -> Table {
    let mut t = table(header);
    t.set_width(width());
    t
}

/// `text` broken at spaces into lines of at most `width` characters (a word
/// longer than that keeps a line of its own).
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let fits = line.chars().count() + 1 + word.chars().count() <= width;
        if line.is_empty() || fits {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        } else {
            lines.push(std::mem::take(&mut line));
            line.push_str(word);
        }
    }
    lines.push(line);
    lines.join("\n")
}

/// Prints a paragraph wrapped to the listing width.
fn say(text: &str) {
    println!("{}", wrap(text, usize::from(width())));
}

fn params_json(params: &[ParamInfo]) -> serde_json::Value {
    params
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "default": p.default, "help": p.help}))
        .collect()
}

/// A table of parameters in full: key, default, what it does.
fn params_table(params: &[ParamInfo]) -> Table {
    let mut t = fitted_table(&["parameter", "default", "what it does"]);
    for p in params {
        t.add_row(vec![p.name, p.default, p.help]);
    }
    t
}

pub(super) fn games(a: &GamesArgs, registry: &Registry) -> Result<()> {
    let chosen: Vec<&GameInfo> = match &a.name {
        None => registry.games().collect(),
        Some(name) => {
            let game = registry.games().find(|g| g.name == name.as_str());
            let Some(game) = game else {
                let names: Vec<&str> = registry.games().map(|g| g.name).collect();
                bail!("unknown game '{name}'; games: {}", names.join(", "));
            };
            vec![game]
        }
    };
    if a.json {
        let list: Vec<_> = chosen
            .iter()
            .map(|g| {
                serde_json::json!({
                    "name": g.name, "players": g.players, "summary": g.summary,
                    "params": params_json(g.params),
                })
            })
            .collect();
        match &a.name {
            Some(_) => println!("{}", list[0]),
            None => println!("{}", serde_json::Value::Array(list)),
        }
        return Ok(());
    }
    if let [game] = chosen[..]
        && a.name.is_some()
    {
        say(&format!(
            "{}: {} ({} players)",
            game.name, game.summary, game.players
        ));
        if game.params.is_empty() {
            say(&format!("No parameters: use it as '{}'.", game.name));
        } else {
            println!("{}", params_table(game.params));
            let example = game.params[0];
            say(&format!(
                "Use as {name} or {name}(key=value,...), e.g. '{name}({}={})'.",
                example.name,
                example.default,
                name = game.name
            ));
        }
        return Ok(());
    }
    let mut t = fitted_table(&["game", "players", "what it is", "parameters"]);
    for g in &chosen {
        let names: Vec<&str> = g.params.iter().map(|p| p.name).collect();
        t.add_row(vec![g.name, g.players, g.summary, &names.join(", ")]);
    }
    println!("{t}");
    say(
        "Use as name or name(key=value,...), e.g. 'fox(players=3)'; \
         `boardlab games NAME` shows a game's parameters with their defaults.",
    );
    Ok(())
}

/// Every preset, parsed (an unreadable one keeps its error for the listing).
fn presets() -> Vec<(&'static str, Result<Preset, String>)> {
    PRESETS
        .iter()
        .map(|(name, body)| (*name, Preset::parse(body, name).map_err(|e| e.to_string())))
        .collect()
}

/// Whether a kind takes every search parameter (it is then listed as taking
/// "the search parameters" plus its own).
fn is_search(kind: &AgentKindInfo) -> bool {
    SEARCH_PARAMS
        .iter()
        .all(|s| kind.params.iter().any(|p| p.name == s.name))
}

/// A kind's parameter names for the overview, the shared search ones as one entry.
fn param_names(kind: &AgentKindInfo) -> String {
    let search = is_search(kind);
    let own = kind
        .params
        .iter()
        .filter(|p| !search || !SEARCH_PARAMS.iter().any(|s| s.name == p.name))
        .map(|p| p.name);
    let names: Vec<&str> = search
        .then_some("the search parameters")
        .into_iter()
        .chain(own)
        .collect();
    names.join(", ")
}

pub(super) fn agents(a: &AgentsArgs, registry: &Registry) -> Result<()> {
    if let Some(name) = &a.name {
        return agent(name, a.json, registry);
    }
    let presets = presets();
    if a.json {
        let kinds: Vec<_> =
            AGENT_KINDS
                .iter()
                .map(kind_json)
                .chain(registry.kinds().iter().map(
                    |k| serde_json::json!({"name": k.name, "summary": k.summary, "game": k.game}),
                ))
                .collect();
        let presets: Vec<_> = presets
            .iter()
            .map(|(name, p)| preset_json(name, p))
            .collect();
        println!(
            "{}",
            serde_json::json!({"kinds": kinds, "presets": presets})
        );
        return Ok(());
    }
    let is_aid = |k: &&AgentKindInfo| TEST_AIDS.contains(&k.name);
    say("Agent kinds (use as kind or kind(key=value,...)):");
    let mut t = fitted_table(&["kind", "what it does", "parameters"]);
    let kinds = AGENT_KINDS.iter().filter(|k| !is_aid(k));
    let aids = AGENT_KINDS.iter().filter(|k| a.all && is_aid(k));
    for k in kinds.chain(aids) {
        t.add_row(vec![k.name, k.summary, &param_names(k)]);
    }
    for k in registry.kinds() {
        let summary = match k.game {
            Some(game) => format!("{} (plays {game} only)", k.summary),
            None => format!("{} (plays every game)", k.summary),
        };
        t.add_row(vec![k.name, &summary, ""]);
    }
    println!("{t}");
    let searches: Vec<&str> = AGENT_KINDS
        .iter()
        .filter(|k| is_search(k))
        .map(|k| k.name)
        .collect();
    say(&format!("The search parameters ({}):", searches.join(", ")));
    println!("{}", params_table(SEARCH_PARAMS));
    say("Presets in agents/ (use by name, or @agents/<name>.toml):");
    let mut t = fitted_table(&["preset", "spec", "description"]);
    for (name, p) in &presets {
        match p {
            Ok(p) => t.add_row(vec![
                name.to_string(),
                p.to_spec().to_string(),
                p.description.clone(),
            ]),
            Err(e) => t.add_row(vec![name.to_string(), "(unreadable)".into(), e.clone()]),
        };
    }
    println!("{t}");
    let mut footer =
        "`boardlab agents KIND` shows a kind's or preset's parameters in full".to_string();
    if !a.all {
        footer.push_str(&format!(
            "; --all lists the test aids too ({})",
            TEST_AIDS.join(", ")
        ));
    }
    say(&format!("{footer}."));
    Ok(())
}

fn kind_json(k: &AgentKindInfo) -> serde_json::Value {
    serde_json::json!({"name": k.name, "summary": k.summary, "params": params_json(k.params)})
}

fn preset_json(name: &str, p: &Result<Preset, String>) -> serde_json::Value {
    match p {
        Ok(p) => {
            serde_json::json!({"name": name, "spec": p.to_spec().to_string(), "description": p.description})
        }
        Err(e) => serde_json::json!({"name": name, "error": e}),
    }
}

/// `boardlab agents NAME`: one kind or preset in full.
fn agent(name: &str, json: bool, registry: &Registry) -> Result<()> {
    if let Some(k) = AGENT_KINDS.iter().find(|k| k.name == name) {
        if json {
            println!("{}", kind_json(k));
            return Ok(());
        }
        say(&format!("{}: {}", k.name, k.summary));
        if k.params.is_empty() {
            say(&format!("No parameters: use it as '{}'.", k.name));
        } else {
            println!("{}", params_table(k.params));
            say(&format!("Use as {0} or {0}(key=value,...).", k.name));
        }
        return Ok(());
    }
    if let Some(k) = registry.kinds().iter().find(|k| k.name == name) {
        if json {
            println!(
                "{}",
                serde_json::json!({"name": k.name, "summary": k.summary, "game": k.game})
            );
        } else {
            let plays = k
                .game
                .map_or("every game".to_string(), |g| format!("{g} only"));
            say(&format!("{}: {} (plays {plays})", k.name, k.summary));
        }
        return Ok(());
    }
    let presets = presets();
    let Some((name, preset)) = presets.iter().find(|(p, _)| *p == name) else {
        let kinds: Vec<&str> = AGENT_KINDS
            .iter()
            .map(|k| k.name)
            .chain(registry.kinds().iter().map(|k| k.name))
            .collect();
        let presets: Vec<&str> = presets.iter().map(|(p, _)| *p).collect();
        bail!(
            "unknown agent kind or preset '{name}'; kinds: {}; presets: {}",
            kinds.join(", "),
            presets.join(", ")
        );
    };

    if json {
        println!("{}", preset_json(name, preset));
        return Ok(());
    }
    let preset = preset
        .as_ref()
        .map_err(|e| anyhow::anyhow!("preset '{name}' is unreadable: {e}"))?;
    say(&format!("{name}: {}", preset.description));
    say(&format!("spec: {}", preset.to_spec()));
    say(&format!(
        "A preset of the kind {0}: parameters given with it override the preset's \
         ('{name}(key=value,...)'); `boardlab agents {0}` lists them.",
        preset.kind
    ));
    Ok(())
}

pub(super) fn completions(a: CompletionsArgs) -> Result<()> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "boardlab", &mut out);
    write_stdout(&out)
}

pub(super) fn man() -> Result<()> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    write_stdout(&out)
}

/// Writes `bytes` to standard output: a closed pipe ends quietly, any other
/// failure (a full disk) is an error naming standard output.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(anyhow::anyhow!("cannot write to standard output: {e}")),
    }
}
