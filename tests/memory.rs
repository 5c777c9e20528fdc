//! `summarize` and `merge` read a run one row at a time: the memory they
//! hold at their peak grows by a few bytes per game (the rating bootstrap's
//! kind of each game), not by the rows. A counting allocator measures the
//! peak of live heap bytes for runs of two sizes.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use boardlab::report::balance::ReportMeta;
use boardlab::stats::ratings::RatingOptions;
use common::{boardlab, temp_dir};

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grow(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

/// The counts are global: each test holds this while it runs, so that no
/// other test's allocations land in its peak.
fn alone() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Heap bytes held at the peak of `f`, beyond those held before it.
fn peak_of(f: impl FnOnce()) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - before
}

fn ok(args: &[&str]) {
    let out = boardlab(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two shards of a Connect Four run of `games` random games.
fn shards(games: u64) -> (PathBuf, Vec<PathBuf>) {
    let base = temp_dir(&format!("memory-{games}"));
    let games = games.to_string();
    let dirs: Vec<PathBuf> = (1..=2).map(|k| base.join(format!("s{k}"))).collect();
    for (k, dir) in dirs.iter().enumerate() {
        let shard = format!("{}/2", k + 1);
        ok(&[
            "run",
            "--game",
            "connect4",
            "--agents",
            "random,random",
            "--games",
            &games,
            "--threads",
            "1",
            "--quiet",
            "--shard",
            &shard,
            "--out",
            dir.to_str().unwrap(),
        ]);
    }
    (base, dirs)
}

/// Peak bytes of merging the shards and of summarizing the result.
fn peaks(base: &Path, dirs: &[PathBuf]) -> (usize, usize) {
    let out = base.join("merged");
    let merge = peak_of(|| {
        boardlab::runtime::merge(dirs, &out, false).unwrap();
    });
    let opts = RatingOptions {
        resamples: 2,
        ..RatingOptions::default()
    };
    let summarize = peak_of(|| {
        boardlab::report::stream::summarize(&out, None, &ReportMeta::default(), &opts).unwrap();
    });
    (merge, summarize)
}

#[test]
fn merge_and_summarize_hold_no_rows() {
    let _alone = alone();
    let (small, large) = (2_000u64, 20_000u64);
    let (a, a_dirs) = shards(small);
    let (b, b_dirs) = shards(large);
    let (merge_small, summarize_small) = peaks(&a, &a_dirs);
    let (merge_large, summarize_large) = peaks(&b, &b_dirs);
    // Holding the rows costs hundreds of bytes per game (two rows of
    // strings); the bootstrap's kinds cost two bytes per game, doubled by
    // vector growth. Allow 16 bytes per extra game.
    let allowed = 16 * (large - small) as usize;
    for (what, s, l) in [
        ("merge", merge_small, merge_large),
        ("summarize", summarize_small, summarize_large),
    ] {
        assert!(
            l <= s + allowed,
            "{what}: peak {s} bytes at {small} games, {l} at {large}: grows by more than {allowed}"
        );
    }
    let _ = std::fs::remove_dir_all(a);
    let _ = std::fs::remove_dir_all(b);
}

/// Peak bytes of an experiment of two Connect Four cells of `games` random
/// games each, its reports, paired comparisons and ratings over both cells
/// included.
fn experiment_peak(games: u64) -> usize {
    use boardlab::experiment::{self, Experiment, ExperimentOptions};
    let base = temp_dir(&format!("memory-experiment-{games}"));
    std::fs::create_dir_all(&base).unwrap();
    let file = base.join("two-cells.toml");
    std::fs::write(
        &file,
        format!(
            "description = \"d\"\ngame = \"connect4\"\ngames = {games}\nseed = 2\nthreads = 1\n\
             lineups = [[\"random\", \"random\"], [\"random\", \"faulty(fault=illegal,after=100)\"]]\n"
        ),
    )
    .unwrap();
    let exp = Experiment::load(&file).unwrap();
    let opts = ExperimentOptions {
        out: base.join("out"),
        threads: Some(1),
        resume: false,
        force: false,
        progress: false,
        command: String::new(),
        shard: None,
    };
    let peak = peak_of(|| {
        experiment::run(&exp, &file, &opts).unwrap();
    });
    let report = std::fs::read_to_string(base.join("out").join("report.md")).unwrap();
    assert!(
        report.contains("Ratings over all cells")
            && report.contains("Differences from the baseline"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(base);
    peak
}

#[test]
fn an_experiment_holds_no_rows() {
    let _alone = alone();
    let (small, large) = (2_000u64, 20_000u64);
    let (s, l) = (experiment_peak(small), experiment_peak(large));
    // As above, 16 bytes per extra game, for each of the two cells.
    let allowed = 2 * 16 * (large - small) as usize;
    assert!(
        l <= s + allowed,
        "experiment: peak {s} bytes at {small} games a cell, {l} at {large}: grows by more than {allowed}"
    );
}

/// A Connect Four run of `games` random games (with its metrics.csv).
fn one_run(games: u64) -> (PathBuf, PathBuf) {
    let base = temp_dir(&format!("memory-report-{games}"));
    let dir = base.join("run");
    ok(&[
        "run",
        "--game",
        "connect4",
        "--agents",
        "random,random",
        "--games",
        &games.to_string(),
        "--threads",
        "1",
        "--quiet",
        "--out",
        dir.to_str().unwrap(),
    ]);
    (base, dir)
}

#[test]
fn report_holds_no_rows() {
    let _alone = alone();
    let (small, large) = (2_000u64, 20_000u64);
    let peak = |games| {
        let (base, dir) = one_run(games);
        let peak = peak_of(|| {
            boardlab::report::dashboard::write(&dir).unwrap();
        });
        let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
        assert!(page.contains(&format!("{games} games")), "{games}");
        let _ = std::fs::remove_dir_all(base);
        peak
    };
    let (s, l) = (peak(small), peak(large));
    // As for summarize: 16 bytes per extra game.
    let allowed = 16 * (large - small) as usize;
    assert!(
        l <= s + allowed,
        "report: peak {s} bytes at {small} games, {l} at {large}: grows by more than {allowed}"
    );
}

/// Peak bytes of a `balance` study of `games` games at each of two budgets,
/// its records written as the command writes them.
fn balance_peak(games: u64) -> usize {
    use boardlab::balance::records::Records;
    use boardlab::balance::skill::{SkillOptions, measure_with};
    let base = temp_dir(&format!("memory-balance-{games}"));
    std::fs::create_dir_all(&base).unwrap();
    let game = boardlab::games::tictactoe::TicTacToe;
    let o = SkillOptions {
        agent: "mcts".into(),
        budgets: vec![1, 2],
        until: None,
        max_games: games,
        duplicate: false,
        // Budgets this small never agree: both are played.
        tolerance: 1e-9,
        max_seconds: None,
        ladder_games: 0,
        seed: 1,
        threads: 1,
        progress: false,
    };
    let records = Records {
        dir: &base,
        resume: false,
    };
    let mut budgets = 0;
    let peak = peak_of(|| {
        budgets = measure_with(&game, &o, Some(records))
            .unwrap()
            .budgets
            .len();
    });
    assert_eq!(budgets, 2);
    let _ = std::fs::remove_dir_all(base);
    peak
}

#[test]
fn balance_holds_no_games() {
    let _alone = alone();
    let (small, large) = (1_000u64, 10_000u64);
    let (s, l) = (balance_peak(small), balance_peak(large));
    // Holding the games costs hundreds of bytes each; the counters grow
    // with the kinds of games only. 16 bytes per extra game, as above.
    let allowed = 16 * (large - small) as usize;
    assert!(
        l <= s + allowed,
        "balance: peak {s} bytes at {small} games a budget, {l} at {large}: grows by more than {allowed}"
    );
}
