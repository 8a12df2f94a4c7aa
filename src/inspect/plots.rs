//! The run's charts, drawn with plotters' SVG backend from a [`RunView`]
//! and written by `eval` into the run folder: turn accuracy by turn index,
//! by gold operation, by the page's table size, by where the values were
//! read (table, text, earlier turns) and by the dataset's feature flags;
//! for runs whose trace holds LLM exchanges, the latency and tokens of
//! each turn and the cost over the run (a rules run has none of these:
//! [`write`] says so).

use super::{RunView, SourceLocation, TurnView};
use crate::run::{Summary, Tally};
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use std::path::Path;

/// A chart file of a run folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotFile {
    /// The file name in the run folder.
    pub file: &'static str,
    /// What it shows.
    pub title: &'static str,
}

const BY_TURN: PlotFile = PlotFile {
    file: "accuracy_by_turn.svg",
    title: "turn accuracy by turn index",
};
const BY_OPERATION: PlotFile = PlotFile {
    file: "accuracy_by_operation.svg",
    title: "turn accuracy by gold operation (the 12 most asked)",
};
const BY_TABLE_SIZE: PlotFile = PlotFile {
    file: "accuracy_by_table_size.svg",
    title: "turn accuracy by the page's table size (cells)",
};
const BY_SOURCE: PlotFile = PlotFile {
    file: "accuracy_by_value_source.svg",
    title: "turn accuracy by where the turn's values were read",
};
const BY_FEATURE: PlotFile = PlotFile {
    file: "accuracy_by_feature.svg",
    title: "turn accuracy by the dataset's feature flags",
};
const LATENCY: PlotFile = PlotFile {
    file: "llm_latency_per_turn.svg",
    title: "LLM latency of each turn, in run order (ms)",
};
const TOKENS: PlotFile = PlotFile {
    file: "llm_tokens_per_turn.svg",
    title: "LLM tokens of each turn, in run order",
};
const COST: PlotFile = PlotFile {
    file: "llm_cost_over_run.svg",
    title: "LLM cost over the run (US dollars, cumulative)",
};

/// Every chart a run folder may hold, in the order `inspect` lists them.
pub const PLOTS: &[PlotFile] = &[
    BY_TURN,
    BY_OPERATION,
    BY_TABLE_SIZE,
    BY_SOURCE,
    BY_FEATURE,
    LATENCY,
    TOKENS,
    COST,
];

/// A chart that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw `{file}`: {why}")]
pub struct PlotError {
    /// The file.
    pub file: String,
    /// Why.
    pub why: String,
}

/// What [`write`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// The files written, in [`PLOTS`] order.
    pub files: Vec<String>,
    /// Charts left out, and why.
    pub skipped: Vec<String>,
}

/// What the charts need beyond the [`Summary`], gathered a conversation
/// at a time ([`PlotData::add`]) so that a run need not be held whole.
#[derive(Debug, Clone, Default)]
pub struct PlotData {
    /// Turns by the page's table size ([`TABLE_SIZES`]).
    by_table_size: [Tally; 4],
    /// Turns by where their values were read ([`VALUE_SOURCES`]).
    by_source: [Tally; 5],
    /// Each LLM turn in run order: latency (ms), prompt and completion
    /// tokens, cost (USD).
    llm: Vec<(u64, u64, u64, f64)>,
}

const TABLE_SIZES: [&str; 4] = [
    "up to 10 cells",
    "11-20 cells",
    "21-40 cells",
    "over 40 cells",
];
const VALUE_SOURCES: [&str; 5] = [
    "table only",
    "text only",
    "table and text",
    "earlier turns or constants only",
    "no value (unanswered)",
];

impl PlotData {
    /// The data of a whole run.
    pub fn of(view: &RunView) -> Self {
        let mut data = Self::default();
        for c in &view.conversations {
            data.add(c.graph.map(|g| g.observations), &c.turns);
        }
        data
    }

    /// Adds a conversation: the cells of its page's table (`None` when it
    /// failed to load) and its turns.
    pub fn add(&mut self, cells: Option<usize>, turns: &[TurnView]) {
        for t in turns {
            if let Some(u) = t.usage {
                self.llm.push((
                    t.llm_latency_ms,
                    u.prompt_tokens,
                    u.completion_tokens,
                    u.cost_usd,
                ));
            }
            let Some(ok) = t.correct else { continue };
            if let Some(cells) = cells {
                let bin = match cells {
                    0..=10 => 0,
                    11..=20 => 1,
                    21..=40 => 2,
                    _ => 3,
                };
                self.by_table_size[bin].add(ok);
            }
            self.by_source[value_source(t)].add(ok);
        }
    }
}

/// Where a turn's values were read, as an index of [`VALUE_SOURCES`].
fn value_source(t: &TurnView) -> usize {
    let mut table = false;
    let mut text = false;
    for v in &t.values {
        match v.location {
            Some(SourceLocation::Cell { .. } | SourceLocation::HeaderNumber { .. }) => table = true,
            Some(SourceLocation::Sentence { .. }) => text = true,
            _ => {}
        }
    }
    match (table, text, t.values.is_empty()) {
        (true, false, _) => 0,
        (false, true, _) => 1,
        (true, true, _) => 2,
        (false, false, false) => 3,
        (false, false, true) => 4,
    }
}

/// The non-empty groups, labelled.
fn bars(labels: &[&str], tallies: &[Tally]) -> Vec<Bar> {
    labels
        .iter()
        .zip(tallies)
        .filter(|(_, t)| t.total > 0)
        .map(|(l, t)| (l.to_string(), *t))
        .collect()
}

/// Draws every chart the run's summary and data allow into `dir`.
pub fn write(summary: Option<&Summary>, data: &PlotData, dir: &Path) -> Result<Written, PlotError> {
    let mut written = Written::default();
    let bar_charts = [
        (BY_TURN, by_turn(summary)),
        (BY_OPERATION, by_operation(summary)),
        (BY_TABLE_SIZE, bars(&TABLE_SIZES, &data.by_table_size)),
        (BY_SOURCE, bars(&VALUE_SOURCES, &data.by_source)),
        (BY_FEATURE, by_feature(summary)),
    ];
    for (plot, bars) in bar_charts {
        if bars.is_empty() {
            written
                .skipped
                .push(format!("{}: no scored turn", plot.file));
            continue;
        }
        bar_chart(&dir.join(plot.file), plot, &bars)?;
        written.files.push(plot.file.into());
    }
    let llm = &data.llm;
    if llm.is_empty() {
        written.skipped.push(
            "LLM latency, tokens and cost: the trace holds no LLM exchange (a rules run)".into(),
        );
        return Ok(written);
    }
    let latency: Vec<f64> = llm.iter().map(|l| l.0 as f64).collect();
    line_chart(
        &dir.join(LATENCY.file),
        LATENCY,
        &[("latency (ms)", &latency)],
    )?;
    let prompt: Vec<f64> = llm.iter().map(|l| l.1 as f64).collect();
    let completion: Vec<f64> = llm.iter().map(|l| l.2 as f64).collect();
    line_chart(
        &dir.join(TOKENS.file),
        TOKENS,
        &[
            ("prompt tokens", &prompt),
            ("completion tokens", &completion),
        ],
    )?;
    let cost: Vec<f64> = llm
        .iter()
        .scan(0.0, |sum, l| {
            *sum += l.3;
            Some(*sum)
        })
        .collect();
    line_chart(&dir.join(COST.file), COST, &[("cost (USD)", &cost)])?;
    written
        .files
        .extend([LATENCY.file.into(), TOKENS.file.into(), COST.file.into()]);
    Ok(written)
}

/// One bar: a label and its turns.
type Bar = (String, Tally);

fn by_turn(summary: Option<&Summary>) -> Vec<Bar> {
    match summary {
        Some(s) => s
            .by_turn
            .iter()
            .map(|(turn, t)| (format!("turn {turn}"), *t))
            .collect(),
        None => Vec::new(),
    }
}

fn by_operation(summary: Option<&Summary>) -> Vec<Bar> {
    let Some(s) = summary else {
        return Vec::new();
    };
    let mut ops: Vec<Bar> = s
        .by_operation
        .iter()
        .map(|(op, t)| (op.clone(), *t))
        .collect();
    ops.sort_by(|a, b| b.1.total.cmp(&a.1.total).then(a.0.cmp(&b.0)));
    ops.truncate(12);
    ops
}

fn by_feature(summary: Option<&Summary>) -> Vec<Bar> {
    match summary {
        Some(s) => s.by_feature.iter().map(|(f, t)| (f.clone(), *t)).collect(),
        None => Vec::new(),
    }
}

fn fail(plot: PlotFile) -> impl Fn(String) -> PlotError {
    move |why| PlotError {
        file: plot.file.into(),
        why,
    }
}

/// Horizontal bars of accuracy, one a label, each with its share and count.
fn bar_chart(path: &Path, plot: PlotFile, bars: &[Bar]) -> Result<(), PlotError> {
    let err = fail(plot);
    let height = 110 + 34 * bars.len() as u32;
    let root = SVGBackend::new(path, (860, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let longest = bars.iter().map(|(l, _)| l.len()).max().unwrap_or(8);
    let n = bars.len() as u32;
    let mut chart = ChartBuilder::on(&root)
        .caption(plot.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size((longest as u32 * 8 + 16).min(330))
        // an integer range holds its end: n - 1 gives n segments (one
        // bar keeps an empty segment above it: plotters needs a range)
        .build_cartesian_2d(0f64..118f64, (0u32..n.max(2) - 1).into_segmented())
        .map_err(|e| err(e.to_string()))?;
    // the first bar at the top
    let row = |i: usize| n - 1 - i as u32;
    let labels: Vec<String> = bars.iter().rev().map(|(l, _)| l.clone()).collect();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc("turns right (%)")
        .x_labels(7)
        .x_label_formatter(&|x| {
            if *x <= 100.0 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        })
        .y_labels(bars.len())
        .y_label_formatter(&|y| match y {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let blue = RGBColor(66, 113, 196);
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, t))| {
            let i = row(i);
            let mut bar = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(i)),
                    (100.0 * t.accuracy, SegmentValue::Exact(i + 1)),
                ],
                blue.filled(),
            );
            bar.set_margin(5, 5, 0, 0);
            bar
        }))
        .map_err(|e| err(e.to_string()))?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, (_, t))| {
            Text::new(
                format!("{:.1}% ({}/{})", 100.0 * t.accuracy, t.correct, t.total),
                (100.0 * t.accuracy + 1.0, SegmentValue::CenterOf(row(i))),
                ("sans-serif", 13).into_font(),
            )
        }))
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))
}

/// Lines over the run's LLM turns, one a series, with a legend.
fn line_chart(path: &Path, plot: PlotFile, series: &[(&str, &[f64])]) -> Result<(), PlotError> {
    let err = fail(plot);
    let root = SVGBackend::new(path, (860, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let turns = series
        .iter()
        .map(|(_, s)| s.len())
        .max()
        .unwrap_or(1)
        .max(2);
    let top = series
        .iter()
        .flat_map(|(_, s)| s.iter().copied())
        .fold(0.0f64, f64::max);
    let top = if top > 0.0 { top * 1.1 } else { 1.0 };
    let mut chart = ChartBuilder::on(&root)
        .caption(plot.title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(70)
        .build_cartesian_2d(1f64..turns as f64, 0f64..top)
        .map_err(|e| err(e.to_string()))?;
    let whole = |x: &f64| {
        if x.fract() == 0.0 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    };
    let short = |y: &f64| {
        let text = format!("{y:.4}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    chart
        .configure_mesh()
        .x_desc("LLM turn of the run")
        .x_labels(turns.min(12))
        .x_label_formatter(&whole)
        .y_label_formatter(&short)
        .light_line_style(TRANSPARENT)
        .label_style(("sans-serif", 14))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    let colours = [RGBColor(66, 113, 196), RGBColor(221, 132, 82)];
    for (k, (name, values)) in series.iter().enumerate() {
        let colour = colours[k % colours.len()];
        chart
            .draw_series(LineSeries::new(
                values.iter().enumerate().map(|(i, v)| ((i + 1) as f64, *v)),
                colour.stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(|e| err(e.to_string()))?;
    root.present().map_err(|e| err(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{ConversationView, TurnView};
    use crate::run::RunInfo;

    /// A run of three LLM turns, one wrong, read from trace-like JSON.
    fn llm_run() -> RunView {
        let turns = (0..3)
            .map(|i| {
                let v = serde_json::json!({
                    "turn": i, "question": "q", "answer": 1, "correct": i != 1,
                    "gold": {"answer": 1, "text": "1", "operations": "lookup"},
                    "values": [], "llm": [{"latency_ms": 100 * (i + 1)}],
                    "usage": {"requests": 1, "cache_hits": 0, "prompt_tokens": 800 + i,
                              "completion_tokens": 40, "retries": 0, "cost_usd": 0.001},
                });
                TurnView::from_json("c", v.as_object().unwrap(), None)
            })
            .collect();
        RunView {
            dir: "run".into(),
            run: RunInfo::start("llm", None, None),
            summary: None,
            conversations: vec![ConversationView {
                id: "c".into(),
                turns_asked: 3,
                correct: Some(2),
                graph: None,
                error: None,
                page: None,
                turns,
            }],
            plots: Vec::new(),
        }
    }

    #[test]
    fn llm_turns_are_charted_and_a_run_without_a_summary_skips_the_rest() {
        let dir = tempfile::TempDir::new().unwrap();
        let run = llm_run();
        let written = write(run.summary.as_ref(), &PlotData::of(&run), dir.path()).unwrap();
        assert_eq!(
            written.files,
            [
                "accuracy_by_value_source.svg",
                "llm_latency_per_turn.svg",
                "llm_tokens_per_turn.svg",
                "llm_cost_over_run.svg"
            ]
        );
        assert!(written
            .skipped
            .iter()
            .any(|s| s.starts_with("accuracy_by_turn.svg")));
        let tokens = std::fs::read_to_string(dir.path().join("llm_tokens_per_turn.svg")).unwrap();
        std::fs::copy(
            dir.path().join("llm_tokens_per_turn.svg"),
            "/tmp/tokens13.svg",
        )
        .unwrap();
        for (series, colour) in [
            ("prompt tokens", "#4271C4"),
            ("completion tokens", "#DD8452"),
        ] {
            assert!(tokens.contains(series), "the legend names {series}");
            assert!(
                tokens.contains(&format!("stroke=\"{colour}\"")),
                "{series} is drawn"
            );
        }
        let by_source =
            std::fs::read_to_string(dir.path().join("accuracy_by_value_source.svg")).unwrap();
        assert!(by_source.contains("66.7% (2/3)"), "{by_source}");
    }
}
