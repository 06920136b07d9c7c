//! The layering rule, checked on the source text: imports run one way, bins -> protocol ->
//! engine -> search -> the game trait, which each game implements; games import only the trait,
//! the score type, the key stream, the tuner's parameter table and their own modules, even in
//! their tests. A path to a module (`crate::engine::...`, or a name inside `crate::{...}`) in
//! code counts as an import; comments do not, and outside the games neither does test code
//! (everything after a file's first `#[cfg(test)]`), which may set up any game.

use std::fs;
use std::path::Path;

/// The top-level modules each one may name.
const ALLOWED: [(&str, &[&str]); 11] = [
    ("score", &[]),
    ("zobrist", &[]),
    ("params", &[]),
    ("game", &["score"]),
    ("gomoku", &["game", "score", "zobrist", "params"]),
    ("amazons", &["game", "score", "zobrist", "params"]),
    ("tictactoe", &["game", "score", "zobrist", "params"]),
    ("search", &["game", "score", "params"]),
    ("engine", &["search", "game", "score"]),
    ("protocol", &["engine", "search", "game", "score", "gomoku", "amazons", "tictactoe"]),
    ("datagen", &["engine", "search", "game", "score", "gomoku", "zobrist"]),
];

/// The modules that implement the game trait, whose tests are held to the rule too.
const GAMES: [&str; 3] = ["gomoku", "amazons", "tictactoe"];

/// Top-level modules named after `crate::` in `code`, comment lines left out.
fn named_modules(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in code.lines().filter(|line| !line.trim_start().starts_with("//")) {
        for (_, rest) in line.match_indices("crate::").map(|(i, _)| line.split_at(i + "crate::".len())) {
            if let Some(group) = rest.strip_prefix('{') {
                let inside = group.split('}').next().unwrap_or("");
                names.extend(inside.split(',').filter_map(|part| part.trim().split("::").next().map(str::to_string)));
            } else {
                names.push(rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect());
            }
        }
    }
    names.retain(|name| !name.is_empty() && name != "self");
    names
}

fn check_dir(dir: &Path, top: Option<&str>, violations: &mut Vec<String>) {
    for entry in fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("src is readable").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let top = top.unwrap_or(&name);
        if top == "bin" {
            continue;
        }
        if path.is_dir() {
            check_dir(&path, Some(top), violations);
            continue;
        }
        // Sources only: a module's folder may hold data it embeds (a network's weights).
        if path.extension().is_none_or(|extension| extension != "rs") {
            continue;
        }
        let Some(&(_, allowed)) = ALLOWED.iter().find(|(module, _)| *module == top) else { continue };
        let text = fs::read_to_string(&path).expect("source is text");
        let is_game = GAMES.contains(&top);
        let checked = if is_game { &text[..] } else { text.split("#[cfg(test)]").next().unwrap_or("") };
        for named in named_modules(checked) {
            if named != top && !allowed.contains(&named.as_str()) {
                violations.push(format!("{} names crate::{named}", path.display()));
            }
        }
    }
}

#[test]
fn imports_run_one_way() {
    let mut violations = Vec::new();
    check_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), None, &mut violations);
    assert!(violations.is_empty(), "{violations:#?}");
}

#[test]
fn the_check_sees_plain_and_grouped_paths_but_not_comments() {
    let code = "use crate::engine::Engine;\nuse crate::{game::Game, score};\n// crate::protocol in a comment\n";
    assert_eq!(named_modules(code), ["engine", "game", "score"]);
}
