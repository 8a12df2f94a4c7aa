//! Loading ConvFinQA conversations from either of the two published layouts.
//!
//! - The "doc / dialogue" layout (`dev_public.json`): one conversation
//!   object, a list of them, or a map `{split_name: [..]}`; each carries
//!   `id`, `doc.{pre_text, post_text, table}`, `dialogue.conv_questions` and,
//!   when gold is published, `dialogue.{executed_answers, conv_answers,
//!   turn_program, qa_split}` and `features`.
//! - The paper's original layout: a list of objects with `pre_text` and
//!   `post_text` as lists of sentences, `table` as rows of strings, `id` and
//!   `annotation.dialogue_break` (plus `exe_ans_list` / `turn_program` when
//!   gold is published).
//!
//! The layout is detected per conversation object. What a planner may read
//! ([`Conversation`]) is kept apart from the gold ([`Gold`]), which only the
//! evaluator and tests may read. The JSON is walked as a
//! [`serde_json::Value`] so that every shape error names its file and place.

pub mod cell;

use self::cell::{parse_cell, Cell};
use rust_decimal::Decimal;
use serde_json::{Map, Number, Value};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// One report page: text before and after a table, and the table.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Document {
    /// The text printed before the table.
    pub pre_text: String,
    /// The text printed after the table.
    pub post_text: String,
    /// The table of the page.
    pub table: Table,
}

/// A report table: column headers and labelled rows.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Table {
    /// Column headers as printed, in order (the corner cell is not a column).
    pub columns: Vec<String>,
    /// Rows in order of appearance.
    pub rows: Vec<Row>,
}

/// One table row: its label and one cell per column.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// The row label as printed.
    pub label: String,
    /// One cell per column (`cells.len() == columns.len()`); a missing entry
    /// is an empty cell (raw `""`, no value).
    pub cells: Vec<Cell>,
}

/// What a planner may see: the page and the questions, never gold.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Conversation {
    /// The conversation id, e.g. `Single_MRO/2007/page_134.pdf-1`.
    pub id: String,
    /// The report page the conversation is about.
    pub document: Document,
    /// The questions, one a turn, in order.
    pub questions: Vec<String>,
}

/// Gold answers and annotations: only the evaluator may read these.
#[derive(Debug, Clone)]
pub struct Gold {
    /// The conversation id (same as [`Conversation::id`]).
    pub id: String,
    /// The executed gold answer of each turn (empty when not published).
    pub answers: Vec<GoldAnswer>,
    /// The gold answer text of each turn (`conv_answers`, e.g. "142.4%");
    /// in the original layout, the executed answers written as text.
    pub answer_texts: Vec<String>,
    /// The gold program of each turn (empty when not published).
    pub programs: Vec<String>,
    /// Annotations describing the conversation.
    pub features: Features,
}

/// One gold executed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum GoldAnswer {
    /// A number, in the dataset's convention (ratios as fractions).
    Number(Decimal),
    /// The word "yes" (any case).
    Yes,
    /// The word "no" (any case).
    No,
}

/// Annotations of a conversation, each optional.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features {
    /// `features.num_dialogue_turns`.
    pub num_dialogue_turns: Option<usize>,
    /// `features.has_type2_question` (the conversation joins two questions).
    pub has_type2_question: Option<bool>,
    /// `features.has_duplicate_columns`.
    pub has_duplicate_columns: Option<bool>,
    /// `features.has_non_numeric_values`.
    pub has_non_numeric_values: Option<bool>,
    /// `qa_split`, one flag a turn (empty when not published).
    pub qa_split: Vec<bool>,
}

/// A conversation and, when the file publishes it, its gold.
#[derive(Debug, Clone)]
pub struct Example {
    /// What a planner may see.
    pub conversation: Conversation,
    /// The gold, `None` when the file carries no answers.
    pub gold: Option<Gold>,
}

/// The layout a conversation object was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `doc` + `dialogue` keys (`dev_public.json`).
    Dialogue,
    /// `table` + `annotation` keys (the paper's original layout).
    Original,
}

/// Why a file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    /// The file could not be read.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file that could not be read.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The text is not valid JSON.
    #[error("{source_name}: malformed json at line {line}, column {column}")]
    Json {
        /// The file (or other source) name.
        source_name: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The underlying error.
        #[source]
        source: serde_json::Error,
    },
    /// The JSON is valid but not shaped like a ConvFinQA file.
    #[error("{source_name}: {location}: {message}")]
    Shape {
        /// The file (or other source) name.
        source_name: String,
        /// Where in the file, e.g. "conversation 3 (`Single_X/2007/page_1.pdf-1`)".
        location: String,
        /// What is wrong, e.g. "`doc.table` is not an object".
        message: String,
    },
    /// The file holds no conversation.
    #[error("{source_name}: holds no conversation")]
    Empty {
        /// The file (or other source) name.
        source_name: String,
    },
}

/// Loads every conversation of a file, read as a stream: the JSON of one
/// conversation at a time is held, never the whole file's text or tree.
pub fn load_file(path: &Path) -> Result<Vec<Example>, DatasetError> {
    let file = std::fs::File::open(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut examples = Vec::new();
    read_each(
        std::io::BufReader::new(file),
        &path.display().to_string(),
        |example| {
            examples.push(example);
            Ok(())
        },
    )?;
    Ok(examples)
}

/// Loads every conversation of a JSON text; `source_name` names it in errors.
pub fn load_str(text: &str, source_name: &str) -> Result<Vec<Example>, DatasetError> {
    let mut examples = Vec::new();
    read_each(text.as_bytes(), source_name, |example| {
        examples.push(example);
        Ok(())
    })?;
    Ok(examples)
}

/// Reads the conversations of a JSON text from `reader` one at a time, in
/// the file's order, and hands each to `each` as soon as it is read: memory
/// holds one conversation's JSON, whatever the file's size. Every layout
/// [`load_str`] reads (one conversation, a list, a map of split names to
/// lists); an error of `each` stops the reading and is returned. Returns
/// how many conversations were read.
pub fn read_each<R: std::io::Read>(
    reader: R,
    source_name: &str,
    each: impl FnMut(Example) -> Result<(), DatasetError>,
) -> Result<usize, DatasetError> {
    use serde::Deserializer as _;
    let mut stream = Stream {
        source_name,
        each,
        count: 0,
        failure: None,
        stopped: false,
    };
    let mut de = serde_json::Deserializer::from_reader(reader);
    // as when the whole text was parsed first: malformed JSON anywhere is
    // the error, before any conversation's shape
    let parsed = de
        .deserialize_any(Root(&mut stream))
        .and_then(|()| de.end());
    if stream.stopped {
        // `each` refused a conversation: its error, and no more reading
        if let Some(failure) = stream.failure.take() {
            return Err(failure);
        }
    }
    parsed.map_err(|source| DatasetError::Json {
        source_name: source_name.to_string(),
        line: source.line(),
        column: source.column(),
        source,
    })?;
    if let Some(failure) = stream.failure.take() {
        return Err(failure);
    }
    if stream.count == 0 {
        return Err(DatasetError::Empty {
            source_name: source_name.to_string(),
        });
    }
    Ok(stream.count)
}

/// The conversations of a file as an iterator, read as a stream by
/// [`read_each`] on a thread of their own a few conversations ahead of the
/// consumer: memory holds those few, whatever the file's size. An error
/// (malformed JSON, a shape error) is the last item. Dropping the iterator
/// ends the reading.
pub fn stream_file(path: &Path) -> Result<FileStream, DatasetError> {
    let file = std::fs::File::open(path).map_err(|source| DatasetError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let (sender, receiver) = std::sync::mpsc::sync_channel(STREAM_AHEAD);
    let source_name = path.display().to_string();
    let stopped = path.to_path_buf();
    std::thread::Builder::new()
        .name("finkg-dataset".into())
        .spawn(move || {
            let read = read_each(std::io::BufReader::new(file), &source_name, |example| {
                sender.send(Ok(example)).map_err(|_| DatasetError::Io {
                    path: stopped.clone(),
                    source: std::io::Error::new(std::io::ErrorKind::BrokenPipe, STOPPED),
                })
            });
            if let Err(e) = read {
                // nobody listens once the iterator is dropped
                let _ = sender.send(Err(e));
            }
        })
        .map_err(|source| DatasetError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(FileStream { receiver })
}

/// How many conversations [`stream_file`] reads ahead of its consumer.
const STREAM_AHEAD: usize = 4;

/// The iterator [`stream_file`] returns.
pub struct FileStream {
    receiver: std::sync::mpsc::Receiver<Result<Example, DatasetError>>,
}

impl Iterator for FileStream {
    type Item = Result<Example, DatasetError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.receiver.recv().ok()
    }
}

/// The keys of a conversation object in either layout: under any other key
/// of the top-level object a list is a split's conversations.
const CONVERSATION_KEYS: [&str; 13] = [
    "id",
    "doc",
    "dialogue",
    "features",
    "annotation",
    "pre_text",
    "post_text",
    "table",
    "table_ori",
    "filename",
    "qa",
    "qa_0",
    "qa_1",
];

/// The state of [`read_each`]: where conversations go, and the first error
/// met; after a shape error the text is still read to its end (and nothing
/// more is handed on), so that malformed JSON further on is reported
/// instead; after an error of `each` (`stopped`) the reading ends at once.
struct Stream<'a, F> {
    source_name: &'a str,
    each: F,
    count: usize,
    failure: Option<DatasetError>,
    stopped: bool,
}

/// The serde error that ends the reading once `each` has refused a
/// conversation (never shown: [`read_each`] returns `each`'s error).
const STOPPED: &str = "the reader of the conversations stopped";

impl<F: FnMut(Example) -> Result<(), DatasetError>> Stream<'_, F> {
    /// One conversation object (a list's item) into an [`Example`], handed on.
    fn item(&mut self, item: Value, place: String) {
        if self.failure.is_some() {
            return;
        }
        let result = match &item {
            Value::Object(map) => {
                load_conversation(map, &place, self.source_name).and_then(|example| {
                    let handed = (self.each)(example);
                    self.stopped = handed.is_err();
                    handed
                })
            }
            other => Err(shape(
                self.source_name,
                place,
                format!("is {}, not an object", kind(other)),
            )),
        };
        match result {
            Ok(()) => self.count += 1,
            Err(e) => self.fail(e),
        }
    }

    /// Records the first error.
    fn fail(&mut self, e: DatasetError) {
        self.failure.get_or_insert(e);
    }

    /// The items of a list of conversations, read one at a time.
    fn list<'de, A: serde::de::SeqAccess<'de>>(
        &mut self,
        mut seq: A,
        split: Option<&str>,
    ) -> Result<(), A::Error> {
        let mut index = 0;
        while let Some(item) = seq.next_element::<Value>()? {
            let place = match split {
                Some(split) => format!("split `{split}`, conversation {index}"),
                None => format!("conversation {index}"),
            };
            self.item(item, place);
            if self.stopped {
                return Err(serde::de::Error::custom(STOPPED));
            }
            index += 1;
        }
        Ok(())
    }
}

/// The top level: a list of conversations, one conversation, or a map of
/// split names to lists.
struct Root<'s, 'a, F>(&'s mut Stream<'a, F>);

impl<'de, F: FnMut(Example) -> Result<(), DatasetError>> serde::de::Visitor<'de>
    for Root<'_, '_, F>
{
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a conversation, a list or a map of lists")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        self.0.list(seq, None)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // what is not a split's list is kept: the fields of one
        // conversation, or what a map of splits must not hold
        let mut kept = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Field {
                stream: &mut *self.0,
                key: &key,
            })?;
            if let Some(value) = value {
                kept.insert(key, value);
            }
        }
        if detect_layout(&kept).is_some() {
            self.0
                .item(Value::Object(kept), "conversation 0".to_string());
            return Ok(());
        }
        if let Some((split, value)) = kept.iter().next() {
            let e = shape(
                self.0.source_name,
                format!("split `{split}`"),
                format!("is {}, not a list of conversations", kind(value)),
            );
            self.0.fail(e);
        }
        Ok(())
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.top_level(&Value::Bool(false))
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.top_level(&Value::from(0))
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.top_level(&Value::from(0))
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.top_level(&Value::from(0))
    }
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<(), E> {
        self.top_level(&Value::String(String::new()))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.top_level(&Value::Null)
    }
}

impl<F: FnMut(Example) -> Result<(), DatasetError>> Root<'_, '_, F> {
    fn top_level<E: serde::de::Error>(self, value: &Value) -> Result<(), E> {
        let e = shape(
            self.0.source_name,
            "top level".to_string(),
            format!(
                "is {}, not a conversation, a list or a map of lists",
                kind(value)
            ),
        );
        self.0.fail(e);
        Ok(())
    }
}

/// A value of the top-level map: a split's list is read as it streams
/// (`None`); anything else is kept whole.
struct Field<'s, 'a, F> {
    stream: &'s mut Stream<'a, F>,
    key: &'s str,
}

impl<'de, F: FnMut(Example) -> Result<(), DatasetError>> serde::de::DeserializeSeed<'de>
    for Field<'_, '_, F>
{
    type Value = Option<Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<Value>, D::Error> {
        if CONVERSATION_KEYS.contains(&self.key) {
            return <Value as serde::Deserialize>::deserialize(d).map(Some);
        }
        d.deserialize_any(self)
    }
}

impl<'de, F: FnMut(Example) -> Result<(), DatasetError>> serde::de::Visitor<'de>
    for Field<'_, '_, F>
{
    type Value = Option<Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of conversations or a conversation's field")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Option<Value>, A::Error> {
        self.stream.list(seq, Some(self.key))?;
        Ok(None)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Option<Value>, A::Error> {
        <Value as serde::Deserialize>::deserialize(serde::de::value::MapAccessDeserializer::new(
            map,
        ))
        .map(Some)
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Option<Value>, E> {
        Ok(Some(Value::Bool(v)))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Option<Value>, E> {
        Ok(Some(Value::String(v.to_owned())))
    }
    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Option<Value>, E> {
        Ok(Some(Value::String(v)))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Option<Value>, E> {
        Ok(Some(Value::Null))
    }
}

/// Which layout a conversation object is written in, if any.
pub fn detect_layout(object: &Map<String, Value>) -> Option<Layout> {
    if object.contains_key("doc") || object.contains_key("dialogue") {
        Some(Layout::Dialogue)
    } else if object.contains_key("annotation") || object.contains_key("table") {
        Some(Layout::Original)
    } else {
        None
    }
}

/// Where-and-what context for errors inside one conversation.
struct Ctx<'a> {
    source_name: &'a str,
    location: String,
}

impl Ctx<'_> {
    fn err(&self, message: String) -> DatasetError {
        shape(self.source_name, self.location.clone(), message)
    }
}

fn load_conversation(
    map: &Map<String, Value>,
    place: &str,
    source_name: &str,
) -> Result<Example, DatasetError> {
    let mut ctx = Ctx {
        source_name,
        location: place.to_string(),
    };
    let id = match map.get("id") {
        Some(Value::String(id)) => id.clone(),
        Some(other) => return Err(ctx.err(format!("`id` is {}, not a string", kind(other)))),
        None => return Err(ctx.err("`id` is missing".to_string())),
    };
    ctx.location = format!("{place} (`{id}`)");
    match detect_layout(map) {
        Some(Layout::Dialogue) => load_dialogue(map, id, &ctx),
        Some(Layout::Original) => load_original(map, id, &ctx),
        None => {
            Err(ctx.err("has neither `doc`/`dialogue` nor `table`/`annotation` keys".to_string()))
        }
    }
}

fn load_dialogue(
    map: &Map<String, Value>,
    id: String,
    ctx: &Ctx<'_>,
) -> Result<Example, DatasetError> {
    let doc = require_object(map, "doc", "doc", ctx)?;
    let pre_text = text_field(doc.get("pre_text"), "doc.pre_text", ctx)?;
    let post_text = text_field(doc.get("post_text"), "doc.post_text", ctx)?;
    let table = dialogue_table(doc.get("table"), ctx)?;
    let dialogue = require_object(map, "dialogue", "dialogue", ctx)?;
    let questions = questions(
        dialogue.get("conv_questions"),
        "dialogue.conv_questions",
        ctx,
    )?;

    let answers = opt_list(
        dialogue.get("executed_answers"),
        "dialogue.executed_answers",
        ctx,
    )?;
    let texts = opt_list(dialogue.get("conv_answers"), "dialogue.conv_answers", ctx)?;
    let programs = opt_list(dialogue.get("turn_program"), "dialogue.turn_program", ctx)?;
    let qa_split = opt_list(dialogue.get("qa_split"), "dialogue.qa_split", ctx)?;
    let has_gold = answers.is_some() || texts.is_some() || programs.is_some();
    let gold = if has_gold {
        let mut features = features(map.get("features"), ctx)?;
        features.qa_split = bools(qa_split, "dialogue.qa_split", questions.len(), ctx)?;
        Some(Gold {
            id: id.clone(),
            answers: gold_answers(answers, "dialogue.executed_answers", questions.len(), ctx)?,
            answer_texts: strings(texts, "dialogue.conv_answers", questions.len(), ctx)?,
            programs: strings(programs, "dialogue.turn_program", questions.len(), ctx)?,
            features,
        })
    } else {
        None
    };
    Ok(Example {
        conversation: Conversation {
            id,
            document: Document {
                pre_text,
                post_text,
                table,
            },
            questions,
        },
        gold,
    })
}

fn load_original(
    map: &Map<String, Value>,
    id: String,
    ctx: &Ctx<'_>,
) -> Result<Example, DatasetError> {
    let pre_text = text_field(map.get("pre_text"), "pre_text", ctx)?;
    let post_text = text_field(map.get("post_text"), "post_text", ctx)?;
    let table = original_table(map.get("table"), ctx)?;
    let annotation = require_object(map, "annotation", "annotation", ctx)?;
    let questions = questions(
        annotation.get("dialogue_break"),
        "annotation.dialogue_break",
        ctx,
    )?;
    let answers = opt_list(
        annotation.get("exe_ans_list"),
        "annotation.exe_ans_list",
        ctx,
    )?;
    let programs = opt_list(
        annotation.get("turn_program"),
        "annotation.turn_program",
        ctx,
    )?;
    let qa_split = opt_list(annotation.get("qa_split"), "annotation.qa_split", ctx)?;
    let gold = if answers.is_some() || programs.is_some() {
        let n = questions.len();
        let answer_texts = match answers {
            Some(items) => items.iter().map(answer_text).collect(),
            None => Vec::new(),
        };
        Some(Gold {
            id: id.clone(),
            answers: gold_answers(answers, "annotation.exe_ans_list", n, ctx)?,
            answer_texts,
            programs: strings(programs, "annotation.turn_program", n, ctx)?,
            features: Features {
                qa_split: bools(qa_split, "annotation.qa_split", n, ctx)?,
                ..Features::default()
            },
        })
    } else {
        None
    };
    Ok(Example {
        conversation: Conversation {
            id,
            document: Document {
                pre_text,
                post_text,
                table,
            },
            questions,
        },
        gold,
    })
}

/// `doc.table`: column header → row label → value, in JSON order.
fn dialogue_table(value: Option<&Value>, ctx: &Ctx<'_>) -> Result<Table, DatasetError> {
    let columns_map = match value {
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(ctx.err(format!("`doc.table` is {}, not an object", kind(other))))
        }
        None => return Err(ctx.err("`doc.table` is missing".to_string())),
    };
    let mut columns = Vec::with_capacity(columns_map.len());
    let mut labels: Vec<String> = Vec::new();
    let mut column_maps = Vec::with_capacity(columns_map.len());
    for (header, rows) in columns_map {
        let Value::Object(rows) = rows else {
            return Err(ctx.err(format!(
                "`doc.table` column `{header}` is {}, not an object",
                kind(rows)
            )));
        };
        for (label, cell) in rows {
            if !matches!(cell, Value::Number(_) | Value::String(_) | Value::Null) {
                return Err(ctx.err(format!(
                    "`doc.table` cell (`{header}`, `{label}`) is {}, not a number or string",
                    kind(cell)
                )));
            }
            if !labels.contains(label) {
                labels.push(label.clone());
            }
        }
        columns.push(header.clone());
        column_maps.push(rows);
    }
    let rows = labels
        .into_iter()
        .map(|label| {
            let cells = column_maps
                .iter()
                .map(|rows| match rows.get(&label) {
                    Some(Value::Number(n)) => number_cell(n),
                    Some(Value::String(s)) => parse_cell(s),
                    _ => Cell::empty(),
                })
                .collect();
            Row { label, cells }
        })
        .collect();
    Ok(Table { columns, rows })
}

/// The cell of a JSON number: raw is the number's JSON text.
fn number_cell(n: &Number) -> Cell {
    parse_cell(&n.to_string())
}

/// `table` of the original layout: rows of strings, first row the headers.
fn original_table(value: Option<&Value>, ctx: &Ctx<'_>) -> Result<Table, DatasetError> {
    let rows = match value {
        Some(Value::Array(rows)) => rows,
        Some(other) => return Err(ctx.err(format!("`table` is {}, not a list", kind(other)))),
        None => return Err(ctx.err("`table` is missing".to_string())),
    };
    let mut text_rows = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(items) = row else {
            return Err(ctx.err(format!("`table` row {r} is {}, not a list", kind(row))));
        };
        let mut texts = Vec::with_capacity(items.len());
        for (c, item) in items.iter().enumerate() {
            texts.push(match item {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                Value::Null => String::new(),
                other => {
                    return Err(ctx.err(format!(
                        "`table` row {r} cell {c} is {}, not a string",
                        kind(other)
                    )))
                }
            });
        }
        text_rows.push(texts);
    }
    let mut iter = text_rows.into_iter();
    let columns: Vec<String> = match iter.next() {
        Some(header) => header.into_iter().skip(1).collect(),
        None => Vec::new(),
    };
    let rows = iter
        .map(|texts| {
            let mut texts = texts.into_iter();
            let label = texts.next().unwrap_or_default();
            let mut cells: Vec<Cell> = texts.take(columns.len()).map(|t| parse_cell(&t)).collect();
            cells.resize_with(columns.len(), Cell::empty);
            Row { label, cells }
        })
        .collect();
    Ok(Table { columns, rows })
}

fn require_object<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
    ctx: &Ctx<'_>,
) -> Result<&'a Map<String, Value>, DatasetError> {
    match map.get(key) {
        Some(Value::Object(m)) => Ok(m),
        Some(other) => Err(ctx.err(format!("`{path}` is {}, not an object", kind(other)))),
        None => Err(ctx.err(format!("`{path}` is missing"))),
    }
}

/// A text: a string, a list of strings (joined with " "), or absent (empty).
fn text_field(value: Option<&Value>, path: &str, ctx: &Ctx<'_>) -> Result<String, DatasetError> {
    match value {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(items)) => {
            let mut parts = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                match item {
                    Value::String(s) => parts.push(s.as_str()),
                    other => {
                        return Err(ctx.err(format!(
                            "`{path}` item {i} is {}, not a string",
                            kind(other)
                        )))
                    }
                }
            }
            Ok(parts.join(" "))
        }
        Some(other) => Err(ctx.err(format!(
            "`{path}` is {}, not a string or a list of strings",
            kind(other)
        ))),
    }
}

/// The questions: a non-empty list of strings.
fn questions(
    value: Option<&Value>,
    path: &str,
    ctx: &Ctx<'_>,
) -> Result<Vec<String>, DatasetError> {
    let items = match value {
        Some(Value::Array(items)) => items,
        Some(other) => return Err(ctx.err(format!("`{path}` is {}, not a list", kind(other)))),
        None => return Err(ctx.err(format!("`{path}` is missing"))),
    };
    if items.is_empty() {
        return Err(ctx.err(format!("`{path}` is empty")));
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            other => Err(ctx.err(format!(
                "`{path}` item {i} is {}, not a string",
                kind(other)
            ))),
        })
        .collect()
}

/// An optional list field; present but not a list is a shape error.
fn opt_list<'a>(
    value: Option<&'a Value>,
    path: &str,
    ctx: &Ctx<'_>,
) -> Result<Option<&'a [Value]>, DatasetError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => Ok(Some(items)),
        Some(other) => Err(ctx.err(format!("`{path}` is {}, not a list", kind(other)))),
    }
}

/// Checks that a per-turn list has one entry a question.
fn check_len(items: &[Value], path: &str, turns: usize, ctx: &Ctx<'_>) -> Result<(), DatasetError> {
    if items.len() == turns {
        Ok(())
    } else {
        Err(ctx.err(format!(
            "`{path}` has {} entries for {turns} questions",
            items.len()
        )))
    }
}

/// A per-turn list of texts; a number is taken as its JSON text.
fn strings(
    items: Option<&[Value]>,
    path: &str,
    turns: usize,
    ctx: &Ctx<'_>,
) -> Result<Vec<String>, DatasetError> {
    let Some(items) = items else {
        return Ok(Vec::new());
    };
    check_len(items, path, turns, ctx)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(ctx.err(format!(
                "`{path}` item {i} is {}, not a string",
                kind(other)
            ))),
        })
        .collect()
}

fn bools(
    items: Option<&[Value]>,
    path: &str,
    turns: usize,
    ctx: &Ctx<'_>,
) -> Result<Vec<bool>, DatasetError> {
    let Some(items) = items else {
        return Ok(Vec::new());
    };
    check_len(items, path, turns, ctx)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Bool(b) => Ok(*b),
            other => Err(ctx.err(format!(
                "`{path}` item {i} is {}, not a boolean",
                kind(other)
            ))),
        })
        .collect()
}

fn gold_answers(
    items: Option<&[Value]>,
    path: &str,
    turns: usize,
    ctx: &Ctx<'_>,
) -> Result<Vec<GoldAnswer>, DatasetError> {
    let Some(items) = items else {
        return Ok(Vec::new());
    };
    check_len(items, path, turns, ctx)?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            gold_answer(item).ok_or_else(|| {
                ctx.err(format!(
                    "`{path}` item {i} ({item}) is not a number, \"yes\" or \"no\""
                ))
            })
        })
        .collect()
}

/// One executed answer: a JSON number, a numeric string, or "yes"/"no".
fn gold_answer(item: &Value) -> Option<GoldAnswer> {
    match item {
        Value::Number(n) => decimal_of(&n.to_string()).map(GoldAnswer::Number),
        Value::String(s) => {
            let s = s.trim();
            if s.eq_ignore_ascii_case("yes") {
                Some(GoldAnswer::Yes)
            } else if s.eq_ignore_ascii_case("no") {
                Some(GoldAnswer::No)
            } else {
                decimal_of(s).map(GoldAnswer::Number)
            }
        }
        _ => None,
    }
}

/// A plain or scientific decimal (`1.42403`, `-28.0`, `1e-5`).
fn decimal_of(text: &str) -> Option<Decimal> {
    Decimal::from_str(text)
        .ok()
        .or_else(|| Decimal::from_scientific(text).ok())
}

/// An executed answer written as text, for layouts without answer texts.
fn answer_text(item: &Value) -> String {
    match item {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// `features`: every field optional; a field of the wrong type is an error.
fn features(value: Option<&Value>, ctx: &Ctx<'_>) -> Result<Features, DatasetError> {
    let map = match value {
        None | Some(Value::Null) => return Ok(Features::default()),
        Some(Value::Object(map)) => map,
        Some(other) => return Err(ctx.err(format!("`features` is {}, not an object", kind(other)))),
    };
    let flag = |key: &str| -> Result<Option<bool>, DatasetError> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(ctx.err(format!(
                "`features.{key}` is {}, not a boolean",
                kind(other)
            ))),
        }
    };
    let num_dialogue_turns = match map.get("num_dialogue_turns") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
            Some(n) => Some(n),
            None => {
                return Err(ctx.err(format!(
                    "`features.num_dialogue_turns` ({n}) is not a count"
                )))
            }
        },
        Some(other) => {
            return Err(ctx.err(format!(
                "`features.num_dialogue_turns` is {}, not a number",
                kind(other)
            )))
        }
    };
    Ok(Features {
        num_dialogue_turns,
        has_type2_question: flag("has_type2_question")?,
        has_duplicate_columns: flag("has_duplicate_columns")?,
        has_non_numeric_values: flag("has_non_numeric_values")?,
        qa_split: Vec::new(),
    })
}

fn shape(source_name: &str, location: String, message: String) -> DatasetError {
    DatasetError::Shape {
        source_name: source_name.to_string(),
        location,
        message,
    }
}

/// A short name of a JSON value's kind, for error messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::cell::CellUnit;
    use super::*;

    const DEV: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/convfinqa_dev_public.json"
    );
    const ORIGINAL: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/original_layout_sample.json"
    );

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn cell<'a>(table: &'a Table, column: &str, label: &str) -> &'a Cell {
        let c = table.columns.iter().position(|h| h == column).unwrap();
        let row = table.rows.iter().find(|r| r.label == label).unwrap();
        &row.cells[c]
    }

    fn shape_message(err: DatasetError) -> String {
        assert!(matches!(err, DatasetError::Shape { .. }), "{err:?}");
        err.to_string()
    }

    fn minimal(id: &str) -> String {
        format!(
            r#"{{"id": "{id}", "doc": {{"pre_text": "a", "post_text": ["b", "c"],
                "table": {{"2009": {{"x": 1.5, "y": "( 2 )"}}, "2008": {{"z": null, "x": 3}}}}}},
               "dialogue": {{"conv_questions": ["what is x in 2009?"]}}}}"#
        )
    }

    #[test]
    fn loads_the_dev_file() {
        let examples = load_file(Path::new(DEV)).unwrap();
        assert_eq!(examples.len(), 257);
        let first = &examples[0];
        assert_eq!(first.conversation.id, "Single_MRO/2007/page_134.pdf-1");
        let table = &first.conversation.document.table;
        assert_eq!(table.columns, ["2007", "2006", "2005"]);
        let price = cell(table, "2007", "weighted average exercise price per share");
        assert_eq!(price.raw, "60.94");
        assert_eq!(price.value, Some(dec("60.94")));
        let vol = cell(table, "2006", "expected volatility");
        assert_eq!(vol.raw, "-28.0");
        assert_eq!(vol.value, Some(dec("-28")));
        assert_eq!(first.conversation.questions.len(), 5);

        let gold = first.gold.as_ref().unwrap();
        assert_eq!(gold.id, first.conversation.id);
        assert_eq!(gold.answers.len(), 5);
        assert_eq!(gold.answers[4], GoldAnswer::Number(dec("1.42403")));
        assert_eq!(gold.answer_texts[4], "142.4%");
        assert_eq!(gold.programs[2], "subtract(60.94, 25.14)");
        assert_eq!(gold.features.num_dialogue_turns, Some(5));
        assert_eq!(gold.features.has_type2_question, Some(false));
        assert_eq!(gold.features.qa_split.len(), 5);

        let mut yes_no = 0;
        let mut descending = 0;
        for example in &examples {
            let conv = &example.conversation;
            let gold = example.gold.as_ref().unwrap();
            assert!(!conv.questions.is_empty());
            assert_eq!(gold.answers.len(), conv.questions.len(), "{}", conv.id);
            yes_no += gold
                .answers
                .iter()
                .filter(|a| matches!(a, GoldAnswer::Yes | GoldAnswer::No))
                .count();
            let table = &conv.document.table;
            for row in &table.rows {
                assert_eq!(row.cells.len(), table.columns.len(), "{}", conv.id);
            }
            // JSON order is kept: years printed newest first stay newest first.
            let years: Vec<u32> = table
                .columns
                .iter()
                .filter_map(|c| c.parse().ok())
                .collect();
            if years.len() == table.columns.len()
                && years.len() > 1
                && years.windows(2).all(|w| w[0] > w[1])
            {
                descending += 1;
            }
        }
        assert_eq!(yes_no, 3);
        assert!(descending > 10, "{descending}");
        let turns: usize = examples
            .iter()
            .map(|e| e.conversation.questions.len())
            .sum();
        assert_eq!(turns, 910);
    }

    #[test]
    fn loads_the_original_layout() {
        let examples = load_file(Path::new(ORIGINAL)).unwrap();
        assert_eq!(examples.len(), 6);
        let first = &examples[0].conversation;
        assert_eq!(first.id, "Single_MAS/2012/page_26.pdf-2");
        assert_eq!(
            first.document.table.columns,
            ["2008", "2009", "2010", "2011", "2012"]
        );
        assert_eq!(first.questions.len(), 2);
        assert!(first.document.pre_text.starts_with("performance graph"));
        assert!(first.document.pre_text.contains(". the graph assumes"));
        let masco = cell(&first.document.table, "2008", "masco");
        assert_eq!(masco.raw, "$ 55.78");
        assert_eq!(masco.value, Some(dec("55.78")));
        assert_eq!(masco.unit, CellUnit::Currency);
        let k = examples
            .iter()
            .find(|e| {
                e.conversation
                    .document
                    .table
                    .rows
                    .iter()
                    .any(|r| r.label == "additions to properties")
            })
            .unwrap();
        let additions = cell(
            &k.conversation.document.table,
            "2006",
            "additions to properties",
        );
        assert_eq!(additions.raw, "-453.1 ( 453.1 )");
        assert_eq!(additions.value, Some(dec("-453.1")));
        for example in &examples {
            assert!(example.gold.is_none());
            let table = &example.conversation.document.table;
            for row in &table.rows {
                assert_eq!(row.cells.len(), table.columns.len());
            }
        }
    }

    #[test]
    fn reads_single_object_list_and_map_forms() {
        let single = load_str(&minimal("a"), "single.json").unwrap();
        assert_eq!(single.len(), 1);
        let conv = &single[0].conversation;
        assert!(single[0].gold.is_none());
        assert_eq!(conv.document.pre_text, "a");
        assert_eq!(conv.document.post_text, "b c");
        let table = &conv.document.table;
        assert_eq!(table.columns, ["2009", "2008"]);
        let labels: Vec<&str> = table.rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["x", "y", "z"]);
        assert_eq!(cell(table, "2009", "y").value, Some(dec("-2")));
        assert_eq!(cell(table, "2008", "y").raw, "");
        assert_eq!(cell(table, "2008", "y").value, None);
        assert_eq!(cell(table, "2008", "z").raw, "");
        assert_eq!(cell(table, "2008", "x").raw, "3");

        let list = load_str(
            &format!("[{}, {}]", minimal("a"), minimal("b")),
            "list.json",
        )
        .unwrap();
        let ids: Vec<&str> = list.iter().map(|e| e.conversation.id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);

        let map = format!(
            r#"{{"train": [{}], "dev": [{}, {}], "none": []}}"#,
            minimal("t"),
            minimal("d1"),
            minimal("d2")
        );
        let map = load_str(&map, "map.json").unwrap();
        let ids: Vec<&str> = map.iter().map(|e| e.conversation.id.as_str()).collect();
        assert_eq!(ids, ["t", "d1", "d2"]);
    }

    #[test]
    fn reads_gold_in_both_layouts() {
        let dialogue = r#"{"id": "g", "doc": {"pre_text": "", "post_text": "", "table": {}},
            "dialogue": {"conv_questions": ["q1", "q2", "q3"],
                         "executed_answers": [1.5, "YES", "no"],
                         "conv_answers": ["1.5", "yes", "no"],
                         "turn_program": ["1.5", "greater(2, 1)", "greater(1, 2)"],
                         "qa_split": [false, true, true]},
            "features": {"num_dialogue_turns": 3, "has_type2_question": true}}"#;
        let examples = load_str(dialogue, "gold.json").unwrap();
        let gold = examples[0].gold.as_ref().unwrap();
        assert_eq!(
            gold.answers,
            [
                GoldAnswer::Number(dec("1.5")),
                GoldAnswer::Yes,
                GoldAnswer::No
            ]
        );
        assert_eq!(gold.features.qa_split, [false, true, true]);
        assert_eq!(gold.features.has_type2_question, Some(true));
        assert_eq!(gold.features.has_duplicate_columns, None);
        assert!(examples[0].conversation.document.table.rows.is_empty());

        let original = r#"[{"id": "o", "pre_text": ["a."], "post_text": [],
            "table": [["", "2009", "2008"], ["rev", "$ 1,000", "( 20 )", "extra"], ["short", "5%"]],
            "annotation": {"dialogue_break": ["q1", "q2"], "exe_ans_list": [1000, 0.25],
                           "turn_program": ["1000", "divide(5, 20)"]}}]"#;
        let examples = load_str(original, "orig.json").unwrap();
        let table = &examples[0].conversation.document.table;
        assert_eq!(table.columns, ["2009", "2008"]);
        assert_eq!(table.rows[0].cells.len(), 2);
        assert_eq!(table.rows[0].cells[1].value, Some(dec("-20")));
        assert_eq!(table.rows[1].cells[0].unit, CellUnit::Percent);
        assert_eq!(table.rows[1].cells[1].raw, "");
        let gold = examples[0].gold.as_ref().unwrap();
        assert_eq!(gold.answers[1], GoldAnswer::Number(dec("0.25")));
        assert_eq!(gold.answer_texts, ["1000", "0.25"]);
        assert_eq!(gold.programs[1], "divide(5, 20)");
    }

    #[test]
    fn keeps_json_number_text_as_raw() {
        let text = r#"{"id": "n", "doc": {"table": {"c": {"a": 2014.0, "b": 1e16, "c": 0.00001, "d": -28.0, "e": 1e300}}},
            "dialogue": {"conv_questions": ["q"]}}"#;
        let examples = load_str(text, "n.json").unwrap();
        let table = &examples[0].conversation.document.table;
        let a = cell(table, "c", "a");
        assert_eq!((a.raw.as_str(), a.value), ("2014.0", Some(dec("2014"))));
        assert_eq!(cell(table, "c", "b").value, Some(dec("10000000000000000")));
        assert_eq!(cell(table, "c", "c").value, Some(dec("0.00001")));
        assert_eq!(cell(table, "c", "d").value, Some(dec("-28")));
        assert_eq!(cell(table, "c", "e").value, None);
    }

    #[test]
    fn reports_malformed_json_with_line_and_column() {
        let err = load_str("[\n  {\"id\": 1,,}\n]", "bad.json").unwrap_err();
        match &err {
            DatasetError::Json { line, column, .. } => {
                assert_eq!(*line, 2);
                assert!(*column > 0);
            }
            other => panic!("{other:?}"),
        }
        let message = err.to_string();
        assert!(
            message.starts_with("bad.json: malformed json at line 2, column"),
            "{message}"
        );
        assert!(std::error::Error::source(&err).is_some());
    }

    #[test]
    fn reports_wrong_shapes_with_place() {
        let bad_table = r#"[{"id": "ok", "doc": {"table": {}}, "dialogue": {"conv_questions": ["q"]}},
            {"id": "Single_X/2007/page_1.pdf-1", "doc": {"table": []}, "dialogue": {"conv_questions": ["q"]}}]"#;
        let message = shape_message(load_str(bad_table, "data/x.json").unwrap_err());
        assert_eq!(
            message,
            "data/x.json: conversation 1 (`Single_X/2007/page_1.pdf-1`): `doc.table` is a list, not an object"
        );

        let no_questions =
            r#"{"id": "e", "doc": {"table": {}}, "dialogue": {"conv_questions": []}}"#;
        let message = shape_message(load_str(no_questions, "q.json").unwrap_err());
        assert!(
            message.contains("`dialogue.conv_questions` is empty"),
            "{message}"
        );

        let cases = [
            ("42", "top level"),
            (r#"{"dev": 3}"#, "split `dev`"),
            (r#"[1]"#, "conversation 0: is a number"),
            (r#"[{"doc": {}}]"#, "`id` is missing"),
            (r#"[{"id": "i", "other": 1}]"#, "has neither"),
            (
                r#"[{"id": "i", "doc": {"table": {"2009": 5}}, "dialogue": {"conv_questions": ["q"]}}]"#,
                "column `2009`",
            ),
            (
                r#"[{"id": "i", "doc": {"table": {"2009": {"x": [1]}}}, "dialogue": {"conv_questions": ["q"]}}]"#,
                "cell (`2009`, `x`)",
            ),
            (
                r#"[{"id": "i", "doc": {"table": {}}, "dialogue": {"conv_questions": ["q"], "executed_answers": [1, 2]}}]"#,
                "has 2 entries for 1 questions",
            ),
            (
                r#"[{"id": "i", "doc": {"table": {}}, "dialogue": {"conv_questions": ["q"], "executed_answers": ["maybe"]}}]"#,
                "not a number, \"yes\" or \"no\"",
            ),
            (
                r#"[{"id": "i", "doc": {"table": {}}, "dialogue": {"conv_questions": [3]}}]"#,
                "`dialogue.conv_questions` item 0 is a number",
            ),
            (
                r#"[{"id": "i", "table": [["", "a"], "row"], "annotation": {"dialogue_break": ["q"]}}]"#,
                "`table` row 1 is a string",
            ),
            (
                r#"[{"id": "i", "table": [], "annotation": {}}]"#,
                "`annotation.dialogue_break` is missing",
            ),
        ];
        for (text, expected) in cases {
            let message = shape_message(load_str(text, "s.json").unwrap_err());
            assert!(message.starts_with("s.json: "), "{message}");
            assert!(message.contains(expected), "{message} lacks {expected}");
        }
    }

    #[test]
    fn reports_empty_files() {
        for text in ["[]", "{}", r#"{"dev": [], "test": []}"#] {
            let err = load_str(text, "empty.json").unwrap_err();
            assert!(matches!(err, DatasetError::Empty { .. }), "{err:?}");
            assert_eq!(err.to_string(), "empty.json: holds no conversation");
        }
    }

    #[test]
    fn reports_a_missing_file() {
        let path = Path::new("/nonexistent-finkg-dir/does_not_exist.json");
        let err = load_file(path).unwrap_err();
        assert!(matches!(err, DatasetError::Io { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "cannot read /nonexistent-finkg-dir/does_not_exist.json"
        );
    }

    #[test]
    fn never_panics_on_odd_inputs() {
        for text in [
            "",
            "null",
            "true",
            "\"x\"",
            "[[]]",
            "[null]",
            "{\"a\": {}}",
            r#"[{"id": "i", "table": [[]], "annotation": {"dialogue_break": ["q"]}}]"#,
            r#"[{"id": "i", "table": [["c"], []], "annotation": {"dialogue_break": ["q"]}}]"#,
            r#"[{"id": "i", "doc": {"table": {"1": {"x": 1e300}}}, "dialogue": {"conv_questions": ["q"], "executed_answers": [1e300]}}]"#,
        ] {
            let _ = load_str(text, "odd.json");
        }
    }

    #[test]
    fn stream_file_hands_on_the_conversations_of_load_file() {
        for path in [DEV, ORIGINAL] {
            let loaded: Vec<String> = load_file(Path::new(path))
                .unwrap()
                .into_iter()
                .map(|e| e.conversation.id)
                .collect();
            let streamed: Vec<String> = stream_file(Path::new(path))
                .unwrap()
                .map(|e| e.unwrap().conversation.id)
                .collect();
            assert_eq!(streamed, loaded, "{path}");
        }
        // dropped early, the reading ends (the thread does not block)
        let mut first = stream_file(Path::new(DEV)).unwrap();
        assert!(first.next().is_some());
        drop(first);
    }

    #[test]
    fn an_error_of_each_ends_the_reading_at_once() {
        // malformed JSON after the second conversation is never reached
        let text = format!("[{}, {}, {{", minimal("a"), minimal("b"));
        let mut seen = Vec::new();
        let err = read_each(text.as_bytes(), "x.json", |e| {
            seen.push(e.conversation.id);
            Err(DatasetError::Empty {
                source_name: "refused".into(),
            })
        })
        .unwrap_err();
        assert_eq!(seen, ["a"]);
        assert!(matches!(err, DatasetError::Empty { source_name } if source_name == "refused"));
        // without the refusal, the malformed JSON is the error
        let err = read_each(text.as_bytes(), "x.json", |_| Ok(())).unwrap_err();
        assert!(matches!(err, DatasetError::Json { .. }), "{err:?}");
        // a stream's last item is the error
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        std::fs::write(&path, &text).unwrap();
        let items: Vec<_> = stream_file(&path).unwrap().collect();
        assert_eq!(items.len(), 3);
        assert!(matches!(items[2], Err(DatasetError::Json { .. })));
    }

    /// Counts, over both shared files, the cells without a value by raw
    /// form (run with `--nocapture` to see them).
    #[test]
    fn scan_cells_without_value() {
        let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
        let mut total = 0;
        for path in [DEV, ORIGINAL] {
            for example in load_file(Path::new(path)).unwrap() {
                for row in &example.conversation.document.table.rows {
                    for cell in &row.cells {
                        total += 1;
                        if cell.value.is_none() {
                            *counts.entry(format!("{path}: {:?}", cell.raw)).or_default() += 1;
                        }
                    }
                }
            }
        }
        println!("{total} cells");
        for (raw, n) in &counts {
            println!("{n:>4}  {raw}");
        }
    }
}
