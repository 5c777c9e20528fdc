//! The layering that ARCHITECTURE.md states, checked on the sources: every
//! top-level module of src/ sits on one layer, and a module imports only
//! modules on lower layers. The layers are read from ARCHITECTURE.md itself,
//! so the document and the check cannot disagree.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers, lowest first, from the fenced block after the `## Layering`
/// heading: lines `N: module module ...`.
fn layers() -> BTreeMap<String, usize> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md is readable");
    let section = doc
        .split("\n## Layering")
        .nth(1)
        .expect("ARCHITECTURE.md has a `## Layering` section");
    let block = section
        .split("```")
        .nth(1)
        .expect("the Layering section holds a fenced block");
    let mut layer_of = BTreeMap::new();
    for line in block.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let (n, modules) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("layer line without `N:`: {line}"));
        let n: usize = n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad layer number: {line}"));
        for m in modules.split_whitespace() {
            assert!(
                layer_of.insert(m.to_string(), n).is_none(),
                "{m} is on two layers"
            );
        }
    }
    layer_of
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of src/ belongs to.
fn module_of(rel: &Path) -> String {
    let first = rel.components().next().expect("a path inside src/");
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_string()
}

/// The product code of a file: without its unit tests (everything from the
/// first `#[cfg(test)]`), test files and comments.
fn product_code(path: &Path) -> String {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    if name == "tests.rs" || name.ends_with("_tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).expect("a readable source file");
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules a file's code names through `crate::`: paths
/// (`crate::arena::run`), grouped imports (`use crate::{arena, stats}`) and
/// the game registry's macro (`crate::with_game!`, which names `games`).
fn imports(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // The first name of each item at the group's own depth.
            let (mut depth, mut item_start) = (0usize, true);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => {
                        item_start = false;
                        found.push(
                            group[i..]
                                .chars()
                                .take_while(|c| c.is_alphanumeric() || *c == '_')
                                .collect(),
                        );
                    }
                    _ => {}
                }
            }
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        found.push(if name == "with_game" {
            "games".to_string()
        } else {
            name
        });
    }
    found.retain(|n| !n.is_empty() && n != "self");
    found
}

#[test]
fn every_module_imports_only_lower_layers() {
    let layer_of = layers();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).expect("under src/");
        let from = module_of(rel);
        if from == "lib" || from == "main" {
            continue;
        }
        let Some(&low) = layer_of.get(&from) else {
            wrong.push(format!(
                "src/{} is in module {from}, which no layer of ARCHITECTURE.md names",
                rel.display()
            ));
            continue;
        };
        for to in imports(&product_code(path)) {
            let Some(&high) = layer_of.get(&to) else {
                continue; // a macro or item defined in lib.rs
            };
            if to != from && high >= low {
                wrong.push(format!(
                    "src/{} ({from}, layer {low}) imports crate::{to} (layer {high})",
                    rel.display()
                ));
            }
        }
    }
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "imports against ARCHITECTURE.md's layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_layer_names_a_module_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for module in layers().keys() {
        assert!(
            src.join(format!("{module}.rs")).is_file() || src.join(module).join("mod.rs").is_file(),
            "ARCHITECTURE.md's layering names {module}, which src/ does not hold"
        );
    }
}

#[test]
fn the_import_scanner_finds_paths_groups_and_the_registry_macro() {
    let code = "use crate::arena::run;\nuse crate::{stats::{wilson, Z95}, spec};\n\
                let g = crate::with_game!(x, g => 1);\nlet x = $crate::rng::seed;\n\
                pub(crate) fn f() {}";
    assert_eq!(imports(code), ["arena", "stats", "spec", "games"]);
}
