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
        boardlab::arena::merge::merge(dirs, &out, false).unwrap();
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
