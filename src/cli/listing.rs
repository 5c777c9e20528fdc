//! `boardlab games`, `boardlab agents` (tables, or JSON with `--json`),
//! `boardlab completions` and `boardlab man`.

use std::io::Write;

use anyhow::Result;
use clap::CommandFactory;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};

use super::{Cli, CompletionsArgs, Registry};
use crate::agents::registry::{AGENT_KINDS, PRESETS, Preset};
use crate::games::ParamInfo;

/// A table in the style of every text table the CLI prints.
pub(super) fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.to_vec());
    t
}

fn params_json(params: &[ParamInfo]) -> serde_json::Value {
    params
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "default": p.default, "help": p.help}))
        .collect()
}

fn params_text(params: &[ParamInfo]) -> String {
    params
        .iter()
        .map(|p| format!("{}={}  {}", p.name, p.default, p.help))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn games(json: bool, registry: &Registry) {
    if json {
        let list: Vec<_> = registry
            .games()
            .map(|g| {
                serde_json::json!({
                    "name": g.name, "players": g.players, "summary": g.summary,
                    "params": params_json(g.params),
                })
            })
            .collect();
        println!("{}", serde_json::Value::Array(list));
        return;
    }
    let mut t = table(&["game", "players", "what it is", "parameters (key=default)"]);
    for g in registry.games() {
        t.add_row(vec![g.name, g.players, g.summary, &params_text(g.params)]);
    }
    println!("{t}");
    println!("Use as name or name(key=value,...), e.g. 'fox(players=3)'.");
}

pub(super) fn agents(json: bool, registry: &Registry) {
    let presets: Vec<(&str, Result<Preset, String>)> = PRESETS
        .iter()
        .map(|(name, body)| (*name, Preset::parse(body, name).map_err(|e| e.to_string())))
        .collect();
    if json {
        let kinds: Vec<_> = AGENT_KINDS
            .iter()
            .map(|k| serde_json::json!({"name": k.name, "summary": k.summary, "params": params_json(k.params)}))
            .chain(registry.kinds().iter().map(
                |k| serde_json::json!({"name": k.name, "summary": k.summary, "game": k.game}),
            ))
            .collect();
        let presets: Vec<_> = presets
            .iter()
            .map(|(name, p)| match p {
                Ok(p) => serde_json::json!({"name": name, "spec": p.to_spec().to_string(), "description": p.description}),
                Err(e) => serde_json::json!({"name": name, "error": e}),
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"kinds": kinds, "presets": presets})
        );
        return;
    }
    println!("Agent kinds (use as kind or kind(key=value,...)):");
    let mut t = table(&["kind", "what it does", "parameters (key=default)"]);
    for k in AGENT_KINDS {
        t.add_row(vec![k.name, k.summary, &params_text(k.params)]);
    }
    for k in registry.kinds() {
        let summary = match k.game {
            Some(game) => format!("{} (plays {game} only)", k.summary),
            None => format!("{} (plays every game)", k.summary),
        };
        t.add_row(vec![k.name, &summary, ""]);
    }
    println!("{t}");
    println!("Presets in agents/ (use by name, or @agents/<name>.toml):");
    let mut t = table(&["preset", "spec", "description"]);
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
}

pub(super) fn completions(a: CompletionsArgs) {
    let mut cmd = Cli::command();
    clap_complete::generate(a.shell, &mut cmd, "boardlab", &mut std::io::stdout());
}

pub(super) fn man() -> Result<()> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    std::io::stdout().write_all(&out)?;
    Ok(())
}
