//! `metagame --match-cpu` calibration measured for real. It reads the
//! process's CPU clock, so it has a test binary of its own: tests running
//! beside it in one process would add their CPU time to its measure.

use boardlab::metagame::{self, MetagameOptions};

#[test]
fn matched_cpu_gives_costlier_searches_fewer_iterations_and_is_kept() {
    let game = boardlab::cli::Registry::builtin()
        .parse("fox")
        .expect("fox is registered");
    let dir = tempfile::tempdir().unwrap();
    // Full random rollouts against rollouts cut after 20 actions and scored
    // by the heuristic: the same tree search, an iteration about three times
    // dearer in Fox (results/agent-speed).
    let agents = vec![
        "greedy".to_string(),
        "ismcts(iterations=50)".to_string(),
        "ismcts(iterations=50,max_rollout=20)".to_string(),
    ];
    let o = MetagameOptions {
        agents: agents.clone(),
        match_cpu: Some(2.0),
        calibration_games: 1,
        games: 2,
        seed: 5,
        threads: 2,
        out: dir.path().to_path_buf(),
        bootstrap: 400,
        ..MetagameOptions::default()
    };
    let mut seen = Vec::new();
    let calibration =
        metagame::matched_population(game.as_ref(), &o, &mut |m| seen.push(m.given.clone()))
            .unwrap();
    assert_eq!(seen, agents, "each member is reported once, in order");
    let m = &calibration.members;
    assert_eq!(m[0].resolved, "greedy");
    assert_eq!(m[0].iterations, None);
    let full = m[1].iterations.unwrap();
    let cut = m[2].iterations.unwrap();
    assert!(
        2 * cut > 3 * full,
        "cut rollouts got {cut} iterations, full rollouts {full}"
    );
    assert_eq!(m[1].resolved, format!("ismcts(iterations={full})"));
    // A second look reads the kept members, however they were written.
    let mut kept = calibration.clone();
    kept.members[1].resolved = "ismcts(iterations=3)".to_string();
    kept.write(dir.path()).unwrap();
    let again = metagame::matched_population(game.as_ref(), &o, &mut |_| {
        panic!("nothing is measured again")
    })
    .unwrap();
    assert_eq!(again.population()[1], "ismcts(iterations=3)");
    // Another target is refused rather than mixed with the kept one.
    let other = MetagameOptions {
        match_cpu: Some(5.0),
        ..o.clone()
    };
    let err = metagame::matched_population(game.as_ref(), &other, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("--force"), "{err}");
    // Shards never calibrate on their own.
    let fresh = tempfile::tempdir().unwrap();
    let shard = MetagameOptions {
        shard: Some((1, 2)),
        ..MetagameOptions {
            out: fresh.path().to_path_buf(),
            ..o.clone()
        }
    };
    let err = metagame::matched_population(game.as_ref(), &shard, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("--calibrate-only"), "{err}");
    // The meta-game plays the kept members.
    let sols = metagame::run(game.as_ref(), &o).unwrap();
    assert!(
        sols[0]
            .1
            .population
            .contains(&"ismcts(iterations=3)".to_string())
    );
}
