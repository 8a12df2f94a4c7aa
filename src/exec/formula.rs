//! The Phase 2 formula language: exact decimal arithmetic over named values.
//!
//! A formula such as `(net_sales_2009 - net_sales_2008) / net_sales_2008` is
//! parsed once with [`Formula::parse`] and evaluated with [`Formula::eval`],
//! which looks every name up through a caller-supplied function. All
//! arithmetic uses [`rust_decimal::Decimal`] with checked operations, so
//! results are exact (`0.1 + 0.2 == 0.3`) and failures (division by zero,
//! overflow) are reported as [`FormulaError`] values, never as panics.
//!
//! Grammar (whitespace is ignored):
//!
//! ```text
//! formula    := additive ( cmp additive )?          cmp: > < >= <= == !=
//! additive   := multiplicative ( ("+" | "-") multiplicative )*
//! multiplicative := unary ( ("*" | "/") unary )*
//! unary      := ("-" | "+") unary | primary
//! primary    := number | name | name "(" args ")" | "(" formula ")"
//! args       := formula ( "," formula )*
//! ```
//!
//! Functions: `abs(x)`, `min(a, ...)`, `max(a, ...)`, `round(x, n)` with `n`
//! an integer in `0..=28` (half away from zero), `avg(a, ...)` /
//! `average(a, ...)` and `sum(a, ...)`. Function names are case-insensitive.

use std::fmt;

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

/// Maximum nesting depth (parentheses, unary signs, function arguments).
pub const MAX_DEPTH: usize = 64;

/// Maximum source length in bytes.
pub const MAX_LENGTH: usize = 4096;

/// Largest number of decimal places accepted by `round(x, n)`.
const MAX_ROUND_PLACES: u32 = 28;

/// The value of an evaluated formula.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FormulaValue {
    /// An exact decimal number.
    Number(Decimal),
    /// The result of a comparison.
    Bool(bool),
}

impl fmt::Display for FormulaValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "{n}"),
            Self::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Why a formula could not be parsed or evaluated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormulaError {
    /// The text is not a well-formed formula.
    #[error("syntax error at position {pos}: {message}")]
    Syntax {
        /// Byte position in the source.
        pos: usize,
        /// What is wrong.
        message: String,
    },
    /// The source is longer than [`MAX_LENGTH`].
    #[error("formula is {len} bytes long, more than the limit of {max}")]
    TooLong {
        /// Length of the source in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The formula nests deeper than [`MAX_DEPTH`].
    #[error("formula nests deeper than the limit of {max} at position {pos}")]
    TooDeep {
        /// Byte position where the limit was exceeded.
        pos: usize,
        /// The limit.
        max: usize,
    },
    /// A value name has no binding.
    #[error("unknown name `{name}` at position {pos}")]
    UnknownName {
        /// The name.
        name: String,
        /// Byte position of the name.
        pos: usize,
    },
    /// A function call names no known function.
    #[error("unknown function `{name}` at position {pos}")]
    UnknownFunction {
        /// The function name as written.
        name: String,
        /// Byte position of the function name.
        pos: usize,
    },
    /// A function was called with the wrong number of arguments.
    #[error("function `{name}` at position {pos} takes {expected} argument(s), got {got}")]
    WrongArity {
        /// The function name as written.
        name: String,
        /// Byte position of the function name.
        pos: usize,
        /// The accepted argument count, e.g. `"1"` or `"at least 1"`.
        expected: String,
        /// The number of arguments given.
        got: usize,
    },
    /// A function argument has an unacceptable value (e.g. `round(x, 1.5)`).
    #[error("invalid argument to `{name}` at position {pos}: {message}")]
    InvalidArgument {
        /// The function name as written.
        name: String,
        /// Byte position of the offending argument.
        pos: usize,
        /// What is wrong.
        message: String,
    },
    /// A division had a zero divisor.
    #[error("division by zero in `{expr}` at position {pos}")]
    DivisionByZero {
        /// Byte position of the `/` operator.
        pos: usize,
        /// Source text of the division sub-expression.
        expr: String,
    },
    /// An arithmetic result does not fit in a decimal.
    #[error("arithmetic overflow in `{expr}` at position {pos}")]
    Overflow {
        /// Byte position of the operator or function.
        pos: usize,
        /// Source text of the overflowing sub-expression.
        expr: String,
    },
    /// A boolean was used where a number is needed, or vice versa.
    #[error("type mismatch at position {pos}: {message}")]
    TypeMismatch {
        /// Byte position of the offending sub-expression.
        pos: usize,
        /// What is wrong.
        message: String,
    },
}

/// A parsed formula, ready to evaluate.
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    source: String,
    root: Expr,
}

impl Formula {
    /// Parses `source`, checking length, nesting depth, syntax, function
    /// names and arities.
    pub fn parse(source: &str) -> Result<Formula, FormulaError> {
        // Cheap structural pre-scan first, so that pathologically nested
        // input is reported as too deep even when it is also too long.
        check_paren_depth(source)?;
        if source.len() > MAX_LENGTH {
            return Err(FormulaError::TooLong {
                len: source.len(),
                max: MAX_LENGTH,
            });
        }
        let tokens = lex(source)?;
        let mut parser = Parser {
            tokens,
            idx: 0,
            depth: 0,
        };
        if parser.peek().kind == Tok::End {
            return Err(syntax(0, "empty formula"));
        }
        let root = parser.parse_formula()?;
        let next = parser.peek();
        if next.kind != Tok::End {
            return Err(syntax(
                next.start,
                format!(
                    "unexpected {} after the end of the formula",
                    next.kind.describe()
                ),
            ));
        }
        Ok(Formula {
            source: source.to_owned(),
            root,
        })
    }

    /// The source text the formula was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Value names used, in first-appearance order, deduplicated.
    pub fn names(&self) -> Vec<String> {
        let mut out = Vec::new();
        collect_names(&self.root, &mut out);
        out
    }

    /// Evaluates the formula, resolving names through `lookup`.
    pub fn eval(
        &self,
        lookup: &dyn Fn(&str) -> Option<Decimal>,
    ) -> Result<FormulaValue, FormulaError> {
        let ctx = EvalCtx {
            source: &self.source,
            lookup,
        };
        ctx.eval(&self.root)
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

fn syntax(pos: usize, message: impl Into<String>) -> FormulaError {
    FormulaError::Syntax {
        pos,
        message: message.into(),
    }
}

/// Reports the first `(` that opens nesting deeper than [`MAX_DEPTH`]
/// (the top level counts as depth 1, as in the parser).
fn check_paren_depth(source: &str) -> Result<(), FormulaError> {
    let mut depth = 0usize;
    for (pos, b) in source.bytes().enumerate() {
        match b {
            b'(' => {
                depth += 1;
                if depth >= MAX_DEPTH {
                    return Err(FormulaError::TooDeep {
                        pos,
                        max: MAX_DEPTH,
                    });
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- lexer

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CmpOp {
    Gt,
    Lt,
    Ge,
    Le,
    Eq,
    Ne,
}

impl CmpOp {
    fn apply(self, a: Decimal, b: Decimal) -> bool {
        match self {
            Self::Gt => a > b,
            Self::Lt => a < b,
            Self::Ge => a >= b,
            Self::Le => a <= b,
            Self::Eq => a == b,
            Self::Ne => a != b,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(Decimal),
    Name(String),
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
    Cmp(CmpOp),
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Self::Num(n) => format!("number `{n}`"),
            Self::Name(n) => format!("name `{n}`"),
            Self::Plus => "`+`".to_owned(),
            Self::Minus => "`-`".to_owned(),
            Self::Star => "`*`".to_owned(),
            Self::Slash => "`/`".to_owned(),
            Self::LParen => "`(`".to_owned(),
            Self::RParen => "`)`".to_owned(),
            Self::Comma => "`,`".to_owned(),
            Self::Cmp(_) => "comparison operator".to_owned(),
            Self::End => "end of formula".to_owned(),
        }
    }
}

#[derive(Debug, Clone)]
struct Token {
    kind: Tok,
    start: usize,
    end: usize,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn lex(source: &str) -> Result<Vec<Token>, FormulaError> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let kind = if c.is_ascii_digit() || c == b'.' {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let int_digits = i - start;
            let mut frac_digits = 0;
            if i < bytes.len() && bytes[i] == b'.' {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                    frac_digits += 1;
                }
            }
            if i < bytes.len() && (is_name_char(bytes[i]) || bytes[i] == b'.') {
                while i < bytes.len() && (is_name_char(bytes[i]) || bytes[i] == b'.') {
                    i += 1;
                }
                let text = source.get(start..i).unwrap_or_default();
                return Err(syntax(start, format!("bad number `{text}`")));
            }
            let text = source.get(start..i).unwrap_or_default();
            if frac_digits == 0 && (int_digits == 0 || text.ends_with('.')) {
                return Err(syntax(start, format!("bad number `{text}`")));
            }
            let value = Decimal::from_str_exact(text).map_err(|_| {
                syntax(
                    start,
                    format!("number `{text}` cannot be represented exactly as a decimal"),
                )
            })?;
            Tok::Num(value)
        } else if is_name_start(c) {
            while i < bytes.len() && is_name_char(bytes[i]) {
                i += 1;
            }
            Tok::Name(source.get(start..i).unwrap_or_default().to_owned())
        } else {
            let next = bytes.get(i + 1).copied();
            let (kind, len) = match (c, next) {
                (b'+', _) => (Tok::Plus, 1),
                (b'-', _) => (Tok::Minus, 1),
                (b'*', _) => (Tok::Star, 1),
                (b'/', _) => (Tok::Slash, 1),
                (b'(', _) => (Tok::LParen, 1),
                (b')', _) => (Tok::RParen, 1),
                (b',', _) => (Tok::Comma, 1),
                (b'>', Some(b'=')) => (Tok::Cmp(CmpOp::Ge), 2),
                (b'<', Some(b'=')) => (Tok::Cmp(CmpOp::Le), 2),
                (b'=', Some(b'=')) => (Tok::Cmp(CmpOp::Eq), 2),
                (b'!', Some(b'=')) => (Tok::Cmp(CmpOp::Ne), 2),
                (b'>', _) => (Tok::Cmp(CmpOp::Gt), 1),
                (b'<', _) => (Tok::Cmp(CmpOp::Lt), 1),
                _ => {
                    let ch = source.get(start..).and_then(|s| s.chars().next());
                    let shown = ch.map(String::from).unwrap_or_default();
                    return Err(syntax(start, format!("unexpected character `{shown}`")));
                }
            };
            i += len;
            kind
        };
        tokens.push(Token {
            kind,
            start,
            end: i,
        });
    }
    tokens.push(Token {
        kind: Tok::End,
        start: source.len(),
        end: source.len(),
    });
    Ok(tokens)
}

// ---------------------------------------------------------------- AST

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Abs,
    Min,
    Max,
    Round,
    Avg,
    Sum,
}

impl Func {
    fn lookup(name: &str) -> Option<Func> {
        match name.to_ascii_lowercase().as_str() {
            "abs" => Some(Self::Abs),
            "min" => Some(Self::Min),
            "max" => Some(Self::Max),
            "round" => Some(Self::Round),
            "avg" | "average" => Some(Self::Avg),
            "sum" => Some(Self::Sum),
            _ => None,
        }
    }

    /// `None` if `got` is acceptable, else the expected count as text.
    fn arity_error(self, got: usize) -> Option<&'static str> {
        match self {
            Self::Abs if got != 1 => Some("1"),
            Self::Round if got != 2 => Some("2"),
            Self::Min | Self::Max | Self::Avg | Self::Sum if got == 0 => Some("at least 1"),
            _ => None,
        }
    }
}

/// One step of a left-associative chain: operator, its position, operand,
/// and the end of the chain's source text after this step.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    op: ArithOp,
    pos: usize,
    operand: Expr,
    end: usize,
}

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Num(Decimal),
    Name(String),
    Neg(Box<Expr>),
    /// Flat left-associative chain (`a + b - c` or `a * b / c`), so long
    /// chains do not make the tree deep.
    Chain {
        first: Box<Expr>,
        rest: Vec<Step>,
    },
    Cmp {
        op: CmpOp,
        pos: usize,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Call {
        func: Func,
        name: String,
        args: Vec<Expr>,
    },
}

#[derive(Debug, Clone, PartialEq)]
struct Expr {
    node: Node,
    start: usize,
    end: usize,
}

fn collect_names(expr: &Expr, out: &mut Vec<String>) {
    match &expr.node {
        Node::Num(_) => {}
        Node::Name(name) => {
            if !out.iter().any(|n| n == name) {
                out.push(name.clone());
            }
        }
        Node::Neg(inner) => collect_names(inner, out),
        Node::Chain { first, rest } => {
            collect_names(first, out);
            for step in rest {
                collect_names(&step.operand, out);
            }
        }
        Node::Cmp { lhs, rhs, .. } => {
            collect_names(lhs, out);
            collect_names(rhs, out);
        }
        Node::Call { args, .. } => {
            for arg in args {
                collect_names(arg, out);
            }
        }
    }
}

// ---------------------------------------------------------------- parser

struct Parser {
    tokens: Vec<Token>,
    idx: usize,
    depth: usize,
}

const END_TOKEN: Token = Token {
    kind: Tok::End,
    start: 0,
    end: 0,
};

impl Parser {
    fn peek(&self) -> &Token {
        self.tokens
            .get(self.idx)
            .or_else(|| self.tokens.last())
            .unwrap_or(&END_TOKEN)
    }

    fn advance(&mut self) -> Token {
        let tok = self.peek().clone();
        if self.idx < self.tokens.len() {
            self.idx += 1;
        }
        tok
    }

    fn parse_formula(&mut self) -> Result<Expr, FormulaError> {
        let lhs = self.parse_additive()?;
        let Tok::Cmp(op) = self.peek().kind else {
            return Ok(lhs);
        };
        let pos = self.advance().start;
        let rhs = self.parse_additive()?;
        if let Tok::Cmp(_) = self.peek().kind {
            return Err(syntax(
                self.peek().start,
                "comparisons cannot be chained; use parentheses",
            ));
        }
        Ok(Expr {
            start: lhs.start,
            end: rhs.end,
            node: Node::Cmp {
                op,
                pos,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
        })
    }

    fn parse_additive(&mut self) -> Result<Expr, FormulaError> {
        let first = self.parse_multiplicative()?;
        self.parse_chain(first, |t| match t {
            Tok::Plus => Some(ArithOp::Add),
            Tok::Minus => Some(ArithOp::Sub),
            _ => None,
        })
    }

    fn parse_multiplicative(&mut self) -> Result<Expr, FormulaError> {
        let first = self.parse_unary()?;
        let mut rest = Vec::new();
        while let Some(op) = match self.peek().kind {
            Tok::Star => Some(ArithOp::Mul),
            Tok::Slash => Some(ArithOp::Div),
            _ => None,
        } {
            let pos = self.advance().start;
            let operand = self.parse_unary()?;
            let end = operand.end;
            rest.push(Step {
                op,
                pos,
                operand,
                end,
            });
        }
        Ok(make_chain(first, rest))
    }

    fn parse_chain(
        &mut self,
        first: Expr,
        op_of: fn(&Tok) -> Option<ArithOp>,
    ) -> Result<Expr, FormulaError> {
        let mut rest = Vec::new();
        while let Some(op) = op_of(&self.peek().kind) {
            let pos = self.advance().start;
            let operand = self.parse_multiplicative()?;
            let end = operand.end;
            rest.push(Step {
                op,
                pos,
                operand,
                end,
            });
        }
        Ok(make_chain(first, rest))
    }

    fn parse_unary(&mut self) -> Result<Expr, FormulaError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(FormulaError::TooDeep {
                pos: self.peek().start,
                max: MAX_DEPTH,
            });
        }
        let result = self.parse_unary_inner();
        self.depth -= 1;
        result
    }

    fn parse_unary_inner(&mut self) -> Result<Expr, FormulaError> {
        match self.peek().kind {
            Tok::Minus => {
                let start = self.advance().start;
                let inner = self.parse_unary()?;
                Ok(Expr {
                    start,
                    end: inner.end,
                    node: Node::Neg(Box::new(inner)),
                })
            }
            Tok::Plus => {
                let start = self.advance().start;
                let mut inner = self.parse_unary()?;
                inner.start = start;
                Ok(inner)
            }
            _ => self.parse_primary(),
        }
    }

    fn parse_primary(&mut self) -> Result<Expr, FormulaError> {
        let tok = self.advance();
        match tok.kind {
            Tok::Num(value) => Ok(Expr {
                node: Node::Num(value),
                start: tok.start,
                end: tok.end,
            }),
            Tok::Name(name) => {
                if self.peek().kind == Tok::LParen {
                    self.parse_call(name, tok.start)
                } else {
                    Ok(Expr {
                        node: Node::Name(name),
                        start: tok.start,
                        end: tok.end,
                    })
                }
            }
            Tok::LParen => {
                let inner = self.parse_formula()?;
                let close = self.expect_rparen(tok.start)?;
                Ok(Expr {
                    node: inner.node,
                    start: tok.start,
                    end: close,
                })
            }
            Tok::End => Err(syntax(tok.start, "unexpected end of formula")),
            other => Err(syntax(
                tok.start,
                format!(
                    "unexpected {}, expected a number, name or `(`",
                    other.describe()
                ),
            )),
        }
    }

    /// Consumes a `)` and returns the end position after it.
    fn expect_rparen(&mut self, open: usize) -> Result<usize, FormulaError> {
        let tok = self.peek().clone();
        if tok.kind == Tok::RParen {
            self.advance();
            Ok(tok.end)
        } else {
            Err(syntax(
                tok.start,
                format!(
                    "missing `)` to close the `(` at position {open}, found {}",
                    tok.kind.describe()
                ),
            ))
        }
    }

    fn parse_call(&mut self, name: String, start: usize) -> Result<Expr, FormulaError> {
        let open = self.advance().start; // the `(`
        let func = Func::lookup(&name).ok_or_else(|| FormulaError::UnknownFunction {
            name: name.clone(),
            pos: start,
        })?;
        let mut args = Vec::new();
        if self.peek().kind != Tok::RParen {
            loop {
                args.push(self.parse_formula()?);
                if self.peek().kind == Tok::Comma {
                    self.advance();
                } else {
                    break;
                }
            }
        }
        let end = self.expect_rparen(open)?;
        if let Some(expected) = func.arity_error(args.len()) {
            return Err(FormulaError::WrongArity {
                name,
                pos: start,
                expected: expected.to_owned(),
                got: args.len(),
            });
        }
        Ok(Expr {
            node: Node::Call { func, name, args },
            start,
            end,
        })
    }
}

fn make_chain(first: Expr, rest: Vec<Step>) -> Expr {
    if rest.is_empty() {
        return first;
    }
    let start = first.start;
    let end = rest.last().map_or(first.end, |s| s.end);
    Expr {
        node: Node::Chain {
            first: Box::new(first),
            rest,
        },
        start,
        end,
    }
}

// ---------------------------------------------------------------- evaluation

struct EvalCtx<'a> {
    source: &'a str,
    lookup: &'a dyn Fn(&str) -> Option<Decimal>,
}

impl EvalCtx<'_> {
    fn text(&self, start: usize, end: usize) -> String {
        self.source.get(start..end).unwrap_or_default().to_owned()
    }

    fn eval(&self, expr: &Expr) -> Result<FormulaValue, FormulaError> {
        match &expr.node {
            Node::Num(value) => Ok(FormulaValue::Number(*value)),
            Node::Name(name) => (self.lookup)(name)
                .map(FormulaValue::Number)
                .ok_or_else(|| FormulaError::UnknownName {
                    name: name.clone(),
                    pos: expr.start,
                }),
            Node::Neg(inner) => {
                let value = self.number(inner)?;
                // Negation flips the sign bit and cannot overflow.
                Ok(FormulaValue::Number(-value))
            }
            Node::Chain { first, rest } => {
                let mut acc = self.number(first)?;
                for step in rest {
                    let rhs = self.number(&step.operand)?;
                    let result = match step.op {
                        ArithOp::Add => acc.checked_add(rhs),
                        ArithOp::Sub => acc.checked_sub(rhs),
                        ArithOp::Mul => acc.checked_mul(rhs),
                        ArithOp::Div => {
                            if rhs.is_zero() {
                                return Err(FormulaError::DivisionByZero {
                                    pos: step.pos,
                                    expr: self.text(expr.start, step.end),
                                });
                            }
                            acc.checked_div(rhs)
                        }
                    };
                    acc = result.ok_or_else(|| FormulaError::Overflow {
                        pos: step.pos,
                        expr: self.text(expr.start, step.end),
                    })?;
                }
                Ok(FormulaValue::Number(acc))
            }
            Node::Cmp { op, lhs, rhs, .. } => {
                let a = self.number(lhs)?;
                let b = self.number(rhs)?;
                Ok(FormulaValue::Bool(op.apply(a, b)))
            }
            Node::Call { func, name, args } => self.call(expr, *func, name, args),
        }
    }

    fn number(&self, expr: &Expr) -> Result<Decimal, FormulaError> {
        match self.eval(expr)? {
            FormulaValue::Number(n) => Ok(n),
            FormulaValue::Bool(_) => Err(FormulaError::TypeMismatch {
                pos: expr.start,
                message: format!(
                    "`{}` is a comparison, but a number is needed here",
                    self.text(expr.start, expr.end)
                ),
            }),
        }
    }

    fn call(
        &self,
        expr: &Expr,
        func: Func,
        name: &str,
        args: &[Expr],
    ) -> Result<FormulaValue, FormulaError> {
        let values = args
            .iter()
            .map(|a| self.number(a))
            .collect::<Result<Vec<_>, _>>()?;
        let overflow = || FormulaError::Overflow {
            pos: expr.start,
            expr: self.text(expr.start, expr.end),
        };
        let arity = || FormulaError::WrongArity {
            name: name.to_owned(),
            pos: expr.start,
            expected: func.arity_error(0).unwrap_or("1").to_owned(),
            got: values.len(),
        };
        let first = *values.first().ok_or_else(arity)?;
        let result = match func {
            Func::Abs => first.abs(),
            Func::Min => values.iter().copied().fold(first, Decimal::min),
            Func::Max => values.iter().copied().fold(first, Decimal::max),
            Func::Sum => checked_sum(&values).ok_or_else(overflow)?,
            Func::Avg => {
                let total = checked_sum(&values).ok_or_else(overflow)?;
                let count = Decimal::from(values.len());
                total.checked_div(count).ok_or_else(overflow)?
            }
            Func::Round => {
                let places = values.get(1).copied().ok_or_else(arity)?;
                let places_pos = args.get(1).map_or(expr.start, |a| a.start);
                let dp = round_places(places).ok_or_else(|| FormulaError::InvalidArgument {
                    name: name.to_owned(),
                    pos: places_pos,
                    message: format!(
                        "the number of decimal places must be an integer from 0 to \
                         {MAX_ROUND_PLACES}, got {places}"
                    ),
                })?;
                first.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
            }
        };
        Ok(FormulaValue::Number(result))
    }
}

fn checked_sum(values: &[Decimal]) -> Option<Decimal> {
    values
        .iter()
        .try_fold(Decimal::ZERO, |acc, v| acc.checked_add(*v))
}

fn round_places(places: Decimal) -> Option<u32> {
    if !places.fract().is_zero() {
        return None;
    }
    places.to_u32().filter(|n| *n <= MAX_ROUND_PLACES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn num(s: &str) -> Result<FormulaValue, FormulaError> {
        Ok(FormulaValue::Number(d(s)))
    }

    fn check(src: &str, env: &[(&str, &str)], expected: Result<FormulaValue, FormulaError>) {
        let env: Vec<(String, Decimal)> =
            env.iter().map(|(k, v)| ((*k).to_owned(), d(v))).collect();
        let lookup = |name: &str| env.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
        let got = Formula::parse(src).and_then(|f| f.eval(&lookup));
        assert_eq!(got, expected, "formula {src:?}");
    }

    fn syntax_at(pos: usize) -> impl Fn(&str) {
        move |src: &str| match Formula::parse(src) {
            Err(FormulaError::Syntax { pos: p, message }) => {
                assert_eq!(p, pos, "{src:?}: {message}");
                let shown = Formula::parse(src).unwrap_err().to_string();
                assert!(shown.contains(&format!("position {pos}")), "{shown}");
            }
            other => panic!("{src:?}: expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        check("1 + 2 * 3", &[], num("7"));
        check("2 * 3 + 1", &[], num("7"));
        check("10 - 4 - 3", &[], num("3"));
        check("100 / 10 / 5", &[], num("2"));
        check("2 * 3 / 4", &[], num("1.5"));
        check("1 - 2 + 3", &[], num("2"));
    }

    #[test]
    fn unary_signs() {
        check("-a - -b", &[("a", "5"), ("b", "3")], num("-2"));
        check("--1", &[], num("1"));
        check("-a * 100", &[("a", "0.25")], num("-25"));
        check("+2 - +1", &[], num("1"));
        check("-(1 + 2) * -2", &[], num("6"));
        check("2 * -3", &[], num("-6"));
    }

    #[test]
    fn parentheses() {
        check("(1 + 2) * 3", &[], num("9"));
        check("((2))", &[], num("2"));
        check("2 * (3 + (4 - 1)) / 3", &[], num("4"));
    }

    #[test]
    fn literals() {
        check(".5 + 12", &[], num("12.5"));
        check("12.50", &[], num("12.5"));
        check("  007  ", &[], num("7"));
    }

    #[test]
    fn exact_decimal_results() {
        check("0.1 + 0.2", &[], num("0.3"));
        check("0.1 + 0.2 == 0.3", &[], Ok(FormulaValue::Bool(true)));
        let f = Formula::parse("(net_sales_2009 - net_sales_2008) / net_sales_2008").unwrap();
        let env = |n: &str| match n {
            "net_sales_2009" => Some(d("60.94")),
            "net_sales_2008" => Some(d("25.14")),
            _ => None,
        };
        let FormulaValue::Number(v) = f.eval(&env).unwrap() else {
            panic!("expected a number");
        };
        let shown = v.to_string();
        assert!(shown.starts_with("1.42402"), "{shown}");
        assert_eq!(shown.len(), 29, "{shown}"); // 28 significant digits and the point
        check(
            "(60.94 - 25.14) / 25.14 * 100",
            &[],
            num("142.40254574383452665075576770"),
        );
    }

    #[test]
    fn functions() {
        check("abs(-3.5)", &[], num("3.5"));
        check("abs(2)", &[], num("2"));
        check("min(3, 1, 2)", &[], num("1"));
        check("min(4)", &[], num("4"));
        check("max(a, b)", &[("a", "1.5"), ("b", "-2")], num("1.5"));
        check("MAX(1, 7, 3)", &[], num("7"));
        check("round(2.345, 2)", &[], num("2.35"));
        check("round(-2.5, 0)", &[], num("-3"));
        check("round(1.42402545, 4) * 100", &[], num("142.4"));
        check("avg(1, 2)", &[], num("1.5"));
        check(
            "average(1, 2, 4)",
            &[],
            num("2.3333333333333333333333333333"),
        );
        check("sum(1, 2, 3.5)", &[], num("6.5"));
        check("sum(x)", &[("x", "2")], num("2"));
        check("max (1, 2)", &[], num("2"));
        check("abs(min(-1, -2)) + sum(max(1, 2), 3)", &[], num("7"));
    }

    #[test]
    fn round_rejects_bad_places() {
        check(
            "round(1, 1.5)",
            &[],
            Err(FormulaError::InvalidArgument {
                name: "round".into(),
                pos: 9,
                message: "the number of decimal places must be an integer from 0 to 28, got 1.5"
                    .into(),
            }),
        );
        let e = Formula::parse("round(1, 29)")
            .unwrap()
            .eval(&|_| None)
            .unwrap_err();
        assert!(
            matches!(e, FormulaError::InvalidArgument { pos: 9, .. }),
            "{e:?}"
        );
        let e = Formula::parse("round(1, -1)")
            .unwrap()
            .eval(&|_| None)
            .unwrap_err();
        assert!(
            matches!(e, FormulaError::InvalidArgument { pos: 9, .. }),
            "{e:?}"
        );
    }

    #[test]
    fn comparisons_return_bool() {
        let t = Ok(FormulaValue::Bool(true));
        let f = Ok(FormulaValue::Bool(false));
        let env = [("a", "2"), ("b", "1")];
        check("a > b", &env, t.clone());
        check("a < b", &env, f.clone());
        check("a >= 2", &env, t.clone());
        check("a <= 1.99", &env, f.clone());
        check("a == 2.000", &env, t.clone());
        check("a != b", &env, t.clone());
        check("a - b > 0.5 * 2", &env, f.clone());
        check("(a > b)", &env, t);
        check("max(a, b) == min(a, b)", &env, f);
    }

    #[test]
    fn names_in_first_appearance_order() {
        let f = Formula::parse("(b - a) / a + max(c, b) * round(d, 2) > e").unwrap();
        assert_eq!(f.names(), vec!["b", "a", "c", "d", "e"]);
        assert!(Formula::parse("1 + 2").unwrap().names().is_empty());
    }

    #[test]
    fn source_and_display() {
        let src = " (x_1 - y) / y ";
        let f = Formula::parse(src).unwrap();
        assert_eq!(f.source(), src);
        assert_eq!(f.to_string(), src);
    }

    #[test]
    fn division_by_zero() {
        check(
            "a / b",
            &[("a", "1"), ("b", "0")],
            Err(FormulaError::DivisionByZero {
                pos: 2,
                expr: "a / b".into(),
            }),
        );
        check(
            "1 + 2 * 3 / 0",
            &[],
            Err(FormulaError::DivisionByZero {
                pos: 10,
                expr: "2 * 3 / 0".into(),
            }),
        );
        check(
            "(x - 1) / (1 - 1.0)",
            &[("x", "3")],
            Err(FormulaError::DivisionByZero {
                pos: 8,
                expr: "(x - 1) / (1 - 1.0)".into(),
            }),
        );
        let e = Formula::parse("a / b")
            .unwrap()
            .eval(&|_| Some(Decimal::ZERO))
            .unwrap_err();
        assert_eq!(e.to_string(), "division by zero in `a / b` at position 2");
    }

    #[test]
    fn overflow() {
        check(
            "79228162514264337593543950335 * 10",
            &[],
            Err(FormulaError::Overflow {
                pos: 30,
                expr: "79228162514264337593543950335 * 10".into(),
            }),
        );
        check(
            "m - 1 + m",
            &[("m", "79228162514264337593543950335")],
            Err(FormulaError::Overflow {
                pos: 6,
                expr: "m - 1 + m".into(),
            }),
        );
        check(
            "sum(m, m)",
            &[("m", "79228162514264337593543950335")],
            Err(FormulaError::Overflow {
                pos: 0,
                expr: "sum(m, m)".into(),
            }),
        );
        let e = Formula::parse("79228162514264337593543950335 * 10")
            .unwrap()
            .eval(&|_| None)
            .unwrap_err();
        assert!(e.to_string().contains("overflow"), "{e}");
        assert!(e.to_string().contains("position 30"), "{e}");
    }

    #[test]
    fn literal_too_big_is_an_error() {
        syntax_at(4)("1 + 792281625142643375935439503350");
        syntax_at(0)("0.12345678901234567890123456789012");
    }

    #[test]
    fn unknown_name() {
        check(
            "a + missing",
            &[("a", "1")],
            Err(FormulaError::UnknownName {
                name: "missing".into(),
                pos: 4,
            }),
        );
        let e = Formula::parse("zz").unwrap().eval(&|_| None).unwrap_err();
        assert_eq!(e.to_string(), "unknown name `zz` at position 0");
    }

    #[test]
    fn unknown_function() {
        check(
            "1 + median(1, 2)",
            &[],
            Err(FormulaError::UnknownFunction {
                name: "median".into(),
                pos: 4,
            }),
        );
    }

    #[test]
    fn wrong_arity() {
        check(
            "abs(1, 2)",
            &[],
            Err(FormulaError::WrongArity {
                name: "abs".into(),
                pos: 0,
                expected: "1".into(),
                got: 2,
            }),
        );
        check(
            "2 * round(1.5)",
            &[],
            Err(FormulaError::WrongArity {
                name: "round".into(),
                pos: 4,
                expected: "2".into(),
                got: 1,
            }),
        );
        check(
            "max()",
            &[],
            Err(FormulaError::WrongArity {
                name: "max".into(),
                pos: 0,
                expected: "at least 1".into(),
                got: 0,
            }),
        );
        let e = Formula::parse("sum()").unwrap_err();
        assert!(e.to_string().contains("position 0"), "{e}");
    }

    #[test]
    fn syntax_errors() {
        syntax_at(3)("1 +");
        syntax_at(2)("(1");
        syntax_at(2)("1 2");
        syntax_at(2)("a $ b");
        syntax_at(0)("");
        syntax_at(0)("   ");
        syntax_at(6)("a > b > c");
        syntax_at(0)("12.");
        syntax_at(0)("1.2.3");
        syntax_at(0)("2009abc");
        syntax_at(0)(")");
        syntax_at(1)("1)");
        syntax_at(7)("max(1, )");
        syntax_at(6)("max(1 2)");
        syntax_at(2)("a = b");
        syntax_at(2)("a ! b");
        syntax_at(2)("a ∑ b");
        let e = Formula::parse("1 +").unwrap_err();
        assert_eq!(
            e.to_string(),
            "syntax error at position 3: unexpected end of formula"
        );
        let e = Formula::parse("").unwrap_err();
        assert!(e.to_string().contains("empty formula"), "{e}");
    }

    #[test]
    fn type_mismatch() {
        check(
            "(a > b) + 1",
            &[("a", "2"), ("b", "1")],
            Err(FormulaError::TypeMismatch {
                pos: 0,
                message: "`(a > b)` is a comparison, but a number is needed here".into(),
            }),
        );
        check(
            "1 + (2 > 1)",
            &[],
            Err(FormulaError::TypeMismatch {
                pos: 4,
                message: "`(2 > 1)` is a comparison, but a number is needed here".into(),
            }),
        );
        let e = Formula::parse("(1 > 2) > 0")
            .unwrap()
            .eval(&|_| None)
            .unwrap_err();
        assert!(
            matches!(e, FormulaError::TypeMismatch { pos: 0, .. }),
            "{e:?}"
        );
        let e = Formula::parse("abs(1 < 2)")
            .unwrap()
            .eval(&|_| None)
            .unwrap_err();
        assert!(
            matches!(e, FormulaError::TypeMismatch { pos: 4, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("position 4"), "{e}");
    }

    #[test]
    fn too_long() {
        let src = format!("1{}", " + 1".repeat(MAX_LENGTH / 4));
        assert_eq!(
            Formula::parse(&src),
            Err(FormulaError::TooLong {
                len: src.len(),
                max: MAX_LENGTH,
            })
        );
        let e = Formula::parse(&src).unwrap_err();
        assert!(e.to_string().contains("more than the limit of 4096"), "{e}");
    }

    #[test]
    fn long_flat_chains_are_fine() {
        // Close to the length limit, but flat: no depth problem.
        let src = format!("1{}", "+1".repeat(2000));
        check(&src, &[], num("2001"));
    }

    #[test]
    fn too_deep() {
        let n = 10_000;
        let src = format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(
            Formula::parse(&src),
            Err(FormulaError::TooDeep {
                pos: MAX_DEPTH - 1,
                max: MAX_DEPTH,
            })
        );
        // Under the length limit, caught by the parser's depth counter.
        let src = format!("{}1", "-".repeat(2000));
        assert_eq!(
            Formula::parse(&src),
            Err(FormulaError::TooDeep {
                pos: MAX_DEPTH,
                max: MAX_DEPTH,
            })
        );
        let src = format!("{}1{}", "abs(".repeat(500), ")".repeat(500));
        let e = Formula::parse(&src).unwrap_err();
        assert!(
            matches!(e, FormulaError::TooDeep { max: MAX_DEPTH, .. }),
            "{e:?}"
        );
        assert!(e.to_string().contains("limit of 64"), "{e}");
        // The parser's own counter agrees with the pre-scan.
        let src = format!(
            "-{}1{}",
            "(".repeat(MAX_DEPTH - 1),
            ")".repeat(MAX_DEPTH - 1)
        );
        let e = Formula::parse(&src).unwrap_err();
        assert_eq!(
            e,
            FormulaError::TooDeep {
                pos: MAX_DEPTH,
                max: MAX_DEPTH
            }
        );
        // Just under the limit parses and evaluates.
        let ok = format!(
            "{}1{}",
            "(".repeat(MAX_DEPTH - 1),
            ")".repeat(MAX_DEPTH - 1)
        );
        check(&ok, &[], num("1"));
    }
}
