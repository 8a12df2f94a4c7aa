//! The planner's vocabulary: every cue word and phrase the rules planner
//! reads, loaded once from the ontology's word lists (`fk:WordList` and
//! `fk:NumberWord` in `ontology/patterns.ttl`). No word list is written in
//! Rust: a test fails if `src/plan` grows one.

use crate::ontology::Tbox;
use crate::words::{self, content_words};
use rust_decimal::Decimal;

/// Cue words and phrases, by what they signal.
#[derive(Debug, Clone, Default)]
pub(super) struct Cues {
    /// Words that put a value at the start of a period (stemmed).
    pub beginning: Vec<String>,
    /// Words that put a value at the end of a period (stemmed).
    pub end: Vec<String>,
    /// Both lists' words as printed ("ended": a past form that is a cue).
    pub boundary_forms: Vec<String>,
    /// Words that ask for a rate or percentage (as printed).
    pub percent: Vec<String>,
    /// Words by which a label states a change or an effect, not a level.
    pub change_label: Vec<String>,
    /// Verbs before an amount that make it a subject's part of a measure.
    pub contribution_verb: Vec<String>,
    /// Words that name no metric of their own (stemmed).
    pub generic: Vec<String>,
    /// Words after which a number is an operand of the calculation.
    pub constant_lead: Vec<String>,
    /// Sum triggers that often name a total row instead.
    pub weak_sum_trigger: Vec<String>,
    /// Words that make an addition certain or name an earlier sum.
    pub sum_word: Vec<String>,
    /// "as a": before a change trigger that describes the values asked.
    pub descriptive_lead: Vec<String>,
    /// "less", "minus": between two mentions to subtract.
    pub difference_connector: Vec<String>,
    /// "times": between two factors.
    pub product_connector: Vec<String>,
    /// "without", "excluding": between a whole and a part to leave out.
    pub exclusion_connector: Vec<String>,
    /// "before", "net of": open a report's phrase naming what an amount
    /// leaves out.
    pub leave_out_qualifier: Vec<String>,
    /// Sets of terms that name one measure ("revenue", "net sales"), each
    /// longest first.
    pub synonym_sets: Vec<Vec<String>>,
    /// Words that measure an index over its whole period.
    pub whole_period: Vec<String>,
    /// Words that name an investment's return ("return", "returns").
    pub return_word: Vec<String>,
    /// Words after an amount that open what caused it ("due to").
    pub cause_connector: Vec<String>,
    /// Compass points, which follow an address's street number.
    pub compass_point: Vec<String>,
    /// Words that end a street's name ("drive", "avenue").
    pub street_word: Vec<String>,
    /// Words between the part and the whole of a ratio, longest first.
    pub ratio_connector: Vec<String>,
    /// Ratio connectors that can open a follow-up whose part is the last
    /// result ("and as a percentage of the low?").
    pub ratio_opener: Vec<String>,
    /// Words that name a profit over its revenue ("margin").
    pub margin_word: Vec<String>,
    /// Words before a count of years to come ("the next five years").
    pub coming_lead: Vec<String>,
    /// Words of the profit a margin is of ("income").
    pub margin_profit_word: Vec<String>,
    /// Terms of the revenue a margin is over ("net sales").
    pub margin_base_term: Vec<String>,
    /// Openings of a ratio's second term that stand for the first term's
    /// noun ("those due in 1-3 years").
    pub substitute_pronoun: Vec<String>,
    /// "percentage of": opens a share of a whole, longest first.
    pub share_lead: Vec<String>,
    /// "what is the ratio of": opens a ratio's part, longest first.
    pub ratio_lead: Vec<String>,
    /// Verbs between the whole and the part of a share.
    pub part_whole_verb: Vec<String>,
    /// Prepositions between the whole and the part of a share.
    pub part_whole_preposition: Vec<String>,
    /// Words that name an earlier change.
    pub change_word: Vec<String>,
    /// Words that name an earlier ratio.
    pub ratio_word: Vec<String>,
    /// Bare percentage triggers that, with a verb of change, ask for a
    /// percentage change.
    pub rate_of_change_ask: Vec<String>,
    /// Verbs of change that turn a bare percentage into a percentage change.
    pub rate_of_change_verb: Vec<String>,
    /// Units of a difference between rates: "the change in percentage points".
    pub point_change_word: Vec<String>,
    /// Change triggers that are adjectives after a determiner: "the increased rent".
    pub change_participle: Vec<String>,
    /// Determiners before such an adjective.
    pub participle_determiner: Vec<String>,
    /// Words of "including all years".
    pub all_periods_word: Vec<String>,
    /// Determiners of a span of time after "over".
    pub time_span_determiner: Vec<String>,
    /// Words of a span of time after "over the".
    pub time_span_word: Vec<String>,
    /// The word before the second option of a comparison.
    pub comparison_word: Vec<String>,
    /// Openings of a question that repeats the last operation.
    pub continuation_lead: Vec<String>,
    /// Words that add a value to an earlier sum.
    pub including_word: Vec<String>,
    /// Words that make "total" an addition of several values.
    pub several: Vec<String>,
    /// Words that add every value asked since the last computed result.
    pub gathering_word: Vec<String>,
    /// A look-up of several values at once ("all notes due in 2015 and 2017").
    pub every_word: Vec<String>,
    /// Words that count two values ("both years").
    pub pair_word: Vec<String>,
    /// Phrases naming the year before, and the year after, the one the
    /// conversation is about.
    pub previous_year: Vec<String>,
    /// Phrases naming the years the last turn spanned ("the same two years").
    pub same_period: Vec<String>,
    pub next_year: Vec<String>,
    /// The word between the options of a comparison.
    pub option_connector: Vec<String>,
    /// Words between two terms of a sum.
    pub addition_connector: Vec<String>,
    /// The word after which a sum names its terms.
    pub terms_lead: Vec<String>,
    /// The preposition of a span of time ("over").
    pub time_span_lead: Vec<String>,
    /// Phrases in which a trigger word asks for no calculation ("fall due").
    pub trigger_idiom: Vec<String>,
    /// Units of a length of time.
    pub duration_word: Vec<String>,
    /// Words before "than" in a comparison of quantities.
    pub comparative_word: Vec<String>,
    /// "than".
    pub than_word: Vec<String>,
    /// The word that marks a total row or column ("total").
    pub total_word: String,
    /// Words that say a side of a ratio is a whole of several ("the total",
    /// "all stores").
    pub whole_qualifier: Vec<String>,
    /// Words that ask for a part of the value before ("how much of that").
    pub partitive_reference: Vec<String>,
    /// The word after a label's head that names what it is a part of
    /// ("of").
    pub part_of: Vec<String>,
    /// Stop words that make a row a catch-all ("other").
    pub catch_all: Vec<String>,
    /// Tokens that end a clause of a sentence (";", a list's bullet).
    pub clause_break: Vec<String>,
    /// Tokens printed right after a number as part of it ("%", "million").
    pub number_tail: Vec<String>,
    /// Numbers written as words.
    pub number_words: Vec<(String, Decimal)>,
    /// Words after which a number word is an operand.
    pub number_word_lead: Vec<String>,
    /// Words before a year that ask for what comes after it ("after 2014").
    pub after_year_lead: Vec<String>,
    /// Labels of the row or column of the years after a schedule's last.
    pub thereafter: Vec<String>,
    /// Words that make the one year of a change its start ("since 2006").
    pub period_start_lead: Vec<String>,
    /// "compared with": in a report's sentence, just before the amount
    /// another is compared with.
    pub compared_lead: Vec<String>,
    /// Words between the two years of a period ("2008 and 2009").
    pub period_joiner: Vec<String>,
    /// Words between the first and last year of a range ("2007 through 2009").
    pub range_joiner: Vec<String>,
    /// Words that join the two ends of a range of years a question asks
    /// for: the range joiners and the period joiners ("2014 and 2015").
    pub asked_range_joiner: Vec<String>,
    /// Nouns of time that a reference word before them points at ("of that year").
    pub period_noun: Vec<String>,
    /// Words saying what kind of year is meant ("fiscal 2007"), stemmed.
    pub period_qualifier: Vec<String>,
    /// Words that say "less than" before a duration ("within one year").
    pub within_word: Vec<String>,
    /// Words that say "more than" before a duration ("after five years").
    pub beyond_word: Vec<String>,
    /// Words naming the earlier of the last two results ("the first").
    pub former_word: Vec<String>,
    /// Words naming the later of the last two results ("the second").
    pub latter_word: Vec<String>,
    /// Words before a text number where a move started ("from $ 2.9 billion").
    pub move_start_lead: Vec<String>,
    /// Words before a text number where that move ended ("to $ 3.3 billion").
    pub move_end_lead: Vec<String>,
    /// Phrases that ask for the last ratio as a percentage.
    pub percent_restatement: Vec<String>,
    /// Phrases that ask what a quantity is worth.
    pub value_ask: Vec<String>,
    /// Words that ask for the share of all but one part.
    pub complement_word: Vec<String>,
    /// Stemmed words of a column that counts things, and of one that
    /// prices a unit.
    pub quantity_word: Vec<String>,
    pub unit_price_word: Vec<String>,
    /// Units of physical quantities ("metric tons", "barrels").
    pub quantity_unit: Vec<String>,
    /// Words that ask for an amount of money ("spent", "paid").
    pub money_ask: Vec<String>,
    /// Words that ask for a count ("how many").
    pub count_ask: Vec<String>,
    /// Words that ask a yearly amount (fk:AnnualWord).
    pub annual_word: Vec<String>,
    /// Words of a quarter's rate (fk:QuarterlyWord).
    pub quarterly_word: Vec<String>,
    /// Words of a month's rate (fk:MonthlyWord).
    pub monthly_word: Vec<String>,
    /// Words that ask for the middle of a range (fk:MidpointWord).
    pub midpoint_word: Vec<String>,
    /// Words that name a whole year against its parts (fk:FullYearWord).
    pub full_year: Vec<String>,
    /// Words that ask what is left of a whole (fk:RemainderWord).
    pub remainder_word: Vec<String>,
    /// Words that name a year's first two quarters (fk:FirstHalfWord).
    pub first_half: Vec<String>,
    /// Words that name a year's last two quarters (fk:SecondHalfWord).
    pub second_half: Vec<String>,
    /// Words that ask how many or how much (fk:QuantityAsk).
    pub quantity_ask: Vec<String>,
    /// Words before what an average is per ("per share").
    pub per_word: Vec<String>,
    /// Words that open a question ("how", "what").
    pub question_word: Vec<String>,
    /// Words that open two things compared ("between A and B").
    pub between_word: Vec<String>,
}

/// The marker a mention carries for a beginning or end cue ("at the
/// beginning of 2010"): cue words are often stop words, so they would be
/// lost among the content words.
pub(super) const BEGINNING_MARK: &str = "@beginning";
pub(super) const END_MARK: &str = "@end";

/// Whether a mention or label speaks of the beginning or the end of a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Boundary {
    Beginning,
    End,
}

/// The boundary a token speaks of, by its stem; a verb's past form
/// ("stores opened", "closed") speaks of none unless the list prints it
/// ("year ended"), nor does a plural of events ("openings").
pub(super) fn token_boundary(token: &str, cues: &Cues) -> Option<Boundary> {
    if token.ends_with("ed") && !cues.boundary_forms.iter().any(|f| f == token) {
        return None;
    }
    // a plural of events ("openings", "closings") counts them
    if token.ends_with("ings") {
        return None;
    }
    let stem = words::stem(token);
    if cues.beginning.contains(&stem) {
        Some(Boundary::Beginning)
    } else if cues.end.contains(&stem) {
        Some(Boundary::End)
    } else {
        None
    }
}

/// Whether the `i`th token is a cue's participle right after a noun of
/// time ("year ended", "three months ending"): it names a period ("at year
/// end" names its end).
pub(super) fn names_period(tokens: &[String], i: usize, cues: &Cues) -> bool {
    (tokens[i].ends_with("ed") || tokens[i].ends_with("ing"))
        && i.checked_sub(1)
            .and_then(|p| tokens.get(p))
            .is_some_and(|p| cues.period_noun.contains(&words::stem(p)))
        && token_boundary(&tokens[i], cues).is_some()
}

/// The boundary tokens speak of, when they speak of one only. A cue right
/// after a noun of time names the period ("year ended december 31 , 2009",
/// "three months ended"), not a balance at its end.
pub(super) fn boundary_of(tokens: &[String], cues: &Cues) -> Option<Boundary> {
    let marks: Vec<Boundary> = tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| !names_period(tokens, *i, cues))
        .filter_map(|(_, t)| token_boundary(t, cues))
        .collect();
    let has = |b: Boundary| marks.contains(&b);
    match (has(Boundary::Beginning), has(Boundary::End)) {
        (true, false) => Some(Boundary::Beginning),
        (false, true) => Some(Boundary::End),
        _ => None,
    }
}

/// A word list of the TBox, each word stemmed.
fn stemmed_list(tbox: &Tbox, name: &str) -> Vec<String> {
    tbox.word_list(name)
        .iter()
        .map(|w| words::stem(w))
        .collect()
}

/// A word list of the TBox, longest phrase first, so that "as a
/// percentage of" is tried before "of".
fn longest_first_list(tbox: &Tbox, name: &str) -> Vec<String> {
    let mut v = tbox.word_list(name).to_vec();
    v.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    v
}

/// The TBox's word lists as the cues keep them: as printed, stemmed, or
/// longest phrase first.
struct WordLists<'t>(&'t Tbox);

impl WordLists<'_> {
    /// A word list as printed.
    fn plain(&self, name: &str) -> Vec<String> {
        self.0.word_list(name).to_vec()
    }

    /// A word list stemmed.
    fn stemmed(&self, name: &str) -> Vec<String> {
        stemmed_list(self.0, name)
    }

    /// A word list longest phrase first.
    fn longest_first(&self, name: &str) -> Vec<String> {
        longest_first_list(self.0, name)
    }
}

/// The TBox's synonym sets, each longest term first.
fn sorted_synonym_sets(tbox: &Tbox) -> Vec<Vec<String>> {
    tbox.synonym_sets()
        .iter()
        .map(|set| {
            let mut set = set.clone();
            set.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            set
        })
        .collect()
}

impl Cues {
    /// "the cumulative return", "over the five-year period": a change
    /// measured over an index's whole period.
    pub fn names_whole_period(&self, text: &str) -> bool {
        let toks: Vec<&str> = text.split_whitespace().collect();
        contains_any(text, &self.whole_period)
            || toks.iter().any(|t| t.ends_with("-year"))
            || toks.windows(2).any(|w| {
                (self.number_word(w[0]).is_some() || w[0].parse::<u32>().is_ok())
                    && w[1].starts_with("year")
            })
    }

    /// The lists of the TBox.
    pub fn from_tbox(tbox: &Tbox) -> Self {
        let lists = WordLists(tbox);
        let mut cues = Self {
            synonym_sets: sorted_synonym_sets(tbox),
            number_words: tbox.number_words().to_vec(),
            ..Self::default()
        };
        cues.read_value_cues(&lists);
        cues.read_operation_cues(&lists);
        cues.read_reference_cues(&lists);
        cues.read_period_cues(&lists);
        cues
    }

    /// The words of what a value is: a period's beginning or end, a
    /// percentage, a change or effect a label states, a total, a unit, a
    /// count or money asked, a number's word.
    fn read_value_cues(&mut self, lists: &WordLists<'_>) {
        self.beginning = lists.stemmed("BeginningCue");
        self.boundary_forms = lists
            .plain("BeginningCue")
            .into_iter()
            .chain(lists.plain("EndCue"))
            .collect();
        self.end = lists.stemmed("EndCue");
        self.percent = lists.plain("PercentCue");
        self.change_label = lists.plain("ChangeLabelWord");
        self.contribution_verb = lists.plain("ContributionVerb");
        self.generic = lists.stemmed("GenericWords");
        self.constant_lead = lists.plain("ConstantLead");
        self.whole_period = lists.plain("WholePeriodCue");
        self.return_word = lists.plain("ReturnWord");
        self.cause_connector = lists.plain("CauseConnector");
        self.compass_point = lists.plain("CompassPoint");
        self.street_word = lists.plain("StreetWord");
        self.total_word = lists
            .plain("TotalWord")
            .into_iter()
            .next()
            .unwrap_or_default();
        self.whole_qualifier = lists.plain("WholeQualifier");
        self.catch_all = lists.plain("CatchAllWord");
        self.part_of = lists.plain("PartOfWord");
        self.number_tail = lists.plain("NumberTail");
        self.number_word_lead = lists.plain("NumberWordLead");
        self.percent_restatement = lists.longest_first("PercentRestatement");
        self.value_ask = lists.longest_first("ValueAsk");
        self.complement_word = lists.longest_first("ComplementWord");
        self.quantity_word = lists.stemmed("QuantityWord");
        self.unit_price_word = lists.stemmed("UnitPriceWord");
        self.quantity_unit = lists.longest_first("QuantityUnit");
        self.money_ask = lists.longest_first("MoneyAsk");
        self.count_ask = lists.longest_first("CountAsk");
        self.annual_word = lists.longest_first("AnnualWord");
        self.quarterly_word = lists.longest_first("QuarterlyWord");
        self.monthly_word = lists.longest_first("MonthlyWord");
        self.quantity_ask = lists.longest_first("QuantityAsk");
        self.midpoint_word = lists.longest_first("MidpointWord");
        self.remainder_word = lists.longest_first("RemainderWord");
        self.full_year = lists.longest_first("FullYearWord");
        self.first_half = lists.longest_first("FirstHalfWord");
        self.second_half = lists.longest_first("SecondHalfWord");
        self.per_word = lists.longest_first("PerWord");
        self.question_word = lists.plain("QuestionWord");
        self.leave_out_qualifier = lists.longest_first("LeaveOutQualifier");
    }

    /// The words of an operation and its operands: sums, differences,
    /// products, ratios, shares and margins, changes, comparisons, lists.
    fn read_operation_cues(&mut self, lists: &WordLists<'_>) {
        self.weak_sum_trigger = lists.plain("WeakSumTrigger");
        self.sum_word = lists.plain("SumWord");
        self.descriptive_lead = lists.plain("DescriptiveLead");
        self.difference_connector = lists.longest_first("DifferenceConnector");
        self.product_connector = lists.longest_first("ProductConnector");
        self.exclusion_connector = lists.longest_first("ExclusionConnector");
        self.ratio_connector = lists.longest_first("RatioConnector");
        self.ratio_opener = lists.plain("RatioOpener");
        self.margin_word = lists.plain("MarginWord");
        self.margin_profit_word = lists.plain("MarginProfitWord");
        self.margin_base_term = lists.plain("MarginBaseTerm");
        self.share_lead = lists.longest_first("ShareLead");
        self.ratio_lead = lists.longest_first("RatioLead");
        self.part_whole_verb = lists.plain("PartWholeVerb");
        self.part_whole_preposition = lists.plain("PartWholePreposition");
        self.change_word = lists.plain("ChangeWord");
        self.ratio_word = lists.plain("RatioWord");
        self.rate_of_change_ask = lists.plain("RateOfChangeAsk");
        self.rate_of_change_verb = lists.plain("RateOfChangeVerb");
        self.point_change_word = lists.longest_first("PointChangeWord");
        self.change_participle = lists.plain("ChangeParticiple");
        self.participle_determiner = lists.plain("ParticipleDeterminer");
        self.comparison_word = lists.plain("ComparisonWord");
        self.option_connector = lists.plain("OptionConnector");
        self.addition_connector = lists.plain("AdditionConnector");
        self.terms_lead = lists.plain("TermsLead");
        self.trigger_idiom = lists.plain("TriggerIdiom");
        self.comparative_word = lists.plain("ComparativeWord");
        self.than_word = lists.plain("ThanWord");
        self.between_word = lists.plain("BetweenWord");
    }

    /// The words that point back at earlier results or at a part of the
    /// page: continuations, pronouns, "including", "several", "both", the
    /// former and the latter.
    fn read_reference_cues(&mut self, lists: &WordLists<'_>) {
        self.substitute_pronoun = lists.plain("SubstitutePronoun");
        self.continuation_lead = lists.longest_first("ContinuationLead");
        self.including_word = lists.plain("IncludingWord");
        self.several = lists.plain("SeveralCue");
        self.gathering_word = lists.plain("GatheringWord");
        self.every_word = lists.plain("EveryWord");
        self.pair_word = lists.plain("PairWord");
        self.partitive_reference = lists.plain("PartitiveReference");
        self.clause_break = lists.plain("ClauseBreak");
        self.former_word = lists.stemmed("FormerWord");
        self.latter_word = lists.stemmed("LatterWord");
    }

    /// The words of periods: spans of time, years named relative to
    /// another, ranges and joiners of years, durations, "thereafter",
    /// period nouns and qualifiers, the start and end of a move.
    fn read_period_cues(&mut self, lists: &WordLists<'_>) {
        self.coming_lead = lists.plain("ComingLead");
        self.all_periods_word = lists.plain("AllPeriodsWord");
        self.time_span_determiner = lists.plain("TimeSpanDeterminer");
        self.time_span_word = lists.plain("TimeSpanWord");
        self.previous_year = lists.plain("PreviousYearPhrase");
        self.same_period = lists.plain("SamePeriodPhrase");
        self.next_year = lists.plain("NextYearPhrase");
        self.time_span_lead = lists.plain("TimeSpanLead");
        self.duration_word = lists.plain("DurationWord");
        self.after_year_lead = lists.longest_first("AfterYearLead");
        self.thereafter = lists.plain("ThereafterWord");
        self.period_start_lead = lists.plain("PeriodStartLead");
        self.compared_lead = lists.plain("ComparedLead");
        self.period_joiner = lists.plain("PeriodJoiner");
        self.range_joiner = lists.plain("RangeJoiner");
        self.asked_range_joiner = lists
            .plain("RangeJoiner")
            .into_iter()
            .chain(lists.plain("PeriodJoiner"))
            .collect();
        self.period_noun = lists.plain("PeriodNoun");
        self.period_qualifier = lists.stemmed("PeriodQualifier");
        self.within_word = lists.plain("WithinWord");
        self.beyond_word = lists.plain("BeyondWord");
        self.move_start_lead = lists.plain("MoveStartLead");
        self.move_end_lead = lists.plain("MoveEndLead");
    }

    /// The year a question names relative to `year` ("the year before" is
    /// one earlier, "the following year" one later), if it names one.
    pub fn relative_year(&self, text: &str, year: i32) -> Option<i32> {
        let says = |list: &[String]| list.iter().any(|p| text.contains(&format!(" {p} ")));
        if says(&self.previous_year) {
            Some(year - 1)
        } else if says(&self.next_year) {
            Some(year + 1)
        } else {
            None
        }
    }

    /// Whether `year` is printed as the start of a period: one of the
    /// period-start leads ("since", "from", "compared to") stands just
    /// before it.
    pub fn starts_period(&self, text: &str, year: i32) -> bool {
        self.period_start_lead
            .iter()
            .any(|l| text.contains(&format!(" {l} {year} ")))
    }

    /// The year the text asks about what comes after ("beyond 2014").
    pub fn after_year(&self, text: &str) -> Option<i32> {
        self.after_year_lead.iter().find_map(|l| {
            let (_, rest) = text.split_once(&format!(" {l} "))?;
            crate::kg::text::as_year(rest.split_whitespace().next()?)
        })
    }

    /// The first two years the text joins as a period ("between 2008 and
    /// 2009", "from 2007 to 2008"), in their order.
    pub fn joined_years(&self, text: &str) -> Option<(i32, i32)> {
        let toks: Vec<&str> = text.split_whitespace().collect();
        toks.windows(3).find_map(|w| {
            let a = crate::kg::text::as_year(w[0])?;
            let b = crate::kg::text::as_year(w[2])?;
            self.period_joiner
                .iter()
                .any(|j| j == w[1])
                .then_some((a, b))
        })
    }

    /// The content words of a mention's text, with a marker for a beginning
    /// or end cue.
    pub fn mention_words(&self, text: &str) -> Vec<String> {
        let mut out = content_words(text);
        let toks: Vec<String> = words::tokens(text);
        // a cue word names no metric; the marker stands for it
        let cued: Vec<String> = toks
            .iter()
            .filter(|t| token_boundary(t, self).is_some())
            .map(|t| words::stem(t))
            .collect();
        out.retain(|w| !cued.contains(w));
        match boundary_of(&toks, self) {
            Some(Boundary::Beginning) => out.push(BEGINNING_MARK.into()),
            Some(Boundary::End) => out.push(END_MARK.into()),
            None => {}
        }
        out
    }

    /// `metric`'s words with the beginning or end marker of `words` in
    /// place of its own, when `words` has one.
    pub fn with_marks(&self, metric: &[String], words: &[String]) -> Vec<String> {
        let marks: Vec<&String> = words.iter().filter(|w| w.starts_with('@')).collect();
        if marks.is_empty() {
            return metric.to_vec();
        }
        metric
            .iter()
            .filter(|w| !w.starts_with('@'))
            .chain(marks)
            .cloned()
            .collect()
    }

    /// The beginning or end marker of the few words just before `year` in
    /// `text` ("the start of 2010"), back to the year before it.
    pub fn marks_before(&self, text: &str, year: i32) -> Vec<String> {
        let toks: Vec<&str> = text.split_whitespace().collect();
        let y = year.to_string();
        let Some(at) = toks.iter().position(|t| *t == y) else {
            return Vec::new();
        };
        let from = toks[..at]
            .iter()
            .rposition(|t| crate::kg::text::as_year(t).is_some())
            .map_or(at.saturating_sub(5), |p| (p + 1).max(at.saturating_sub(5)));
        self.mention_words(&toks[from..at].join(" "))
            .into_iter()
            .filter(|w| w.starts_with('@'))
            .collect()
    }

    /// Mention words that say something beyond generic words and cues.
    pub fn specific(&self, words: &[String]) -> Vec<String> {
        words
            .iter()
            .filter(|w| !w.starts_with('@') && !self.generic.contains(w))
            .cloned()
            .collect()
    }

    /// Whether a stemmed word names a kind of result ("total", "sum",
    /// "change", "ratio"): "that total", "those two changes".
    pub fn is_kind_word(&self, stem: &str) -> bool {
        [
            &self.sum_word,
            &self.weak_sum_trigger,
            &self.change_word,
            &self.ratio_word,
        ]
        .iter()
        .any(|l| l.iter().any(|k| words::stem(k) == stem))
    }

    /// A spaced text's durations in one form, so that a question and a
    /// label that print the same span differently meet: numbers in digits,
    /// "within" as "less than", "after" as "more than", "1 to 3" as "1-3"
    /// and "year" as "years" ("due within one year" and "less than 1
    /// year"; "one to three years" and "1-3 years").
    pub fn duration_form(&self, text: &str) -> String {
        let mut toks: Vec<String> = Vec::new();
        for t in text.split_whitespace() {
            let digits = self.number_word(t).map(|n| n.normalize().to_string());
            let t = digits.as_deref().unwrap_or(t);
            let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            match toks.as_slice() {
                [.., a, j] if numeric(t) && numeric(a) && self.range_joiner.contains(j) => {
                    toks.pop();
                    let a = toks.pop().unwrap_or_default();
                    toks.push(format!("{a}-{t}"));
                    continue;
                }
                _ => {}
            }
            if self.within_word.iter().any(|w| w == t) {
                toks.extend(["less".to_string(), "than".to_string()]);
            } else if self.beyond_word.iter().any(|w| w == t) {
                toks.extend(["more".to_string(), "than".to_string()]);
            } else if t == "year" {
                toks.push("years".to_string());
            } else {
                toks.push(t.to_string());
            }
        }
        format!(" {} ", toks.join(" "))
    }

    /// The number a word writes ("one"), if it writes one.
    pub fn number_word(&self, word: &str) -> Option<Decimal> {
        self.number_words
            .iter()
            .find(|(w, _)| w == word)
            .map(|(_, v)| *v)
    }
}

/// Whether `text` (spaced, padded) holds `phrase` as whole words.
pub(super) fn contains_phrase(text: &str, phrase: &str) -> bool {
    text.contains(&format!(" {phrase} "))
}

/// Whether `text` holds any of `phrases` as whole words.
pub(super) fn contains_any(text: &str, phrases: &[String]) -> bool {
    phrases.iter().any(|p| contains_phrase(text, p))
}

/// The first of `phrases` (in their order) that `text` holds, split around it.
pub(super) fn split_at_first<'t>(text: &'t str, phrases: &[String]) -> Option<(&'t str, &'t str)> {
    phrases
        .iter()
        .find_map(|p| text.split_once(&format!(" {p} ")))
}

/// The first and last year of each range of years `text` prints ("2016 to
/// 2020", "2016 - 2020").
pub(super) fn year_ranges(text: &str, joiners: &[String]) -> Vec<(i32, i32)> {
    let toks: Vec<&str> = text.split_whitespace().collect();
    toks.windows(3)
        .filter(|w| joiners.iter().any(|j| j == w[1]))
        .filter_map(|w| {
            let (a, b) = (
                crate::kg::text::as_year(w[0])?,
                crate::kg::text::as_year(w[2])?,
            );
            (a < b).then_some((a, b))
        })
        .collect()
}

/// "2007-2009" written as its two years and the dash between them.
pub(super) fn split_year_ranges(text: &str) -> String {
    let year = |t: &str| crate::kg::text::as_year(t).is_some();
    let toks: Vec<String> = text
        .split_whitespace()
        .map(|t| match t.split_once('-') {
            Some((a, b)) if year(a) && year(b.trim_end_matches('.')) => format!("{a} - {b}"),
            _ => t.to_string(),
        })
        .collect();
    format!(" {} ", toks.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every list the cues keep is read from the TBox: none is left at its
    /// default by a builder of `from_tbox` that forgot it.
    #[test]
    fn every_cue_list_is_read() {
        let tbox = crate::ontology::tbox().expect("the TBox loads");
        let cues = format!("{:?}", Cues::from_tbox(tbox));
        assert!(
            !cues.contains(": []") && !cues.contains(": \"\""),
            "a cue list is empty: {cues}"
        );
    }

    #[test]
    fn a_plural_of_events_speaks_of_no_boundary() {
        let tbox = crate::ontology::tbox().expect("the TBox loads");
        let cues = Cues::from_tbox(tbox);
        assert_eq!(token_boundary("opening", &cues), Some(Boundary::Beginning));
        assert_eq!(token_boundary("openings", &cues), None);
        assert_eq!(
            token_boundary("beginning", &cues),
            Some(Boundary::Beginning)
        );
    }
}
