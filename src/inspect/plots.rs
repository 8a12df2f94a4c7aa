//! The run's charts, written by `eval` into the run folder as SVG.

/// A chart file of a run folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotFile {
    /// The file name in the run folder.
    pub file: &'static str,
    /// What it shows.
    pub title: &'static str,
}

/// Every chart a run folder may hold, in the order `inspect` lists them.
pub const PLOTS: &[PlotFile] = &[];
