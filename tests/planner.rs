//! The rules planner end to end on hand-written pages: each test asks a
//! conversation through [`Session::ask`] and checks every turn's answer.
//!
//! Expected values follow the dataset's conventions: a change is the later
//! value minus the earlier one, percentage changes and ratios are fractions,
//! comparisons answer yes or no, and a turn that cannot be answered records
//! an error and no answer.

use finkg::dataset::cell::parse_cell;
use finkg::dataset::{Conversation, Document, Row, Table};
use finkg::pipeline::Session;
use finkg::plan::RulesPlanner;
use finkg::turn::Answer;
use rust_decimal::Decimal;
use std::str::FromStr;

/// What a turn should give.
#[derive(Debug, Clone, Copy)]
enum Want {
    /// A number, written as decimal text.
    Num(&'static str),
    Yes,
    No,
    /// No answer, and an error saying why.
    Fails,
    /// Any answer but this number (or none).
    Not(&'static str),
}

use Want::{Fails, No, Not, Num, Yes};

/// A page's table in the original layout: the header row (corner first),
/// then one row a label followed by its cells.
type TableRows<'a> = &'a [&'a [&'a str]];

/// Years as columns, two metrics, three years.
const SALES: TableRows = &[
    &["", "2009", "2008", "2007"],
    &["net sales", "$ 1,500", "$ 1,200", "$ 1,000"],
    &["operating income", "300", "240", "150"],
    &["number of stores", "56", "48", "40"],
];

/// Text that holds numbers of its own, with years beside them.
const TEXT: &str = "acme designs and sells widgets . \
    revenue from services was $ 45.5 million in 2009 . \
    the company had 1,250 employees at the end of 2009 .";

fn conversation(table: TableRows, pre_text: &str) -> Conversation {
    let (header, body) = table.split_first().expect("a header row");
    let columns: Vec<String> = header.iter().skip(1).map(|h| h.to_string()).collect();
    let rows = body
        .iter()
        .map(|r| {
            let (label, cells) = r.split_first().expect("a row label");
            assert_eq!(cells.len(), columns.len(), "row `{label}`");
            Row {
                label: label.to_string(),
                cells: cells.iter().map(|c| parse_cell(c)).collect(),
            }
        })
        .collect();
    Conversation {
        id: "Test_ACME/2009/page_7.pdf-1".to_string(),
        document: Document {
            pre_text: pre_text.to_string(),
            post_text: String::new(),
            table: Table { columns, rows },
        },
        questions: Vec::new(),
    }
}

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap_or_else(|e| panic!("bad expected value {s}: {e}"))
}

/// Whether `got` is `want` up to a millionth (relative, or absolute near 0).
fn close(got: Decimal, want: Decimal) -> bool {
    let tolerance = (want.abs() * Decimal::new(1, 6)).max(Decimal::new(1, 6));
    (got - want).abs() <= tolerance
}

/// Asks `questions` in order over a page made of `table` and `pre_text`
/// and checks each turn against `expected`; reports every wrong turn.
fn check(table: TableRows, pre_text: &str, questions: &[&str], expected: &[Want]) {
    assert_eq!(
        questions.len(),
        expected.len(),
        "one expectation a question"
    );
    let conv = conversation(table, pre_text);
    let mut session = Session::new(&conv).expect("the page's graph builds");
    let mut planner = RulesPlanner::new().expect("the planner loads its patterns");
    let mut wrong = Vec::new();
    for (turn, (question, want)) in questions.iter().zip(expected).enumerate() {
        let trace = session.ask(&mut planner, question);
        assert_eq!(trace.turn, turn);
        assert_eq!(trace.question, *question);
        let ok = match (want, &trace.answer) {
            (Num(w), Some(Answer::Number(got))) => close(*got, dec(w)) && trace.error.is_none(),
            (Yes, Some(Answer::Yes)) | (No, Some(Answer::No)) => trace.error.is_none(),
            (Fails, None) => trace.error.as_deref().is_some_and(|e| !e.is_empty()),
            (Not(w), Some(Answer::Number(got))) => !close(*got, dec(w)),
            (Not(_), None) => true,
            (Not(_), Some(_)) => true,
            _ => false,
        };
        if !ok {
            wrong.push(format!(
                "turn {turn} {question:?}: expected {want:?}, got {:?} (error: {:?}, formula: {:?})",
                trace.answer, trace.error, trace.formula
            ));
        }
        if trace.answer.is_none() {
            assert!(
                trace.error.is_some(),
                "turn {turn} {question:?}: no answer and no error"
            );
        }
    }
    assert!(wrong.is_empty(), "wrong turns:\n{}", wrong.join("\n"));
}

// ------------------------------------------------------------- look-ups

#[test]
fn lookup_from_the_table() {
    check(
        SALES,
        TEXT,
        &["what was net sales in 2009?"],
        &[Num("1500")],
    );
    check(
        SALES,
        TEXT,
        &["what was the operating income in 2008?"],
        &[Num("240")],
    );
    check(
        SALES,
        TEXT,
        &["how many stores were there in 2007?"],
        &[Num("40")],
    );
}

#[test]
fn lookup_from_the_text() {
    check(
        SALES,
        TEXT,
        &["what was the revenue from services in 2009?"],
        &[Num("45.5")],
    );
    check(
        SALES,
        TEXT,
        &["how many employees did the company have at the end of 2009?"],
        &[Num("1250")],
    );
}

#[test]
fn lookup_of_a_negative_cell_gives_its_magnitude() {
    // the dataset reads a figure printed "( 25 )" as 25 in a look-up (18 of
    // the 20 such look-ups of the dev file)
    let table: TableRows = &[
        &["", "2011", "2010"],
        &["revenue", "800", "700"],
        &["foreign currency loss", "( 25 )", "( 10 )"],
    ];
    check(
        table,
        "",
        &[
            "what was the revenue in 2011?",
            "and in 2010?",
            "what was the foreign currency loss in 2011?",
        ],
        &[Num("800"), Num("700"), Num("25")],
    );
}

// ------------------------------------------------------------- ellipsis

#[test]
fn ellipsis_and_in() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "and in 2007?",
        ],
        &[Num("1500"), Num("1200"), Num("1000")],
    );
}

#[test]
fn ellipsis_what_was_it() {
    check(
        SALES,
        TEXT,
        &[
            "what was the operating income in 2009?",
            "what was it in 2008?",
        ],
        &[Num("300"), Num("240")],
    );
    check(
        SALES,
        TEXT,
        &["what was net sales in 2008?", "and what was it in 2007?"],
        &[Num("1200"), Num("1000")],
    );
}

// ------------------------------------------------------------- changes

#[test]
fn change_in_one_question() {
    check(
        SALES,
        TEXT,
        &["what was the change in net sales from 2008 to 2009?"],
        &[Num("300")],
    );
    check(
        SALES,
        TEXT,
        &["what was the difference in operating income between 2007 and 2009?"],
        &[Num("150")],
    );
}

#[test]
fn difference_after_two_lookups() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what was the difference?",
        ],
        &[Num("1500"), Num("1200"), Num("300")],
    );
}

#[test]
fn change_after_two_lookups_asked_earlier_year_first() {
    // Between two earlier results the dataset subtracts the second asked
    // from the first asked (`subtract(#0, #1)`), even when the first is the
    // earlier year: every such turn of the dev file does (e.g. 2014 then
    // 2015, "what is the net difference?" -> subtract(2014 value, 2015 value)).
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2008?",
            "and in 2009?",
            "what was the change?",
        ],
        &[Num("1200"), Num("1500"), Num("-300")],
    );
}

#[test]
fn ellipsis_keeps_the_change_for_other_years() {
    check(
        SALES,
        TEXT,
        &[
            "what was the change in net sales from 2008 to 2009?",
            "and from 2007 to 2008?",
        ],
        &[Num("300"), Num("200")],
    );
}

#[test]
fn ellipsis_keeps_the_change_for_another_row() {
    check(
        SALES,
        TEXT,
        &[
            "what was the change in net sales from 2008 to 2009?",
            "and in operating income over the same period?",
        ],
        &[Num("300"), Num("60")],
    );
}

// ------------------------------------------------------------- percentage changes

#[test]
fn percentage_change_after_a_change() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what was the change?",
            "what was the percentage change?",
        ],
        &[Num("1500"), Num("1200"), Num("300"), Num("0.25")],
    );
}

#[test]
fn growth_rate_in_one_question() {
    check(
        SALES,
        TEXT,
        &["what is the growth rate of net sales from 2008 to 2009?"],
        &[Num("0.25")],
    );
    check(
        SALES,
        TEXT,
        &["what was the percentage change in operating income from 2007 to 2008?"],
        &[Num("0.6")],
    );
}

// ------------------------------------------------------------- ratios

#[test]
fn ratio_of_two_rows() {
    check(
        SALES,
        TEXT,
        &["what is the ratio of operating income to net sales in 2009?"],
        &[Num("0.2")],
    );
}

#[test]
fn change_in_relation_to_an_earlier_value() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what was the change?",
            "how much does that change represent in relation to the 2008 net sales?",
        ],
        &[Num("1500"), Num("1200"), Num("300"), Num("0.25")],
    );
}

// ------------------------------------------------------------- sums and averages

#[test]
fn sum_of_two_years() {
    check(
        SALES,
        TEXT,
        &["what is the sum of net sales in 2008 and 2009?"],
        &[Num("2700")],
    );
}

#[test]
fn average_of_two_years() {
    check(
        SALES,
        TEXT,
        &["what is the average net sales between 2008 and 2009?"],
        &[Num("1350")],
    );
}

#[test]
fn average_per_year_after_a_sum() {
    check(
        SALES,
        TEXT,
        &[
            "what was the operating income in 2009?",
            "and in 2008?",
            "what is the sum?",
            "what is the average per year?",
        ],
        &[Num("300"), Num("240"), Num("540"), Num("270")],
    );
}

// ------------------------------------------------------------- arithmetic on a result

#[test]
fn that_times_100() {
    check(
        SALES,
        TEXT,
        &[
            "what is the ratio of operating income to net sales in 2009?",
            "what is that times 100?",
        ],
        &[Num("0.2"), Num("20")],
    );
}

#[test]
fn that_divided_by_1000() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "what is that divided by 1000?",
        ],
        &[Num("1500"), Num("1.5")],
    );
}

#[test]
fn a_reference_with_nothing_before_it_fails() {
    check(SALES, TEXT, &["what is that times 100?"], &[Fails]);
    check(
        SALES,
        TEXT,
        &[
            "what is that divided by 1000?",
            "what was net sales in 2009?",
        ],
        &[Fails, Num("1500")],
    );
}

// ------------------------------------------------------------- comparisons

#[test]
fn which_is_greater_after_two_lookups() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "which is greater?",
        ],
        &[Num("1500"), Num("1200"), Yes],
    );
}

#[test]
fn which_is_greater_compares_the_first_asked_with_the_second() {
    check(
        SALES,
        TEXT,
        &[
            "what was net sales in 2008?",
            "and in 2009?",
            "which is greater?",
        ],
        &[Num("1200"), Num("1500"), No],
    );
}

#[test]
fn which_one_is_greater_in_one_question() {
    check(
        SALES,
        TEXT,
        &["which one is greater: net sales in 2009 or in 2008?"],
        &[Yes],
    );
}

#[test]
fn is_that_greater_than_a_constant_yes() {
    check(
        SALES,
        TEXT,
        &["what was net sales in 2009?", "is that greater than 1000?"],
        &[Num("1500"), Yes],
    );
}

#[test]
fn is_that_greater_than_a_constant_no() {
    check(
        SALES,
        TEXT,
        &[
            "what was the operating income in 2009?",
            "is that greater than 1000?",
        ],
        &[Num("300"), No],
    );
}

// ------------------------------------------------------------- a whole conversation

#[test]
fn a_conversation_mixing_table_and_text() {
    check(
        SALES,
        TEXT,
        &[
            "what was the operating income in 2009?",
            "and in 2007?",
            "what was the change?",
            "and the percentage change?",
            "what was the revenue from services in 2009?",
        ],
        &[Num("300"), Num("150"), Num("150"), Num("1"), Num("45.5")],
    );
}

#[test]
fn failed_turns_do_not_stop_the_conversation() {
    let conv = conversation(SALES, TEXT);
    let mut session = Session::new(&conv).unwrap();
    let mut planner = RulesPlanner::new().unwrap();
    let first = session.ask(&mut planner, "what is that times 100?");
    assert!(first.answer.is_none() && first.error.is_some());
    assert!(first.result.is_none());
    let second = session.ask(&mut planner, "what was net sales in 2008?");
    assert_eq!(second.turn, 1);
    assert_eq!(second.answer, Some(Answer::Number(dec("1200"))));
    let result = second.result.as_ref().expect("a result with metadata");
    assert_eq!(result.turn, 1);
    assert!(!result.variables.is_empty());
    assert_eq!(session.state().len(), 2);
    assert!(session.state().result(0).is_none());
    assert!(session.state().result(1).is_some());
}

#[test]
fn that_in_thousands_restates_a_text_amount_in_millions() {
    // the text says "$ 2.5 million"; "in thousands" scales it with the
    // multipliers of ontology/patterns.ttl
    check(
        SALES,
        "the company paid a fee of $ 2.5 million for the license in 2009 .",
        &[
            "what was the fee for the license?",
            "what is that in thousands?",
        ],
        &[Num("2.5"), Num("2500")],
    );
}

#[test]
fn a_result_in_billions_restated_in_millions_uses_its_own_scale() {
    // the sentence prints "million" too; the result's scale is the
    // billion of the number bound
    check(
        SALES,
        "commitments were $ 1.1 billion ( $ 288 million in 2010 ) .",
        &[
            "what were the commitments, in billions?",
            "what about in millions?",
        ],
        &[Num("1.1"), Num("1100")],
    );
}

#[test]
fn what_about_in_percentage_restates_the_last_ratio() {
    check(
        SALES,
        "",
        &[
            "what was the ratio of operating income to net sales in 2009?",
            "what about in percentage?",
        ],
        &[Num("0.2"), Num("20")],
    );
}

// ------------------------------------------------------ shares of a total

/// Regions as rows with a total row; a total column too.
const REGIONS: TableRows = &[
    &["", "owned", "leased", "total"],
    &["americas", "40", "10", "50"],
    &["europe", "25", "5", "30"],
    &["asia", "15", "5", "20"],
    &["total facilities", "80", "20", "100"],
];

/// Regions as rows, no total anywhere.
const REGIONS_NO_TOTAL: TableRows = &[
    &["", "owned", "leased"],
    &["americas", "40", "10"],
    &["europe", "25", "5"],
    &["asia", "15", "5"],
];

#[test]
fn percentage_of_a_column_is_over_its_total_row() {
    check(
        REGIONS,
        "",
        &["what percentage of owned facilities are in europe?"],
        &[Num("0.3125")],
    );
}

#[test]
fn percentage_of_a_row_is_over_its_total_column() {
    check(
        REGIONS,
        "",
        &["what was the europe owned as a percentage of the total europe?"],
        &[Num("0.8333333333")],
    );
}

#[test]
fn a_share_with_no_total_row_is_over_the_column_sum() {
    check(
        REGIONS_NO_TOTAL,
        "",
        &["what portion of the owned facilities are in asia?"],
        &[Num("0.1875")],
    );
}

#[test]
fn the_difference_from_the_number_one() {
    check(
        SALES,
        "",
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what is the ratio of net sales in 2009 to net sales in 2008?",
            "and what is the difference between this value and the number one?",
        ],
        &[Num("1500"), Num("1200"), Num("1.25"), Num("0.25")],
    );
}

/// A stock performance table: every series starts at 100.
const INDEX: TableRows = &[
    &["", "12/31/2011", "12/31/2012", "12/31/2013"],
    &["acme corp", "100.00", "112.50", "130.25"],
    &["s&p 500", "100.00", "113.00", "147.00"],
];

#[test]
fn a_change_between_two_asked_index_values() {
    check(
        INDEX,
        "",
        &[
            "what was the value of acme corp in 2013?",
            "and in 2011?",
            "what was, then, the change over the years?",
        ],
        &[Num("130.25"), Num("100"), Num("30.25")],
    );
}

// ------------------------------------------------ scales, products, sums

#[test]
fn a_text_amount_in_millions_asked_in_thousands() {
    check(
        SALES,
        "the company acquired $ 8.5 million of intangible assets in 2009 .",
        &["what were the acquired intangible assets in thousands?"],
        &[Num("8500")],
    );
}

#[test]
fn an_average_asked_in_a_scale_is_still_an_average() {
    check(
        SALES,
        "",
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what is the average between them, in millions?",
        ],
        &[Num("1500"), Num("1200"), Num("1350")],
    );
}

#[test]
fn a_ratio_times_an_earlier_value() {
    check(
        SALES,
        "",
        &[
            "what was the operating income in 2009?",
            "and in 2008?",
            "what is the ratio of operating income in 2009 to operating income in 2008?",
            "what was the 2008 value?",
            "what is the ratio times the 2008 value?",
        ],
        &[Num("300"), Num("240"), Num("1.25"), Num("240"), Num("300")],
    );
}

#[test]
fn including_another_year_adds_the_same_row() {
    check(
        SALES,
        "",
        &[
            "what was the number of stores in 2009?",
            "and in 2008?",
            "what was, then, the combined total for the two years?",
            "including 2007, what then becomes this total?",
            "and what was the average between the three years?",
        ],
        &[Num("56"), Num("48"), Num("104"), Num("144"), Num("48")],
    );
}

/// A variance table: years name the first and last rows only.
const VARIANCE: TableRows = &[
    &["", "amount ( in millions )"],
    &["2007 net revenue", "$ 231.0"],
    &["rider revenue", "3.9"],
    &["volume/weather", "12.1"],
    &["other", "5.7"],
    &["2008 net revenue", "$ 252.7"],
];

#[test]
fn years_that_name_rows_do_not_hide_the_other_rows() {
    check(
        VARIANCE,
        "",
        &[
            "what was the net revenue in 2008?",
            "what was the net change in revenue from 2007 to 2008?",
            "what is the 2008 rider revenue divided by that net change?",
        ],
        &[Num("252.7"), Num("21.7"), Num("0.1797235023")],
    );
}

#[test]
fn and_the_total_row_is_a_look_up() {
    check(
        REGIONS,
        "",
        &[
            "what was the owned in europe?",
            "and the total facilities owned?",
        ],
        &[Num("25"), Num("80")],
    );
}

#[test]
fn one_row_less_another() {
    check(
        SALES,
        "",
        &["what is net sales less operating income in 2008?"],
        &[Num("960")],
    );
}

/// A table in thousands.
const PRICE: TableRows = &[
    &["", "( in thousands )"],
    &["intangible assets", "8,500"],
    &["goodwill", "3,400"],
    &["total purchase price", "15,704"],
];

#[test]
fn a_ratio_of_millions_to_thousands_converts_scales() {
    check(
        PRICE,
        "the company acquired $ 3.2 million of in-process research and development .",
        &["what is the ratio of the in-process research and development to the total purchase price?"],
        &[Num("0.2037697402")],
    );
}

#[test]
fn results_record_the_scale_of_their_source() {
    let conv = conversation(PRICE, "revenue from services was $ 45.5 million in 2009 .");
    let mut session = Session::new(&conv).unwrap();
    let mut planner = RulesPlanner::new().unwrap();
    let fact = session.ask(&mut planner, "what was the revenue from services in 2009?");
    assert_eq!(
        fact.result
            .as_ref()
            .and_then(|r| r.scale.as_ref().map(finkg::turn::Scale::word)),
        Some("million")
    );
    let cell = session.ask(&mut planner, "what was the goodwill?");
    assert_eq!(
        cell.result
            .as_ref()
            .and_then(|r| r.scale.as_ref().map(finkg::turn::Scale::word)),
        Some("thousand")
    );
    let ratio = session.ask(
        &mut planner,
        "what is the ratio of goodwill to the total purchase price?",
    );
    assert_eq!(ratio.result.as_ref().map(|r| r.scale.clone()), Some(None));
}

#[test]
fn a_total_without_one_of_its_parts() {
    check(
        REGIONS,
        "",
        &["what would the owned facilities be without europe?"],
        &[Num("55")],
    );
}

// ------------------------------------------------------------- grounding
//
// The scored grounder on small pages written for the purpose: which cell or
// text number a mention names, and no answer when nothing on the page does.

/// A roll-forward: opening and closing balances of the same metric.
const BALANCES: TableRows = &[
    &["", "2012", "2011", "2010"],
    &["balance at january 1", "349", "307", "285"],
    &["additions", "69", "46", "35"],
    &["settlements", "( 29 )", "( 25 )", "( 2 )"],
    &["balance at december 31", "404", "349", "307"],
];

#[test]
fn beginning_and_end_of_a_period_pick_the_balance_rows() {
    check(
        BALANCES,
        "",
        &[
            "what was the balance at the end of 2012?",
            "and at the beginning of 2010?",
        ],
        &[Num("404"), Num("285")],
    );
    check(
        BALANCES,
        "",
        &["what is the ratio of the balance at the end of 2012 to the balance at the beginning of 2010?"],
        &[Num("1.417544")],
    );
    // neither beginning nor end said: a year's balance is its end's
    check(
        BALANCES,
        "",
        &["what was the balance in 2011?"],
        &[Num("349")],
    );
}

#[test]
fn a_flow_row_of_a_roll_forward_is_its_years_change() {
    check(
        BALANCES,
        "",
        &[
            "what was the change in the balance from the start of 2010 to the end of 2012?",
            "and what was the increase in 2011 on additions?",
            "what was that increase in 2012?",
        ],
        &[Num("119"), Num("46"), Num("69")],
    );
}

/// An analysis of a change: the same amount in two years opens and closes
/// the table, the rows between are what moved it.
const NET_REVENUE_BRIDGE: TableRows = &[
    &["", "amount ( in millions )"],
    &["2010 net revenue", "$ 540.2"],
    &["retail electric price", "36.0"],
    &["volume/weather", "21.3"],
    &["other", "( 20.3 )"],
    &["2011 net revenue", "$ 577.8"],
];

#[test]
fn rows_between_two_years_amounts_are_the_change() {
    check(
        NET_REVENUE_BRIDGE,
        "",
        &[
            "what was the volume/weather variance in 2011?",
            "how much does this represent in relation to the net revenue in that year?",
            "what was the change in net revenue from 2010 to 2011?",
        ],
        &[Num("21.3"), Num("0.036864"), Num("37.6")],
    );
    check(
        NET_REVENUE_BRIDGE,
        "",
        &[
            "what was the change in net revenue from 2010 to 2011?",
            "and what was the variance in retail electric price in that same period?",
        ],
        &[Num("37.6"), Num("36.0")],
    );
}

/// A quarterly price table: quarters named by their closing dates.
const QUARTERS: TableRows = &[
    &["", "high", "low"],
    &["quarter ended march 31", "32.10", "25.40"],
    &["quarter ended june 30", "35.80", "30.05"],
    &["quarter ended september 30", "37.71", "31.20"],
    &["quarter ended december 31", "41.00", "36.50"],
];

#[test]
fn a_quarter_by_name_finds_the_row_of_its_closing_date() {
    check(
        QUARTERS,
        "",
        &["what was the high price in the third quarter?"],
        &[Num("37.71")],
    );
    check(
        QUARTERS,
        "",
        &["what was the low price in the first quarter?"],
        &[Num("25.40")],
    );
}

/// "lowest" and "highest" meet the columns "low" and "high": an adjective
/// and its comparison are one word.
#[test]
fn a_superlative_meets_the_column_of_its_adjective() {
    check(
        QUARTERS,
        "",
        &["what was the lowest price in the first quarter?"],
        &[Num("25.40")],
    );
    check(
        QUARTERS,
        "",
        &["what was the highest price in the second quarter?"],
        &[Num("35.80")],
    );
}

/// A follow-up that names another column ("highest" after a "low" price)
/// does not keep the column the last turn read.
#[test]
fn a_follow_up_naming_another_column_leaves_the_column_read_before() {
    const PRICES: TableRows = &[
        &["", "high", "low", "dividends"],
        &["first quarter", "69.90", "60.77", "0.40"],
        &["second quarter", "75.37", "66.93", "0.40"],
        &["third quarter", "77.80", "58.85", "0.43"],
        &["fourth quarter", "78.50", "59.63", "0.43"],
    ];
    check(
        PRICES,
        "the table below gives the high and low sales prices of our common stock \
         and the dividends per share , by quarter , for 2011 . the high and low prices \
         are those the exchange reported .",
        &[
            "what was the lowest price in the first quarter?",
            "what about the highest price in the fourth quarter?",
        ],
        &[Num("60.77"), Num("78.50")],
    );
}

/// The same metric in the table for some years and in the text for another.
#[test]
fn a_year_only_the_text_prints_is_read_from_the_text() {
    check(
        SALES,
        "net sales were $ 800 million in 2006 , while the company had 35 stores in 2006 .",
        &[
            "what were net sales in 2006?",
            "what were net sales in 2009?",
        ],
        &[Num("800"), Num("1500")],
    );
}

#[test]
fn a_year_the_page_does_not_print_is_not_answered() {
    check(SALES, TEXT, &["what was net sales in 2015?"], &[Fails]);
}

#[test]
fn a_page_without_numbers_answers_nothing() {
    check(
        &[&["", "2009", "2008"], &["net sales", "n/a", "--"]],
        "the company designs widgets .",
        &["what was net sales in 2009?"],
        &[Fails],
    );
}

#[test]
fn words_the_page_does_not_have_are_not_answered() {
    check(
        SALES,
        TEXT,
        &["what was the goodwill impairment in 2009?"],
        &[Fails],
    );
}

/// A table that lost its first row into the header: the first quarter's
/// prices are printed in the column headers.
const LOST_FIRST_ROW: TableRows = &[
    &["", "high $ 17.84", "low $ 4.11"],
    &["second quarter", "9.17", "3.55"],
    &["third quarter", "4.61", "1.56"],
];

#[test]
fn numbers_printed_in_column_headers_are_candidates() {
    let conv = conversation(
        LOST_FIRST_ROW,
        "the high and low sales prices of the common stock were as follows .",
    );
    let mut session = Session::new(&conv).expect("the page's graph builds");
    let mut planner = RulesPlanner::new().expect("the planner loads its patterns");
    let considered = |trace: &finkg::trace::TurnTrace| -> Vec<String> {
        trace
            .grounding
            .iter()
            .flat_map(|g| g.candidates.iter().map(|c| c.source.clone()))
            .collect()
    };
    // the header's number is weighed (no row names the first quarter)
    let trace = session.ask(
        &mut planner,
        "what was the high price in the first quarter?",
    );
    let first = considered(&trace);
    assert!(
        first
            .iter()
            .any(|c| c == "column header `high $ 17.84` = $ 17.84"),
        "{first:?}"
    );
    let trace = session.ask(
        &mut planner,
        "what was the high price in the second quarter?",
    );
    assert_eq!(trace.answer, Some(Answer::Number(dec("9.17"))));
}

#[test]
fn a_blank_cell_is_not_answered_with_another_row() {
    check(
        &[
            &["", "2009", "2008"],
            &["net sales", "--", "$ 1,200"],
            &["operating income", "300", "240"],
        ],
        "the company designs widgets .",
        &["what was net sales in 2009?", "what was net sales in 2008?"],
        &[Fails, Num("1200")],
    );
}

#[test]
fn the_year_before_is_one_earlier_than_the_last() {
    check(
        SALES,
        "",
        &[
            "what were net sales in 2008?",
            "and in the year before?",
            "and operating income in the following year?",
        ],
        &[Num("1200"), Num("1000"), Num("240")],
    );
}

/// Share repurchases whose column headers lost their spaces in extraction.
const GLUED_HEADERS: TableRows = &[
    &[
        "",
        "total numberof sharespurchased",
        "averageprice paidper share",
        "total number ofshares purchased aspart of publiclyannounced plans",
    ],
    &["october 2018", "939957", "87.23", "931131"],
    &["november 2018", "3655945", "87.39", "3439476"],
];

#[test]
fn glued_header_words_are_read_apart() {
    check(
        GLUED_HEADERS,
        "the average price paid per share is the total paid over the number of shares purchased .",
        &[
            "what was the average price paid per share in october 2018?",
            "what was the total number of shares purchased in november 2018?",
        ],
        &[Num("87.23"), Num("3655945")],
    );
    // what the shares cost: the count times the unit price of its row,
    // the headers' glued words apart ("numberof", "averageprice")
    check(
        GLUED_HEADERS,
        "the average price paid per share is the total paid over the number of shares purchased .",
        &["what was the total cost of the shares purchased in november 2018?"],
        &[Num("319493033.55")],
    );
}

/// Restricted stock units: counts and their per-unit fair value.
const RSUS: TableRows = &[
    &[
        "",
        "number of rsus",
        "weighted average grant date fair value",
    ],
    &["rsus at december 31 2008", "401375", "29.03"],
    &["granted", "1583616", "9.32"],
    &["vested", "( 129352 )", "28.39"],
    &["forfeited", "( 172033 )", "12.53"],
    &["rsus at december 31 2009", "1683606", "12.23"],
];

#[test]
fn a_word_said_for_the_column_and_again_for_the_row_names_both() {
    // "grant" names the column ("grant date fair value") and, said again,
    // the row ("granted")
    check(
        RSUS,
        "awards are valued at the market price of the shares at the grant date . the \
         committee sets the grant date of each award . awards granted vest over three years . \
         the company recognizes the cost of each grant over its vesting period .",
        &["what was the weighted average grant date fair value of rsus granted?"],
        &[Num("9.32")],
    );
    // what units are worth: the count times the fair value of one unit
    check(
        RSUS,
        "",
        &["what is the total fair value of the rsus vested?"],
        &[Num("3672303.28")],
    );
}

/// A performance index whose columns are fiscal year ends, some in early
/// January.
const FISCAL_INDEX: TableRows = &[
    &["", "december 30 2006", "january 3 2009", "january 2 2010"],
    &["acme corp", "100.00", "97.26", "116.01"],
    &["s&p 500 index", "100.00", "65.70", "78.62"],
];

#[test]
fn a_date_the_question_prints_names_its_column() {
    check(
        FISCAL_INDEX,
        "",
        &[
            "what was the value of the s&p 500 index on january 3, 2009?",
            "what was the value of acme corp in january 2010?",
        ],
        &[Num("65.70"), Num("116.01")],
    );
}

#[test]
fn a_year_asked_names_the_column_that_prints_it() {
    // "in 2009" is the column dated january 3 2009, not the fiscal year
    // ending january 2 2010
    check(
        FISCAL_INDEX,
        "",
        &[
            "what was the value of acme corp in 2009?",
            "what was the value of the s&p 500 index in 2010?",
        ],
        &[Num("97.26"), Num("78.62")],
    );
}

#[test]
fn change_since_a_year_ends_in_the_year_the_conversation_is_about() {
    // "since 2007" starts the change; it ends in 2009, the year asked
    // before, not in 2007 (which would make 2006, absent here, the start)
    check(
        SALES,
        "",
        &[
            "what were net sales in 2009?",
            "and what was the change in net sales since 2007?",
            "and from 2008 to that year?",
        ],
        &[Num("1500"), Num("500"), Num("300")],
    );
}

#[test]
fn a_number_added_to_the_last_result() {
    check(
        SALES,
        "",
        &[
            "how many stores were there in 2009?",
            "what is that plus 9?",
            "what is that value plus 10?",
        ],
        &[Num("56"), Num("65"), Num("75")],
    );
}

#[test]
fn a_report_date_beside_a_joined_pair_of_years_is_no_end_of_the_change() {
    check(
        SALES,
        "",
        &["as of 12/31/09, what was the change in net sales between 2007 and 2008?"],
        &[Num("200")],
    );
}

#[test]
fn a_header_number_is_the_lost_first_row_of_a_sequence() {
    // the first row ("2003", 1150786) was lost into the header; the rows
    // that remain count up from 2004, so the header's number is 2003's
    let maturities: TableRows = &[
        &["", "$ 1150786"],
        &["2004", "925005"],
        &["2005", "540372"],
        &["2006", "139952"],
    ];
    check(
        maturities,
        "annual debt maturities are as follows :",
        &["what were the debt maturities in 2003?", "and in 2005?"],
        &[Num("1150786"), Num("540372")],
    );
    let quarters: TableRows = &[
        &["", "high $ 17.84", "low $ 15.00"],
        &["second quarter", "18.50", "16.25"],
        &["third quarter", "19.75", "17.00"],
        &["fourth quarter", "21.00", "18.10"],
    ];
    check(
        quarters,
        "",
        &["what was the high price in the first quarter?"],
        &[Num("17.84")],
    );
}

#[test]
fn a_follow_up_naming_another_column_keeps_the_lost_first_row() {
    // "and the low?" after the first quarter's high, which a header
    // prints: the low of the same lost row, not of the first row left
    let quarters: TableRows = &[
        &["", "high $ 17.84", "low $ 14.11"],
        &["second quarter", "19.50", "15.20"],
        &["third quarter", "22.10", "18.00"],
    ];
    check(
        quarters,
        "the high and low sales prices of our common stock were as follows .",
        &[
            "what was the high price in the first quarter?",
            "and the low?",
            "what was the difference?",
        ],
        &[Num("17.84"), Num("14.11"), Num("3.73")],
    );
}

#[test]
fn a_header_that_prints_its_year_holds_the_lost_quarter_of_that_year() {
    // columns are years; the first quarter's row was lost into them
    let dividends: TableRows = &[
        &["", "2009 $ 0.17", "2008 $ 0.15"],
        &["second quarter", "0.18", "0.16"],
        &["third quarter", "0.19", "0.17"],
        &["fourth quarter", "0.20", "0.18"],
    ];
    check(
        dividends,
        "dividends declared per share by quarter were :",
        &[
            "what was the dividend in the first quarter of 2009?",
            "and in the first quarter of 2008?",
            "what was the dividend in the third quarter of 2008?",
        ],
        &[Num("0.17"), Num("0.15"), Num("0.17")],
    );
}

#[test]
fn rows_of_months_give_the_lost_row_the_month_before() {
    // the first row ("october 2009") was lost into the headers
    let repurchases: TableRows = &[
        &[
            "",
            "total number of shares purchased 120000",
            "average price paid per share $ 25.10",
        ],
        &["november 2009", "95000", "26.20"],
        &["december 2009", "70000", "27.35"],
    ];
    check(
        repurchases,
        "repurchases of common stock during the fourth quarter of 2009 were :",
        &[
            "how many shares were purchased in october 2009?",
            "how many shares were purchased in november 2009?",
            "what was the average price paid per share in december 2009?",
        ],
        &[Num("120000"), Num("95000"), Num("27.35")],
    );
    let prices: TableRows = &[
        &["", "high $ 17.84", "low $ 13.50"],
        &["february", "18.50", "16.25"],
        &["march", "19.75", "17.00"],
    ];
    check(
        prices,
        "monthly high and low prices of the common stock were :",
        &[
            "what was the high price in january?",
            "what was the low price in march?",
        ],
        &[Num("17.84"), Num("17.00")],
    );
}

#[test]
fn words_the_page_never_prints_name_the_row_lost_with_its_name() {
    // the first row ("cash", 45826) was lost into the only header, its
    // name with it: a mention no label or sentence prints can name only it
    let allocation: TableRows = &[
        &["", "$ 45826"],
        &["customer-related intangible assets", "12000"],
        &["acquired technology", "8500"],
        &["goodwill", "60400"],
        &["total purchase price", "126726"],
    ];
    check(
        allocation,
        "the purchase price was allocated as follows ( in thousands ) :",
        &[
            "what was the value of cash?",
            "what was the value of goodwill?",
            "what was the value of inventory in 2007?",
        ],
        &[Num("45826"), Num("60400"), Fails],
    );
    // a side of a ratio named by such words is that row too (not an earlier
    // result the first turn does not have)
    check(
        allocation,
        "the purchase price was allocated as follows ( in thousands ) :",
        &["what is the ratio of cash to goodwill?"],
        &[Num("0.758709")],
    );
    // headers of a year and a number: the lost row's number of the year asked
    let balances: TableRows = &[
        &["", "2009 $ 602", "2008 $ 587"],
        &["investment securities", "1200", "1100"],
        &["loans", "5400", "5100"],
    ];
    check(
        balances,
        "the balance sheet at year end was as follows :",
        &[
            "what was cash in 2008?",
            "what was cash in 2009?",
            "what were loans in 2008?",
        ],
        &[Num("587"), Num("602"), Num("5100")],
    );
    // after another row's turn, such words still name the lost row (they
    // are no typo for a follow-up)
    check(
        balances,
        "the balance sheet at year end was as follows :",
        &["what were loans in 2008?", "what was cash in 2009?"],
        &[Num("5100"), Num("602")],
    );
    // a header with words of its own names its column: the lost row's name
    // is not unknown, so unknown words still name nothing
    check(
        LOST_FIRST_ROW,
        "the high and low sales prices of the common stock were as follows .",
        &["what was the dividend yield?"],
        &[Fails],
    );
}

/// A lost first row whose headers print, besides their period, a scale
/// note ("( in millions ) 2011"), a period's words ("year ended december
/// 2009") or a schedule's columns ("thereafter", "total") is still
/// unnamed: a measure the rows print only after another head ("cost of
/// revenues", "interest on long-term debt") may be that row.
#[test]
fn a_lost_first_row_is_unnamed_beside_scale_notes_period_words_and_schedule_columns() {
    let income: TableRows = &[
        &["", "( in millions ) 2011 $ 8,742", "2010 $ 8,105"],
        &["cost of revenues", "5,210", "4,905"],
        &["selling , general and administrative", "1,602", "1,511"],
        &["operating income", "1,505", "1,291"],
    ];
    check(
        income,
        "the following table sets forth our results of operations :",
        &["what were revenues in 2010?"],
        &[Num("8105")],
    );
    let results: TableRows = &[
        &[
            "",
            "year ended december 2010 $ 39161",
            "year ended december 2009 $ 45173",
        ],
        &["compensation and benefits", "15,376", "16,193"],
        &["non-compensation expenses", "10,428", "9,151"],
        &["pre-tax earnings", "12,892", "19,829"],
    ];
    check(
        results,
        "the table below presents our operating results :",
        &["what were net revenues in 2009?"],
        &[Num("45173")],
    );
    let maturities: TableRows = &[
        &[
            "",
            "2014 $ 650",
            "2015 $ 425",
            "2016 $ 900",
            "thereafter $ 3,175",
            "total $ 5,150",
        ],
        &[
            "interest on long-term debt",
            "262",
            "240",
            "215",
            "1,410",
            "2,127",
        ],
        &["operating leases", "58", "51", "44", "120", "273"],
    ];
    check(
        maturities,
        "at december 31 , 2013 , our long-term debt totaled $ 5,150 million . the \
         following table sets forth its scheduled maturities , the related interest \
         payments and our operating lease commitments :",
        &["how much long-term debt matures in 2016?"],
        &[Num("900")],
    );
}

/// Quarters as columns whose headers hold the lost first row ("high"): a
/// header naming its quarter is bare of the row's name, and a follow-up
/// keeps the column of the header number the last turn read.
#[test]
fn a_lost_row_under_quarter_headers_is_unnamed_and_its_column_is_kept() {
    let prices: TableRows = &[
        &[
            "",
            "first quarter $ 24.10",
            "second quarter $ 26.55",
            "third quarter $ 25.80",
            "fourth quarter $ 28.40",
        ],
        &["low", "20.05", "22.90", "21.35", "24.60"],
        &["dividends declared", "0.16", "0.16", "0.18", "0.18"],
    ];
    check(
        prices,
        "the following table sets forth the high and low sale prices of our common \
         stock and the dividends we declared , for each quarter of 2012 :",
        &[
            "what was the high sale price in the second quarter?",
            "and the low?",
        ],
        &[Num("26.55"), Num("22.90")],
    );
}

/// Words only a total row prints ("current", "provision") are its parts'
/// too: a question that asks for no total may name the lost first row
/// with them; "other revenues" still names the catch-all row.
#[test]
fn a_total_rows_words_may_name_the_lost_first_row_but_a_catch_all_names_its_row() {
    let provision: TableRows = &[
        &["", "( in millions ) 2011 $ 412", "2010 $ 368"],
        &["state", "174", "151"],
        &["total current", "586", "519"],
        &["deferred", "34", "22"],
        &["total provision for income taxes", "620", "541"],
    ];
    check(
        provision,
        "the components of the provision for income taxes were as follows . \
         current provision : federal",
        &["what was the current federal tax provision in 2011?"],
        &[Num("412")],
    );
    let revenues: TableRows = &[
        &["", "2010 $ 5437", "2009 $ 4921"],
        &["food and beverage", "1,512", "1,430"],
        &["other", "402", "388"],
        &["total revenues", "7,351", "6,739"],
    ];
    check(
        revenues,
        "rooms revenues rose as occupancy improved . revenues were as follows ( in millions ) :",
        &["what were other revenues in 2010?"],
        &[Num("402")],
    );
}

#[test]
fn words_no_label_prints_outweigh_a_row_sharing_the_common_ones() {
    // the first row ("cash provided by operating activities") was lost
    // into the headers; the text prints its words, no label does: the row
    // that shares only "cash" and "activities" is not meant
    let flows: TableRows = &[
        &["", "2015 $ 7344", "2014 $ 7385"],
        &["cash used in investing activities", "-4476", "-4249"],
        &["cash used in financing activities", "-3063", "-3001"],
        &["net change in cash and cash equivalents", "-195", "135"],
    ];
    check(
        flows,
        "cash provided by operating activities decreased slightly as higher \
         income was offset by tax payments . cash flows were as follows :",
        &[
            "what was the cash provided by operating activities in 2015?",
            "what was the cash used in financing activities in 2014?",
        ],
        &[Num("7344"), Num("3001")],
    );
}

#[test]
fn dates_and_kinds_of_year_the_page_never_prints_name_no_value() {
    // the page prints neither "fiscal" nor "december": they date the value
    // asked; a year written short is the year in full
    let obligations: TableRows = &[
        &["", "2007", "2008"],
        &["total debt", "570", "610"],
        &["lease obligations", "144", "120"],
        &["purchase obligations", "393", "380"],
        &["total", "1107", "1110"],
    ];
    check(
        obligations,
        "contractual obligations are as follows :",
        &[
            "what were lease obligations in fiscal 2007?",
            "what were purchase obligations as of december 31, 2008?",
            "what were lease obligations in fy08?",
        ],
        &[Num("144"), Num("380"), Num("120")],
    );
    // "the total", naming no row: the grand total, not a part's total
    for (question, total) in [
        ("what was the total in '08?", "1110"),
        ("what was the total in fiscal 2008?", "1110"),
        ("what was the total as of december 31, 2008?", "1110"),
    ] {
        check(
            obligations,
            "contractual obligations are as follows :",
            &[question],
            &[Num(total)],
        );
    }
    // a month the page prints still names its column
    let monthly: TableRows = &[
        &["", "november 2009", "december 2009"],
        &["shares purchased", "1200", "900"],
    ];
    check(
        monthly,
        "",
        &["how many shares were purchased in december 2009?"],
        &[Num("900")],
    );
}

#[test]
fn a_move_the_text_states_starts_at_the_beginning_and_ends_at_the_end() {
    // "from $ 2.9 billion to $ 3.3 billion" during 2010: where equity
    // started the year and where it ended it (the quote printed as 2019)
    let capital: TableRows = &[
        &["", "2010", "2009"],
        &["cash dividends declared per share", "1.08", "1.00"],
    ];
    let text = "during 2010 , stockholders 2019 equity increased from $ 2.9 billion to \
                $ 3.3 billion . we repurchased 5.0 million shares .";
    check(
        capital,
        text,
        &[
            "what was stockholders' equity at the end of 2010?",
            "and at the beginning of the year?",
            "what was the change?",
        ],
        &[Num("3.3"), Num("2.9"), Num("0.4")],
    );
    check(
        capital,
        text,
        &["by how much did stockholders' equity increase during 2010?"],
        &[Num("0.4")],
    );
}

#[test]
fn this_total_names_the_result_whose_question_said_total() {
    // no sum was computed: "this total" is the look-up asked as a total,
    // not the page's total row
    let sales: TableRows = &[
        &["", "2009", "2008"],
        &["product sales", "1000", "900"],
        &["service sales", "500", "300"],
        &["total sales", "1500", "1200"],
    ];
    check(
        sales,
        "",
        &[
            "what was the total of product sales in 2009?",
            "and how much do the service sales of 2009 represent in relation to this total?",
        ],
        &[Num("1000"), Num("0.5")],
    );
}

#[test]
fn one_amount_for_a_list_of_years_is_about_the_year_asked() {
    check(
        SALES,
        "annual cash dividends paid on common stock were 40 cents per share in 2009 , 2008 and 2007 . \
         total dividends paid were $ 40.6 million in 2009 , $ 41 million in 2008 and $ 42.5 million in 2007 .",
        &[
            "what was the cash dividend paid per common stock share in 2008?",
            "and what were the total dividends paid in that year?",
        ],
        &[Num("40"), Num("41")],
    );
}

#[test]
fn a_share_whose_whole_names_a_row_of_a_table_without_totals() {
    // "does" separates the whole from the part; the whole is the row it
    // names, not the sum of the column
    check(
        SALES,
        TEXT,
        &["what percentage of net sales does the operating income represent in 2009?"],
        &[Num("0.2")],
    );
    check(
        SALES,
        TEXT,
        &["what portion of the net sales in 2009 is the operating income?"],
        &[Num("0.2")],
    );
}

/// Years as rows, metrics as columns; two of them share the word "income".
const BY_YEAR: TableRows = &[
    &["", "net sales", "operating income", "net income"],
    &["2009", "1,200", "300", "150"],
    &["2008", "1,100", "250", "120"],
    &["2007", "950", "200", "90"],
];

#[test]
fn a_share_keeps_the_words_its_part_shares_with_the_whole() {
    // "net" is in both names: the part is still "net income", not any income
    let by_column: &[&[&str]] = &[
        &["", "2009", "2008"],
        &["net sales", "1,200", "1,100"],
        &["operating income", "300", "250"],
        &["net income", "150", "120"],
    ];
    check(
        by_column,
        "",
        &["what portion of net sales was net income in 2009?"],
        &[Num("0.125")],
    );
}

#[test]
fn a_share_in_a_table_with_years_as_rows_is_over_another_column() {
    // the years of a column are periods, not parts of a whole
    check(
        BY_YEAR,
        "",
        &[
            "what portion of net sales was net income in 2009?",
            "what was net income in 2008?",
            "and in 2007?",
            "what was the change?",
        ],
        &[Num("0.125"), Num("120"), Num("90"), Num("30")],
    );
}

#[test]
fn a_table_whose_caption_in_the_text_names_its_scale() {
    check(
        SALES,
        "selected results of operations ( in thousands ) :",
        &[
            "what was operating income in 2008?",
            "what is that in millions?",
        ],
        &[Num("240"), Num("0.24")],
    );
}

/// Maturities by year, one column, a total row.
const MATURITIES: TableRows = &[
    &["", "amount"],
    &["2011", "100"],
    &["2012", "150"],
    &["2013", "200"],
    &["thereafter", "550"],
    &["total", "1,000"],
];

#[test]
fn a_share_whose_part_names_only_a_year_is_the_wholes_metric_that_year() {
    check(
        MATURITIES,
        "aggregate annual maturities of long-term debt ( in millions ) :",
        &["what percentage of total debt matures in 2011?"],
        &[Num("0.1")],
    );
    // a part named before the lead is that part, not the whole's metric
    let by_column: &[&[&str]] = &[
        &["", "2010 ( in millions )", "2009 ( in millions )"],
        &["net sales", "1,000", "900"],
        &["cost of sales", "600", "560"],
        &["gross profit", "400", "340"],
    ];
    check(
        by_column,
        "",
        &["what was the gross profit as a percentage of net sales in 2010?"],
        &[Num("0.4")],
    );
}

#[test]
fn a_percentage_change_after_two_new_values_is_theirs_not_an_older_changes() {
    check(
        SALES,
        "",
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what was the change?",
            "what was the operating income in 2009?",
            "and in 2008?",
            "what was the percentage change?",
        ],
        &[
            Num("1500"),
            Num("1200"),
            Num("300"),
            Num("300"),
            Num("240"),
            Num("0.25"),
        ],
    );
}

#[test]
fn an_average_that_names_its_row_and_counts_its_years_reads_that_row() {
    // the values asked before are another row's
    check(
        SALES,
        "",
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what was the average number of stores for the two years?",
        ],
        &[Num("1500"), Num("1200"), Num("52")],
    );
}

/// Obligations by period: a total column first, a total row last.
const OBLIGATIONS: TableRows = &[
    &[
        "",
        "total",
        "less than 1 year",
        "1-3 years",
        "more than 3 years",
    ],
    &["long-term debt", "1,000", "100", "300", "600"],
    &["operating leases", "200", "50", "80", "70"],
    &["purchase obligations", "300", "200", "100", "0"],
    &[
        "total contractual obligations",
        "1,500",
        "350",
        "480",
        "670",
    ],
];

#[test]
fn a_share_whose_whole_names_the_parts_row_is_over_that_rows_total() {
    check(
        OBLIGATIONS,
        "",
        &[
            "what portion of operating leases is due in less than 1 year?",
            "what portion of total contractual obligations is due in less than 1 year?",
            "what percentage of total contractual obligations are operating leases?",
        ],
        &[Num("0.25"), Num("0.2333333333"), Num("0.1333333333")],
    );
}

#[test]
fn a_sum_that_counts_its_years_adds_that_many_values() {
    check(
        SALES,
        TEXT,
        &[
            "what were net sales in 2009?",
            "and 2008?",
            "and 2007?",
            "what is the sum of the three years?",
        ],
        &[Num("1500"), Num("1200"), Num("1000"), Num("3700")],
    );
}

#[test]
fn a_change_the_text_states_answers_a_change_and_not_a_level() {
    let text = "interest expense decreased $ 13 million , or 23% , to $ 44 million in 2009 .";
    check(
        SALES,
        text,
        &["what was the interest expense in 2009?"],
        &[Num("44")],
    );
    check(
        SALES,
        text,
        &["how much did interest expense decrease in 2009?"],
        &[Num("13")],
    );
    check(
        SALES,
        text,
        &["what was the decrease in interest expense from 2008 to 2009?"],
        &[Num("13")],
    );
}

#[test]
fn a_typing_slip_in_a_long_word_still_names_the_row() {
    let balance: TableRows = &[
        &["", "2009", "2008"],
        &["cash and cash equivalents", "500", "420"],
        &["inventories", "210", "230"],
        &["entergy louisiana", "149", "152"],
    ];
    check(
        balance,
        "",
        &[
            "what were the inventroies in 2009?",
            "and entergy lousiana in 2008?",
        ],
        &[Num("210"), Num("152")],
    );
}

#[test]
fn a_follow_up_in_the_same_sentence_reads_the_number_of_the_same_noun() {
    // "and in 2008?" after "93000 gas customers": the 2008 number followed
    // by "gas customers", not the nearest 2008 number
    check(
        SALES,
        "approximately 141000 electric customers and 93000 gas customers were served in 2009 , compared to 132000 electric customers in 2008 and 86000 gas customers in 2008 .",
        &["how many gas customers were there in 2009?", "and what was it in 2008?"],
        &[Num("93000"), Num("86000")],
    );
}

#[test]
fn the_value_of_a_count_is_the_count_times_its_unit_price() {
    let plans: TableRows = &[
        &[
            "",
            "number of securities to be issued upon exercise of options",
            "weighted-average exercise price of options",
            "number of securities remaining available",
        ],
        &[
            "plans approved by security holders",
            "1,000",
            "$ 20.50",
            "5,000",
        ],
    ];
    check(
        plans,
        "",
        &["what is the total value of the securities to be issued upon exercise of options?"],
        &[Num("20500")],
    );
    // a count asked as a count stays a count
    check(
        plans,
        "",
        &["what is the number of securities remaining available?"],
        &[Num("5000")],
    );
}

#[test]
fn in_percentage_names_no_value() {
    // "those costs in 2008" is the value asked before (from the text), not
    // a cell that matches "percentage" too
    let debt: TableRows = &[
        &["", "2009", "2008"],
        &["senior notes", "900", "900"],
        &["less unamortized costs as a percentage", "-26", "-27"],
    ];
    check(
        debt,
        "the company had unamortized costs associated with the senior notes of $ 15 million and $ 19 million as of december 31 , 2009 and 2008 , respectively .",
        &[
            "what was the change in the unamortized costs associated with the senior notes from 2008 to 2009?",
            "and how much does this change represent in relation to those costs in 2008, in percentage?",
        ],
        &[Num("-4"), Num("-0.210526")],
    );
}

#[test]
fn a_change_over_the_prior_year_amount_divides_by_its_start() {
    check(
        SALES,
        TEXT,
        &[
            "what were net sales in 2009?",
            "and in the previous year?",
            "what was the increase?",
            "what is the increase as a percentage of the prior year amount?",
        ],
        &[Num("1500"), Num("1200"), Num("300"), Num("0.25")],
    );
}

#[test]
fn a_bare_percentage_beside_a_verb_of_change_is_a_percentage_change() {
    check(
        SALES,
        TEXT,
        &[
            "by what percentage did operating income increase from 2008 to 2009?",
            "by what percent did net sales grow from 2007 to 2009?",
            "what percentage of net sales was operating income in 2009?",
        ],
        &[Num("0.25"), Num("0.5"), Num("0.2")],
    );
}

const MARGINS: TableRows = &[
    &["", "2015", "2014"],
    &["operating margin", "12.5", "10.1"],
    &["gross margin", "40.2", "38.0"],
];

#[test]
fn a_change_in_percentage_points_is_the_difference_of_the_rates() {
    check(
        MARGINS,
        "",
        &[
            "what was the operating margin in 2015?",
            "and in 2014?",
            "what was the change in percentage points?",
            "by how many percentage points did the gross margin change from 2014 to 2015?",
            "what was the percentage change in the gross margin from 2014 to 2015?",
        ],
        &[
            Num("12.5"),
            Num("10.1"),
            Num("2.4"),
            Num("2.2"),
            Num("0.0578947"),
        ],
    );
}

const RENT: TableRows = &[
    &["", "amount"],
    &["base rent", "51"],
    &["increased rent", "58"],
];

#[test]
fn a_participle_after_a_determiner_names_a_value_not_a_change() {
    check(
        RENT,
        "",
        &[
            "what is the increased rent?",
            "and the base rent?",
            "what was the difference between these two values?",
        ],
        &[Num("58"), Num("51"), Num("7")],
    );
    check(
        SALES,
        "",
        &[
            "how much did net sales increase from 2008 to 2009?",
            "what was the increased amount?",
        ],
        &[Num("300"), Num("300")],
    );
}

/// Payments due by period: the columns are ranges of years.
const PAYMENTS_DUE: TableRows = &[
    &[
        "",
        "payments due by period total",
        "less than 1 year",
        "1-3 years",
        "3-5 years",
        "more than 5 years",
    ],
    &["long-term debt", "1000", "100", "200", "250", "450"],
    &["operating leases", "300", "60", "80", "70", "90"],
];

#[test]
fn a_range_of_years_a_column_prints_names_that_column() {
    check(
        PAYMENTS_DUE,
        "",
        &[
            "what are the long-term debt payments due in more than 5 years?",
            "what are the operating leases due in less than 1 year?",
            "and the long-term debt due in 3-5 years?",
            "what are the total operating leases?",
        ],
        &[Num("450"), Num("60"), Num("250"), Num("300")],
    );
    // the same spans in other words: "within one year", "one to three
    // years", "after five years"
    check(
        PAYMENTS_DUE,
        "",
        &[
            "what are the operating leases due within one year?",
            "what is the long-term debt due in one to three years?",
            "what is the long-term debt due after five years?",
        ],
        &[Num("60"), Num("200"), Num("450")],
    );
}

/// A schedule of payments by year, with a column for the later years.
const SCHEDULE: TableRows = &[
    &["", "2012", "2013", "2014", "thereafter", "total"],
    &["operating leases", "50", "45", "40", "120", "255"],
    &["capital leases", "10", "9", "8", "30", "57"],
];

#[test]
fn after_the_last_year_of_a_schedule_is_its_thereafter_column() {
    check(
        SCHEDULE,
        "",
        &[
            "what are the operating leases due after 2014?",
            "what are capital leases payments beyond 2014?",
            "what are the capital leases due in 2014?",
        ],
        &[Num("120"), Num("30"), Num("8")],
    );
}

/// Year-end balances: the columns are years and no label says beginning.
const YEAR_END: TableRows = &[
    &["", "2002", "2001", "2000"],
    &["cash", "500", "400", "350"],
    &["inventory", "300", "250", "200"],
];

#[test]
fn the_beginning_of_a_year_on_year_end_columns_is_the_year_before() {
    check(
        YEAR_END,
        "",
        &[
            "what was the cash at the beginning of 2002?",
            "and at the end of 2002?",
            "what was inventory at the start of 2001?",
            "what was inventory at the end of 2001?",
        ],
        &[Num("400"), Num("500"), Num("200"), Num("250")],
    );
    // a table that prints its opening balance reads it
    let roll: TableRows = &[
        &["", "2002", "2001"],
        &["balance at beginning of year", "80", "60"],
        &["additions", "30", "20"],
        &["balance at end of year", "110", "80"],
    ];
    check(
        roll,
        "",
        &["what was the balance at the beginning of 2002?"],
        &[Num("80")],
    );
}

#[test]
fn how_many_more_than_is_a_difference() {
    check(
        SALES,
        "",
        &[
            "how many more stores were there in 2009 than in 2008?",
            "how much more was operating income in 2009 than in 2007?",
        ],
        &[Num("8"), Num("150")],
    );
}

#[test]
fn the_sum_of_these_values_adds_every_value_asked_since_the_last_result() {
    let asked = [
        "what were net sales in 2009?",
        "and in 2008?",
        "and in 2007?",
    ];
    let values = [Num("1500"), Num("1200"), Num("1000")];
    let ask = |last: &'static str, want: Want| {
        let mut questions = asked.to_vec();
        questions.push(last);
        let mut expected = values.to_vec();
        expected.push(want);
        check(SALES, "", &questions, &expected);
    };
    ask("what is the sum of these values?", Num("3700"));
    ask("combined, what is the total?", Num("3700"));
    // a count keeps to the last values asked
    ask("what is the sum of these two values?", Num("2200"));
}

/// Shares bought back by month: a count and the price paid for one.
const BUYBACKS: TableRows = &[
    &[
        "",
        "total number of shares purchased",
        "average price paid per share",
    ],
    &["october", "1,000", "$ 10.50"],
    &["november", "2,000", "$ 11.00"],
    &["december", "4,000", "$ 12.00"],
];

#[test]
fn the_cost_of_a_count_is_the_count_times_its_unit_price() {
    check(
        BUYBACKS,
        "",
        &[
            "what was the total cost of the shares purchased in december?",
            "how much was paid for the shares purchased in october?",
            "how many shares were purchased in november?",
        ],
        &[Num("48000"), Num("10500"), Num("2000")],
    );
}

/// Segments by year in millions; the text names one segment in its own
/// words, by its 2009 amount in billions.
const SEGMENTS: TableRows = &[
    &["( in millions )", "2009", "2008", "2007"],
    &["segment a", "$ 410", "$ 380", "$ 350"],
    &["segment b", "8", "95", "90"],
    &["segment c", "1,234", "1,100", "950"],
];

#[test]
fn the_text_names_a_row_by_printing_its_amount() {
    // "$ 1.2 billion" is segment c's 1,234 million: the words around it
    // are segment c's too
    let text = "acme sells widgets . \
        widget division revenues reached $ 1.2 billion in 2009 , driven by new customers .";
    check(
        SEGMENTS,
        text,
        &[
            "what were the widget division revenues in 2008?",
            "and in 2007?",
        ],
        &[Num("1100"), Num("950")],
    );
}

#[test]
fn the_share_outside_a_part_is_100_less_the_share_printed_for_it() {
    check(
        SALES,
        "acme designs and sells widgets . \
         sales in the united states were 65% of net sales in 2009 .",
        &["what percentage of net sales were outside the united states in 2009?"],
        &[Num("35")],
    );
}

#[test]
fn a_small_number_of_the_text_names_no_row() {
    // segment b's 8 in 2009 is a coincidence: "8 new stores" are no
    // segment's amount
    let text = "acme sells widgets . the company had 8 new stores in 2009 .";
    check(
        SEGMENTS,
        text,
        &["how many new stores did the company have in 2008?"],
        &[Not("95")],
    );
}

/// A roll-forward of net revenue: years name its first and last rows.
const NET_REVENUE_ROLL: TableRows = &[
    &["", "amount ( in millions )"],
    &["2015 net revenue", "$ 1,000.0"],
    &["retail electric price", "50.0"],
    &["reserve equalization", "14.3"],
    &["purchased power capacity", "12.4"],
    &["other", "5.0"],
    &["2016 net revenue", "$ 1,081.7"],
];

#[test]
fn a_variance_asked_without_a_year_is_its_flow_row() {
    // "the retail electric price variance" on a table from 2015 net
    // revenue to 2016's: the flow row is the change, not the text's rate
    // increase of 2015
    check(
        NET_REVENUE_ROLL,
        "the retail electric price variance is primarily due to rate actions , including an \
         annual base rate increase of $ 59 million beginning august 2015 .",
        &["what was the retail electric price variance?"],
        &[Num("50")],
    );
}

#[test]
fn a_sum_of_two_named_flows_of_a_roll_forward() {
    check(
        NET_REVENUE_ROLL,
        "",
        &["what was the total value of both the reserve equalization and the purchased power capacity as a change in net revenue from 2015 to 2016, in millions?"],
        &[Num("26.7")],
    );
}

#[test]
fn a_share_the_page_prints_as_a_percentage_is_read_not_divided() {
    // 65% is already the share of net sales: not 65 / 1,500
    check(
        SALES,
        "acme designs and sells widgets . \
         sales in the united states were 65% of net sales in 2009 .",
        &["what percentage of net sales were in the united states in 2009?"],
        &[Num("65")],
    );
}

/// A segment's table, and text that names one part of the segment.
const SEGMENT: TableRows = &[
    &["", "2009", "2008"],
    &["sales", "3,000", "3,100"],
    &["operating profit", "400", "300"],
];

const SEGMENT_TEXT: &str = "north american widget sales were $ 1.2 billion compared with \
    $ 1.1 billion in 2008 .";

#[test]
fn the_whole_of_this_total_is_the_page_total_of_that_year() {
    // "the total widget sales of that year" names a page value, not the
    // earlier result, nor the text number the part was read from
    check(
        SEGMENT,
        SEGMENT_TEXT,
        &[
            "what was the total of north american widget sales in 2009, in millions?",
            "and how much does this total represent in relation to the total widget sales of that year, in percentage?",
        ],
        &[Num("1200"), Num("0.4")],
    );
}

#[test]
fn a_ratio_to_a_named_total_after_one_look_up() {
    check(
        SEGMENT,
        SEGMENT_TEXT,
        &[
            "what was the value of north american widget sales in 2008 times 1000?",
            "what is that divided by total widget sales in 2008?",
        ],
        &[Num("1100"), Num("0.3548387096774")],
    );
}

/// A row that swings from loss to income, and a row printed negative.
const SWING: TableRows = &[
    &["", "2007", "2006"],
    &["revenue", "366,799", "184,586"],
    &["net income ( loss )", "17,388", "( 38,957 )"],
    &["cost of revenue", "( 120,000 )", "( 80,000 )"],
];

#[test]
fn a_row_of_both_signs_keeps_its_sign_and_a_negative_row_does_not() {
    check(
        SWING,
        "",
        &[
            "what was the change in net income from 2006 to 2007?",
            "what was the change in cost of revenue from 2006 to 2007?",
        ],
        &[Num("56345"), Num("40000")],
    );
}

#[test]
fn a_comparative_names_the_new_value_before_than_and_the_old_after() {
    check(
        SALES,
        "",
        &[
            "what percentage higher is net sales than operating income in 2008?",
            "how much higher were net sales than operating income in 2009?",
        ],
        &[Num("4"), Num("1200")],
    );
}

/// A purchase price and its allocation.
const PURCHASE_ALLOCATION: TableRows = &[
    &["", "amount"],
    &["goodwill", "3,400"],
    &["intangible assets", "8,500"],
    &["net tangible assets", "3,804"],
    &["total purchase price", "15,704"],
];

#[test]
fn a_share_that_names_only_its_part_is_of_the_last_whole() {
    check(
        PURCHASE_ALLOCATION,
        "",
        &[
            "what percentage of the total purchase price did the intangible assets represent?",
            "and what percentage did the goodwill represent?",
        ],
        &[Num("0.5412633724"), Num("0.2165053489")],
    );
}

/// A schedule whose total row is named only "total": the caption says
/// what it totals.
const CONTRACTS: TableRows = &[
    &["", "2009", "2008"],
    &["total debt", "500", "450"],
    &["operating leases", "120", "110"],
    &["purchase obligations", "80", "90"],
    &["total", "700", "650"],
];

#[test]
fn a_total_row_is_named_by_the_tables_caption_unless_another_row_is_named() {
    check(
        CONTRACTS,
        "acme sells widgets . the following table summarizes our contractual \
         obligations at december 31 , 2009 ( in millions ) :",
        &[
            "what were total contractual obligations in 2009?",
            "what was the total debt in the contractual obligations in 2008?",
        ],
        &[Num("700"), Num("450")],
    );
}

/// A roll-forward of one amount the caption names.
const BENEFITS: TableRows = &[
    &["", "2010", "2009"],
    &["balance at january 1", "120", "100"],
    &[
        "additions for tax positions of the current year",
        "30",
        "25",
    ],
    &[
        "reductions for tax positions of prior years",
        "( 10 )",
        "( 3 )",
    ],
    &["settlements", "( 5 )", "( 2 )"],
    &["balance at december 31", "135", "120"],
];

const BENEFITS_CAPTION: &str = "a reconciliation of the beginning and ending amount of \
    unrecognized tax benefits is as follows ( in millions ) :";

#[test]
fn a_roll_forwards_closing_balance_is_named_by_the_caption() {
    check(
        BENEFITS,
        BENEFITS_CAPTION,
        &[
            "what were unrecognized tax benefits in 2010?",
            "what was the change in unrecognized tax benefits during 2010?",
        ],
        &[Num("135"), Num("15")],
    );
}

#[test]
fn the_end_of_a_year_before_the_columns_is_the_next_years_opening() {
    check(
        BENEFITS,
        BENEFITS_CAPTION,
        &[
            "what were unrecognized tax benefits at the end of 2008?",
            "what was the net change in unrecognized tax benefits in 2009?",
        ],
        &[Num("100"), Num("20")],
    );
}

/// A performance graph's table: $ 100 invested at its first date.
const PERFORMANCE: TableRows = &[
    &["", "12/31/2010", "12/31/2011", "12/31/2012", "12/31/2013"],
    &["acme corp", "100", "110.5", "130.2", "175.9"],
    &["s&p 500", "100", "102.1", "118.4", "156.8"],
];

#[test]
fn a_percentage_cumulative_return_is_a_percentage_change() {
    check(
        PERFORMANCE,
        "the graph compares the cumulative total shareholder return on our common stock .",
        &["what was the percentage cumulative return of the s&p 500 from 2010 to 2013?"],
        &[Num("0.568")],
    );
}

#[test]
fn a_whole_period_return_on_a_performance_index_is_its_growth_from_100() {
    // no year printed: from the base of 100 to the last period; the
    // follow-up keeps the same period for another series
    check(
        PERFORMANCE,
        "the graph compares the cumulative total shareholder return on our common stock .",
        &[
            "what was the three year cumulative return for acme corp?",
            "and for the s&p 500?",
            "what is the difference between those returns?",
        ],
        &[Num("0.759"), Num("0.568"), Num("0.191")],
    );
    check(
        PERFORMANCE,
        "",
        &["what was the percentage change in acme corp over the three year period?"],
        &[Num("0.759")],
    );
    // "over that period" after a change between two years is that change's
    check(
        PERFORMANCE,
        "",
        &[
            "what was the percent change in acme corp from 2011 to 2013?",
            "and for the s&p 500 over that period?",
        ],
        &[Num("0.591855"), Num("0.535749")],
    );
}

#[test]
fn a_part_of_a_label_that_runs_into_a_whole_label_is_no_name() {
    // "change in cash" is a phrase of "net change in cash ...", but here
    // it runs into the whole label "cash used in investing activities":
    // the question asks for a percent change of that row
    let cash_flows: TableRows = &[
        &["", "2014", "2013"],
        &["cash provided by operating activities", "7,385", "6,823"],
        &[
            "cash used in investing activities",
            "( 4,249 )",
            "( 3,405 )",
        ],
        &["net change in cash and cash equivalents", "154", "369"],
    ];
    check(
        cash_flows,
        "cash flows for the years ended december 31 were as follows :",
        &[
            "what was the percent change in cash used in investing activities from 2013 to 2014?",
            "what was the net change in cash in 2014?",
        ],
        &[Num("0.247871"), Num("154")],
    );
}

#[test]
fn a_change_after_a_heading_of_two_years_names_what_changed_not_its_cause() {
    // the text's change is net income's, of 2016 (the heading compares
    // 2016 to 2015); "net revenue" after "due to" is its cause
    let net_revenue: TableRows = &[
        &["", "amount ( in millions )"],
        &["2015 net revenue", "540.2"],
        &["retail electric price", "36.0"],
        &["volume/weather", "21.3"],
        &["purchased power capacity", "-24.6"],
        &["other", "4.9"],
        &["2016 net revenue", "577.8"],
    ];
    let text = "results of operations net income 2016 compared to 2015 net income increased \
                by $ 14.6 million primarily due to higher net revenue , partially offset by \
                higher other operation and maintenance expenses . net revenue 2016 compared to \
                2015 net revenue consists of operating revenues net of fuel expenses . \
                following is an analysis of the change in net revenue comparing 2016 to 2015 .";
    check(
        net_revenue,
        text,
        &[
            "what was the total variance in net revenue from 2015 to 2016?",
            "by how much did net income increase in 2016?",
        ],
        &[Num("37.6"), Num("14.6")],
    );
}

#[test]
fn the_captions_words_name_every_cell_of_its_table() {
    // "pro forma" is printed only by the caption and by a sentence of the
    // text about another amount: the table's revenue is what is asked
    let pro_forma: TableRows = &[
        &["", "2009", "2008"],
        &["revenue", "3,668", "1,871"],
        &["net income ( loss )", "173", "( 389 )"],
    ];
    check(
        pro_forma,
        "the pro forma results exclude the $ 303.4 million charge recorded in 2009 . \
         the following unaudited pro forma information shows the results of the company 's \
         operations as though the acquisition had occurred at the beginning of each period :",
        &["what was pro forma revenue in 2009?"],
        &[Num("3668")],
    );
}

#[test]
fn the_street_number_of_an_address_is_no_amount() {
    let text = "acme designs and sells widgets . we occupy approximately 425,000 square feet \
                of the 141 west jackson complex . our data center at 20 south wacker drive \
                has 50,000 square feet .";
    check(
        SALES,
        text,
        &[
            "how many square feet does the company occupy in the 141 west jackson complex?",
            "how big is the data center at 20 south wacker drive, in square feet?",
        ],
        &[Num("425000"), Num("50000")],
    );
}

#[test]
fn a_catch_all_row_is_no_part_named_unless_the_question_says_other() {
    // "other debt" prints no word of its own but "other": "net long-term
    // debt" names the net total, not a part of it, so the total row is
    // not marked down as a part's
    let debt: TableRows = &[
        &["", "2015", "2014"],
        &["notes due 2016 to 2045", "8,150", "3,102"],
        &["other debt", "116", "111"],
        &["total long-term debt", "16,296", "7,041"],
        &["less : unamortized discounts", "( 1,035 )", "( 899 )"],
        &["total long-term debt net", "15,261", "6,142"],
    ];
    let conv = conversation(debt, "");
    let mut session = Session::new(&conv).expect("the page's graph builds");
    let mut planner = RulesPlanner::new().expect("the planner loads its patterns");
    let trace = session.ask(
        &mut planner,
        "what was the change in net long-term debt from 2014 to 2015?",
    );
    assert_eq!(trace.answer, Some(Answer::Number(dec("9119"))));
    let marked: Vec<&String> = trace
        .grounding
        .iter()
        .flat_map(|g| g.candidates.first())
        .flat_map(|c| c.features.iter().map(|(name, _)| name))
        .filter(|name| name.as_str() == "total_row_part_named")
        .collect();
    assert!(marked.is_empty(), "{:?}", trace.grounding);
}

#[test]
fn the_total_of_a_schedules_line_adds_every_period() {
    // a schedule of years and "thereafter" with a total row but no total
    // column: "the total of the purchase obligations" adds the line
    let schedule: TableRows = &[
        &["", "2013", "2014", "2015", "thereafter"],
        &["lease obligations", "198", "136", "106", "141"],
        &["purchase obligations", "3,213", "828", "722", "2,654"],
        &["total", "3,411", "964", "828", "2,795"],
    ];
    check(
        schedule,
        "contractual obligations for future payments at december 31 , 2012 were as follows :",
        &[
            "what is the total of the purchase obligations?",
            "what were the purchase obligations in 2014?",
        ],
        &[Num("7417"), Num("828")],
    );
}

#[test]
fn a_number_of_the_text_inside_a_labels_name_is_no_amount() {
    // "500" of "the s&p 500 index" is part of the row's name
    check(
        PERFORMANCE,
        "the graph compares our return with the return on the s&p 500 index .",
        &["what was the return on the s&p 500?"],
        &[Not("500")],
    );
}

/// Stock prices by quarter, two years side by side.
const QUARTER_PRICES: TableRows = &[
    &["", "2012 high", "2012 low", "2011 high", "2011 low"],
    &["first quarter", "45.10", "38.00", "40.00", "33.20"],
    &["second quarter", "48.20", "41.50", "42.30", "35.00"],
    &["third quarter", "50.05", "44.10", "41.10", "34.40"],
    &["fourth quarter", "51.30", "46.75", "43.90", "37.60"],
];

/// Purchases of shares by month.
const MONTHLY_PURCHASES: TableRows = &[
    &[
        "",
        "total number of shares purchased",
        "average price paid per share",
    ],
    &["october 2012", "120,000", "50.10"],
    &["november 2012", "85,000", "51.20"],
    &["december 2012", "95,000", "52.00"],
];

#[test]
fn a_change_between_two_quarters_or_two_months_of_the_rows() {
    check(
        QUARTER_PRICES,
        "",
        &[
            "what was the change in the high price from the first quarter to the fourth quarter of 2012?",
            "what was the change in the low price between the second quarter and the third quarter of 2011?",
        ],
        &[Num("6.2"), Num("-0.6")],
    );
    check(
        MONTHLY_PURCHASES,
        "",
        &["what was the change in the average price paid per share from october to december?"],
        &[Num("1.9")],
    );
}

#[test]
fn a_change_asked_in_amounts_is_not_the_percentage_the_text_states() {
    check(
        SALES,
        "acme sells widgets . revenue from services increased 13% ( 13 % ) in 2009 . \
         revenue from services was $ 45.5 million in 2009 and $ 40.1 million in 2008 .",
        &["what was the change in revenue from services from 2008 to 2009?"],
        &[Num("5.4")],
    );
}

#[test]
fn a_share_whose_part_only_points_back_is_that_result_of_the_named_whole() {
    check(
        CONTRACTS,
        "",
        &[
            "what was total debt in 2009?",
            "what about operating leases?",
            "what is the sum of these?",
            "what percentage of total obligations does this represent?",
        ],
        &[Num("500"), Num("120"), Num("620"), Num("0.8857142857")],
    );
}

#[test]
fn the_company_names_no_sentence_of_its_own_report() {
    // every sentence is about the company: "employees" decides
    check(
        SALES,
        "the company repurchased 2.5 million shares in 2009 . at december 31 , 2009 , \
         we had approximately 4,200 employees .",
        &["how many employees did the company have at the end of 2009?"],
        &[Num("4200")],
    );
}

#[test]
fn amounts_listed_respectively_belong_to_their_own_subjects() {
    check(
        SALES,
        "in 2009 , net cash provided by operating activities and capital expenditures \
         were $ 500 million and $ 200 million , respectively .",
        &[
            "what were capital expenditures in 2009?",
            "what was net cash provided by operating activities in 2009?",
        ],
        &[Num("200"), Num("500")],
    );
}

/// Lease payments by year (rows) for two kinds of lease (columns), with a
/// total row.
const LEASES: TableRows = &[
    &["", "operating leases", "capital leases"],
    &["2010", "$ 50", "$ 5"],
    &["2011", "45", "5"],
    &["2012", "40", "4"],
    &["thereafter", "115", "6"],
    &["total", "$ 250", "$ 20"],
];

#[test]
fn a_share_of_the_total_after_a_look_up_is_of_that_cells_total() {
    // the year 2010 carried over must not pull "the total" onto 2010's row
    check(
        LEASES,
        "",
        &[
            "what are total payments for operating leases?",
            "how much is due in 2010?",
            "what percentage of the total is that?",
        ],
        &[Num("250"), Num("50"), Num("0.2")],
    );
}

/// Sales by segment with a total row.
const SEGMENT_SALES: TableRows = &[
    &["", "2009", "2008"],
    &["industrial", "$ 820", "$ 900"],
    &["consumer", "610", "580"],
    &["healthcare", "430", "390"],
    &["total sales", "$ 1,860", "$ 1,870"],
];

#[test]
fn as_a_share_of_connects_a_part_to_its_whole() {
    check(
        SEGMENT_SALES,
        "",
        &[
            "what were consumer sales in 2008?",
            "what is that as a share of total sales?",
        ],
        &[Num("580"), Num("0.3101604278")],
    );
}

/// Cash flows of two years: the net change row prints both signs.
const CASH_FLOWS: TableRows = &[
    &["", "2010", "2009"],
    &[
        "net cash provided by operating activities",
        "$ 650",
        "$ 590",
    ],
    &[
        "net cash used in investing activities",
        "-310 ( 310 )",
        "-280 ( 280 )",
    ],
    &["net increase ( decrease ) in cash", "$ 140", "-40 ( 40 )"],
];

#[test]
fn a_change_in_a_year_without_the_year_before_is_the_row_that_names_a_change() {
    // no 2008 on the page: the row "net increase in cash" is the change,
    // and a row of both signs keeps its sign in the change between years
    check(
        CASH_FLOWS,
        "",
        &[
            "what was the net change in cash in 2009?",
            "and in 2010?",
            "what is the difference?",
        ],
        &[Num("-40"), Num("140"), Num("180")],
    );
}

/// Operating expenses under their full names.
const EXPENSES: TableRows = &[
    &["", "2010", "2009"],
    &["research and development", "$ 45,000", "$ 41,000"],
    &["selling , general and administrative", "120,000", "110,000"],
    &["amortization of intangibles", "8,000", "9,000"],
];

#[test]
fn an_abbreviation_joined_by_an_ampersand_names_the_phrase_it_spells() {
    check(
        EXPENSES,
        "",
        &[
            "what was sg&a expense in 2010?",
            "and r&d in 2010?",
            "what is the sum?",
        ],
        &[Num("120000"), Num("45000"), Num("165000")],
    );
}

#[test]
fn a_level_the_text_only_gives_a_rate_of_is_the_lost_first_row() {
    // the table lost "net sales" into its header; the text prints only
    // net sales' growth rate
    check(
        &[
            &["", "2010 $ 1,500", "2009 $ 1,200"],
            &["cost of sales", "900", "750"],
            &["gross profit", "600", "450"],
        ],
        "the following table summarizes our results of operations ( in millions ) : \
         net sales increased 25% ( 25 % ) in 2010 due to higher volumes .",
        &[
            "what were net sales in 2010?",
            "and in 2009?",
            "what was the change?",
        ],
        &[Num("1500"), Num("1200"), Num("300")],
    );
}

#[test]
fn a_bare_total_after_two_values_is_their_sum() {
    check(
        SALES,
        "",
        &[
            "what was operating income in 2009?",
            "and in 2008?",
            "what is the total?",
        ],
        &[Num("300"), Num("240"), Num("540")],
    );
}

#[test]
fn a_bare_total_after_one_cell_is_the_total_of_its_column() {
    check(
        SEGMENT_SALES,
        "",
        &["what were industrial sales in 2009?", "and the total?"],
        &[Num("820"), Num("1860")],
    );
}

/// A sentence that prints a count and an amount of money side by side.
const REPURCHASES: &str = "acme sells widgets . we repurchased 1.2 million shares of \
    common stock for $ 48 million during 2009 .";

#[test]
fn money_asked_is_the_amount_and_a_count_asked_the_count() {
    check(
        SALES,
        REPURCHASES,
        &[
            "how much did the company spend repurchasing shares in 2009?",
            "how many shares were repurchased?",
        ],
        &[Num("48"), Num("1.2")],
    );
}

#[test]
fn an_average_per_unit_after_an_amount_and_a_count_divides_them() {
    check(
        SALES,
        REPURCHASES,
        &[
            "how much did the company spend repurchasing shares in 2009?",
            "how many shares were repurchased?",
            "what is the average price per share?",
        ],
        &[Num("48"), Num("1.2"), Num("40")],
    );
}

#[test]
fn a_trigger_before_a_question_word_is_no_operation() {
    // "over how many years" asks a value: "over" divides nothing
    check(
        SALES,
        "acme sells widgets . as of december 31 , 2009 , there was $ 95 million of \
         unrecognized compensation cost , which is expected to be recognized over a \
         weighted-average period of 2.1 years .",
        &[
            "how much unrecognized compensation cost was there at the end of 2009?",
            "over how many years will it be recognized?",
            "what is the average per year?",
        ],
        &[Num("95"), Num("2.1"), Num("45.238095238")],
    );
}

/// A reserve's roll-forward over two years: the flows between two closing
/// balances are the later year's.
const RESERVE: TableRows = &[
    &["", "severance", "facility closure", "total"],
    &["balance at december 31 , 2008", "$ 25", "$ 5", "$ 30"],
    &["charges", "40", "12", "52"],
    &["cash payments", "-35 ( 35 )", "-7 ( 7 )", "-42 ( 42 )"],
    &["balance at december 31 , 2009", "30", "10", "40"],
    &["charges ( 2 )", "10", "3", "13"],
    &[
        "cash payments ( 2 )",
        "-28 ( 28 )",
        "-6 ( 6 )",
        "-34 ( 34 )",
    ],
    &["balance at december 31 , 2010", "$ 12", "$ 7", "$ 19"],
];

#[test]
fn a_roll_forwards_flows_are_the_year_of_the_balance_they_close_on() {
    check(
        RESERVE,
        "the following table summarizes the activity in the restructuring reserve ( in millions ) :",
        &[
            "what were total cash payments in 2010?",
            "and in 2009?",
            "what were severance charges in 2010?",
        ],
        &[Num("34"), Num("42"), Num("10")],
    );
}

#[test]
fn the_difference_between_two_rows_named_in_full_is_the_first_less_the_second() {
    check(
        &[
            &["", "2010", "2009"],
            &["statutory federal income tax rate", "35.0%", "35.0%"],
            &[
                "state income taxes , net of federal benefit",
                "2.1%",
                "1.8%",
            ],
            &["effective tax rate", "32.8%", "33.7%"],
        ],
        "",
        &["what was the difference between the statutory rate and the effective rate in 2010?"],
        &[Num("2.2")],
    );
    // two columns in one quarter, the quarter named on the second side
    check(
        QUARTERS,
        "",
        &["what is the difference between the high and the low in q4?"],
        &[Num("4.5")],
    );
    // two rows of a table of quarters, no year asked
    check(
        &[
            &["", "q1", "q2", "q3", "q4"],
            &["revenue", "100", "110", "120", "130"],
            &["net income", "10", "12", "13", "15"],
        ],
        "quarterly results for 2009 ( in millions ) :",
        &["what was the difference between revenue and net income in the second quarter?"],
        &[Num("98")],
    );
}

#[test]
fn that_as_a_percentage_after_a_change_is_over_the_value_it_started_from() {
    check(
        SEGMENT_SALES,
        "",
        &[
            "what was the change in industrial sales from 2008 to 2009?",
            "what is that as a percentage?",
        ],
        &[Num("-80"), Num("-0.0888888889")],
    );
}

#[test]
fn a_years_total_on_a_table_of_its_quarters_adds_the_four() {
    let quarters: TableRows = &[
        &["", "high", "low", "dividends declared"],
        &["first quarter 2009", "$ 25.10", "$ 18.20", "$ 0.10"],
        &["second quarter 2009", "27.40", "22.15", "0.10"],
        &["third quarter 2009", "30.05", "26.00", "0.12"],
        &["fourth quarter 2009", "32.80", "28.75", "0.12"],
    ];
    check(
        quarters,
        "",
        &[
            "what were total dividends declared per share in 2009?",
            "what was the total dividend declared in the third quarter of 2009?",
        ],
        &[Num("0.44"), Num("0.12")],
    );
}

#[test]
fn a_word_the_question_prints_beats_one_that_only_shares_its_stem() {
    // "exercisable" and "exercised" have one stem
    check(
        &[
            &["( in thousands )", "2010", "2009"],
            &["options exercised", "1,100", "900"],
            &["options exercisable", "3,100", "2,800"],
        ],
        "",
        &["how many options were exercisable in 2010?"],
        &[Num("3100")],
    );
}

#[test]
fn the_total_of_a_row_over_two_years_adds_that_row_not_the_total_row() {
    check(
        SEGMENT_SALES,
        "",
        &["what was the total of industrial sales in 2008 and 2009?"],
        &[Num("1720")],
    );
}

#[test]
fn a_share_asked_again_for_another_year_reads_the_same_rows() {
    check(
        SEGMENT_SALES,
        "",
        &[
            "what percentage of total sales in 2009 came from the industrial segment?",
            "what about in 2008?",
        ],
        &[Num("0.4408602151"), Num("0.4812834225")],
    );
}

#[test]
fn a_total_over_a_range_of_years_adds_every_year_in_it() {
    // 850 + 900 + 820: the range's middle year too, however it is written
    check(
        &[
            &["", "2009", "2008", "2007"],
            &["industrial", "$ 820", "$ 900", "$ 850"],
            &["consumer", "610", "580", "560"],
            &["total sales", "$ 1,430", "$ 1,480", "$ 1,410"],
        ],
        "",
        &[
            "what were the total industrial sales over 2007-2009?",
            "what were the industrial sales for the years 2007 through 2009 combined?",
            "what was the average industrial sales from 2007 to 2009?",
            "what was the change in industrial sales from 2007 to 2009?",
        ],
        &[Num("2570"), Num("2570"), Num("856.6666667"), Num("-30")],
    );
}

#[test]
fn over_two_years_is_a_span_of_time_not_a_division() {
    check(
        SEGMENT_SALES,
        "",
        &["what were the combined consumer sales over 2008 and 2009?"],
        &[Num("1190")],
    );
    // a list of years after "over" is a span too
    check(
        &[
            &["", "2009", "2008", "2007"],
            &["industrial", "$ 820", "$ 900", "$ 850"],
            &["consumer", "610", "580", "560"],
        ],
        "",
        &["what was the average consumer sales over 2007, 2008 and 2009?"],
        &[Num("583.3333333")],
    );
}

#[test]
fn the_first_and_the_second_are_the_last_two_results() {
    check(
        SEGMENT_SALES,
        "",
        &[
            "what were the consumer sales in 2009?",
            "what were the consumer sales in 2008?",
            "what is the ratio of the first to the second?",
        ],
        &[Num("610"), Num("580"), Num("1.051724138")],
    );
    check(
        SEGMENT_SALES,
        "",
        &[
            "what were the consumer sales in 2009?",
            "what were the consumer sales in 2008?",
            "what is the ratio of the latter to the former?",
        ],
        &[Num("610"), Num("580"), Num("0.9508196721")],
    );
}

#[test]
fn a_change_keeps_to_amount_columns_when_a_year_also_has_a_percent_column() {
    check(
        &[
            &[
                "( in millions )",
                "2010",
                "% of net sales 2010",
                "2009",
                "% of net sales 2009",
            ],
            &["net sales", "2,400", "100%", "2,200", "100%"],
            &["cost of sales", "1,500", "62.5%", "1,430", "65.0%"],
            &["operating income", "420", "17.5%", "320", "14.5%"],
        ],
        "",
        &["what was the change in operating income from 2009 to 2010?"],
        &[Num("100")],
    );
}

#[test]
fn an_adjective_of_a_place_names_the_place_s_row() {
    // "european" meets "europe" though the page never prints it, as well as
    // "revenue" meets the text's sentence about the total
    check(
        &[
            &["( in millions )", "2010", "2009"],
            &["north america", "380", "360"],
            &["europe", "150", "140"],
            &["asia", "80", "65"],
            &["total", "610", "565"],
        ],
        "revenue increased $ 45 million , or 8% , to $ 610 million in 2010 from $ 565 million in 2009 .",
        &["what was european revenue in 2009?"],
        &[Num("140")],
    );
}

#[test]
fn how_much_of_a_total_asks_the_part_not_a_share() {
    check(
        &[
            &["( in millions )", "2010", "2009"],
            &["north america", "380", "360"],
            &["europe", "150", "140"],
            &["total", "610", "565"],
        ],
        "",
        &["how much of the revenue came from europe in 2010?"],
        &[Num("150")],
    );
}

#[test]
fn share_after_per_names_a_unit_not_a_share() {
    check(
        SALES,
        "cash dividends paid were 40 cents per share of common stock in 2009 .",
        &["what was the 2009 cash dividend per share of common stock?"],
        &[Num("40")],
    );
}

#[test]
fn a_share_of_the_value_of_a_year_divides_by_the_value_asked_for_that_year() {
    check(
        SALES,
        "",
        &[
            "what was the change in operating income from 2008 to 2009?",
            "what was the value in 2008?",
            "what percentage of the 2008 value is the change?",
        ],
        &[Num("60"), Num("240"), Num("0.25")],
    );
}

#[test]
fn the_total_of_all_three_years_adds_the_sum_and_the_value_since() {
    check(
        SALES,
        "",
        &[
            "what is the sum of net sales in 2009 and 2008?",
            "what is the value for 2007?",
            "what is the total of all three years?",
        ],
        &[Num("2700"), Num("1000"), Num("3700")],
    );
}

#[test]
fn a_share_of_the_increase_divides_by_the_increase_computed_before() {
    // "the increase" names the change just computed, not a total of the table
    check(
        &[
            &["", "amount ( in millions )"],
            &["2008 net revenue", "$ 500"],
            &["volume", "30"],
            &["pricing", "15"],
            &["other", "5"],
            &["2009 net revenue", "$ 550"],
        ],
        "",
        &[
            "what was the increase in net revenue from 2008 to 2009?",
            "what portion of the increase came from pricing?",
        ],
        &[Num("50"), Num("0.3")],
    );
}

#[test]
fn a_share_of_a_total_is_not_the_value_the_part_already_read() {
    // the text states the part in billions; "total" must not land on it
    check(
        &[
            &["( in millions )", "2009", "2008"],
            &["sales", "3,060", "3,200"],
            &["operating profit", "210", "180"],
        ],
        "north american consumer packaging net sales were $ 2.2 billion compared with \
         $ 2.5 billion in 2008 and $ 2.4 billion in 2007 .",
        &[
            "what was the total of north american consumer packaging net sales in 2009, in millions?",
            "what percentage of total consumer packaging sales that year is that?",
        ],
        &[Num("2200"), Num("0.7189542484")],
    );
}

#[test]
fn that_total_with_one_more_value_included_adds_it() {
    check(
        SALES,
        "",
        &[
            "what is the sum of net sales in 2009 and 2008?",
            "what is that total if 2007 is included?",
        ],
        &[Num("2700"), Num("3700")],
    );
}

#[test]
fn divide_that_by_a_number_is_a_quotient() {
    check(
        SALES,
        "",
        &["what was net sales in 2009?", "divide that by 100"],
        &[Num("1500"), Num("15")],
    );
}

#[test]
fn a_year_compared_to_another_is_a_change_between_them() {
    // a numbered list in the text ("1 ) fuel") offers no value to take
    check(
        SALES,
        "net sales 2009 compared to 2008 net sales consist of : 1 ) widgets , 2 ) services . \
         usage increased a total of 184 units compared to the same period in 2008 .",
        &["what was the change in net sales in 2009 compared to 2008?"],
        &[Num("300")],
    );
}

#[test]
fn add_asks_a_sum_and_takes_its_number() {
    check(
        SALES,
        "",
        &[
            "what was net sales in 2009?",
            "and in 2008?",
            "what do they add up to?",
            "add 300 to that",
        ],
        &[Num("1500"), Num("1200"), Num("2700"), Num("3000")],
    );
}

#[test]
fn multiply_a_by_b_takes_the_factors_on_either_side_of_by() {
    check(
        SALES,
        "",
        &[
            "what was operating income in 2009?",
            "and in 2008?",
            "what is the ratio of 2009 to 2008?",
            "what was the 2009 value?",
            "multiply the ratio by the 2009 value",
        ],
        &[Num("300"), Num("240"), Num("1.25"), Num("300"), Num("375")],
    );
}

#[test]
fn in_percent_after_a_change_is_the_change_over_its_start() {
    check(
        SALES,
        "",
        &[
            "what was the change in operating income from 2008 to 2009?",
            "and in percent?",
        ],
        &[Num("60"), Num("0.25")],
    );
}

/// A stock option roll-forward: levels at each year's end and the flows
/// between them, a count column and a price column.
const OPTIONS: TableRows = &[
    &[
        "",
        "number of options ( in thousands )",
        "weighted average exercise price",
    ],
    &["outstanding at december 31 , 2009", "5,200", "32.15"],
    &["granted", "800", "41.20"],
    &["exercised", "( 1,100 )", "25.80"],
    &["forfeited", "( 150 )", "35.00"],
    &["outstanding at december 31 , 2010", "4,750", "35.10"],
    &["exercisable at december 31 , 2010", "3,100", "30.40"],
];

#[test]
fn the_beginning_of_a_year_is_the_row_that_ends_the_year_before() {
    check(
        OPTIONS,
        "",
        &["how many options were outstanding at the beginning of 2010?"],
        &[Num("5200")],
    );
}

#[test]
fn a_share_of_a_roll_forward_divides_by_the_level_of_the_part_s_year() {
    // "exercisable" is not the price column's "exercise"; the whole is the
    // 2010 level, not the column's sum of levels and flows
    check(
        OPTIONS,
        "",
        &["what percentage of outstanding options were exercisable at year end?"],
        &[Num("0.6526315789")],
    );
}

#[test]
fn how_many_is_not_answered_by_an_amount_of_money() {
    // the sentence names the options exercised too, but prints dollars
    check(
        OPTIONS,
        "the total intrinsic value of options exercised during 2010 was $ 18 million .",
        &["how many options were exercised in 2010?"],
        &[Num("1100")],
    );
}

/// Long-term debt at two year ends, and the unamortized issuance costs of
/// a credit facility that only the text prints.
const DEBT: TableRows = &[
    &["", "december 31 2017", "december 31 2016"],
    &["senior notes due 2021", "600", "600"],
    &["term loan due 2024", "400", "450"],
    &["less unamortized debt issuance costs", "( 26 )", "( 24 )"],
    &["total long-term debt", "974", "1,026"],
];

const DEBT_TEXT: &str = "the company had unamortized debt issuance costs associated \
    with its revolving credit facility of $ 11 million and $ 8 million as of december 31 , \
    2017 and 2016 , respectively .";

#[test]
fn a_year_end_date_asked_is_matched_in_the_text_as_in_the_columns() {
    // every column closes a december: the date tells no cell apart, and the
    // sentence prints it as well as the columns do
    check(
        DEBT,
        DEBT_TEXT,
        &["what were the unamortized debt issuance costs associated with the revolving credit facility as of december 31, 2017?"],
        &[Num("11")],
    );
}

/// A roll-forward of unrecognized tax benefits over years ended december 31.
const TAX_BENEFITS: TableRows = &[
    &[
        "",
        "year ended december 31 , 2011",
        "year ended december 31 , 2010",
    ],
    &["balance at january 1", "301", "265"],
    &["additions for tax positions of prior years", "22", "14"],
    &["settlements", "( 4 )", "( 8 )"],
    &["balance at december 31", "349", "301"],
];

#[test]
fn a_day_of_a_month_is_no_numbered_phrase() {
    // "balance at december 31" shares "at december 31" with the question,
    // but a date is not a phrase like "1-3 years" that only its number names
    check(
        TAX_BENEFITS,
        "included in the balance of unrecognized tax benefits at december 31 , 2011 and 2010 , \
         respectively , are $ 226 million and $ 194 million of tax benefits that , if recognized , \
         would affect the effective tax rate .",
        &["what were the unrecognized tax benefits that would affect the effective tax rate at december 31, 2011?"],
        &[Num("226")],
    );
}

#[test]
fn a_label_is_read_without_its_asides() {
    // "gain realized" is the label's "gain ( loss ) realized", not a change
    check(
        &[
            &["", "2009", "2008"],
            &["capital gain distributions received", "2.0", "5.6"],
            &[
                "net gain ( loss ) realized on fund dispositions",
                "7.4",
                "( 4.5 )",
            ],
        ],
        "",
        &["what was the gain realized in 2008?"],
        &[Num("-4.5")],
    );
}

/// Net revenues of four segments and their total, over three years.
const NET_REVENUES: TableRows = &[
    &["", "2010", "2009", "2008"],
    &["advisory", "4,810", "4,984", "5,179"],
    &["trading services", "15,970", "21,883", "22,345"],
    &["research and lending", "7,540", "2,863", "( 10,821 )"],
    &["asset management", "4,670", "3,990", "4,607"],
    &["total net revenues", "32,990", "33,720", "21,310"],
];

#[test]
fn a_sum_adds_every_item_its_list_names() {
    check(
        NET_REVENUES,
        "",
        &[
            "what is the sum of advisory, asset management and trading services in 2010?",
            "what is the sum of advisory, asset management, and trading services in 2009?",
            // "and" inside a row's name parts no items
            "in 2009, what was the combined revenue of advisory and research and lending?",
        ],
        &[Num("25450"), Num("30857"), Num("7847")],
    );
}

#[test]
fn a_difference_subtracts_every_item_its_list_names() {
    check(
        NET_REVENUES,
        "",
        &[
            // "the total" within a row's name points back at nothing
            "what were the total net revenues in 2010 less advisory and asset management?",
            "what were total net revenues in 2009 minus advisory, asset management and trading services?",
            "what were the net revenues excluding advisory and asset management in 2010?",
        ],
        &[Num("23510"), Num("2863"), Num("23510")],
    );
}

#[test]
fn a_follow_up_opening_with_and_lists_nothing() {
    check(
        NET_REVENUES,
        "",
        &[
            "what were advisory revenues in 2010?",
            "and considering trading services, what were they in 2010?",
        ],
        &[Num("4810"), Num("15970")],
    );
}

#[test]
fn a_total_over_counted_years_adds_what_the_text_states_each_year() {
    let text = "operating expenses were $ 1,210 million in 2010 , $ 1,105 million in 2009 \
                and $ 990 million in 2008 .";
    check(
        NET_REVENUES,
        text,
        &["what was the total operating expenses for the three years?"],
        &[Num("3305")],
    );
    check(
        NET_REVENUES,
        text,
        &["what were the average operating expenses over the last two years?"],
        &[Num("1157.5")],
    );
}

#[test]
fn a_sum_asked_again_in_another_year_adds_the_same_rows() {
    check(
        NET_REVENUES,
        "",
        &[
            "what was the total of advisory and asset management in 2010?",
            "and what was it in 2009?",
            // two results of one kind: the change between them
            "what was the change?",
        ],
        &[Num("9480"), Num("8974"), Num("506")],
    );
}

#[test]
fn the_difference_between_two_changes_subtracts_them() {
    check(
        NET_REVENUES,
        "",
        &[
            "what was the change in advisory from 2009 to 2010?",
            "what was the change in asset management over that period?",
            "what is the difference between those changes?",
        ],
        &[Num("-174"), Num("680"), Num("-854")],
    );
}

/// An income statement whose labels hold "and" and a comma.
const INCOME: TableRows = &[
    &["", "2009", "2008"],
    &["net sales", "7,655", "7,210"],
    &["cost of sales", "4,970", "4,700"],
    &[
        "selling , general and administrative expenses",
        "1,498",
        "1,420",
    ],
    &["research and development", "156", "150"],
    &["operating income", "1,031", "940"],
];

#[test]
fn list_items_are_cut_between_labels_never_inside_one() {
    check(
        INCOME,
        "",
        &[
            "what was net sales less cost of sales less selling, general and administrative expenses in 2009?",
            "what was the sum of cost of sales, research and development and selling, general and administrative expenses in 2008?",
        ],
        &[Num("1187"), Num("6270")],
    );
}

#[test]
fn the_sum_of_these_three_adds_the_three_values_asked() {
    check(
        INCOME,
        "",
        &[
            "what was net sales in 2009?",
            "what was cost of sales in 2009?",
            "and research and development?",
            "what is the sum of these three?",
        ],
        &[Num("7655"), Num("4970"), Num("156"), Num("12781")],
    );
}

/// Contractual obligations by period, with a total column and a total row.
const DUE_BY_PERIOD: TableRows = &[
    &[
        "",
        "total",
        "less than 1 year",
        "1-3 years",
        "3-5 years",
        "more than 5 years",
    ],
    &[
        "long-term debt",
        "$ 3,450",
        "$ 250",
        "$ 700",
        "$ 1,000",
        "$ 1,500",
    ],
    &["operating leases", "486", "112", "168", "94", "112"],
    &[
        "total contractual obligations",
        "$ 3,936",
        "$ 362",
        "$ 868",
        "$ 1,094",
        "$ 1,612",
    ],
];

/// Pension cost in two column groups of the same years.
const PLAN_GROUPS: TableRows = &[
    &[
        "",
        "u.s. plans 2009",
        "u.s. plans 2008",
        "non-u.s. plans 2009",
        "non-u.s. plans 2008",
    ],
    &["service cost", "$ 112", "$ 118", "$ 58", "$ 64"],
    &["interest cost", "245", "238", "131", "142"],
    &[
        "expected return on plan assets",
        "( 298 )",
        "( 312 )",
        "( 140 )",
        "( 165 )",
    ],
];

#[test]
fn a_follow_up_naming_another_column_keeps_the_row() {
    check(
        DUE_BY_PERIOD,
        "",
        &[
            "what was the total of long-term debt obligations?",
            "how much is due in less than 1 year?",
            "and in 1-3 years?",
        ],
        &[Num("3450"), Num("250"), Num("700")],
    );
    check(
        PLAN_GROUPS,
        "",
        &[
            "what was the service cost for u.s. plans in 2009?",
            "and for non-u.s. plans in 2009?",
        ],
        &[Num("112"), Num("58")],
    );
}

#[test]
fn fiscal_in_a_follow_up_dates_the_year_where_the_columns_print_it() {
    check(
        &[
            &["", "fiscal 2011", "fiscal 2010"],
            &["retail", "2,890", "2,710"],
            &["wholesale", "1,240", "1,180"],
            &["total", "4,130", "3,890"],
        ],
        "capital expenditures were $ 215 million in fiscal 2011 compared to $ 190 million in \
         fiscal 2010 .",
        &[
            "what were capital expenditures in fiscal 2011?",
            "and in fiscal 2010?",
        ],
        &[Num("215"), Num("190")],
    );
}

#[test]
fn a_change_compared_to_a_year_starts_there() {
    check(
        INCOME,
        "",
        &["by how much did net sales increase compared to 2008?"],
        &[Num("445")],
    );
    check(
        INCOME,
        "",
        &[
            "what was net sales in 2009?",
            "what was the change compared with 2008?",
        ],
        &[Num("7655"), Num("445")],
    );
}

/// Senior notes by maturity: the years name rows, the columns are measures.
const NOTES: TableRows = &[
    &["", "principal", "carrying value", "fair value"],
    &["4.00% notes due 2016", "500", "498", "512"],
    &["5.50% notes due 2018", "400", "397", "431"],
    &["3.25% notes due 2020", "600", "596", "590"],
    &["total", "1,500", "1,491", "1,533"],
];

#[test]
fn a_look_up_of_both_years_adds_them_and_an_inclusion_keeps_the_column() {
    check(
        NOTES,
        "",
        &[
            "what was the carrying value of both the notes due in 2016 and those due in 2018?",
            "and including the notes due in 2020?",
        ],
        &[Num("895"), Num("1491")],
    );
}

#[test]
fn a_change_naming_another_row_in_that_same_period_reads_that_row() {
    check(
        INCOME,
        "",
        &[
            "what was the cost of sales in 2009?",
            "and in 2008?",
            "what was the change?",
            "in that same period, what was the change in operating income?",
        ],
        &[Num("4970"), Num("4700"), Num("270"), Num("91")],
    );
}

#[test]
fn a_bare_follow_up_after_a_share_is_the_share_of_the_part_it_names() {
    check(
        NET_REVENUES,
        "",
        &[
            "what were advisory revenues as a percentage of total net revenues in 2010?",
            "and for asset management?",
            // a question of its own after a share is none
            "and what were trading services revenues in 2010?",
        ],
        &[Num("0.145802"), Num("0.141558"), Num("15970")],
    );
}

#[test]
fn a_year_alone_does_not_name_a_number_of_the_text() {
    // the text's number of 2009 shares none of the question's words: its
    // year alone weighs less (fact_words_scarce)
    let conv = conversation(
        &[
            &["", "amount"],
            &["trade names", "3,100"],
            &["developed technology", "8,450"],
        ],
        "royalties received totaled $ 4.2 million during the year ended june 30 , 2009 .",
    );
    let mut session = Session::new(&conv).expect("the page's graph builds");
    let mut planner = RulesPlanner::new().expect("the planner loads its patterns");
    let trace = session.ask(
        &mut planner,
        "in 2009, what were the allocations related to developed technology?",
    );
    let text = trace
        .grounding
        .iter()
        .flat_map(|g| g.candidates.iter())
        .find(|c| c.source.starts_with("text `$ 4.2 million`"))
        .expect("the text's number is a candidate");
    assert!(
        text.features
            .iter()
            .any(|(f, w)| f == "fact_words_scarce" && *w < 0.0),
        "{:?}",
        text.features
    );
    assert!(matches!(trace.answer, Some(Answer::Number(n)) if n == Decimal::from(8450)));
}

#[test]
fn a_bare_total_after_one_rows_three_years_adds_all_three() {
    check(
        NET_REVENUES,
        "",
        &[
            "what were advisory revenues in 2010?",
            "and in 2009?",
            "and in 2008?",
            "what is the total?",
        ],
        &[Num("4810"), Num("4984"), Num("5179"), Num("14973")],
    );
}

#[test]
fn a_follow_up_opening_with_less_or_plus_carries_on_the_arithmetic() {
    check(
        INCOME,
        "",
        &[
            "what was the sum of cost of sales and research and development in 2009?",
            "less the selling, general and administrative expenses?",
            "plus operating income?",
        ],
        &[Num("5126"), Num("3628"), Num("4659")],
    );
    check(
        DUE_BY_PERIOD,
        "",
        &[
            "what was the total of long-term debt?",
            "and less than 1 year?",
        ],
        &[Num("3450"), Num("250")],
    );
}

#[test]
fn a_total_naming_the_row_of_the_last_two_values_adds_them() {
    check(
        NET_REVENUES,
        "operating expenses were $ 1,210 million in 2010 and $ 1,105 million in 2009 .",
        &[
            "what were operating expenses in 2010?",
            "and in 2009?",
            "what were total operating expenses?",
        ],
        &[Num("1210"), Num("1105"), Num("2315")],
    );
    // a row named "total ..." is still that row
    check(
        NET_REVENUES,
        "",
        &[
            "what were advisory revenues in 2010?",
            "and in 2009?",
            "what were the total net revenues in 2009?",
        ],
        &[Num("4810"), Num("4984"), Num("33720")],
    );
}

/// A roll-forward of unrecognized tax benefits with two rows of additions.
const UTB: TableRows = &[
    &["", "2009", "2008"],
    &["balance at january 1", "$ 512", "$ 468"],
    &[
        "additions based on tax positions related to the current year",
        "64",
        "71",
    ],
    &["additions for tax positions of prior years", "38", "22"],
    &[
        "reductions for tax positions of prior years",
        "( 27 )",
        "( 19 )",
    ],
    &["balance at december 31", "$ 537", "$ 542"],
];

#[test]
fn a_total_of_what_several_rows_name_adds_them() {
    check(
        UTB,
        "",
        &[
            "what were total additions in 2009?",
            "what were the total reductions in 2008?",
        ],
        &[Num("102"), Num("19")],
    );
}

#[test]
fn a_total_for_the_two_months_or_both_years_adds_two_values() {
    check(
        &[
            &[
                "",
                "total number of shares purchased",
                "average price paid per share",
            ],
            &["october", "1,250,000", "$ 47.10"],
            &["november", "980,000", "$ 48.35"],
            &["december", "610,000", "$ 46.90"],
        ],
        "",
        &[
            "how many shares were purchased in october?",
            "and in november?",
            "what is the total for the two months?",
        ],
        &[Num("1250000"), Num("980000"), Num("2230000")],
    );
}

#[test]
fn the_sum_of_the_two_changes_adds_the_last_two_results() {
    check(
        NET_REVENUES,
        "",
        &[
            "what was the change in advisory from 2009 to 2010?",
            "what was the change in asset management over that period?",
            "what is the sum of the two changes?",
        ],
        &[Num("-174"), Num("680"), Num("506")],
    );
}

#[test]
fn a_first_row_lost_into_date_headers_is_named_by_words_no_label_prints() {
    // the company's own index values are printed in the date headers
    check(
        &[
            &[
                "",
                "12/31/2010 $ 100.00",
                "12/31/2011 $ 112.40",
                "12/31/2012 $ 131.75",
            ],
            &["s&p 500 index", "100.00", "102.11", "118.45"],
            &["dow jones industrial index", "100.00", "108.38", "119.48"],
        ],
        "the following graph compares the cumulative total return on our common stock with the \
         s&p 500 index and the dow jones industrial index .",
        &[
            "what was the value of our common stock in 2012?",
            "and for the s&p 500 index?",
        ],
        &[Num("131.75"), Num("118.45")],
    );
}

#[test]
fn a_group_of_columns_that_lost_its_name_is_named_by_words_no_label_prints() {
    // two groups of the same years; the table kept the first group's name
    // ("domestic operations") and lost the second's ("foreign operations")
    let groups: TableRows = &[
        &[
            "",
            "domestic operations 2012 ( 1 )",
            "domestic operations 2011 ( 1 )",
            "2012 ( 2 )",
            "2011 ( 2 )",
        ],
        &["regulatory capital", "3,400", "3,100", "1,250", "1,180"],
        &["regulatory earnings", "610", "570", "205", "190"],
    ];
    let text = "the following table presents regulatory capital and regulatory earnings \
        of our domestic operations and our foreign operations ( in millions ) :";
    check(
        groups,
        text,
        &[
            "what were the regulatory earnings of the foreign operations in 2012?",
            "and in 2011?",
            "what was the change?",
        ],
        &[Num("205"), Num("190"), Num("15")],
    );
    check(
        groups,
        text,
        &[
            "what was the regulatory capital of the domestic operations in 2011?",
            "and of the foreign operations?",
            // a mention naming no group reads the group that kept its name
            "what were regulatory earnings in 2012?",
        ],
        &[Num("3100"), Num("1180"), Num("610")],
    );
}

#[test]
fn a_part_named_in_full_beats_the_total_that_prints_the_measure() {
    // rows are segments; only the total row prints the measure's words
    let segments: TableRows = &[
        &["", "2013", "2012"],
        &["aviation", "410", "388"],
        &["marine", "265", "240"],
        &["unallocated corporate costs", "-52", "-47"],
        &["total operating profit", "623", "581"],
    ];
    let text = "the following table shows operating profit by reportable segment ( in millions ) :";
    check(
        segments,
        text,
        &[
            "what was the operating profit of the marine segment in 2013?",
            "and in 2012?",
            "what was the operating profit in 2013?",
            "and the total operating profit in 2012?",
        ],
        &[Num("265"), Num("240"), Num("623"), Num("581")],
    );
}

#[test]
fn how_many_leans_away_from_an_amount_of_money_in_the_text() {
    // the text's sentence names the grants in the question's words, but
    // prints a price: no count
    let options: TableRows = &[
        &[
            "",
            "number of shares ( in thousands )",
            "weighted average exercise price",
        ],
        &["outstanding at january 1 2011", "5,120", "21.30"],
        &["granted", "730", "29.60"],
        &["exercised", "-402", "15.20"],
        &["outstanding at december 31 2011", "5,448", "23.10"],
    ];
    check(
        options,
        "stock option activity under the plans was as follows : \
         the weighted average fair value of stock options granted during 2011 was $ 9.85 per option .",
        &["how many stock options were granted in 2011?"],
        &[Num("730")],
    );
}

#[test]
fn the_total_of_the_changes_adds_the_earlier_changes() {
    check(
        SALES,
        TEXT,
        &[
            "what was the change in net sales from 2008 to 2009?",
            "and the change in operating income over the same period?",
            "what is the total of the changes?",
        ],
        &[Num("300"), Num("60"), Num("360")],
    );
}

#[test]
fn that_sum_plus_a_named_value_adds_it_to_the_last_result() {
    check(
        SALES,
        TEXT,
        &[
            "what was the combined net sales of 2009 and 2008?",
            "and what is that sum plus operating income in 2009?",
            "what is that total less operating income in 2008?",
        ],
        &[Num("2700"), Num("3000"), Num("2760")],
    );
}

#[test]
fn a_text_amount_rounded_in_another_scale_yields_to_the_cell_it_restates() {
    // the rows name segments; the text names the segment's sales and
    // prints the amount in billions
    let sales: TableRows = &[
        &["", "2013", "2012"],
        &["marine", "4,120", "3,760"],
        &["rail", "2,310", "2,480"],
        &["total net sales", "6,430", "6,240"],
    ];
    check(
        sales,
        "the following table shows net sales by segment ( in millions ) : \
         marine sales reached $ 4.1 billion in 2013 on higher volumes .",
        &[
            "what were marine sales in 2013?",
            "and in 2012?",
            "what was the change?",
        ],
        &[Num("4120"), Num("3760"), Num("360")],
    );
    // asked in the text's scale, the text's number
    check(
        sales,
        "the following table shows net sales by segment ( in millions ) : \
         marine sales reached $ 4.1 billion in 2013 on higher volumes .",
        &["what were marine sales in 2013, in billions?"],
        &[Num("4.1")],
    );
}

#[test]
fn a_follow_up_naming_another_row_keeps_the_column_read_before() {
    // rows are months, columns are measures; the follow-up names a month
    let repurchases: TableRows = &[
        &[
            "",
            "total number of shares purchased",
            "average price paid per share",
        ],
        &["april 1 - 30 2015", "215,000", "$ 61.20"],
        &["may 1 - 31 2015", "198,400", "$ 63.75"],
        &["june 1 - 30 2015", "240,100", "$ 60.10"],
        &["total", "653,500", "$ 61.58"],
    ];
    check(
        repurchases,
        "the following table provides information about our share repurchases during the second quarter of 2015 :",
        &[
            "what was the average price paid per share in april 2015?",
            "and in june 2015?",
            "and the total number of shares purchased in may 2015?",
        ],
        &[Num("61.20"), Num("60.10"), Num("198400")],
    );
}

#[test]
fn a_cell_that_meets_none_of_the_words_does_not_win_on_its_year_alone() {
    let sales: TableRows = &[
        &["", "2013", "2012"],
        &["marine", "4,120", "3,760"],
        &["rail", "2,310", "2,480"],
        &["total net sales", "6,430", "6,240"],
    ];
    check(
        sales,
        "net sales for 2013 rose on higher marine volumes . \
         the increase was partly offset by unfavorable currency translation of $ 85 million . \
         the following table shows net sales by segment ( in millions ) :",
        &[
            "what were total net sales in 2013?",
            "what was the unfavorable currency translation impact?",
        ],
        &[Num("6430"), Num("85")],
    );
}

#[test]
fn a_phrase_spelled_out_finds_the_abbreviation_a_label_prints() {
    let expenses: TableRows = &[
        &["( in millions )", "2014", "2013"],
        &["net revenues", "2,480", "2,310"],
        &["sg&a", "612", "588"],
        &["r&d", "301", "276"],
        &["d&a", "95", "90"],
    ];
    check(
        expenses,
        "the following table presents selected operating data :",
        &[
            "what were selling , general and administrative expenses in 2014?",
            "and research and development expense in 2013?",
            "what was depreciation and amortization in 2014?",
        ],
        &[Num("612"), Num("276"), Num("95")],
    );
}

#[test]
fn a_year_a_row_prints_in_its_name_is_not_the_period_asked() {
    let debt: TableRows = &[
        &["( in millions )", "december 31 2016", "december 31 2015"],
        &["4.10 % notes due 2021", "500", "500"],
        &["5.35 % notes due 2026", "750", "--"],
        &["term loan due 2018", "150", "300"],
        &["total debt", "1,400", "800"],
    ];
    check(
        debt,
        "the following table summarizes our long-term debt :",
        &[
            "what was the amount of the notes due 2026 in 2016?",
            "and the term loan due 2018 in 2015?",
            "what were the notes due 2021 at december 31 , 2015?",
        ],
        &[Num("750"), Num("300"), Num("500")],
    );
}

#[test]
fn the_sum_of_those_two_totals_adds_the_last_two_sums() {
    check(
        SALES,
        TEXT,
        &[
            "what were net sales in 2009?",
            "what were the total net sales over 2009 and 2008?",
            "what was the combined operating income over 2009 and 2008?",
            "what is the sum of those two totals?",
        ],
        &[Num("1500"), Num("2700"), Num("540"), Num("3240")],
    );
}

#[test]
fn a_sum_asked_again_for_another_year_reads_the_same_columns_when_rows_are_years() {
    let payments: TableRows = &[
        &["", "u.s. plans", "non-u.s. plans"],
        &["2017", "88", "31"],
        &["2018", "92", "33"],
        &["2019", "97", "36"],
    ];
    check(
        payments,
        "expected benefit payments are as follows ( in millions ) :",
        &[
            "what are the combined expected payments of u.s. plans and non-u.s. plans in 2017?",
            "and in 2019?",
        ],
        &[Num("119"), Num("133")],
    );
}

#[test]
fn a_total_that_names_one_row_stays_in_its_name() {
    let balance: TableRows = &[
        &["( in thousands )", "2009", "2008"],
        &["total liabilities", "546,866", "480,000"],
        &["common stock", "100", "100"],
        &["total stockholders 2019 equity", "971,015", "900,000"],
        &[
            "total liabilities and stockholders 2019 equity",
            "1,517,881",
            "1,400,000",
        ],
    ];
    check(
        balance,
        "consolidated balance sheets :",
        &[
            "what were total liabilities and stockholders' equity in 2009?",
            // the page prints the apostrophe as "2019": no label prints the phrase
            "and total stockholders' equity?",
            "and in 2008?",
            "what were total liabilities in 2008?",
            "what is the total?",
        ],
        &[
            Num("1517881"),
            Num("971015"),
            Num("900000"),
            Num("480000"),
            Num("1380000"),
        ],
    );
}

#[test]
fn words_between_two_amounts_belong_to_the_one_they_follow() {
    let text =
        "in 2009 we acquired brightpath for total consideration of $ 610 million , of which \
         $ 245 million was allocated to goodwill and $ 290 million to intangible assets . \
         as of march 1 , 2010 , we had 48210 outstanding shares of common stock and 612 \
         registered holders .";
    let table: TableRows = &[&["", "2009", "2008"], &["net sales", "1,500", "1,200"]];
    check(
        table,
        text,
        &[
            "how much of the consideration was allocated to goodwill?",
            "and to intangible assets?",
        ],
        &[Num("245"), Num("290")],
    );
    // what a count counts is its own: "registered holders" follows 612
    check(
        table,
        text,
        &["how many outstanding shares of common stock were there in 2010?"],
        &[Num("48210")],
    );
}

#[test]
fn a_catch_all_row_is_named_by_its_stop_word() {
    let revenue: TableRows = &[
        &["( in millions )", "2010", "2009"],
        &["north america", "2,120.4", "1,987.0"],
        &["europe", "886.2", "871.5"],
        &["asia pacific", "512.4", "466.9"],
        &["other regions", "16.1", "14.3"],
        &["total revenues", "3,535.1", "3,339.7"],
    ];
    check(
        revenue,
        "revenues by geographic region were as follows :",
        &[
            "what were revenues from other regions in 2010?",
            "and from asia pacific?",
            "what is the sum?",
        ],
        &[Num("16.1"), Num("512.4"), Num("528.5")],
    );
    let debt: TableRows = &[
        &["( in millions )", "2010", "2009"],
        &["senior notes", "1,000", "1,000"],
        &["other", "6.3", "7.9"],
        &["total debt", "1,006.3", "1,007.9"],
    ];
    check(
        debt,
        "long-term debt consisted of the following :",
        &["what was the other debt in 2010?", "and in 2009?"],
        &[Num("6.3"), Num("7.9")],
    );
}

#[test]
fn a_row_that_is_a_part_of_what_the_question_names_is_not_it() {
    let balance: TableRows = &[
        &["( in thousands )", "december 31 2009", "december 31 2008"],
        &["accounts payable", "41,210", "38,004"],
        &["current portion of long-term debt", "15,000", "12,500"],
        &[
            "long-term debt net of current portion",
            "285,000",
            "330,000",
        ],
        &["total liabilities", "341,210", "380,504"],
    ];
    check(
        balance,
        "consolidated balance sheets :",
        &[
            "what was the long-term debt in 2009?",
            "and in 2008?",
            "what was the change?",
        ],
        &[Num("285000"), Num("330000"), Num("-45000")],
    );
}

#[test]
fn a_month_that_only_dates_the_columns_names_no_row_on_a_follow_up() {
    let accrued: TableRows = &[
        &["( in thousands )", "december 31 2020", "december 31 2019"],
        &["accrued compensation and benefits", "48,215", "44,120"],
        &["customer deposits", "15,880", "12,305"],
        &["accrued warranty", "22,630", "21,002"],
    ];
    check(
        accrued,
        "accrued liabilities consisted of the following :",
        &[
            "what was the total of accrued compensation and benefits and customer deposits at december 31 2020?",
            "and at december 31 2019?",
        ],
        &[Num("64095"), Num("56425")],
    );
}

#[test]
fn the_same_two_years_are_the_years_the_last_turn_spanned() {
    let income: TableRows = &[
        &["( in millions )", "2017", "2016"],
        &["united states", "1,842", "1,715"],
        &["foreign", "1,126", "1,002"],
        &["total income before income taxes", "2,968", "2,717"],
    ];
    check(
        income,
        "the components of income before income taxes were as follows :",
        &[
            "what was the total income before income taxes in 2017 and 2016 combined?",
            "what was the united states income over the same two years?",
        ],
        &[Num("5685"), Num("3557")],
    );
}

#[test]
fn a_follow_up_that_swaps_a_word_of_the_last_row_names_its_sibling() {
    let shares: TableRows = &[
        &["( in millions , except per share data )", "2010", "2009"],
        &["net income", "417.3", "276.4"],
        &["net income per share - basic", "2.86", "1.91"],
        &["net income per share - diluted", "2.81", "1.89"],
        &[
            "weighted average common shares outstanding - basic",
            "145.9",
            "144.7",
        ],
        &[
            "weighted average common shares outstanding - diluted",
            "148.5",
            "146.2",
        ],
    ];
    check(
        shares,
        "consolidated statements of operations :",
        &[
            "what was the weighted average number of diluted shares in 2010?",
            "and the basic shares?",
            "what is the difference?",
        ],
        &[Num("148.5"), Num("145.9"), Num("2.6")],
    );
    let pension: TableRows = &[
        &["( in millions )", "2010", "2009"],
        &["service cost", "45.2", "41.8"],
        &["interest cost", "66.1", "63.0"],
        &["postretirement service cost", "2.0", "1.8"],
        &["postretirement interest cost", "6.9", "6.5"],
    ];
    check(
        pension,
        "the components of net periodic benefit cost were :",
        &[
            "what was the postretirement service cost in 2010?",
            "and the interest cost?",
        ],
        &[Num("2.0"), Num("6.9")],
    );
}

#[test]
fn a_rate_per_unit_is_not_the_amount_it_divides() {
    let stores: TableRows = &[
        &["", "fiscal 2012", "fiscal 2011"],
        &["stores at end of year", "1,148", "1,102"],
        &["net sales per square foot", "$ 261", "$ 254"],
        &["average store size ( square feet )", "32,900", "32,600"],
    ];
    check(
        stores,
        "net sales were $ 9,874 million in fiscal 2012 , compared to $ 9,310 million in fiscal 2011 . \
         selected store data :",
        &[
            "what were net sales in fiscal 2012?",
            "and what were net sales per square foot?",
            "and in fiscal 2011?",
        ],
        &[Num("9874"), Num("261"), Num("254")],
    );
}

#[test]
fn an_average_over_those_years_or_per_year_divides_by_the_years() {
    check(
        SALES,
        "",
        &[
            "what were net sales in 2009?",
            "and in 2008?",
            "what was the average over those two years?",
        ],
        &[Num("1500"), Num("1200"), Num("1350")],
    );
    check(
        SALES,
        "",
        &[
            "what was operating income in 2009?",
            "what was the total operating income over the three years?",
            "what is the average per year?",
        ],
        &[Num("300"), Num("690"), Num("230")],
    );
}

#[test]
fn a_header_number_the_text_dates_dates_its_column_and_opens_the_roll_forward() {
    let reserves: TableRows = &[
        &["", "$ 8,412", "$ 8,105"],
        &["incurred losses related to current year", "4,385", "4,120"],
        &[
            "paid losses related to prior years",
            "( 2,104 )",
            "( 1,968 )",
        ],
        &["balance at end of year", "$ 8,811", "$ 8,412"],
    ];
    check(
        reserves,
        "the following table provides a reconciliation of the liability for unpaid losses ( in millions ) . \
         the balance at the beginning of the year was $ 8,412 million for 2012 and $ 8,105 million for 2011 .",
        &[
            "what were incurred losses related to the current year in 2012?",
            "and in 2011?",
            "what was the balance at the end of 2012?",
            "and the balance at the beginning of 2011?",
        ],
        &[Num("4385"), Num("4120"), Num("8811"), Num("8105")],
    );
}

#[test]
fn the_net_change_in_a_net_amount_keeps_the_rows_net() {
    let bank: TableRows = &[
        &["( in thousands )", "2013", "2012"],
        &["interest income", "$ 412,356", "$ 425,118"],
        &["interest expense", "58,914", "76,402"],
        &["net interest income", "353,442", "348,716"],
        &["provision for loan losses", "21,500", "38,750"],
    ];
    check(
        bank,
        "selected income statement data :",
        &["what was the net change in net interest income from 2012 to 2013?"],
        &[Num("4726")],
    );
}

#[test]
fn stores_opened_and_closed_are_flows_not_boundaries() {
    let stores: TableRows = &[
        &["", "fiscal 2012", "fiscal 2011"],
        &["stores at beginning of year", "1,148", "1,102"],
        &["stores opened", "61", "58"],
        &["stores closed", "( 9 )", "( 12 )"],
        &["stores at end of year", "1,200", "1,148"],
    ];
    check(
        stores,
        "store activity :",
        &[
            "how many new stores were opened in 2011?",
            "and how many were closed?",
            "how many stores were there at the end of 2012?",
        ],
        &[Num("58"), Num("12"), Num("1200")],
    );
}

#[test]
fn a_bare_portion_puts_the_part_named_or_not_a_total_over_the_total() {
    let revenue: TableRows = &[
        &["( in millions )", "2012", "2011"],
        &["residential", "2,841", "2,702"],
        &["industrial", "986", "941"],
        &["total operating revenues", "6,356", "6,080"],
    ];
    check(
        revenue,
        "operating revenues by customer class :",
        &[
            "what was total operating revenue in 2012?",
            "and revenue from industrial customers?",
            "what portion does industrial represent?",
        ],
        &[Num("6356"), Num("986"), Num("0.155129")],
    );
    check(
        revenue,
        "operating revenues by customer class :",
        &[
            "what were total operating revenues in 2011?",
            "how much of that was residential?",
            "what percentage is that?",
        ],
        &[Num("6080"), Num("2702"), Num("0.444408")],
    );
}

#[test]
fn the_level_a_stated_change_ends_at_is_the_level_of_what_changed() {
    let subscribers: TableRows = &[
        &["( in thousands )", "2013", "2012"],
        &["postpaid", "58,412", "57,150"],
        &["prepaid", "7,230", "6,940"],
    ];
    check(
        subscribers,
        "wireless service revenues increased $ 1.4 billion , or 4.1 % , to $ 35.6 billion in 2013 , driven by postpaid growth .",
        &["what were wireless service revenues in 2013, in billions?"],
        &[Num("35.6")],
    );
}

#[test]
fn the_caption_names_every_closing_row_of_a_roll_forward_and_their_own_words_decide() {
    let reserves: TableRows = &[
        &["( in millions )", "2012", "2011"],
        &["balance at january 1", "$ 14,602", "$ 14,120"],
        &["less : reinsurance recoverables", "2,727", "2,610"],
        &["net balance at january 1", "11,875", "11,510"],
        &["total incurred", "6,369", "6,105"],
        &["total paid", "( 6,110 )", "( 5,740 )"],
        &["net balance at december 31", "12,134", "11,875"],
        &["plus : reinsurance recoverables", "3,047", "2,727"],
        &["balance at december 31", "$ 15,181", "$ 14,602"],
    ];
    check(
        reserves,
        "the following table presents a reconciliation of beginning and ending reserve balances for losses and loss adjustment expenses :",
        &["what were net loss reserves at the end of 2012?"],
        &[Num("12134")],
    );
}

#[test]
fn a_table_that_lost_its_first_row_takes_its_column_years_from_its_caption() {
    let reserves: TableRows = &[
        &["balance at january 1", "$ 8,412", "$ 7,905"],
        &[
            "additions for tax positions of the current year",
            "1,384",
            "1,216",
        ],
        &["settlements", "( 218 )", "( 533 )"],
        &["balance at december 31", "$ 9,059", "$ 8,412"],
    ];
    check(
        reserves,
        "a reconciliation of the beginning and ending amount of unrecognized tax benefits for 2012 and 2011 , respectively , is as follows :",
        &[
            "what were additions for current year tax positions in 2012?",
            "and in 2011?",
        ],
        &[Num("1384"), Num("1216")],
    );
}

#[test]
fn a_follow_up_naming_another_row_keeps_the_column_of_a_year_several_columns_share() {
    let prices: TableRows = &[
        &[
            "quarter",
            "fiscal 2012 high",
            "fiscal 2012 low",
            "fiscal 2011 high",
            "fiscal 2011 low",
        ],
        &["first quarter", "$ 24.18", "$ 19.52", "$ 21.40", "$ 17.66"],
        &["second quarter", "$ 26.75", "$ 22.31", "$ 23.95", "$ 20.14"],
    ];
    check(
        prices,
        "the high and low sales prices of our common stock by quarter :",
        &[
            "what was the low in the first quarter of fiscal 2012?",
            "and in the second quarter?",
        ],
        &[Num("19.52"), Num("22.31")],
    );
}

#[test]
fn an_abbreviation_stands_for_the_phrase_its_letters_spell_with_and_for_its_ampersand() {
    let sales: TableRows = &[
        &["( in millions )", "2012", "2011"],
        &["cardiac devices", "$ 2,035", "$ 2,091"],
        &["vascular devices", "1,520", "1,538"],
    ];
    check(
        sales,
        "changes in foreign currency exchange rates decreased our net sales by $ 118 million in 2012 . research and development expense was $ 886 million in 2012 and $ 895 million in 2011 .",
        &["what was r&d expense in 2012?"],
        &[Num("886")],
    );
}

#[test]
fn an_initialism_the_question_uses_stands_for_the_term_of_the_page_its_letters_spell() {
    let flows: TableRows = &[
        &["( in billions )", "2013", "2012"],
        &[
            "assets under management , beginning of year",
            "$ 674.0",
            "$ 589.6",
        ],
        &["long-term inflows", "148.7", "132.1"],
        &["long-term outflows", "( 121.3 )", "( 118.9 )"],
        &[
            "assets under management , end of year",
            "$ 778.6",
            "$ 674.0",
        ],
    ];
    check(
        flows,
        "the following table presents the changes in our assets under management :",
        &["what was aum at the end of 2013?"],
        &[Num("778.6")],
    );
}

#[test]
fn a_range_of_years_a_row_label_prints_names_that_row_not_the_period() {
    let expiring: TableRows = &[
        &["years of expiration", "federal", "state"],
        &["2006 to 2010", "5,248", "469,747"],
        &["2016 to 2020", "397,691", "777,707"],
        &["2021 to 2025", "1,744,564", "1,170,558"],
        &["total", "2,147,503", "2,418,012"],
    ];
    check(
        expiring,
        "at december 31 , 2005 , the company had net operating loss carryforwards expiring as follows :",
        &[
            "in 2005, what were the federal attributes lapsing from 2016 to 2020 relative to the total federal attributes?",
        ],
        &[Num("0.185187")],
    );
    let payments: TableRows = &[
        &["( in millions )", "pension benefits", "other benefits"],
        &["2013", "286", "41"],
        &["2014", "294", "43"],
        &["2018 - 2022", "1,712", "251"],
    ];
    check(
        payments,
        "expected benefit payments :",
        &["what are the expected other benefit payments for 2018 through 2022?"],
        &[Num("251")],
    );
}

#[test]
fn a_portion_after_a_sum_of_earlier_values_is_the_one_it_names_over_the_sum() {
    let fleet: TableRows = &[
        &["aircraft", "owned", "leased"],
        &["narrow-body jets", "88", "57"],
        &["regional jets", "20", "18"],
    ];
    check(
        fleet,
        "our operating fleet at year end :",
        &[
            "how many narrow-body jets were leased?",
            "and how many were owned?",
            "what is the total of these?",
            "what portion were leased?",
        ],
        &[Num("57"), Num("88"), Num("145"), Num("0.393103")],
    );
}

#[test]
fn a_continuation_that_names_another_column_keeps_the_row_whatever_words_no_label_prints() {
    let levels: TableRows = &[
        &["( in millions )", "level 1", "level 2", "level 3", "total"],
        &["corporate bonds", "-", "$ 8,415", "$ 389", "$ 8,804"],
        &["equity securities", "$ 612", "$ 47", "$ 23", "$ 682"],
        &[
            "total investments",
            "$ 2,454",
            "$ 12,980",
            "$ 628",
            "$ 16,062",
        ],
    ];
    check(
        levels,
        "investments measured at fair value by level . significant unobservable inputs are used for level 3 .",
        &[
            "what was the value of equity securities measured using level 1 inputs?",
            "and using level 2 inputs?",
        ],
        &[Num("612"), Num("47")],
    );
}

#[test]
fn generic_words_in_a_phrase_a_label_prints_name_that_label() {
    let repurchases: TableRows = &[
        &[
            "period",
            "total number of shares purchased",
            "average price paid per share",
        ],
        &["october 1 - october 31 , 2013", "412,300", "$ 57.02"],
        &["november 1 - november 30 , 2013", "986,150", "$ 59.18"],
    ];
    check(
        repurchases,
        "issuer purchases of equity securities :",
        &[
            "how many shares were repurchased in november?",
            "and at what average price?",
        ],
        &[Num("986150"), Num("59.18")],
    );
}

#[test]
fn a_side_of_a_share_that_an_earlier_question_names_is_that_result() {
    let pension: TableRows = &[
        &["", "2014", "2013"],
        &["service cost", "$ 46", "$ 52"],
        &["interest cost", "118", "109"],
        &["expected return on plan assets", "( 131 )", "( 125 )"],
        &["total pension cost before settlement", "$ 33", "$ 36"],
        &["settlement charge", "21", "-"],
        &["total net periodic pension cost", "$ 54", "$ 36"],
        &[
            "total recognized in other comprehensive income",
            "$ 88",
            "$ ( 40 )",
        ],
    ];
    check(
        pension,
        "the components of net periodic pension cost were as follows :",
        &[
            "what was the settlement charge in 2014?",
            "and total net periodic pension cost that year?",
            "what portion of the total was the settlement charge?",
        ],
        &[Num("21"), Num("54"), Num("0.388889")],
    );
}

#[test]
fn a_bare_part_of_a_whole_asked_last_is_the_value_asked_before_it() {
    let reserve: TableRows = &[
        &["", "2014", "2013"],
        &["reserve at beginning of year", "$ 6,250", "$ 5,980"],
        &["provision for claims", "1,410", "1,365"],
        &["claims paid", "( 1,190 )", "( 1,095 )"],
        &["reserve at end of year", "$ 6,470", "$ 6,250"],
    ];
    check(
        reserve,
        "changes in the claims reserve were as follows :",
        &[
            "what were claims paid in 2014?",
            "and the reserve at the beginning of 2014?",
            "what portion of the beginning reserve does that represent?",
        ],
        &[Num("1190"), Num("6250"), Num("0.1904")],
    );
}

#[test]
fn a_shares_part_is_found_by_the_words_that_tell_it_from_the_whole() {
    let segments: TableRows = &[
        &["", "2013", "2012"],
        &["marine systems", "$ 410", "$ 388"],
        &["rail services", "295", "301"],
        &["total segment profit", "$ 705", "$ 689"],
    ];
    check(
        segments,
        "segment profit excludes corporate costs , which were $ 64 million and $ 58 million \
         in 2013 and 2012 , respectively .",
        &["in 2013 , what portion of total segment profit came from the marine segment?"],
        &[Num("0.58156")],
    );
}

#[test]
fn a_whole_that_names_the_parts_row_is_that_rows_total_whatever_other_totals_share() {
    let obligations: TableRows = &[
        &["", "total", "less than 1 year", "1-3 years", "3-5 years"],
        &[
            "long-term debt obligations",
            "$ 1,800",
            "$ 200",
            "$ 400",
            "$ 600",
        ],
        &["operating lease obligations", "240", "60", "90", "50"],
        &["purchase obligations", "75", "40", "25", "10"],
        &[
            "total contractual obligations",
            "$ 2,115",
            "$ 300",
            "$ 515",
            "$ 660",
        ],
    ];
    check(
        obligations,
        "our contractual obligations at december 31 , 2013 were as follows ( in millions ) :",
        &["what portion of long-term debt obligations is due in 3-5 years?"],
        &[Num("0.3333333333")],
    );
}

#[test]
fn a_shares_part_tells_itself_from_the_whole_in_the_form_the_question_writes() {
    let options: TableRows = &[
        &["", "number of options", "weighted average exercise price"],
        &["outstanding at december 31 , 2013", "9,200", "$ 31.40"],
        &["exercisable at december 31 , 2013", "6,100", "$ 27.15"],
    ];
    check(
        options,
        "stock option activity for 2013 was as follows :",
        &["what percentage of options outstanding at december 31 , 2013 were exercisable?"],
        &[Num("0.6630434783")],
    );
}

#[test]
fn a_share_whose_part_follows_related_to_divides_the_part_by_the_whole() {
    let backlog: TableRows = &[
        &["", "december 31 , 2013", "december 31 , 2012"],
        &["aircraft components", "$ 2,140", "$ 1,980"],
        &["marine systems", "1,260", "1,305"],
        &["total backlog", "$ 3,400", "$ 3,285"],
    ];
    check(
        backlog,
        "backlog by segment was as follows ( in millions ) :",
        &["at december 31 , 2013 , what portion of total backlog related to marine systems?"],
        &[Num("0.3705882353")],
    );
}

#[test]
fn the_two_levels_of_a_change_are_of_one_measure_not_a_rate_and_an_amount() {
    let segments: TableRows = &[
        &["", "2013", "2012"],
        &["marine systems", "$ 410", "$ 388"],
        &["rail services", "295", "301"],
    ];
    check(
        segments,
        "marine systems operating income increased 5.7 % in 2013 , driven by higher deliveries . \
         operating income by segment was as follows :",
        &["what was the percentage change in marine systems operating income between 2012 and 2013?"],
        &[Num("0.0567010309")],
    );
}

#[test]
fn a_term_the_page_never_prints_reads_as_the_synonym_it_prints() {
    let selected: TableRows = &[
        &["", "2013", "2012"],
        &["net sales", "$ 5,120", "$ 4,870"],
        &["net income", "402", "377"],
        &["capital expenditures", "210", "188"],
        &["number of employees", "18,300", "17,650"],
    ];
    check(
        selected,
        "selected financial data ( in millions , except employees ) :",
        &[
            "what was the headcount in 2013?",
            "what was the revenue in 2012?",
            "what was the capex in 2013?",
        ],
        &[Num("18300"), Num("4870"), Num("210")],
    );
}

/// Terms of one measure a finance reader knows as the same ("interest
/// costs" and "interest expense"), and of a market ("domestically" and
/// "u.s.", "overseas" and "international").
#[test]
fn terms_of_a_measure_and_of_a_market_read_as_the_terms_the_page_prints() {
    let income: TableRows = &[
        &["( in millions )", "2011", "2010"],
        &["interest income", "4,210", "3,980"],
        &["interest expense", "1,530", "1,610"],
        &["net interest income", "2,680", "2,370"],
    ];
    check(
        income,
        "net interest income rose in 2011 as deposit rates fell .",
        &["what were total interest costs in 2010?"],
        &[Num("1610")],
    );
    let sales: TableRows = &[
        &["product", "u.s.", "international", "total"],
        &["alphazine", "1,204", "2,310", "3,514"],
        &["betamol", "842", "1,566", "2,408"],
    ];
    check(
        sales,
        "sales of our major products ( in millions ) were :",
        &[
            "how much did betamol generate domestically?",
            "and overseas?",
        ],
        &[Num("842"), Num("1566")],
    );
}

/// An initialism spelled out as a term per unit ("casm" for "cost per
/// available seat mile") asks for the rate per unit, not the count it is
/// per.
#[test]
fn an_initialism_of_a_term_per_unit_asks_for_the_rate() {
    let airline: TableRows = &[
        &["", "2011", "2010", "2009"],
        &[
            "available seat miles ( millions )",
            "234,656",
            "232,684",
            "230,331",
        ],
        &["passenger mile yield ( cents )", "14.12", "12.60", "11.85"],
        &[
            "operating cost per available seat mile ( cents )",
            "13.35",
            "12.28",
            "11.58",
        ],
    ];
    check(
        airline,
        "operating cost per available seat mile rose in 2011 on higher fuel prices . \
         the table below sets forth selected operating data :",
        &["what was casm in 2009 , in cents?"],
        &[Num("11.58")],
    );
}

#[test]
fn an_initialism_stands_for_a_whole_label_printed_once() {
    let regions: TableRows = &[
        &["", "fiscal 2013", "fiscal 2012"],
        &["north america", "$ 1,410", "$ 1,322"],
        &["europe , middle east and africa", "655", "640"],
        &["asia pacific", "318", "290"],
        &["total revenue", "$ 2,383", "$ 2,252"],
    ];
    check(
        regions,
        "revenue by geographic region was as follows ( in thousands ) :",
        &["what was the revenue from emea in fiscal 2013?"],
        &[Num("655")],
    );
}

#[test]
fn a_balance_column_says_beginning_or_end_where_the_rows_are_years_ended() {
    let allowance: TableRows = &[
        &[
            "",
            "balance at beginning of year",
            "charged to expense",
            "write-offs",
            "balance at end of year",
        ],
        &[
            "year ended december 31 , 2013",
            "$ 9,400",
            "3,150",
            "( 2,870 )",
            "$ 9,680",
        ],
        &[
            "year ended december 31 , 2012",
            "$ 8,950",
            "2,990",
            "( 2,540 )",
            "$ 9,400",
        ],
    ];
    check(
        allowance,
        "the allowance for doubtful accounts changed as follows ( in thousands ) :",
        &["what was the balance at beginning of year for 2012?"],
        &[Num("8950")],
    );
}

#[test]
fn a_schedules_total_row_names_what_each_of_its_year_rows_measures() {
    let leases: TableRows = &[
        &["", "operating leases"],
        &["2015", "$ 83,382"],
        &["2016", "76,715"],
        &["2017", "68,240"],
        &["2018", "59,118"],
        &["thereafter", "162,440"],
        &["total minimum lease payments", "$ 449,895"],
    ];
    check(
        leases,
        "future minimum lease payments at december 31 , 2014 were as follows :",
        &[
            "what are the minimum lease payments due in 2017?",
            "and in 2018?",
            "what is the sum?",
        ],
        &[Num("68240"), Num("59118"), Num("127358")],
    );
}

#[test]
fn a_schedules_first_year_lost_into_the_header_takes_the_total_rows_words_too() {
    let leases: TableRows = &[
        &["", "$ 83,382"],
        &["2016", "76,715"],
        &["2017", "68,240"],
        &["2018", "59,118"],
        &["thereafter", "162,440"],
        &["total minimum lease payments", "$ 449,895"],
    ];
    check(
        leases,
        "future minimum lease payments at december 31 , 2014 were as follows :",
        &[
            "what were minimum lease payments due in 2015?",
            "what portion of total minimum lease payments is that?",
        ],
        &[Num("83382"), Num("0.185336")],
    );
}

#[test]
fn a_schedule_without_a_total_is_named_by_its_caption_and_its_lost_first_year_too() {
    // the header row is the first year's amounts (2016): no label prints
    // what the rows measure, only the caption does
    let obligations: TableRows = &[
        &["", "$ 412", "$ 57"],
        &["2017", "398", "55"],
        &["2018", "377", "52"],
        &["2019", "365", "50"],
    ];
    let text = "in 2016 , we expect to contribute $ 120 million to the plans . \
        total retiree payments in 2016 are expected to be about $ 470 million . \
        the following retiree payments are expected to be paid ( excluding \
        settlement charges ) :";
    check(
        obligations,
        text,
        &[
            "what are the expected retiree payments in 2016?",
            "and in 2018?",
            "what is the sum?",
        ],
        &[Num("412"), Num("377"), Num("789")],
    );
}

#[test]
fn a_range_of_years_in_a_schedule_is_one_of_its_year_rows() {
    let payments: TableRows = &[
        &["", "$ 412", "$ 57"],
        &["2017", "398", "55"],
        &["2018", "377", "52"],
        &["2019-2023", "1,840", "241"],
    ];
    let text = "total retiree payments in 2016 were about $ 470 million . \
        the following retiree payments are expected to be paid :";
    check(
        payments,
        text,
        &["what are the expected retiree payments for 2019-2023?"],
        &[Num("1840")],
    );
}

#[test]
fn what_a_schedules_caption_excludes_does_not_name_its_rows() {
    let maturities: TableRows = &[
        &["", "amount ( in thousands )"],
        &["2014", "385,373"],
        &["2015", "1,110,566"],
        &["2016", "270,852"],
    ];
    let text = "the fair value excludes lease obligations of $ 149 million at the utility . \
        the annual long-term debt maturities ( excluding lease obligations ) for the \
        next three years are as follows :";
    check(
        maturities,
        text,
        &[
            "what are the annual long-term debt maturities in 2014?",
            "what are lease obligations at the utility?",
        ],
        &[Num("385373"), Num("149")],
    );
}

#[test]
fn a_second_respectively_list_takes_the_years_of_the_list_before_it() {
    check(
        &[
            &["", "2014", "2013"],
            &["stores open at year end", "310", "296"],
        ],
        "occupancy costs were $ 255 million , $ 241 million and $ 228 million in 2014 , \
         2013 and 2012 , respectively , including common area charges of $ 18 million , \
         $ 16 million and $ 15 million , respectively .",
        &[
            "how much in common area charges was included in 2013 occupancy costs?",
            "what were occupancy costs in 2014?",
            "and in 2012?",
        ],
        &[Num("16"), Num("255"), Num("228")],
    );
}

#[test]
fn a_value_asked_as_a_part_of_the_one_before_is_the_part_of_a_bare_percentage() {
    let obligations: TableRows = &[
        &["", "total", "2013", "2014-2015", "thereafter"],
        &["long-term debt", "$ 3,412", "$ 250", "$ 900", "$ 2,262"],
        &["operating leases", "582", "118", "201", "263"],
        &["purchase obligations", "1,970", "1,045", "610", "315"],
        &[
            "total contractual obligations",
            "$ 5,964",
            "$ 1,413",
            "$ 1,711",
            "$ 2,840",
        ],
    ];
    check(
        obligations,
        "our contractual obligations at december 31 , 2012 were as follows :",
        &[
            "what are the total contractual obligations?",
            "and how much of that is operating leases?",
            "what percentage is that?",
        ],
        &[Num("5964"), Num("582"), Num("0.0975855")],
    );
}

#[test]
fn the_sum_of_the_two_changes_adds_the_last_two_changes_however_far_apart() {
    check(
        SALES,
        "",
        &[
            "what were net sales in 2009?",
            "and in 2008?",
            "what was the change?",
            "what was operating income in 2009?",
            "and in 2008?",
            "what was the change in operating income?",
            "what is the sum of the two changes?",
        ],
        &[
            Num("1500"),
            Num("1200"),
            Num("300"),
            Num("300"),
            Num("240"),
            Num("60"),
            Num("360"),
        ],
    );
}

#[test]
fn the_whole_of_a_part_added_over_two_years_is_of_no_one_year() {
    let leases: TableRows = &[
        &["", "operating leases", "capital leases"],
        &["2015", "$ 83,382", "$ 1,210"],
        &["2016", "76,715", "1,150"],
        &["2017", "68,240", "980"],
        &["thereafter", "162,440", "2,400"],
        &["total minimum lease payments", "$ 390,777", "$ 5,740"],
    ];
    check(
        leases,
        "future minimum lease payments at december 31 , 2014 were as follows :",
        &[
            "what are the minimum operating lease payments due in 2015?",
            "and in 2016?",
            "what is the total of those two years?",
            "what portion of total minimum operating lease payments is due in those two years?",
        ],
        &[Num("83382"), Num("76715"), Num("160097"), Num("0.4096889")],
    );
}

#[test]
fn a_text_number_that_prints_a_lost_row_number_names_that_row() {
    // the table lost its first row ("net sales") into its headers; the
    // text restates that row's 2012 amount in billions, beside its name,
    // which the row labels also print in part ("cost of sales", "net income")
    let income: TableRows = &[
        &["", "$ 1,150,786", "$ 1,046,322"],
        &["cost of sales", "742,118", "681,509"],
        &["gross profit", "408,668", "364,813"],
        &["net income", "$ 61,736", "$ 47,138"],
    ];
    check(
        income,
        "net sales increased 10.0 % to $ 1.15 billion in 2012 compared to $ 1.05 billion in 2011 . \
         the following table sets forth selected data for the years ended december 31 , 2012 and 2011 ( in thousands ) :",
        &[
            "what were net sales in 2012?",
            "and the cost of sales in that year?",
            "what portion of net sales is that?",
        ],
        &[Num("1150786"), Num("742118"), Num("0.644879")],
    );
}

#[test]
fn a_row_label_glued_to_the_first_header_names_the_lost_row() {
    // the first row ("balance at january 1", 175.3, 157.8) was lost into
    // the headers, its label glued to the first one: it names the lost
    // row, not the first column
    let reserves: TableRows = &[
        &["", "balance at january 1 $ 175.3", "$ 157.8"],
        &[
            "additions for tax positions of the current year",
            "28.9",
            "24.7",
        ],
        &["additions for tax positions of prior years", "11.2", "6.1"],
        &["settlements", "( 15.6 )", "( 2.8 )"],
        &["balance at december 31", "$ 187.3", "$ 175.3"],
    ];
    check(
        reserves,
        "a reconciliation of the beginning and ending amount of unrecognized tax benefits for 2012 and 2011 is as follows ( in millions ) :",
        &[
            "what was the balance of unrecognized tax benefits at the beginning of 2012?",
            "and at the end of 2012?",
            "what were additions for tax positions of prior years in 2011?",
        ],
        &[Num("175.3"), Num("187.3"), Num("6.1")],
    );
}

#[test]
fn headers_that_print_the_same_words_in_turn_take_a_caption_year_a_group() {
    // the first quarter's row was lost into headers that name the high and
    // low columns of two years, which only the caption prints
    let prices: TableRows = &[
        &[
            "",
            "high $ 32.15",
            "low $ 27.40",
            "high $ 29.88",
            "low $ 24.06",
        ],
        &["second quarter", "$ 34.72", "$ 30.11", "$ 31.45", "$ 26.90"],
        &["third quarter", "$ 33.08", "$ 28.64", "$ 28.12", "$ 22.57"],
        &["fourth quarter", "$ 36.90", "$ 31.25", "$ 30.77", "$ 25.83"],
    ];
    check(
        prices,
        "the quarterly high and low sales prices of the company's common stock for 2012 and 2011 were as follows :",
        &[
            "what was the high price in the third quarter of 2011?",
            "and the low?",
            "what was the low price in the fourth quarter of 2012?",
            "and in the first quarter of 2012?",
        ],
        &[Num("28.12"), Num("22.57"), Num("31.25"), Num("27.40")],
    );
}

#[test]
fn volatility_asks_for_a_percentage() {
    // the table lost its first row (expected volatility) into its headers;
    // volatility is a rate, so its percentages fit the question
    let assumptions: TableRows = &[
        &["", "28.4 %", "31.7 %"],
        &["risk-free interest rate", "0.9 %", "1.8 %"],
        &["expected dividend yield", "1.6 %", "1.4 %"],
        &["expected term ( in years )", "5.1", "5.3"],
    ];
    check(
        assumptions,
        "expected volatility is based on the historical volatility of our common stock . \
         the following weighted average assumptions were used for options granted in 2012 and 2011 :",
        &["what was the expected volatility in 2011?"],
        &[Num("31.7")],
    );
}

#[test]
fn a_word_that_holds_a_rate_cue_asks_for_no_rate() {
    // "corporate" holds "rate" but asks for no percentage
    let costs: TableRows = &[
        &["", "2011", "2010"],
        &["corporate costs", "8.2 %", "7.9 %"],
        &["corporate costs ( in millions )", "$ 120", "$ 110"],
    ];
    check(
        costs,
        "corporate costs include executive compensation and shared services .",
        &["what were corporate costs in 2011?"],
        &[Num("120")],
    );
}

#[test]
fn a_ratio_to_those_of_another_column_borrows_the_first_terms_noun() {
    let obligations: TableRows = &[
        &["", "total", "less than 1 year", "1-3 years", "3-5 years"],
        &[
            "long-term debt obligations",
            "$ 1,200.0",
            "$ 100.0",
            "$ 600.0",
            "$ 500.0",
        ],
        &["purchase obligations", "529.7", "402.1", "109.4", "18.2"],
        &[
            "total contractual obligations",
            "$ 1,729.7",
            "$ 502.1",
            "$ 709.4",
            "$ 518.2",
        ],
    ];
    check(
        obligations,
        "the following table summarizes our contractual obligations ( in millions ) :",
        &["what is the ratio of purchase obligations due in less than 1 year to those due in 1-3 years?"],
        &[Num("3.675503")],
    );
}

#[test]
fn a_change_in_one_year_of_a_row_that_names_a_change_is_that_row() {
    let cash: TableRows = &[
        &["", "2012", "2011", "2010"],
        &[
            "net cash provided by operating activities",
            "$ 2,210",
            "$ 2,107",
            "$ 1,856",
        ],
        &[
            "net cash used in investing activities",
            "( 1,480 )",
            "( 1,390 )",
            "( 1,120 )",
        ],
        &[
            "net increase ( decrease ) in cash and cash equivalents",
            "$ 84",
            "$ ( 37 )",
            "$ 156",
        ],
    ];
    check(
        cash,
        "the following table summarizes our cash flows ( in millions ) :",
        &["what was the net change in cash and cash equivalents in 2011?"],
        &[Num("-37")],
    );
}

#[test]
fn a_table_without_years_takes_the_one_year_its_caption_names() {
    // the question's year is the caption's, not the text's "$ 26.3 billion
    // in 2012" (whose words the question barely shares)
    let sales: TableRows = &[
        &["", "u.s.", "international", "total"],
        &["cardiolex", "$ 3,412", "$ 2,890", "$ 6,302"],
        &["oncovir", "2,210", "2,675", "4,885"],
        &[
            "total pharmaceutical sales",
            "$ 5,622",
            "$ 5,565",
            "$ 11,187",
        ],
    ];
    check(
        sales,
        "worldwide sales of pharmaceutical products were $ 26.3 billion in 2012 , \
         an increase of 3 % compared with 2011 . \
         the following table presents sales of major products by geographic area \
         for the year ended december 31 , 2012 ( $ in millions ) :",
        &["what were u.s. sales of oncovir in 2012?"],
        &[Num("2210")],
    );
}

#[test]
fn an_abbreviation_that_spells_a_per_unit_row_asks_for_it() {
    // "eps" is "earnings per share": a per-unit row the question asks for
    let quarters: TableRows = &[
        &[
            "",
            "first quarter",
            "second quarter",
            "third quarter",
            "fourth quarter",
        ],
        &[
            "operating revenues",
            "$ 3,810",
            "$ 3,542",
            "$ 4,205",
            "$ 3,677",
        ],
        &["net income", "398", "351", "579", "276"],
        &[
            "basic earnings per share",
            "$ 0.82",
            "$ 0.72",
            "$ 1.19",
            "$ 0.57",
        ],
    ];
    check(
        quarters,
        "the unaudited quarterly financial information for each quarter of 2012 is \
         presented below ( in millions , except per share amounts ) :",
        &["what was basic eps in the fourth quarter?"],
        &[Num("0.57")],
    );
}

#[test]
fn a_total_row_below_the_months_of_one_year_is_of_that_year() {
    let repurchases: TableRows = &[
        &[
            "",
            "total number of shares purchased",
            "average price paid per share",
        ],
        &["october 1 - october 31 , 2011", "1,245,600", "$ 52.18"],
        &["november 1 - november 30 , 2011", "2,108,400", "$ 49.87"],
        &["december 1 - december 31 , 2011", "987,300", "$ 51.42"],
        &["total", "4,341,300", "$ 50.88"],
    ];
    check(
        repurchases,
        "the following table summarizes the company 's repurchases of its common stock \
         during the three months ended december 31 , 2011 :",
        &["what was the total number of shares repurchased in the fourth quarter of 2011?"],
        &[Num("4341300")],
    );
}

#[test]
fn a_column_labelled_as_a_percentage_is_no_amount() {
    // "total" in the question is no reason to read "2010 % of total"
    let categories: TableRows = &[
        &["", "2011", "2011 % of total", "2010", "2010 % of total"],
        &["consumables", "$ 10,833.7", "73.3", "$ 9,332.1", "71.7"],
        &["apparel", "816.3", "5.5", "737.5", "5.7"],
        &["net sales", "$ 14,776.3", "100.0", "$ 13,007.0", "100.0"],
    ];
    check(
        categories,
        "the following table presents net sales by category ( dollars in millions ) :",
        &["what were total net sales in 2010?"],
        &[Num("13007.0")],
    );
}

#[test]
fn a_measure_named_without_a_part_is_its_total_row() {
    let segments: TableRows = &[
        &["", "2011", "2010"],
        &["consumer net sales", "$ 171,420", "$ 158,970"],
        &["professional net sales", "86,680", "86,830"],
        &["total net sales", "$ 258,100", "$ 245,800"],
    ];
    check(
        segments,
        "the following table presents net sales by segment ( in thousands ) :",
        &["what were net sales in 2011?"],
        &[Num("258100")],
    );
}

#[test]
fn a_text_number_per_unit_is_no_amount_the_question_asks_for() {
    let revenues: TableRows = &[
        &["", "2010", "2009"],
        &["retail", "$ 1,120", "$ 1,085"],
        &["wholesale", "301", "288"],
        &["other", "74", "71"],
    ];
    check(
        revenues,
        "wholesale revenues declined in 2009 due to lower market prices , which averaged \
         $ 38.12 per megawatt-hour compared with $ 61.40 in 2008 . \
         the following table presents revenues by source ( in millions ) :",
        &["what were wholesale revenues in 2009?"],
        &[Num("288")],
    );
}

#[test]
fn a_price_asks_for_an_amount_per_share() {
    let prices: TableRows = &[
        &["", "2011", "2010"],
        &["common stock outstanding ( in millions )", "397.6", "401.2"],
        &["cash dividends declared", "$ 120", "$ 110"],
    ];
    check(
        prices,
        "on february 11 , 2011 , the closing price of our common stock was $ 56.73 per share \
         as reported on the nyse . the following table sets forth the high and low sale prices :",
        &["what was the closing price of common stock as of february 11 , 2011?"],
        &[Num("56.73")],
    );
}

#[test]
fn a_percent_change_column_of_both_signs_keeps_a_decline_negative() {
    let revenue: TableRows = &[
        &["", "fiscal 2012", "fiscal 2011", "% change"],
        &["license", "$ 1,842.5", "$ 2,012.6", "( 8.5 ) %"],
        &["subscription", "1,286.3", "802.4", "60.3 %"],
        &["services", "399.8", "414.1", "( 3.5 ) %"],
    ];
    check(
        revenue,
        "the following table summarizes revenue by type ( dollars in millions ) :",
        &["what was the reported % change in services revenue?"],
        &[Num("-3.5")],
    );
}

#[test]
fn a_mention_that_names_another_column_is_not_the_total_columns() {
    let leases: TableRows = &[
        &[
            "",
            "total",
            "2012",
            "2013",
            "2014",
            "2015",
            "2016",
            "thereafter",
        ],
        &[
            "operating leases",
            "$ 3,780",
            "$ 480",
            "$ 455",
            "$ 410",
            "$ 320",
            "$ 260",
            "$ 1,855",
        ],
        &["capital leases", "210", "40", "38", "36", "34", "32", "30"],
    ];
    check(
        leases,
        "future minimum lease payments at december 31 , 2011 were as follows ( in millions ) :",
        &["what are the operating lease payments due after 2016?"],
        &[Num("1855")],
    );
}

/// A year's total over quarter rows whose first quarter the table lost
/// into its headers adds that header's number; the caption's year is the
/// table's, against a text number of that year.
#[test]
fn a_years_total_over_quarters_takes_the_quarter_lost_into_the_headers() {
    let quarters: TableRows = &[
        &[
            "",
            "high $ 17.84",
            "low $ 12.10",
            "cash dividends declared $ 0.05",
        ],
        &["second quarter", "22.45", "16.30", "0.05"],
        &["third quarter", "27.90", "20.15", "0.05"],
        &["fourth quarter", "29.60", "24.75", "0.06"],
    ];
    check(
        quarters,
        "on february 19 , 2010 , the last reported sale price of our common \
         stock was $ 31.22 per share . the following table sets forth the high and low \
         sales prices of our common stock and the cash dividends declared per \
         share for each quarter of fiscal 2009 :",
        &["what were the total cash dividends declared per share in 2009?"],
        &[Num("0.21")],
    );
}

/// A header number under a quarter's header ("fourth quarter $ 28.40") is
/// that quarter's, though the lost row is no quarter ("high"); the
/// caption's year is the table's, against a text number of that year.
#[test]
fn a_header_number_is_of_the_quarter_its_header_names() {
    let prices: TableRows = &[
        &[
            "",
            "first quarter $ 24.10",
            "second quarter $ 26.55",
            "third quarter $ 25.80",
            "fourth quarter $ 28.40",
        ],
        &["low", "20.05", "22.90", "21.35", "24.60"],
        &["dividends declared", "0.16", "0.16", "0.18", "0.18"],
    ];
    check(
        prices,
        "in the third quarter of 2012 , our board of directors increased the \
         quarterly dividend by 12.5 % to $ 0.18 per share . \
         the following table sets forth the high and low sales prices per share \
         of our common stock , and the dividends declared per share , for each \
         fiscal quarter of 2012 :",
        &[
            "what was the fourth quarter high price in 2012?",
            "what were the total dividends declared per share in 2012?",
        ],
        &[Num("28.40"), Num("0.68")],
    );
}

/// A level at the start of a year is a roll-forward's opening balance, not
/// a flow whose label shares the question's words; "loan loss reserve"
/// reads as the "allowance for loan and lease losses" the page prints, and
/// the caption's initialism ("the alll") names the balance rows.
#[test]
fn a_level_at_the_start_of_a_year_is_the_opening_balance_not_a_flow() {
    let allowance: TableRows = &[
        &["( $ in millions )", "2011", "2010"],
        &["balance at beginning of period", "3,004", "3,749"],
        &["losses charged off", "( 1,397 )", "( 2,328 )"],
        &["recoveries of losses previously charged off", "170", "157"],
        &["net losses charged off", "( 1,227 )", "( 2,171 )"],
        &["provision for loan and lease losses", "423", "1,426"],
        &["balance at end of period", "2,200", "3,004"],
        &[
            "total portfolio loans and leases at end of period",
            "81,018",
            "79,822",
        ],
    ];
    check(
        allowance,
        "the reserve for unfunded commitments , recorded in other liabilities , \
         was $ 181 million at december 31 , 2011 . \
         the allowance for loan and lease losses ( alll ) is maintained at a \
         level management believes adequate to absorb probable losses inherent \
         in the loan and lease portfolio . the following table summarizes \
         transactions in the alll ( $ in millions ) :",
        &["what was the loan loss reserve at the start of 2011?"],
        &[Num("3004")],
    );
}

/// A roll-forward's opening row, named only by its boundary ("beginning of
/// year"), is the balance its caption names, as its closing row is.
#[test]
fn a_roll_forwards_bare_opening_row_is_what_its_caption_names() {
    let options: TableRows = &[
        &["", "shares", "weighted average exercise price per share"],
        &["beginning of year", "24,815", "$ 43.12"],
        &["options granted", "2,140", "51.80"],
        &["options exercised", "( 3,702 )", "36.45"],
        &["options canceled", "( 418 )", "47.90"],
        &["end of year", "22,835", "45.02"],
    ];
    check(
        options,
        "options generally vest over three years and expire 10 years from the \
         date of grant . changes in shares subject to options during the year \
         ended september 30 , 2012 follow ( shares in thousands ) :",
        &["how many options were outstanding at the beginning of fiscal 2012?"],
        &[Num("24815")],
    );
}

/// Sales by product with a year's columns by market and the year's total:
/// a product named with its year alone is the year's total column; an
/// international term names the column printed "outside u.s.".
const PRODUCT_SALES: TableRows = &[
    &[
        "( dollars in millions )",
        "2012 u.s.",
        "2012 outside u.s.",
        "2012 total",
        "2011 total",
    ],
    &["velozar", "2,514.3", "1,612.0", "4,126.3", "3,884.1"],
    &["humetra", "812.4", "1,051.2", "1,863.6", "2,204.9"],
    &[
        "total pharmaceutical revenue",
        "6,679.1",
        "5,069.7",
        "11,748.8",
        "12,352.2",
    ],
];

const PRODUCT_SALES_TEXT: &str = "the weakening of foreign currencies reduced revenue \
    growth by 2 % . the following table summarizes our revenue activity in 2012 \
    compared with 2011 :";

#[test]
fn a_product_named_with_its_year_alone_is_the_years_total_column() {
    check(
        PRODUCT_SALES,
        PRODUCT_SALES_TEXT,
        &["what were velozar sales in 2012?"],
        &[Num("4126.3")],
    );
}

#[test]
fn international_sales_are_the_column_printed_outside_the_us() {
    check(
        PRODUCT_SALES,
        PRODUCT_SALES_TEXT,
        &["what were international sales in 2012?"],
        &[Num("5069.7")],
    );
}

/// "how many" counts: the shares column, not the price per share of the
/// row the question names.
#[test]
fn how_many_reads_the_count_column_not_the_unit_price() {
    let options: TableRows = &[
        &["", "shares", "weighted average exercise price per share"],
        &["beginning of year", "24,815", "$ 43.12"],
        &["options granted", "2,140", "51.80"],
        &["options exercised", "( 3,702 )", "36.45"],
        &["end of year", "22,835", "45.02"],
    ];
    check(
        options,
        "changes in shares subject to options during the year ended september 30 , \
         2012 follow ( shares in thousands ) :",
        &["how many options did employees exercise during fiscal 2012?"],
        &[Num("3702")],
    );
}

/// A column labelled "percentage of plan assets" holds shares of a whole,
/// not the assets: the amount asked is the one the text prints.
#[test]
fn a_column_labelled_a_percentage_of_an_amount_is_not_that_amount() {
    let allocation: TableRows = &[
        &[
            "",
            "target allocation 2012",
            "percentage of plan assets 2011",
        ],
        &["equity securities", "50 %", "53 %"],
        &["debt securities", "35", "36"],
        &["real estate", "15", "11"],
        &["total", "100 %", "100 %"],
    ];
    check(
        allocation,
        "total plan assets were $ 14,382 million at december 31 , 2011 . \
         the asset allocation targets and actual allocations for our pension \
         plans at december 31 were as follows :",
        &["what were total plan assets at year end 2011?"],
        &[Num("14382")],
    );
}

/// "average assets" the text prints is a name, not a mean asked: "how much
/// did average assets grow in 2012?" is a change; "the year before" after
/// that change is the year before its later year.
#[test]
fn an_average_the_page_names_is_a_measure_and_the_year_before_a_change_is_its_later_years() {
    let aum: TableRows = &[
        &["( in billions )", "2012", "2011"],
        &[
            "assets under management at beginning of year",
            "$ 489.5",
            "$ 482.0",
        ],
        &["net cash inflows", "20.6", "11.5"],
        &["market appreciation", "68.3", "( 4.0 )"],
        &[
            "assets under management at end of year",
            "$ 578.4",
            "$ 489.5",
        ],
    ];
    check(
        aum,
        "average assets under management were $ 541.1 billion in 2012 compared \
         with $ 499.3 billion in 2011 . the following table shows changes in our \
         assets under management :",
        &[
            "how much did average assets grow in 2012?",
            "what was the level the year before?",
        ],
        &[Num("41.8"), Num("499.3")],
    );
}

/// Terms a finance reader takes as one: "labor" for "compensation and
/// benefits", "foreclosed property" for "other real estate owned",
/// "stocks" for "equity securities".
#[test]
fn finance_synonyms_name_rows_printed_in_other_terms() {
    check(
        &[
            &["( in millions )", "2011", "2010"],
            &["compensation and benefits", "2,950", "2,894"],
            &["fuel", "1,120", "980"],
            &["total operating expenses", "7,480", "7,214"],
        ],
        "operating expenses rose 4 % in 2011 .",
        &["what was labor expense in 2010?"],
        &[Num("2894")],
    );
    check(
        &[
            &["( in millions )", "2012", "2011"],
            &["nonaccrual loans", "1,013", "1,097"],
            &["other real estate owned", "104", "157"],
            &["total nonperforming assets", "1,117", "1,254"],
        ],
        "nonperforming assets declined in 2012 .",
        &["how much foreclosed property did they hold at the end of 2011?"],
        &[Num("157")],
    );
    check(
        &[
            &["", "target allocation 2012", "2011"],
            &["equity securities", "50 %", "53 %"],
            &["debt securities", "35", "36"],
            &["other", "15", "11"],
            &["total", "100 %", "100 %"],
        ],
        "the asset allocation targets and actual allocations for our pension \
         plans at december 31 were as follows :",
        &["what is the 2012 target for stocks?"],
        &[Num("50")],
    );
}

/// "what share of X goes to Y": the verb splits the whole (X) from the
/// part (Y), as "was" does.
#[test]
fn a_share_that_goes_to_a_part_divides_the_part_by_the_whole() {
    check(
        &[
            &["( in millions )", "2014", "2015"],
            &["generation", "540", "585"],
            &["transmission", "510", "515"],
            &["distribution", "760", "795"],
            &["other", "125", "108"],
            &["total", "1,935", "2,003"],
        ],
        "the following table shows our planned capital spending :",
        &["what share of 2014 capital spending goes to distribution?"],
        &[Num("0.3927648578811369509043927649")],
    );
}

/// A quarterly high and low table over two years, with a risk table's
/// layout beside it: rows of measures, columns of year and statistic.
const VAR_TABLE: TableRows = &[
    &[
        "( in millions )",
        "2012 average",
        "2012 high",
        "2012 low",
        "2011 average",
    ],
    &["interest rate risk", "42.6", "61.2", "30.1", "48.3"],
    &["equity price risk", "18.9", "27.5", "11.4", "22.7"],
    &["total", "51.5", "72.4", "38.2", "60.8"],
];

/// "the high and low X": one word on the left of "between ... and" shares
/// the right side's head; the head need not be printed ("var"), each side's
/// own word must be.
#[test]
fn a_difference_between_the_high_and_low_of_one_row_shares_its_head() {
    check(
        VAR_TABLE,
        "we measure value-at-risk ( var ) daily . the following table presents var :",
        &["what was the range between the high and low interest rate var during 2012?"],
        &[Num("31.1")],
    );
}

/// "spread between", "gap between": a difference of the two things named.
#[test]
fn a_spread_between_two_rows_is_their_difference() {
    check(
        &[
            &["", "2012", "2011"],
            &["yield on earning assets", "3.99 %", "4.31 %"],
            &["rate on interest-bearing liabilities", "0.89 %", "1.11 %"],
        ],
        "the following table presents average yields and rates :",
        &[
            "what was the spread between the yield on earning assets and the rate on interest-bearing liabilities in 2011?",
            "what was the gap between the yield on earning assets and the rate on interest-bearing liabilities in 2012?",
        ],
        &[Num("3.2"), Num("3.1")],
    );
}

/// "from the first to the fourth quarter": the first side's quarter word
/// is the second side's.
#[test]
fn a_change_from_the_first_to_the_fourth_quarter_reads_both_quarters() {
    check(
        &[
            &["", "2012 high", "2012 low", "2011 high", "2011 low"],
            &["first quarter", "38.45", "33.10", "28.00", "24.15"],
            &["second quarter", "41.30", "36.05", "30.40", "26.80"],
            &["third quarter", "43.75", "38.60", "31.95", "27.70"],
            &["fourth quarter", "45.20", "39.90", "33.25", "26.70"],
        ],
        "the following table sets forth the high and low sales prices of our common stock :",
        &["how much did the quarterly high climb from the first to the fourth quarter of 2012?"],
        &[Num("6.75")],
    );
}

/// "a , b and c shares withheld in october , november and december ,
/// respectively": each amount is its own month's.
#[test]
fn amounts_listed_respectively_with_months_are_each_their_own_months() {
    let table: TableRows = &[
        &[
            "period",
            "total number of shares purchased",
            "average price paid per share",
        ],
        &["october 1 - 31 , 2012", "412,500", "$ 52.18"],
        &["november 1 - 30 , 2012", "655,300", "$ 50.74"],
        &["december 1 - 31 , 2012", "298,150", "$ 53.02"],
    ];
    let text = "( 1 ) includes 12,500 , 5,300 and 3,150 shares withheld in october , november \
         and december , respectively , to satisfy tax withholding obligations upon the \
         vesting of restricted stock .";
    for (month, want) in [("october", "12500"), ("december", "3150")] {
        let question = format!("how many shares were withheld for taxes in {month}?");
        check(table, text, &[question.as_str()], &[Num(want)]);
    }
}

/// "at the start of fiscal 2012?", "and at the end?", "what was the
/// change?": the end less the beginning, though the beginning was asked
/// first; two years asked latest first stay first-asked less second-asked.
#[test]
fn a_change_after_the_start_and_the_end_is_the_end_less_the_start() {
    let options: TableRows = &[
        &[
            "( shares in thousands )",
            "shares",
            "weighted average exercise price",
        ],
        &["beginning of year", "24,815", "$ 43.12"],
        &["options granted", "2,140", "51.80"],
        &["options exercised", "( 3,702 )", "36.45"],
        &["options canceled", "( 418 )", "47.90"],
        &["end of year", "22,835", "45.02"],
    ];
    let caption =
        "changes in shares subject to options during the year ended september 30 , 2012 follow :";
    check(
        options,
        caption,
        &[
            "how many options were outstanding at the start of fiscal 2012?",
            "and at the end?",
            "what was the change?",
            "what was the percent change?",
        ],
        &[
            Num("24815"),
            Num("22835"),
            Num("-1980"),
            Num("-0.0797904493250050372758412251"),
        ],
    );
    check(
        options,
        caption,
        &[
            "how many options were outstanding at the end of fiscal 2012?",
            "and at the start?",
            "what was the change?",
        ],
        &[Num("22835"), Num("24815"), Num("-1980")],
    );
    check(
        SALES,
        "",
        &[
            "what were net sales in 2009?",
            "and in 2008?",
            "what was the change?",
        ],
        &[Num("1500"), Num("1200"), Num("300")],
    );
}

/// Segment columns whose headers hold the lost first row ("north america
/// $ 6,412", net sales), the text restating those amounts rounded in
/// billions beside their name: the header number, exact, is the amount
/// the text names; a total row is not what "net sales in europe" names.
#[test]
fn a_lost_row_named_by_the_text_that_rounds_it_reads_its_header_number() {
    check(
        &[
            &[
                "",
                "north america $ 6,412",
                "europe $ 2,845",
                "total $ 9,257",
            ],
            &["operating income", "1,154", "398", "1,552"],
            &["capital expenditures", "305", "118", "423"],
            &["total assets", "5,980", "3,210", "9,190"],
        ],
        "net sales in north america increased 6.3 % in 2012 , to $ 6.4 billion . net \
         sales in europe decreased 3.1 % to $ 2.8 billion . the company evaluates \
         segment performance based on net sales and operating income . the following \
         table presents net sales , operating income and other information by segment \
         for the year ended december 31 , 2012 ( in millions ) :",
        &[
            "what were net sales in north america in 2012?",
            "what were net sales in europe in 2012?",
        ],
        &[Num("6412"), Num("2845")],
    );
}

/// Headers of a year and a number ("2011 $ 2914"): the first row was lost
/// into them, and a list of the text that names the table's rows names it
/// first ("personal insurance , commercial insurance and specialty").
#[test]
fn a_list_of_the_text_that_names_the_rows_names_the_lost_first_row() {
    check(
        &[
            &["", "2011 $ 2914", "2010 $ 2655"],
            &["commercial insurance", "1,987", "1,860"],
            &["specialty", "842", "905"],
            &["total", "5,743", "5,420"],
        ],
        "we conduct our business through three reportable segments : personal \
         insurance , commercial insurance and specialty . the following table presents \
         net premiums written by segment ( in millions ) :",
        &[
            "what were personal insurance net premiums written in 2011?",
            "what were specialty net premiums written in 2010?",
        ],
        &[Num("2914"), Num("905")],
    );
}

/// A follow-up that opens with a ratio connector and names only the whole
/// ("and as a percentage of the low?"): the last result (here a
/// difference) over the value named.
#[test]
fn a_follow_up_opening_with_a_ratio_connector_divides_the_last_result() {
    check(
        &[
            &["", "2012 high", "2012 low"],
            &["first quarter", "$ 38.45", "$ 31.20"],
            &["second quarter", "$ 40.12", "$ 33.85"],
        ],
        "the following table sets forth the high and low sales prices of our common \
         stock for each quarter of 2012 :",
        &[
            "what was the high price in the second quarter of 2012?",
            "and the low?",
            "what was the difference?",
            "and as a percentage of the low?",
        ],
        &[Num("40.12"), Num("33.85"), Num("6.27"), Num("0.1852289513")],
    );
}

/// "and what was that percentage in 2007?" after a share: the same rows'
/// share in the year asked, not a ratio of the last two results.
#[test]
fn that_percentage_in_another_year_repeats_the_share() {
    check(
        SALES,
        "",
        &[
            "what was operating income in 2009?",
            "what were net sales?",
            "what percentage of net sales is that?",
            "and what was that percentage in 2007?",
        ],
        &[Num("300"), Num("1500"), Num("0.2"), Num("0.15")],
    );
}

/// A share whose part is a text number listed by year ("$ 412 million ,
/// $ 286 million and $ 608 million in 2010 , 2009 and 2008 ,
/// respectively"), asked again for another year: that year's number of the
/// same sentence over the row's cell that year.
#[test]
fn a_share_of_a_text_number_in_another_year_reads_the_same_sentence() {
    check(
        &[
            &["", "2010", "2009", "2008"],
            &["net premiums earned", "8,297", "8,184", "8,250"],
            &["losses and loss adjustment expenses", "5,601", "5,342", "5,897"],
        ],
        "catastrophe losses , net of reinsurance , were $ 412 million , $ 286 million \
         and $ 608 million in 2010 , 2009 and 2008 , respectively . the following table \
         presents the underwriting results of the segment ( in millions ) :",
        &[
            "what percentage of 2010 losses and loss adjustment expenses did catastrophe losses represent?",
            "and in 2009?",
        ],
        &[
            Num("0.0735582932"),
            Num("0.0535380007"),
        ],
    );
}

/// Headers of a year and a number ("2011 $ 8,742"): a share of that lost
/// row asked again for another year reads the number of that year's header.
#[test]
fn a_share_of_a_header_number_in_another_year_reads_that_years_header() {
    check(
        &[
            &["", "2011 $ 8,742", "2010 $ 8,105"],
            &["cost of revenues", "4,905", "4,688"],
            &["operating income", "1,505", "1,210"],
        ],
        "the following table presents revenues , cost of revenues and operating income \
         ( in millions ) :",
        &[
            "what portion of 2011 revenues was operating income?",
            "and in 2010?",
        ],
        &[Num("0.1721574011"), Num("0.1492905614")],
    );
}

/// "what was it excluding catastrophes?" after a ratio row: the last
/// result less the number the text prints for catastrophes beside that
/// ratio (their effect on it), not the catastrophe losses in dollars.
#[test]
fn a_result_excluding_a_named_item_subtracts_its_effect_on_the_same_measure() {
    check(
        &[
            &["", "2011", "2010"],
            &["premiums earned", "25,942", "26,194"],
            &["loss ratio", "77.7", "72.8"],
            &["combined ratio", "103.1", "98.5"],
        ],
        "catastrophe losses were $ 3,815 million and $ 2,207 million in 2011 and 2010 , \
         respectively . the effect of catastrophe losses on the combined ratio was 14.7 \
         and 8.5 points in 2011 and 2010 , respectively . underwriting results are \
         summarized in the following table ( $ in millions , except ratios ) :",
        &[
            "what was the combined ratio in 2011?",
            "what was it excluding catastrophes?",
        ],
        &[Num("103.1"), Num("88.4")],
    );
}

/// "what were net sales excluding it?" right after a number of the text:
/// the value named less the last result.
#[test]
fn a_value_excluding_it_subtracts_the_last_result() {
    check(
        SALES,
        "net sales in 2009 included $ 120 million of sales from the acquisition of \
         widgetco .",
        &[
            "how much did the acquisition of widgetco contribute to sales in 2009?",
            "what were net sales in 2009 excluding it?",
        ],
        &[Num("120"), Num("1380")],
    );
}

/// "revenue of $ 214.6 million and operating income of $ 18.9 million":
/// the words after "and" name the second amount, not the first.
#[test]
fn a_second_amount_named_after_and_is_the_one_asked() {
    check(
        &[
            &["", "amount"],
            &["inventories", "96.4"],
            &["goodwill", "612.5"],
            &["net assets acquired", "1,075.0"],
        ],
        "from the date of acquisition , widgetco contributed revenue of $ 214.6 million \
         and operating income of $ 18.9 million , which included $ 12.4 million of \
         inventory step-up amortization .",
        &[
            "what revenue did widgetco contribute from the date of acquisition?",
            "and operating income?",
        ],
        &[Num("214.6"), Num("18.9")],
    );
}

/// "what was the operating margin?" after operating income and net sales,
/// on a page that prints no margin: the income over the sales; "and in
/// 2008?" repeats it for that year.
#[test]
fn a_margin_after_a_profit_and_its_revenue_divides_them() {
    check(
        SALES,
        "",
        &[
            "what was operating income in 2009?",
            "what about net sales?",
            "what was the operating margin?",
            "and in 2008?",
        ],
        &[Num("300"), Num("1500"), Num("0.2"), Num("0.2")],
    );
}

/// A page that prints its margins: "margin" reads the printed row.
#[test]
fn a_margin_the_page_prints_is_read_not_computed() {
    check(
        &[
            &["", "2009", "2008"],
            &["net sales", "$ 1,500", "$ 1,200"],
            &["operating income", "300", "240"],
            &["operating margin", "21.5 %", "20.0 %"],
        ],
        "",
        &[
            "what was operating income in 2009?",
            "what about net sales?",
            "what was the operating margin?",
        ],
        &[Num("300"), Num("1500"), Num("21.5")],
    );
}

/// A sentence that states quarterly amounts and then their total ("for a
/// total of $ 1.90"): "the total ... in 2009" is the number "total"
/// introduces, and "and in 2008?" the one printed the same way.
#[test]
fn a_total_the_text_introduces_is_the_total_asked() {
    check(
        SALES,
        "cash dividends declared per share were $ 0.45 in each of the first two quarters \
         of 2009 and $ 0.50 in each of the last two quarters of 2009 , for a total of \
         $ 1.90 , compared with $ 0.40 per quarter in the first half of 2008 and $ 0.45 \
         in the second half , for a total of $ 1.70 .",
        &[
            "what were total cash dividends declared per share in 2009?",
            "and in 2008?",
        ],
        &[Num("1.90"), Num("1.70")],
    );
}

/// A table of quarterly stock prices and a sentence on buybacks: the
/// quarter's cell meets only the words that say when ("fourth quarter"),
/// the sentence names what is asked.
#[test]
fn a_cell_that_meets_only_the_period_loses_to_the_text_naming_the_value() {
    check(
        &[
            &["", "2009 high", "2009 low"],
            &["first quarter", "$ 41.20", "$ 35.10"],
            &["second quarter", "44.80", "38.25"],
            &["third quarter", "47.15", "40.60"],
            &["fourth quarter", "52.30", "45.05"],
        ],
        "during the fourth quarter of 2009 we repurchased 2.3 million shares at an \
         average price of $ 48.75 per share .",
        &["how many shares were bought back in the fourth quarter of 2009?"],
        &[Num("2.3")],
    );
}

/// A row that is a rate over time ("rate per day") is no amount per unit:
/// "the average daily rate" reads it.
#[test]
fn a_rate_per_day_row_is_read_without_per_unit_words() {
    check(
        &[
            &["", "2015", "2014"],
            &["voyage revenues", "184,320", "226,905"],
            &["vessel operating expenses", "98,410", "96,880"],
            &["charter rate per day", "10,480", "13,105"],
        ],
        "",
        &["what was the average daily charter rate in 2014?"],
        &[Num("13105")],
    );
}

/// "$ 48.3 million ( $ 30.9 million after-tax )" for two years: the
/// number in brackets is asked by its words ("after taxes"), the one
/// before the brackets without them; each is of the year its pair closes
/// with.
#[test]
fn a_bracketed_after_tax_amount_is_asked_by_its_words() {
    check(
        SALES,
        "we recorded restructuring charges of $ 65.8 million ( $ 42.1 million after-tax ) \
         in 2009 and $ 48.3 million ( $ 30.9 million after-tax ) in 2008 .",
        &[
            "what were the restructuring charges after taxes in 2008?",
            "and the pre-tax amount?",
            "what were the restructuring charges in 2009?",
        ],
        &[Num("30.9"), Num("48.3"), Num("65.8")],
    );
}

/// A purchase price allocation that lost its first row ("land") into its
/// header: "how much of the purchase price was allocated to land?" names
/// a part by a word no label prints, so the total row is not it.
#[test]
fn a_part_no_label_names_is_the_lost_row_not_the_total() {
    check(
        &[
            &["", "$ 12,500"],
            &["buildings and improvements", "64,200"],
            &["in-place leases", "8,300"],
            &["below-market leases", "( 2,100 )"],
            &["total purchase price", "82,900"],
        ],
        "the following table summarizes the allocation of the purchase price ( in thousands ) :",
        &["how much of the purchase price was allocated to land?"],
        &[Num("12500")],
    );
}

/// An option roll-forward whose closing balance is not its last row
/// ("exercisable at ..." follows it): the rows after the closing one are
/// levels at the year's end too.
#[test]
fn a_roll_forward_closed_before_its_last_row_ends_the_year_there() {
    check(
        &[
            &["", "number of shares", "weighted average exercise price"],
            &["outstanding at june 30 , 2011", "48,215", "$ 31.42"],
            &["granted", "9,840", "44.18"],
            &["exercised", "( 11,302 )", "26.75"],
            &["outstanding at june 30 , 2012", "44,649", "35.61"],
            &["exercisable at june 30 , 2012", "24,380", "29.87"],
        ],
        "the total intrinsic value of options exercised was $ 213.6 million in 2012 . \
         cash received from option exercises was $ 302.3 million .",
        &["how many options were exercisable at year end?"],
        &[Num("24380")],
    );
}

#[test]
fn a_first_turn_that_names_a_ratio_or_portion_is_the_value_so_named() {
    // no earlier results to divide: the page prints the value the
    // question names ("portion", "ratio" are part of its name)
    let backlog: &[&[&str]] = &[
        &["", "march 31 , 2014", "march 31 , 2013"],
        &["funded", "2,910", "3,412"],
        &["unfunded", "1,204", "1,388"],
        &["total backlog", "4,114", "4,800"],
    ];
    check(
        backlog,
        "backlog by funding status was as follows ( in millions ) :",
        &["what was the funded portion of backlog as of march 31 , 2013?"],
        &[Num("3412")],
    );
    check(
        SALES,
        "our medical loss ratio was 82.9 in 2009 and 84.1 in 2008 .",
        &["what was the medical loss ratio in 2009?"],
        &[Num("82.9")],
    );
}

#[test]
fn words_a_sentence_prints_only_as_what_its_amounts_leave_out_name_no_amount_of_it() {
    let text = "revenue , before reimbursed costs , was $ 3,410 million in 2015 compared with \
                $ 3,150 million in 2014 . reimbursed costs were $ 412 million , or 12.1% ( 12.1 % ) \
                of revenue before reimbursed costs , in 2015 compared with $ 388 million , or \
                12.3% ( 12.3 % ) , in 2014 .";
    check(
        SALES,
        text,
        &["what were reimbursed costs in 2014?"],
        &[Num("388")],
    );
}

#[test]
fn a_count_is_no_number_printed_with_a_currency_sign_in_the_table() {
    // the table lost its first row ("raw materials") into its headers; the
    // question's words no label prints would name it, but it is money
    let inventories: &[&[&str]] = &[
        &["", "2010 $ 356.8", "2009 $ 331.2"],
        &["work in process", "120.4", "110.3"],
        &["finished goods", "98.1", "91.0"],
        &["total inventories", "$ 575.3", "$ 532.5"],
    ];
    check(
        inventories,
        "inventories consisted of the following ( in millions ) : . \
         we shipped 1,096,000 tons of steel in 2010 , up from 1,012,000 tons in 2009 .",
        &["how many tons were shipped in 2010?"],
        &[Num("1096000")],
    );
}

#[test]
fn an_amount_a_stated_change_moved_to_is_the_periods_end() {
    // "increased $ 56.1 million during 2013 to $ 1,340.7 million": the
    // level after "to" is the year's end, not its beginning
    let text = "the allowance for credit losses increased $ 56.1 million during 2013 to \
                $ 1,340.7 million , reflecting growth in personal loans . \
                the allowance for credit losses was $ 1,284.6 million at the beginning of 2013 .";
    check(
        SALES,
        text,
        &["what was the allowance for credit losses at the beginning of 2013?"],
        &[Num("1284.6")],
    );
}

#[test]
fn a_lost_rows_name_can_complete_the_pattern_of_the_labels_left() {
    // the first row ("funeral revenue") went into the headers; its words
    // are each printed by another row, but no row prints both
    let segments: &[&[&str]] = &[
        &["", "2011 $ 1045.3", "2010 $ 1012.7"],
        &["cemetery revenue", "452.8", "431.5"],
        &["other revenue", "35.2", "33.9"],
        &["funeral gross profit", "210.4", "201.8"],
        &["cemetery gross profit", "98.7", "92.3"],
    ];
    check(
        segments,
        "revenue and gross profit by segment ( in millions ) :",
        &["what was funeral revenue in 2010?"],
        &[Num("1012.7")],
    );
}

#[test]
fn an_amount_compared_with_another_is_of_what_the_other_is_and_of_the_years_compared_before() {
    let text = "revenue was $ 6,208 million in 2015 compared with $ 5,874 million in 2014 , and \
                operating income was $ 312.4 million , or 5.0% ( 5.0 % ) of revenue , compared \
                with $ 281.9 million , or 4.8% ( 4.8 % ) of revenue .";
    check(
        SALES,
        text,
        &["what was operating income in 2014?", "and in 2015?"],
        &[Num("281.9"), Num("312.4")],
    );
}

/// A schedule of obligations by period, with ranges of years for columns.
const OBLIGATIONS_BY_PERIOD: TableRows = &[
    &["", "total", "2013", "2014-2015", "2016-2017", "thereafter"],
    &["long-term debt", "2450", "125", "480", "600", "1245"],
    &["interest payments", "1084", "148", "276", "218", "442"],
    &["operating leases", "236", "52", "81", "54", "49"],
    &[
        "total contractual obligations",
        "3770",
        "325",
        "837",
        "872",
        "1736",
    ],
];

#[test]
fn two_years_joined_by_and_name_a_column_of_that_range() {
    check(
        OBLIGATIONS_BY_PERIOD,
        "our contractual obligations as of december 31 , 2012 ( in millions ) :",
        &[
            "how much debt matures in 2014 and 2015?",
            "what are interest payments due in 2016 and 2017?",
        ],
        &[Num("480"), Num("218")],
    );
}

#[test]
fn after_the_last_year_of_a_range_is_the_thereafter_column() {
    check(
        OBLIGATIONS_BY_PERIOD,
        "our contractual obligations as of december 31 , 2012 ( in millions ) :",
        &["how much long-term debt is due after 2017?"],
        &[Num("1245")],
    );
}

#[test]
fn a_question_that_spells_out_an_initialism_of_a_label_names_that_row() {
    // "average revenue per user" is the label's "arpu", even where a
    // sentence spells it out too
    let subscribers: &[&[&str]] = &[
        &["", "2014", "2013"],
        &["postpaid subscribers ( in thousands )", "28412", "26985"],
        &["postpaid churn", "1.21", "1.34"],
        &["postpaid arpu", "51.84", "53.26"],
    ];
    check(
        subscribers,
        "service revenues grew as our postpaid base grew , partially offset by lower \
         average revenue per user . the following table presents key subscriber data :",
        &["what was postpaid average revenue per user in 2013?"],
        &[Num("53.26")],
    );
}

#[test]
fn a_schedule_by_year_that_lost_its_first_year_keeps_its_rows_years() {
    // the first row ("2016 $ 28.6") went into the header; the text gives
    // the header's number a year, but the rows are the periods
    let schedule: &[&[&str]] = &[
        &["", "$ 28.6"],
        &["2017", "26.1"],
        &["2018", "23.9"],
        &["2019", "21.4"],
        &["thereafter", "57.3"],
        &["total", "157.3"],
    ];
    check(
        schedule,
        "amortization expense is expected to be $ 28.6 million in 2016 . \
         estimated amortization expense for the next years is as follows ( in millions ) :",
        &[
            "how much intangible amortization is estimated for 2018?",
            "how much intangible amortization is estimated for 2016?",
        ],
        &[Num("23.9"), Num("28.6")],
    );
}

#[test]
fn a_month_asked_names_a_row_of_that_month_on_a_table_by_month() {
    // the rows are months; the caption says what each measures
    let by_month: &[&[&str]] = &[
        &["", "$ 18,742"],
        &["december", "96,315"],
        &["january", "121,908"],
        &["february", "118,446"],
        &["total season", "355,411"],
    ];
    check(
        by_month,
        "season pass sales were $ 238.4 million . \
         lift revenue for the season by month was as follows ( in thousands ) :",
        &[
            "what was lift revenue in january?",
            "what was lift revenue in november?",
        ],
        &[Num("121908"), Num("18742")],
    );
}

#[test]
fn a_count_is_no_row_of_a_one_column_table_whose_header_is_an_amount() {
    // the first row ("cash acquired $ 3,118") went into the only header:
    // every row is an amount of money, no count of hospitals
    let allocation: &[&[&str]] = &[
        &["", "$ 3,118"],
        &["accounts receivable", "4,762"],
        &["goodwill", "79,382"],
        &["total assets acquired", "87,262"],
        &["liabilities assumed", "( 11,862 )"],
        &["net assets acquired", "75,400"],
    ];
    check(
        allocation,
        "during 2013 we acquired 14 independent animal hospitals for aggregate consideration \
         of $ 75.4 million . the acquired hospitals had combined annual revenue of about $ 71 \
         million . the purchase price was allocated as follows ( in thousands ) :",
        &["how many hospitals were acquired?"],
        &[Num("14")],
    );
}

#[test]
fn money_asked_is_no_row_whose_label_states_a_physical_unit() {
    let operations: &[&[&str]] = &[
        &["", "2013", "2012"],
        &["passengers carried", "1,948,300", "1,872,450"],
        &["fuel consumption ( metric tons )", "916,800", "854,100"],
        &[
            "refined product yields ( thousand barrels per day )",
            "512.3",
            "498.6",
        ],
    ];
    check(
        operations,
        "fuel expense was $ 612.4 million and $ 598.7 million in 2013 and 2012 , respectively . \
         refining operating income was $ 1,892.3 million in 2013 compared with $ 1,284.6 \
         million in 2012 . selected statistics :",
        &[
            "how much was spent on fuel in 2012?",
            "what did the refining business earn in 2012?",
        ],
        &[Num("598.7"), Num("1284.6")],
    );
}

#[test]
fn buybacks_are_the_repurchases_a_clause_after_and_states() {
    // ", and repurchased 3.8 million shares for $ 241.6 million": the words
    // after ", and" are the next amounts', not the dividends' total
    let text = "in 2014 , we paid quarterly dividends of $ 0.25 per share , totaling $ 87.4 \
                million , and repurchased 3.8 million shares for $ 241.6 million .";
    check(
        SALES,
        text,
        &["how much did they spend on buybacks in 2014?"],
        &[Num("241.6")],
    );
}

#[test]
fn an_amount_of_a_sentence_without_a_year_is_of_the_year_the_sentence_before_prints() {
    let by_quarter: &[&[&str]] = &[
        &["", "fiscal 2014 net sales", "fiscal 2013 net sales"],
        &["first quarter", "18,642", "17,998"],
        &["second quarter", "22,105", "21,276"],
    ];
    check(
        by_quarter,
        "net sales for fiscal 2014 were $ 77.5 billion . we returned $ 9.4 billion to \
         shareholders through share repurchases of $ 7,012 million and dividends of $ 2,388 \
         million . net sales by fiscal quarter ( in millions ) :",
        &[
            "how much went to share repurchases in fiscal 2014?",
            "and to dividends?",
        ],
        &[Num("7012"), Num("2388")],
    );
}

/// Segments by fiscal year: the text states what the table does not.
const FISCAL_SEGMENTS: TableRows = &[
    &["", "fiscal 2010", "fiscal 2009"],
    &["household products", "$ 2,104.7", "$ 1,998.2"],
    &["personal care", "1,512.3", "1,433.0"],
    &["total net sales", "$ 3,617.0", "$ 3,431.2"],
];

#[test]
fn a_fiscal_year_column_is_a_period_not_a_numbered_name() {
    // "fiscal 2010" is the question's period: it names no cell by its
    // number, so the text's amount that the words name wins
    check(
        FISCAL_SEGMENTS,
        "the board approved a new share repurchase program in fiscal 2010 . at year end , \
         approximately $ 240 million of the program remained available .",
        &["how much of the program was left in fiscal 2010?"],
        &[Num("240")],
    );
}

#[test]
fn a_price_is_money_and_a_number_of_things_is_a_count() {
    let text = "aircraft fuel . we consumed approximately 1.21 billion gallons of jet fuel in \
                2008 compared with 1.26 billion gallons in 2007 , and our average fuel price per \
                gallon , including taxes , into-plane fees and the effect of fuel hedges , was $ \
                3.08 in 2008 compared with $ 2.18 in 2007 . as of december 31 , 2008 , the \
                closing price of our stock was $ 14.20 , and there were approximately 1,450 \
                holders of record .";
    check(
        SALES,
        text,
        &[
            "what was the average fuel price per gallon in 2008?",
            "at the date of the closing price, what was the number of holders of record?",
        ],
        &[Num("3.08"), Num("1450")],
    );
}

#[test]
fn a_year_before_the_number_a_header_lost_labels_its_column() {
    // the first row ("discount rate") went into the headers, each after
    // its column's year
    let rates: &[&[&str]] = &[
        &["", "2010 5.2%", "2009 5.8%", "2008 6.1%"],
        &[
            "expected long-term return on plan assets",
            "7.75%",
            "8.0%",
            "8.0%",
        ],
        &["rate of compensation increase", "4.0%", "4.0%", "4.25%"],
    ];
    check(
        rates,
        "the weighted-average assumptions used to determine net periodic benefit cost , \
         beginning with the discount rate , were as follows :",
        &["what was the discount rate in 2009?", "and in 2008?"],
        &[Num("5.8"), Num("6.1")],
    );
}

#[test]
fn a_label_that_states_a_change_is_no_level_asked() {
    // the table prints the effects of rate shocks on net interest income;
    // the level is the text's
    let shocks: &[&[&str]] = &[
        &["", "200 basis point increase", "100 basis point increase"],
        &[
            "december 31 2010 change in net interest income",
            "$ 18.4",
            "$ 9.6",
        ],
        &[
            "december 31 2009 change in net interest income",
            "$ 12.7",
            "$ 6.8",
        ],
    ];
    check(
        shocks,
        "net interest income was $ 412.3 million in 2010 compared to $ 388.1 million in 2009 . \
         the following table shows the estimated change in net interest income under rate \
         shock scenarios :",
        &[
            "what was net interest income in 2010?",
            "what was the change in net interest income from a 200 basis point increase in 2010?",
        ],
        &[Num("412.3"), Num("18.4")],
    );
}

#[test]
fn an_amount_per_share_asked_is_no_total_in_millions() {
    let text = "net income attributable to common shareholders was $ 96.4 million in 2010 , or $ \
                2.14 per diluted share , compared to $ 71.8 million , or $ 1.62 per diluted share \
                , in 2009 .";
    check(
        SALES,
        text,
        &["what was diluted earnings per share in 2010?"],
        &[Num("2.14")],
    );
}

#[test]
fn a_mention_that_names_a_row_is_no_column_total() {
    // "kestrel" names a row: the total row is not the column's answer
    let reserves: &[&[&str]] = &[
        &["", "tonnes ( millions )", "contained ounces ( thousands )"],
        &["kestrel ( canada )", "84.2", "3,844"],
        &["arroyo blanco ( mexico )", "156.7", "3,577"],
        &["total", "240.9", "7,421"],
    ];
    check(
        reserves,
        "lower grades at the kestrel mine more than offset the first full year of production at \
         arroyo blanco . total proven and probable reserves were 7.4 million ounces . the \
         following table sets forth our gold reserves by mine :",
        &["what were contained ounces at the kestrel mine, in thousands?"],
        &[Num("3844")],
    );
}

#[test]
fn a_share_printed_beside_a_whole_of_100_percent_is_the_percentage_asked() {
    let payers: &[&[&str]] = &[
        &["", "2011", "2010"],
        &["medicare", "29.4%", "30.8%"],
        &["managed care", "59.4%", "57.9%"],
        &["medicaid", "11.2%", "11.3%"],
        &["total", "100.0%", "100.0%"],
    ];
    check(
        payers,
        "the following table presents our net patient revenues by payer :",
        &[
            "what percentage of net patient revenues came from medicare in 2011?",
            "and in 2010?",
        ],
        &[Num("29.4"), Num("30.8")],
    );
}

#[test]
fn a_percentage_the_text_states_is_no_level_the_table_prints() {
    let by_type: &[&[&str]] = &[
        &["", "2010", "2009"],
        &["license", "214.6", "228.9"],
        &["subscription", "188.3", "141.7"],
        &["maintenance", "301.5", "287.4"],
        &["total revenues", "800.6", "760.8"],
    ];
    check(
        by_type,
        "growth in subscription and maintenance revenues more than offset declines in license \
         revenues . subscription revenues increased 32.9% ( 32.9 % ) in 2010 . the following \
         table presents revenues by type for the years ended december 31 ( in millions ) :",
        &["what was subscription revenue in 2010?"],
        &[Num("188.3")],
    );
}

#[test]
fn an_amount_a_subject_contributed_is_no_level_of_the_measure() {
    // the table lost its first row (net sales) into its headers; "the
    // international segment contributed $ 3.1 billion of net sales" is a
    // part of 2010's net sales, not the net sales asked
    let results: &[&[&str]] = &[
        &["", "2010 $ 12,846", "2009 $ 12,318"],
        &["cost of products sold", "7,912", "7,703"],
        &["gross profit", "4,934", "4,615"],
        &["operating profit", "1,956", "1,803"],
    ];
    check(
        results,
        "consolidated results of operations ( in millions ) : the international segment \
         contributed $ 3.1 billion of net sales in 2010 .",
        &["what were net sales in 2010?"],
        &[Num("12846")],
    );
}

#[test]
fn a_year_ended_label_names_a_period_not_its_closing_balance() {
    // a valuation account: each row a year ("year ended december 31 ,
    // 2009" is the year, not a balance at its end), the closing balance a
    // column
    let reserve: &[&[&str]] = &[
        &[
            "",
            "balance at beginning of period",
            "additions charged to costs and expenses",
            "deductions",
            "balance at end of period",
        ],
        &[
            "year ended december 31 , 2009",
            "$ 42.6",
            "$ 28.3",
            "$ ( 24.1 )",
            "$ 46.8",
        ],
        &[
            "year ended december 31 , 2008",
            "$ 38.1",
            "$ 17.5",
            "$ ( 13.0 )",
            "$ 42.6",
        ],
    ];
    check(
        reserve,
        "schedule ii - valuation and qualifying accounts . allowance for doubtful accounts \
         ( in millions ) :",
        &["what was the allowance for doubtful accounts at the end of 2009?"],
        &[Num("46.8")],
    );
}

#[test]
fn a_number_after_an_end_cue_is_a_closing_level() {
    // "ending the year with 1,046 stores" is the count at the end of the
    // year; the stores opened and closed during it are flows
    let results: &[&[&str]] = &[
        &["", "fiscal 2009", "fiscal 2008"],
        &["net sales", "$ 7,279", "$ 6,904"],
        &["operating income", "512", "478"],
    ];
    check(
        results,
        "during fiscal 2009 we opened 37 new stores and closed 9 stores , ending the year \
         with 1,046 stores in 44 states .",
        &["how many stores did the company have at the end of fiscal 2009?"],
        &[Num("1046")],
    );
}

#[test]
fn payments_that_fall_due_are_no_decrease() {
    let leases: &[&[&str]] = &[
        &["", "operating leases"],
        &["2011", "$ 142.6"],
        &["2012", "128.3"],
        &["2013", "109.8"],
        &["2014", "91.4"],
        &["2015", "76.2"],
        &["thereafter", "238.7"],
        &["total minimum lease payments", "$ 787.0"],
    ];
    check(
        leases,
        "future minimum lease payments under noncancelable operating leases at december 31 , \
         2010 were as follows ( in millions ) :",
        &["how much of the lease commitments fall due after 2015?"],
        &[Num("238.7")],
    );
}

#[test]
fn a_sum_of_one_mention_adds_the_rows_its_row_words_name() {
    // "output" names the table (its caption), "nevada" two of its rows
    let production: &[&[&str]] = &[
        &["", "2011", "2010"],
        &["red ridge ( nevada )", "612", "588"],
        &["silver pine ( nevada )", "384", "402"],
        &["north bay ( ontario )", "497", "455"],
        &["total", "1,493", "1,445"],
    ];
    check(
        production,
        "gold output by mine ( thousands of ounces ) was as follows :",
        &["what was combined nevada output in 2011?"],
        &[Num("996")],
    );
}

#[test]
fn a_total_of_rows_without_a_year_adds_the_only_column() {
    let homes: &[&[&str]] = &[
        &["", "apartment homes"],
        &["northern california", "9,412"],
        &["southern california", "11,836"],
        &["pacific northwest", "5,218"],
    ];
    check(
        homes,
        "our portfolio of apartment communities by region at december 31 , 2012 :",
        &["how many homes were in california combined?"],
        &[Num("21248")],
    );
}

#[test]
fn a_margin_the_page_does_not_print_is_the_profit_over_the_revenue() {
    let results: &[&[&str]] = &[
        &["", "2009", "2008"],
        &["net sales", "$ 1,500", "$ 1,200"],
        &["gross margin", "600", "450"],
        &["operating income", "300", "240"],
    ];
    check(
        results,
        "results of operations ( in millions ) :",
        &["what was the operating margin in 2009?", "and in 2008?"],
        &[Num("0.2"), Num("0.2")],
    );
}

#[test]
fn a_margin_row_the_page_prints_is_read_not_computed() {
    let results: &[&[&str]] = &[
        &["", "2009", "2008"],
        &["net sales", "$ 1,500", "$ 1,200"],
        &["operating income", "300", "240"],
        &["operating margin", "20.5%", "20.1%"],
    ];
    check(
        results,
        "results of operations ( in millions ) :",
        &["what was the operating margin in 2009?"],
        &[Num("20.5")],
    );
}

#[test]
fn an_average_per_unit_the_page_does_not_print_divides_the_amount_by_the_count() {
    let hospitals: &[&[&str]] = &[
        &["", "december 31 , 2011", "december 31 , 2010"],
        &["hospitals", "128", "122"],
        &["licensed beds", "20,614", "19,802"],
        &["admissions", "741,200", "722,450"],
    ];
    check(
        hospitals,
        "the following table sets forth operating statistics of our facilities :",
        &["what was the average number of licensed beds per hospital at december 31 , 2011?"],
        &[Num("161.046875")],
    );
}

#[test]
fn the_next_years_of_a_schedule_add_its_first_years() {
    let maturities: &[&[&str]] = &[
        &["", "senior notes", "term loan", "total"],
        &["2011", "$ 250", "$ 75", "$ 325"],
        &["2012", "400", "75", "475"],
        &["2013", "-", "150", "150"],
        &["2014", "500", "300", "800"],
        &["2015", "350", "-", "350"],
        &["thereafter", "1,750", "-", "1,750"],
        &["total", "$ 3,250", "$ 600", "$ 3,850"],
    ];
    check(
        maturities,
        "scheduled maturities of long-term debt at december 31 , 2010 were as follows ( in \
         millions ) :",
        &[
            "what amount of the term loan matures over the next two years?",
            "what are the total maturities due in the next five years?",
        ],
        &[Num("150"), Num("2100")],
    );
}

#[test]
fn a_total_over_columns_that_share_a_name_adds_them_when_years_are_rows() {
    let coal: &[&[&str]] = &[
        &[
            "",
            "appalachia tons sold ( millions )",
            "powder river basin tons sold ( millions )",
            "average price per ton",
        ],
        &["2012", "18.7", "98.4", "$ 31.20"],
        &["2011", "21.2", "95.1", "$ 29.85"],
    ];
    check(
        coal,
        "coal sales by basin were as follows :",
        &["what were total tons sold in 2012?", "and in 2011?"],
        &[Num("117.1"), Num("116.3")],
    );
}

/// "what is the product of those?" naming nothing: the last two results
/// multiplied.
#[test]
fn the_product_of_those_multiplies_the_last_two_results() {
    check(
        &[
            &[
                "",
                "total number of shares purchased",
                "average price paid per share",
            ],
            &["october 1 - 31", "1,200,000", "$ 40.10"],
            &["november 1 - 30", "950,000", "$ 42.50"],
        ],
        "",
        &[
            "how many shares were purchased in october?",
            "and what was the average price paid per share?",
            "what is the product of those?",
        ],
        &[Num("1200000"), Num("40.10"), Num("48120000")],
    );
}

/// "how much of that came from outside the united states?" after net
/// revenues, on a page that prints the share outside ("52 % of net
/// revenues"): the revenues times the percentage.
#[test]
fn a_printed_share_of_the_amount_asked_before_is_applied_to_it() {
    check(
        &[
            &["", "2009", "2008"],
            &["net revenues", "$ 7,106", "$ 6,580"],
            &["operating income", "1,020", "950"],
        ],
        "net revenues increased 8 % in 2009 . in 2009 , revenues from customers outside \
         the united states were 52 % ( 52 % ) of net revenues .",
        &[
            "what were net revenues in 2009?",
            "how much of that came from outside the united states?",
        ],
        &[Num("7106"), Num("3695.12")],
    );
}

/// A share a sentence prints of a head count ("35 % of our employees"):
/// asked after the count, "what percentage of them ..." reads it (no row
/// of the table meets the question's words), and "how many employees is
/// that?" applies it to the count.
#[test]
fn a_printed_percentage_is_read_and_then_applied_to_the_count_before_it() {
    check(
        &[
            &["", "2010", "2009"],
            &["revenue", "$ 500", "$ 450"],
            &["cost of sales", "300", "280"],
        ],
        "as of december 31 , 2010 , we had 1,500 employees . approximately 35% ( 35 % ) \
         of our employees are covered by collective bargaining agreements .",
        &[
            "how many employees did the company have at the end of 2010?",
            "and what percentage of them are covered by collective bargaining agreements?",
            "how many employees is that?",
        ],
        &[Num("1500"), Num("35"), Num("525")],
    );
}

/// "the first half of 2012" on a table of the year's quarters (a total row
/// of other lines beside them): the first two quarters' cells added; "and
/// the second half?" the last two.
#[test]
fn a_half_year_on_a_quarterly_table_adds_its_two_quarters() {
    check(
        &[
            &[
                "",
                "december 31 2012",
                "september 30 2012",
                "june 30 2012",
                "march 31 2012",
            ],
            &["nonperforming loans", "182.4", "207.9", "246.3", "301.7"],
            &["other real estate owned", "41.8", "46.2", "52.7", "58.9"],
            &[
                "total nonperforming assets",
                "224.2",
                "254.1",
                "299.0",
                "360.6",
            ],
            &["net charge-offs", "14.6", "22.8", "31.5", "18.9"],
        ],
        "",
        &[
            "what were net charge-offs in the first half of 2012?",
            "and in the second half?",
            "what were total nonperforming assets at the end of 2012?",
        ],
        &[Num("50.4"), Num("37.4"), Num("224.2")],
    );
}

/// "what were the remaining contributions?" after a total and how much of
/// it was discretionary, "how many were not exercisable?" after the
/// options outstanding and those exercisable: the whole less the part.
#[test]
fn the_remainder_of_a_whole_is_the_whole_less_the_part_asked_after_it() {
    check(
        SALES,
        "in 2009 , the company contributed $ 1.45 billion to its pension plans , of which \
         $ 1.0 billion was discretionary .",
        &[
            "how much did the company contribute to its pension plans in 2009, in billions?",
            "and how much of that was discretionary?",
            "what were the remaining contributions?",
        ],
        &[Num("1.45"), Num("1.0"), Num("0.45")],
    );
    check(
        &[
            &[
                "",
                "shares ( in thousands )",
                "weighted average exercise price",
            ],
            &["outstanding at december 31 , 2010", "17,500", "$ 35.10"],
            &["granted", "3,112", "41.87"],
            &["exercised", "( 2,845 )", "28.40"],
            &["outstanding at december 31 , 2011", "17,037", "37.05"],
            &["exercisable at december 31 , 2011", "11,208", "33.90"],
        ],
        "",
        &[
            "how many options were outstanding at december 31 , 2011?",
            "and how many were exercisable?",
            "how many were not exercisable?",
        ],
        &[Num("17037"), Num("11208"), Num("5829")],
    );
}

/// "what was the net of those two?" after two values: their difference.
#[test]
fn the_net_of_two_values_is_their_difference() {
    check(
        &[
            &[
                "",
                "shares ( in thousands )",
                "weighted average exercise price",
            ],
            &["granted", "3,112", "41.87"],
            &["exercised", "( 2,845 )", "28.40"],
        ],
        "",
        &[
            "how many options were granted?",
            "and how many were exercised?",
            "what was the net of those two?",
        ],
        &[Num("3112"), Num("2845"), Num("267")],
    );
}

/// "full year net income" on a table of the year's quarters without a
/// total: the four quarters added.
#[test]
fn a_full_year_on_a_quarterly_table_adds_its_quarters() {
    check(
        &[
            &[
                "",
                "first quarter",
                "second quarter",
                "third quarter",
                "fourth quarter",
            ],
            &["net sales", "1,010", "1,050", "1,100", "1,200"],
            &["net income", "110", "120", "130", "140"],
        ],
        "",
        &["what was full year net income?"],
        &[Num("500")],
    );
}

/// "the midpoint of the expected range" where a sentence states the range
/// ("between $ 550 million and $ 575 million", "from $ 85 million to $ 95
/// million"): its two ends averaged; "how much remains to be recorded?"
/// after it and the part recorded: the midpoint less that part.
#[test]
fn the_midpoint_of_a_range_the_text_states_averages_its_ends() {
    check(
        SALES,
        "capital expenditures were $ 512 million in 2009 . we expect capital expenditures \
         in 2010 to be between $ 550 million and $ 575 million .",
        &["what is the midpoint of the expected range for 2010 capital expenditures?"],
        &[Num("562.5")],
    );
    check(
        SALES,
        "the company expects total costs of the restructuring plan to range from $ 85 \
         million to $ 95 million , of which $ 55.8 million was recorded in 2009 .",
        &[
            "what is the midpoint of the expected total cost of the plan?",
            "and how much was recorded in 2009?",
            "how much remains to be recorded?",
        ],
        &[Num("90"), Num("55.8"), Num("34.2")],
    );
}

/// A remainder word a label prints ("securities remaining available for
/// future issuance") names that label's value, not what is left.
#[test]
fn a_remainder_word_a_label_prints_names_the_label() {
    check(
        &[
            &[
                "",
                "number of securities to be issued upon exercise",
                "number of securities remaining available for future issuance",
            ],
            &["plans approved by security holders", "1,200,000", "4,087,587"],
            &["plans not approved by security holders", "300,000", "448,859"],
        ],
        "",
        &[
            "what is the number of securities to be issued upon exercise under plans approved by security holders?",
            "and what is the number of securities remaining available for future issuance under those plans?",
            "what is the number of securities remaining available for future issuance under plans approved by security holders?",
        ],
        &[Num("1200000"), Num("4087587"), Num("4087587")],
    );
}

/// "what percent of net sales came from the largest customer?" on a page
/// whose table prints only net sales and whose text prints the customer's
/// share: a part that misses the question's own words ("largest
/// customer") gives way to the percentage printed for every one of them.
#[test]
fn a_share_the_table_cannot_name_is_the_percentage_the_text_prints() {
    check(
        &[
            &["", "fiscal 2010", "fiscal 2009"],
            &["total net sales", "$ 6,159.5", "$ 5,812.0"],
            &["gross profit", "2,020.1", "1,880.4"],
        ],
        "our three largest customers accounted for approximately 27% of consolidated net \
         sales in fiscal 2010 , and our largest customer alone accounted for 16% , 15% and \
         14% of net sales in fiscal 2010 , 2009 and 2008 , respectively .",
        &["what percent of net sales came from the largest customer in fiscal 2010?"],
        &[Num("16")],
    );
}

/// "the average price paid per share repurchased in 2009" where a sentence
/// counts and prices the shares together ("we repurchased 6.2 million of
/// our common shares for $ 248 million"): the amount over the count, not a
/// table row that pays something else.
#[test]
fn an_average_price_is_the_amount_over_the_count_a_sentence_prints_together() {
    check(
        &[
            &["", "2009", "2008"],
            &["paid related to current year", "1,688", "1,590"],
            &["total paid", "4,139", "3,950"],
        ],
        "reserves were $ 418 million at december 31 , 2009 . during 2009 , we repurchased \
         6.2 million of our common shares for $ 248 million , and at december 31 , 2009 , \
         $ 552 million remained under the repurchase authorization .",
        &["what was the average price paid per share repurchased in 2009?"],
        &[Num("40")],
    );
}

/// "what was total fuel cost in 2009?" on a table with a row of gallons
/// consumed and a row of the average price per gallon: the one times the
/// other, of the year's column.
#[test]
fn a_cost_is_the_quantity_row_times_the_row_that_prices_its_unit() {
    check(
        &[
            &["", "2009", "2008"],
            &[
                "revenue passengers carried ( thousands )",
                "48,216",
                "51,384",
            ],
            &["average fuel price per gallon", "$ 2.06", "$ 3.12"],
            &["fuel gallons consumed ( millions )", "1,012", "1,094"],
        ],
        "",
        &["what was total fuel cost in 2009 , in millions?"],
        &[Num("2084.72")],
    );
}

/// "the annualized dividend per share in 2010" on a row of the quarterly
/// dividend: four quarters' worth; "and in 2009?" asks it again.
#[test]
fn an_annual_amount_of_a_quarterly_rate_is_four_of_them() {
    check(
        &[
            &["", "2010", "2009"],
            &["net income", "255", "231"],
            &["quarterly dividend per share", "0.28", "0.25"],
        ],
        "",
        &[
            "what was the annualized dividend per share in 2010?",
            "and in 2009?",
            "what was the quarterly dividend per share in 2010?",
        ],
        &[Num("1.12"), Num("1.00"), Num("0.28")],
    );
}

/// A quarterly rate the page adds up already ("quarterly cash dividends
/// totaling $ 0.84 per share in 2010") is the year's amount: "the annual
/// dividend" reads it as printed.
#[test]
fn a_quarterly_rate_the_text_totals_is_the_annual_amount() {
    check(
        SALES,
        "we paid quarterly cash dividends totaling $ 0.84 per share in 2009 and $ 0.76 per \
         share in 2008 .",
        &["what was the annual dividend per share in 2009?"],
        &[Num("0.84")],
    );
}

/// A sum word the text prints as part of a name ("the company 's combined
/// ratio was 101.3 %"): "what was the combined ratio in 2012?" reads that
/// ratio, it asks for no sum; read, it is a look-up, so "and in 2011?" is
/// the same sentence's figure for 2011.
#[test]
fn a_sum_word_the_text_prints_in_a_name_asks_for_no_sum() {
    check(
        &[
            &["", "2012", "2011"],
            &["first quarter", "38", "52"],
            &["second quarter", "121", "247"],
        ],
        "catastrophe losses added 11.8 points to the combined ratio in 2012 . the company 's \
         combined ratio was 101.3% ( 101.3 % ) in 2012 and 103.9% ( 103.9 % ) in 2011 .",
        &["what was the combined ratio in 2012?", "and in 2011?"],
        &[Num("101.3"), Num("103.9")],
    );
}
