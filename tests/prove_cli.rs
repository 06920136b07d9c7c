//! `arbor prove` as a script sees it: its help, its refusal of bad flags, and one answer line
//! per input line, bad lines included, without losing the lines after them.

mod common;

use common::arbor;

fn prove(args: &[&str], input: &[u8]) -> std::process::Output {
    arbor(&[&["prove"], args].concat(), input)
}

#[test]
fn help_names_the_flags_and_the_answers() {
    let output = prove(&["--help"], b"");
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for part in ["arbor prove", "--rule", "--nodes", "wins by", "no threat win", "no proof", "error line"] {
        assert!(text.contains(part), "{part} missing from:\n{text}");
    }
}

#[test]
fn bad_flags_are_refused_with_a_reason() {
    for (args, reason) in [
        (&["--bogus"][..], "--bogus"),
        (&["--rule", "chess"][..], "chess"),
        (&["--nodes", "many"][..], "--nodes"),
        (&["--size", "99"][..], "--size"),
    ] {
        let output = prove(args, b"h8\n");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let error = String::from_utf8(output.stderr).unwrap();
        assert!(error.contains(reason) && error.contains("arbor prove --help"), "{args:?}: {error}");
    }
}

#[test]
fn each_line_gets_one_answer_and_bad_lines_do_not_stop_the_rest() {
    // fs15-08 of protocol-tests/long-wins/freestyle-15.txt, black to move, wins by o9 (14,8).
    let won = "g10i10j8j9i7h6g4f9i6i8h7j7i9h10g9g8f7h8h11k10l10k9k11j11h9j12i12j13j10l12l13j14j15g7\
               i5l7m8k13m11k8m6n11l11m9l9k7k6n10j6l6i4i3j5k4h3g2h5m7n7k5j4e8f8l8o11n8";
    // A carriage return, an empty line (the empty board), and a last line without a newline
    // that is not UTF-8.
    let mut input = [won, "zz", "h8h8", "h8a1i8a2j8a3k8a4l8", "h8", won, "h8i9\r", "", ""].join("\n").into_bytes();
    input.extend(b"h8\xff");
    let output = prove(&["--nodes", "20000"], &input);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    let proved = lines[0];
    assert!(proved.starts_with("black wins by o9 in ") && proved.ends_with(" nodes)"), "{proved}");
    assert_eq!(lines[1], "error line 2: cannot read position 'zz'");
    assert!(lines[2].starts_with("error line 3: h8: "), "{}", lines[2]);
    assert_eq!(lines[3], "error line 4: the game is over");
    assert!(lines[4].starts_with("white no threat win ("), "{}", lines[4]);
    // The table kept from the first solve answers the same position at once.
    assert!(lines[5].starts_with("black wins by o9 in "), "{}", lines[5]);
    assert!(lines[6].starts_with("black no threat win ("), "{}", lines[6]);
    assert!(lines[7].starts_with("black no threat win ("), "the empty board: {}", lines[7]);
    assert!(lines[8].starts_with("error line 9: cannot read position"), "{}", lines[8]);
}

#[test]
fn a_budget_too_small_says_so() {
    let output = prove(&["--nodes", "5"], b"g7c5e10d10g10e5g9g8d2h9e6d6e7d5f5d7d8b5a5e8c6\n");
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.starts_with("white no proof within 5 nodes ("), "{text}");
}

#[test]
fn renju_refuses_blacks_forbidden_win() {
    let position = b"b5a5c5e1d5c6e2f3e3c4e4d4\n";
    let free = String::from_utf8(prove(&["--nodes", "10000"], position).stdout).unwrap();
    assert!(free.starts_with("black wins by e5 in 3 plies"), "{free}");
    let renju = String::from_utf8(prove(&["--rule", "renju", "--nodes", "10000"], position).stdout).unwrap();
    assert!(renju.starts_with("black no threat win ("), "{renju}");
}
