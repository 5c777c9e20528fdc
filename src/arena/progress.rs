//! The progress bar of every long command on stderr (a run, a balance study,
//! a ladder, a tuning): indicatif with the `cli` feature, and nothing at all
//! in a lean library build. Drawn only on a terminal, so piped output stays
//! quiet.

/// A bar counting finished units (games, pairs, evaluations) with their rate
/// and an ETA, or nothing. Clones draw the same bar, so a command made of
/// many runs (a meta-game's cells) can count them all on one.
#[derive(Clone)]
pub struct Progress {
    #[cfg(feature = "cli")]
    bar: indicatif::ProgressBar,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// A rate as a person reads it: three significant figures at most, and the
/// time per unit when it is below one a second ("171/s", "17.2/s", "2.4 s/game").
pub fn rate_text(per_sec: f64, unit: &str) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return String::new();
    }
    if per_sec >= 100.0 {
        format!("{per_sec:.0} {unit}s/s")
    } else if per_sec >= 10.0 {
        format!("{per_sec:.1} {unit}s/s")
    } else if per_sec >= 1.0 {
        format!("{per_sec:.2} {unit}s/s")
    } else if per_sec >= 1.0 / 60.0 {
        format!("{:.1} s/{unit}", 1.0 / per_sec)
    } else {
        format!("{:.1} min/{unit}", 1.0 / per_sec / 60.0)
    }
}

impl Progress {
    /// A bar of `total` games, drawn only when `show` and stderr is a terminal.
    pub fn new(total: u64, show: bool) -> Progress {
        Progress::of(total, show, "game", String::new())
    }

    /// A bar of `total` units named `unit` ("game", "pair"), headed by
    /// `label` ("budget 500 (2 of 4)"), drawn only when `show` and stderr is
    /// a terminal.
    pub fn of(total: u64, show: bool, unit: &'static str, label: String) -> Progress {
        #[cfg(feature = "cli")]
        {
            use std::io::{IsTerminal, Write};
            if !show || !std::io::stderr().is_terminal() {
                return Progress {
                    bar: indicatif::ProgressBar::hidden(),
                };
            }
            let bar = indicatif::ProgressBar::new(total);
            let template =
                format!("{{msg}}{{bar:40}} {{pos}}/{{len}} {unit}s  {{rate}}  ETA {{eta}}");
            bar.set_style(
                indicatif::ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .with_key(
                        "rate",
                        move |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let _ = w.write_str(&rate_text(s.per_sec(), unit));
                        },
                    ),
            );
            if !label.is_empty() {
                bar.set_message(format!("{label}  "));
            }
            let _ = std::io::stderr().flush();
            Progress { bar }
        }
        #[cfg(not(feature = "cli"))]
        {
            let _ = (total, show, unit, label);
            Progress {}
        }
    }

    /// `n` more units finished.
    pub fn inc(&self, n: u64) {
        #[cfg(feature = "cli")]
        self.bar.inc(n);
        #[cfg(not(feature = "cli"))]
        let _ = n;
    }

    /// Heads the bar with `label` (what is being played now).
    pub fn set_label(&self, label: &str) {
        #[cfg(feature = "cli")]
        self.bar.set_message(format!("{label}  "));
        #[cfg(not(feature = "cli"))]
        let _ = label;
    }

    /// The work is over: remove the bar.
    pub fn finish_and_clear(&self) {
        #[cfg(feature = "cli")]
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn rates_read_as_a_person_writes_them() {
        assert_eq!(rate_text(171.5615, "game"), "172 games/s");
        assert_eq!(rate_text(17.156, "game"), "17.2 games/s");
        assert_eq!(rate_text(1.7156, "game"), "1.72 games/s");
        assert_eq!(rate_text(0.4167, "game"), "2.4 s/game");
        assert_eq!(rate_text(0.005, "pair"), "3.3 min/pair");
        assert_eq!(rate_text(0.0, "game"), "");
        assert_eq!(rate_text(f64::NAN, "game"), "");
    }
}
