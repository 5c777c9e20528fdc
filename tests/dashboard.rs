//! `boardlab report` and `boardlab quality` through the binary: the dashboard
//! of a run and of an experiment, the optional study files it picks up by
//! name, drafted roles one row per member, categorical sweeps, bad input.

mod common;
use common::{boardlab, temp_dir};

fn ok(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_run_gets_a_self_contained_page_with_the_study_files_beside_it() {
    let dir = temp_dir("dashboard-run");
    let d = dir.to_str().unwrap();
    ok(&boardlab(&[
        "run",
        "--game",
        "karmox",
        "--agents",
        "random,greedy",
        "--games",
        "12",
        "--out",
        d,
        "--threads",
        "1",
        "-q",
    ]));
    // Study files of other commands, found by name.
    std::fs::write(
        dir.join("balance.csv"),
        "budget,seat,win_rate,ci_low,ci_high\n250,seat 0,0.61,0.55,0.67\n500,seat 0,0.52,0.46,0.58\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("fair")).unwrap();
    std::fs::write(
        dir.join("fair").join("fair.csv"),
        "param,value,ci_low,ci_high\nexit,7.5,6.9,8.1\n",
    )
    .unwrap();
    ok(&boardlab(&["report", d]));
    let html = read(&dir.join("report.html"));
    let md = read(&dir.join("dashboard.md"));
    // Nothing to fetch: no scripts, no links out, styles inline.
    assert!(
        !html.contains("<script") && !html.contains("<link"),
        "{html}"
    );
    assert!(!html.contains("src=\"http"), "external resource");
    // The headline comes first.
    let first = html.find("<section").unwrap();
    assert!(html[first..].starts_with("<section id=\"headline\">"));
    assert!(html.contains("id=\"headline-table\""));
    assert!(md.find("## Headline").unwrap() < md.find("## Seat balance").unwrap());
    // Optional files become sections with a chart each.
    for id in ["balance-0", "fair-0"] {
        let at = html.find(&format!("<section id=\"{id}\">")).expect(id);
        let end = at + html[at..].find("</section>").unwrap();
        assert!(html[at..end].contains("<svg"), "{id} has no chart");
    }
    assert!(md.contains("| exit | 7.5 | 6.9 | 8.1 |"), "{md}");
    // Karmox seats hold drafted characters: one row per character.
    let roles = &md[md.find("## Faction and role balance").unwrap()..];
    let rows: Vec<&str> = roles
        .lines()
        .skip_while(|l| !l.starts_with("| cell | role |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    assert!(rows.len() >= 6, "{roles}");
    assert!(
        rows.iter()
            .all(|r| !r.split('|').nth(2).unwrap().contains('+')),
        "{roles}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_experiment_sweep_of_categories_has_a_categorical_axis() {
    let dir = temp_dir("dashboard-exp");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tiles.toml");
    std::fs::write(
        &file,
        "description = \"tile sets\"\ngame = \"fox\"\ngames = 20\nseed = 4\nsweep = { tiles = [\"experiments/fox-tiles/standard.toml\", \"experiments/fox-tiles/orthogonal.toml\"] }\nlineups = [[\"random\"]]\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    ok(&boardlab(&[
        "experiment",
        file.to_str().unwrap(),
        "--out",
        o,
        "-q",
    ]));
    // The experiment's own chart: file names in slots, not 0, 1 on a number line.
    let svg = read(&out.join("sweep-tiles-0.svg"));
    assert!(
        svg.contains(">standard.toml<") && svg.contains(">orthogonal.toml<"),
        "{svg}"
    );
    assert!(!svg.contains("0=experiments"), "{svg}");
    ok(&boardlab(&["report", o]));
    let html = read(&out.join("report.html"));
    for id in ["headline", "seats", "comparisons", "sweeps", "length"] {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
    }
    // One headline row per cell, named by its swept value.
    let md = read(&out.join("dashboard.md"));
    assert!(md.contains("| c001 (tiles=orthogonal.toml) | 20 |"), "{md}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn quality_writes_its_tables_and_the_report_shows_them() {
    let dir = temp_dir("quality");
    let d = dir.to_str().unwrap();
    ok(&boardlab(&[
        "run",
        "--game",
        "tictactoe",
        "--agents",
        "alphabeta,alphabeta",
        "--games",
        "4",
        "--out",
        d,
        "-q",
    ]));
    let q = dir.join("quality");
    let qd = q.to_str().unwrap();
    let ladder = dir.join("ladder.csv");
    std::fs::write(
        &ladder,
        "entrant,agent,budget,budget_unit,games,points,score,cpu_ms_per_decision,elo,elo_low,elo_high\n\
         random,random,,,10,1,0.1,0.0,0.0,0.0,0.0\n\
         mcts@10it,mcts,10,it,10,6,0.6,0.1,250.0,200.0,300.0\n",
    )
    .unwrap();
    ok(&boardlab(&[
        "quality",
        "--game",
        "tictactoe",
        "--agents",
        "alphabeta,alphabeta",
        "--games",
        "4",
        "--ladder",
        ladder.to_str().unwrap(),
        "--out",
        qd,
    ]));
    let csv = read(&q.join("quality.csv"));
    assert!(csv.starts_with("metric,value,ci_low,ci_high,n,about\n"));
    assert!(csv.contains("\ndrawishness,1.000000,"), "{csv}");
    assert!(
        csv.contains("\nelo_spread,250.000000,200.000000,300.000000,2,"),
        "{csv}"
    );
    assert!(read(&q.join("quality.md")).contains("not a calibrated probability"));
    // A second run into the same place needs --force.
    let again = boardlab(&[
        "quality",
        "--game",
        "tictactoe",
        "--agents",
        "alphabeta,alphabeta",
        "--out",
        qd,
    ]);
    assert_eq!(again.status.code(), Some(2));
    ok(&boardlab(&["report", d]));
    let html = read(&dir.join("report.html"));
    assert!(html.contains("<section id=\"quality-0\">") && html.contains("drawishness"));
    assert!(html.contains("<section id=\"ladder-0\">"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let dir = temp_dir("dashboard-bad");
    std::fs::create_dir_all(&dir).unwrap();
    for args in [
        vec!["report", dir.to_str().unwrap()],
        vec![
            "quality",
            "--game",
            "tictactoe",
            "--agents",
            "random,random,random",
            "--out",
            dir.to_str().unwrap(),
        ],
        vec![
            "quality",
            "--game",
            "nope",
            "--agents",
            "random,random",
            "--out",
            dir.to_str().unwrap(),
        ],
        vec![
            "quality",
            "--game",
            "tictactoe",
            "--agents",
            "random,random",
            "--ladder",
            "/nonexistent/ladder.csv",
            "--out",
            dir.to_str().unwrap(),
        ],
    ] {
        let out = boardlab(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    assert!(!dir.join("report.html").exists() && !dir.join("quality.csv").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endings_against_skill_read_as_shares_of_games() {
    let dir = temp_dir("dashboard-endings");
    std::fs::create_dir_all(&dir).unwrap();
    let mut csv =
        String::from("budget,kind,group,games,rate,low,high,tost_p,elo,elo_low,elo_high\n");
    for (b, capture) in [(25, 0.6), (50, 0.55)] {
        for (kind, group, rate) in [
            ("seat", "0", 0.4),
            ("seat", "1", 0.6),
            ("ending", "capture", capture),
            ("ending", "rescue", 1.0 - capture),
        ] {
            csv += &format!(
                "{b},{kind},{group},1000,{rate:.4},{:.4},{:.4},,,,\n",
                rate - 0.03,
                rate + 0.03
            );
        }
    }
    std::fs::write(dir.join("balance.csv"), csv).unwrap();
    ok(&boardlab(&["report", dir.to_str().unwrap()]));
    let html = read(&dir.join("report.html"));
    let svg = html
        .split("<svg")
        .map(|s| &s[..s.find("</svg>").unwrap_or(s.len())])
        .find(|s| s.contains("Endings against skill"))
        .expect("an endings chart");
    assert!(svg.contains(">share of games<"), "{svg}");
    assert!(!svg.contains("win rate (draw = 1/2)"), "{svg}");
}
