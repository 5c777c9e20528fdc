//! Reports built from `games.csv` rows: SVG charts ([`plots`]) and the
//! Markdown balance report ([`balance`]).
//!
//! To report on an experiment from its rows: [`balance::write_report`] writes
//! everything into a directory; [`balance::analyze`] and
//! [`balance::markdown`] give the numbers and the text separately; the
//! charts in [`plots`] can be drawn on their own, and [`sweep`] turns the rows
//! of several runs of a parameter sweep into the lines of
//! [`plots::sweep_chart`].

pub mod balance;
pub mod dashboard;
pub mod metagame;
pub mod metrics;
pub mod plots;
pub mod stream;
pub mod sweep;
