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
