//! The progress bar of a run on stderr: indicatif with the `cli` feature, and
//! nothing at all in a lean library build.

/// A bar counting finished games, or nothing.
pub struct Progress {
    #[cfg(feature = "cli")]
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar of `total` games, drawn only when `show` and stderr is a terminal.
    pub fn new(total: u64, show: bool) -> Progress {
        #[cfg(feature = "cli")]
        {
            use std::io::{IsTerminal, Write};
            if !show || !std::io::stderr().is_terminal() {
                return Progress {
                    bar: indicatif::ProgressBar::hidden(),
                };
            }
            let bar = indicatif::ProgressBar::new(total);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            let _ = std::io::stderr().flush();
            Progress { bar }
        }
        #[cfg(not(feature = "cli"))]
        {
            let _ = (total, show);
            Progress {}
        }
    }

    /// One more game finished.
    pub fn inc(&self, n: u64) {
        #[cfg(feature = "cli")]
        self.bar.inc(n);
        #[cfg(not(feature = "cli"))]
        let _ = n;
    }

    /// The run is over: remove the bar.
    pub fn finish_and_clear(&self) {
        #[cfg(feature = "cli")]
        self.bar.finish_and_clear();
    }
}
