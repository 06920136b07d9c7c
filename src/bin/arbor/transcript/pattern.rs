//! The patterns of `~` lines: the part of regular-expression syntax transcripts need, matched
//! against a whole output line by backtracking. Lines are short, and a line too long for the
//! recursion, a pattern nested too deeply or a match that backtracks too long is reported as
//! such rather than overflowing the stack or running on.
//!
//! Supported: literal characters; `.`; `\d` `\w` `\s` (ASCII digits, letters, digits and `_`,
//! whitespace) and their negations `\D` `\W` `\S`; a backslash before any other punctuation
//! for the character itself; classes `[a-c7_]`, `[^"]` (ranges, the escapes above inside);
//! groups `( )` and `(?: )`; alternatives `|`; repetition `*`, `+`, `?`, `{n}`, `{n,}`,
//! `{n,m}` (a further `?`, which would make them lazy, changes nothing for a whole-line match).
//! A `^` at the start and a `$` at the end are allowed and change nothing either. Anything else
//! is refused when the transcript is read, so a pattern never means something unexpected.
//!
//! A hand-written matcher rather than the `regex` crate: it keeps that crate out of the
//! engine's dependencies, and transcripts need only this much.

use std::cell::Cell;
use std::fmt;

/// The longest line a pattern is matched against: the matcher recurses once a character, and
/// a 2 MiB thread (a test's) holds this many with room to spare.
pub const LONGEST_LINE: usize = 4_096;
/// The most nodes one match may visit: patterns such as `(a*)*b` backtrack exponentially.
const MOST_STEPS: usize = 10_000_000;
/// The deepest nesting of groups a pattern may have, for the same recursion.
const DEEPEST_GROUPS: usize = 64;
/// A pattern that must match a whole line.
#[derive(Clone, Debug)]
pub struct Pattern {
    source: String,
    root: Vec<Vec<Node>>,
}

#[derive(Clone, Debug)]
enum Node {
    Char(char),
    Any,
    Class {
        items: Vec<ClassItem>,
        negated: bool,
    },
    /// Alternatives, each a sequence.
    Group(Vec<Vec<Node>>),
    Repeat {
        node: Box<Node>,
        min: usize,
        max: Option<usize>,
    },
}

#[derive(Clone, Copy, Debug)]
enum ClassItem {
    Range(char, char),
    Digit(bool),
    Word(bool),
    Space(bool),
}

impl ClassItem {
    fn contains(self, c: char) -> bool {
        match self {
            ClassItem::Range(lo, hi) => (lo..=hi).contains(&c),
            ClassItem::Digit(yes) => c.is_ascii_digit() == yes,
            ClassItem::Word(yes) => (c.is_ascii_alphanumeric() || c == '_') == yes,
            ClassItem::Space(yes) => c.is_whitespace() == yes,
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl Pattern {
    pub fn new(source: &str) -> Result<Self, String> {
        let mut text = source.strip_prefix('^').unwrap_or(source);
        if text.ends_with('$') && !text.ends_with("\\$") {
            text = &text[..text.len() - 1];
        }
        let chars: Vec<char> = text.chars().collect();
        let mut parser = Parser { chars: &chars, at: 0, depth: 0 };
        let root = parser.alternatives()?;
        if parser.at < chars.len() {
            return Err(format!("unmatched ) at character {}", parser.at + 1));
        }
        Ok(Pattern { source: source.to_string(), root })
    }

    /// Whether the whole of `line` matches; an error for a line longer than [`LONGEST_LINE`]
    /// or a match that needs more than [`MOST_STEPS`] steps.
    pub fn is_match(&self, line: &str) -> Result<bool, String> {
        let input: Vec<char> = line.chars().collect();
        if input.len() > LONGEST_LINE {
            return Err(format!(
                "a line of {} characters: patterns match lines of at most {LONGEST_LINE}",
                input.len()
            ));
        }
        let matcher = Matcher { input: &input, steps: Cell::new(0) };
        let matched = matcher.alternatives(&self.root, 0, &|end| end == input.len());
        if matcher.steps.get() > MOST_STEPS {
            return Err(format!("{self} backtracks more than {MOST_STEPS} steps on this line"));
        }
        Ok(matched)
    }
}

struct Parser<'a> {
    chars: &'a [char],
    at: usize,
    /// Groups open at `at`.
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        self.at += usize::from(c.is_some());
        c
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at character {}", self.at))
    }

    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut alternatives = vec![self.sequence()?];
        while self.peek() == Some('|') {
            self.at += 1;
            alternatives.push(self.sequence()?);
        }
        Ok(alternatives)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut nodes = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            nodes.push(self.repetition(atom)?);
        }
        Ok(nodes)
    }

    fn atom(&mut self) -> Result<Node, String> {
        match self.next() {
            Some('(') => {
                if self.depth == DEEPEST_GROUPS {
                    return self.error(&format!("groups nested deeper than {DEEPEST_GROUPS}"));
                }
                if self.peek() == Some('?') {
                    self.at += 1;
                    if self.next() != Some(':') {
                        return self.error("only (?: groups are supported");
                    }
                }
                self.depth += 1;
                let group = self.alternatives()?;
                self.depth -= 1;
                if self.next() != Some(')') {
                    return self.error("missing )");
                }
                Ok(Node::Group(group))
            }
            Some('[') => self.class(),
            Some('.') => Ok(Node::Any),
            Some('\\') => match self.escape()? {
                Escaped::Char(c) => Ok(Node::Char(c)),
                Escaped::Class(item) => Ok(Node::Class { items: vec![item], negated: false }),
            },
            Some(c @ ('*' | '+' | '?' | '{' | '}' | ']' | '^' | '$')) => self.error(&format!("unexpected {c}")),
            Some(c) => Ok(Node::Char(c)),
            None => self.error("unexpected end"),
        }
    }

    fn escape(&mut self) -> Result<Escaped, String> {
        Ok(match self.next() {
            Some('d') => Escaped::Class(ClassItem::Digit(true)),
            Some('D') => Escaped::Class(ClassItem::Digit(false)),
            Some('w') => Escaped::Class(ClassItem::Word(true)),
            Some('W') => Escaped::Class(ClassItem::Word(false)),
            Some('s') => Escaped::Class(ClassItem::Space(true)),
            Some('S') => Escaped::Class(ClassItem::Space(false)),
            Some(c) if c.is_ascii_punctuation() || c == ' ' => Escaped::Char(c),
            Some(c) => return self.error(&format!("unsupported escape \\{c}")),
            None => return self.error("a \\ at the end"),
        })
    }

    fn class(&mut self) -> Result<Node, String> {
        let negated = self.peek() == Some('^');
        self.at += usize::from(negated);
        let mut items = Vec::new();
        loop {
            let lo = match self.next() {
                Some(']') if !items.is_empty() => break,
                Some('\\') => match self.escape()? {
                    Escaped::Char(c) => c,
                    Escaped::Class(item) => {
                        items.push(item);
                        continue;
                    }
                },
                Some(c) => c,
                None => return self.error("missing ]"),
            };
            let hi = if self.peek() == Some('-') && self.chars.get(self.at + 1).is_some_and(|&c| c != ']') {
                self.at += 1;
                match self.next() {
                    Some('\\') => match self.escape()? {
                        Escaped::Char(c) => c,
                        Escaped::Class(_) => return self.error("a class as a range's end"),
                    },
                    Some(c) => c,
                    None => return self.error("missing ]"),
                }
            } else {
                lo
            };
            if hi < lo {
                return self.error(&format!("range {lo}-{hi} out of order"));
            }
            items.push(ClassItem::Range(lo, hi));
        }
        Ok(Node::Class { items, negated })
    }

    fn repetition(&mut self, atom: Node) -> Result<Node, String> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.at += 1;
                let min = self.number()?;
                let max = if self.peek() == Some(',') {
                    self.at += 1;
                    if self.peek() == Some('}') { None } else { Some(self.number()?) }
                } else {
                    Some(min)
                };
                if self.peek() != Some('}') || max.is_some_and(|max| max < min) {
                    return self.error("a bad {n,m}");
                }
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.at += 1;
        // Laziness does not change whether a whole line matches.
        if self.peek() == Some('?') {
            self.at += 1;
        }
        if matches!(self.peek(), Some('*' | '+' | '{')) {
            return self.error("a repetition of a repetition");
        }
        Ok(Node::Repeat { node: Box::new(atom), min, max })
    }

    fn number(&mut self) -> Result<usize, String> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let digits: String = self.chars[start..self.at].iter().collect();
        digits.parse().or_else(|_| self.error("a number"))
    }
}

enum Escaped {
    Char(char),
    Class(ClassItem),
}

type Then<'a> = &'a dyn Fn(usize) -> bool;

/// One match of a pattern against `input`, counting its steps: past [`MOST_STEPS`] every
/// node fails, so the backtracking unwinds at once.
struct Matcher<'a> {
    input: &'a [char],
    steps: Cell<usize>,
}

impl Matcher<'_> {
    fn alternatives(&self, alternatives: &[Vec<Node>], at: usize, then: Then) -> bool {
        alternatives.iter().any(|sequence| self.sequence(sequence, at, then))
    }

    fn sequence(&self, nodes: &[Node], at: usize, then: Then) -> bool {
        match nodes.split_first() {
            None => then(at),
            Some((first, rest)) => self.node(first, at, &|next| self.sequence(rest, next, then)),
        }
    }

    fn node(&self, node: &Node, at: usize, then: Then) -> bool {
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() > MOST_STEPS {
            return false;
        }
        let input = self.input;
        let one = |matches: bool| matches && then(at + 1);
        match node {
            Node::Char(c) => one(input.get(at) == Some(c)),
            Node::Any => one(at < input.len()),
            Node::Class { items, negated } => {
                one(input.get(at).is_some_and(|&c| items.iter().any(|item| item.contains(c)) != *negated))
            }
            Node::Group(group) => self.alternatives(group, at, then),
            Node::Repeat { node, min, max } => self.repeat(node, *min, *max, 0, at, then),
        }
    }

    /// Greedy: one more repetition first, then what follows.
    fn repeat(&self, inner: &Node, min: usize, max: Option<usize>, count: usize, at: usize, then: Then) -> bool {
        let more = max.is_none_or(|max| count < max)
            && self.node(inner, at, &|next| {
                // A repetition that consumed nothing would loop forever once the minimum is met,
                // and before it can match nothing as often as it likes: the minimum is met at
                // once, so that `(?:){50000}` does not recurse 50,000 deep.
                let count = if next == at { min.max(count + 1) } else { count + 1 };
                (next > at || count <= min) && self.repeat(inner, min, max, count, next, then)
            });
        more || (count >= min && then(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, line: &str) -> bool {
        Pattern::new(pattern).unwrap().is_match(line).unwrap()
    }

    #[test]
    fn whole_lines_only() {
        assert!(matches(r"\d+,\d+", "7,12"));
        assert!(!matches(r"\d+,\d+", "7,12 "));
        assert!(!matches(r"\d+,\d+", "x7,12"));
        assert!(matches("ERROR.*", "ERROR"));
        assert!(matches("^OK$", "OK"));
        assert!(!matches("OK", "OK OK"));
    }

    #[test]
    fn groups_classes_and_repetitions() {
        assert!(matches("(7,7|8,11)", "8,11"));
        assert!(!matches("(7,7|8,11)", "7,11"));
        assert!(matches(r"([0-35-9]|1[0-4]),\d+|4,([0-35-9]|1[0-4])", "4,13"));
        assert!(!matches(r"([0-35-9]|1[0-4]),\d+|4,([0-35-9]|1[0-4])", "4,4"));
        assert!(matches(r#"name="[^"]+", version="[^"]+"(, [a-z]+="[^"]*")*"#, r#"name="A", version="1", x="""#));
        assert!(matches(
            r"MESSAGE nbest 3 \d+,\d+ ev -?\d+ depth 3 pv( \d+,\d+)+",
            "MESSAGE nbest 3 1,2 ev -5 depth 3 pv 1,2 3,4"
        ));
        assert!(matches(r"\? illegal move: .*", "? illegal move: b2 is taken"));
        assert!(matches(r"a{2,3}(?:b)?", "aaab") && !matches(r"a{2,3}", "aaaa") && matches("a{2}", "aa"));
        assert!(matches(r"(a*)*b", "aaab") && matches("(a?)+", ""));
        assert!(matches(r"\S+\s\w+", "x,y word_1") && !matches(r"\D", "5"));
    }

    #[test]
    fn what_it_cannot_read_is_refused() {
        for bad in ["(", "a)", "[a", "*a", r"\q", "a{2,1}", "(?=a)", "a**", "[z-a]"] {
            assert!(Pattern::new(bad).is_err(), "{bad}");
        }
        let nested = |depth| format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
        assert!(Pattern::new(&nested(DEEPEST_GROUPS)).unwrap().is_match("a").unwrap());
        assert!(Pattern::new(&nested(DEEPEST_GROUPS + 1)).err().unwrap().contains("nested deeper"));
    }

    /// A long line and a pattern that backtracks exponentially are errors, not a stack overflow
    /// or a hang; the longest line still matches in a test's 2 MiB thread.
    #[test]
    fn what_it_cannot_match_is_an_error() {
        let any = Pattern::new(".*,.*").unwrap();
        let longest = format!("{},", "a".repeat(LONGEST_LINE - 1));
        let small_stack = std::thread::Builder::new().stack_size(2 << 20);
        let result = small_stack.spawn(move || any.is_match(&longest)).unwrap().join().unwrap();
        assert_eq!(result, Ok(true));
        let any = Pattern::new(".*").unwrap();
        assert!(any.is_match(&"a".repeat(LONGEST_LINE + 1)).err().unwrap().contains("at most"));
        let costly = Pattern::new("(a*)*b").unwrap().is_match(&"a".repeat(40));
        assert!(costly.err().unwrap().contains("backtracks"));
        // Repetitions that match nothing do not recurse once a repetition.
        let empty = small_stack_match("(?:){50000}name.*", "name=\"Arbor\"");
        assert_eq!(empty, Ok(true));
        assert_eq!(small_stack_match("(a?){20000}b", "b"), Ok(true));
        assert_eq!(small_stack_match("(a?){2,3}b", "aaaab"), Ok(false));
        assert_eq!(small_stack_match("(a?){2,3}b", "aab"), Ok(true));
    }

    fn small_stack_match(pattern: &str, line: &str) -> Result<bool, String> {
        let (pattern, line) = (Pattern::new(pattern).unwrap(), line.to_string());
        let small_stack = std::thread::Builder::new().stack_size(2 << 20);
        small_stack.spawn(move || pattern.is_match(&line)).unwrap().join().unwrap()
    }

    /// Every pattern the transcripts use means what the `regex` crate says it means, on lines
    /// like the ones they are matched against.
    #[test]
    fn agrees_with_the_regex_crate_on_the_transcripts() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
        let mut patterns = Vec::new();
        let mut lines = vec![String::new(), "=".to_string(), "= ".to_string()];
        let folders = std::fs::read_dir(&root).unwrap().map(|entry| entry.unwrap().path()).filter(|path| path.is_dir());
        for folder in folders {
            for file in std::fs::read_dir(folder).unwrap() {
                let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
                for line in text.lines() {
                    if let Some(pattern) = line.strip_prefix("~ ") {
                        patterns.push(pattern.to_string());
                    } else if let Some(line) = line.strip_prefix("< ").or(line.strip_prefix("> ")) {
                        lines.push(line.to_string());
                    }
                }
            }
        }
        for x in 0..16 {
            for y in [0, 5, 9, 10, 12, 14] {
                lines.push(format!("{x},{y}"));
                lines.push(format!("= {}{}", (b'a' + x as u8) as char, y));
            }
        }
        assert!(patterns.len() > 100, "{} patterns", patterns.len());
        for pattern in &patterns {
            let ours = Pattern::new(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
            let theirs = regex::Regex::new(&format!("^(?:{pattern})$")).unwrap();
            for line in &lines {
                assert_eq!(ours.is_match(line), Ok(theirs.is_match(line)), "{pattern} on {line:?}");
            }
        }
    }
}
