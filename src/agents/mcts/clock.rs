//! The clocks a time budget can read. Wall time is what a player waits; the
//! searching thread's CPU time is what a search costs, and stays the same
//! when a busy machine deschedules the thread, so budgets in CPU time
//! compare agents fairly on a loaded machine (`cpu_ms`).

use std::time::{Duration, Instant};

/// Which clock a time budget reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Elapsed real time.
    Wall,
    /// CPU time of the searching thread (wall time where the platform has none).
    ThreadCpu,
}

/// A reading of a clock, to measure what has elapsed since.
#[derive(Clone, Copy, Debug)]
pub enum Mark {
    /// A wall-clock instant.
    Wall(Instant),
    /// Thread CPU time at the mark.
    Cpu(Duration),
}

impl Clock {
    /// The clock's reading now.
    pub fn mark(self) -> Mark {
        match self {
            Clock::Wall => Mark::Wall(Instant::now()),
            Clock::ThreadCpu => match thread_cpu() {
                Some(t) => Mark::Cpu(t),
                None => Mark::Wall(Instant::now()),
            },
        }
    }
}

impl Mark {
    /// Time elapsed on this mark's clock.
    pub fn elapsed(&self) -> Duration {
        match self {
            Mark::Wall(i) => i.elapsed(),
            Mark::Cpu(t) => thread_cpu().unwrap_or(*t).saturating_sub(*t),
        }
    }
}

/// CPU time consumed by the calling thread.
#[cfg(unix)]
pub fn thread_cpu() -> Option<Duration> {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU time consumed by the whole process, every thread included.
#[cfg(unix)]
pub fn process_cpu() -> Option<Duration> {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

#[cfg(unix)]
fn cpu_clock(id: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(id, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

/// CPU time consumed by the calling thread: unknown on this platform.
#[cfg(not(unix))]
pub fn thread_cpu() -> Option<Duration> {
    None
}

/// CPU time consumed by the whole process: unknown on this platform.
#[cfg(not(unix))]
pub fn process_cpu() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Thread CPU time advances with work and not with sleep.
    #[test]
    fn thread_cpu_counts_work_not_sleep() {
        let mark = Clock::ThreadCpu.mark();
        std::thread::sleep(Duration::from_millis(30));
        let slept = mark.elapsed();
        assert!(slept < Duration::from_millis(20), "{slept:?}");
        let mut x = 0u64;
        let mark = Clock::ThreadCpu.mark();
        while mark.elapsed() < Duration::from_millis(5) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        assert!(x > 0);
    }

    /// The process's CPU time holds at least the work of this thread.
    #[cfg(unix)]
    #[test]
    fn process_cpu_holds_the_threads_work() {
        let (p0, t0) = (process_cpu().unwrap(), thread_cpu().unwrap());
        let mut x = 0u64;
        while thread_cpu().unwrap() - t0 < Duration::from_millis(5) {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        assert!(x > 0);
        let worked = thread_cpu().unwrap() - t0;
        assert!(process_cpu().unwrap() - p0 >= worked);
    }
}
