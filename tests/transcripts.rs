//! Replays every transcript under `protocol-tests/` against the real binaries (each folder names
//! the command it talks to), each file with its own engine process, and fails with every file,
//! line, expected and actual output that went wrong.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread;

// The runner is the `arbor replay` command's, kept out of the library; this test uses only
// part of it.
#[allow(dead_code)]
#[path = "../src/bin/arbor/transcript/mod.rs"]
mod transcript;

use transcript::{LineEnding, run_transcript};

fn transcripts(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
}

/// Folders take turns, so engines of different folders never compete for the cores either.
static ONE_FOLDER_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs every transcript of `folder` against `engine`, at most one engine per core at a time:
/// the transcripts' time limits assume the engine is not starved of CPU by its siblings.
fn replay_folder(folder: &str, engine: &[&str]) {
    let _turn = ONE_FOLDER_AT_A_TIME.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests").join(folder);
    let files = transcripts(&dir);
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let engine: Vec<String> = engine.iter().map(ToString::to_string).collect();
    let workers = thread::available_parallelism().map_or(1, |n| n.get()).min(files.len());
    let queue = Mutex::new(files.iter());
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(file) = queue.lock().unwrap().next() {
                    if let Err(failure) = run_transcript(&engine, file, LineEnding::Any) {
                        failures.lock().unwrap().push(failure.to_string());
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} transcripts failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}

#[test]
fn gomocup_transcripts() {
    replay_folder("gomocup", &[env!("CARGO_BIN_EXE_pbrain-arbor")]);
}

#[test]
fn gtp_tictactoe_transcripts() {
    replay_folder("gtp-tictactoe", &[env!("CARGO_BIN_EXE_arbor"), "gtp", "--game", "tictactoe", "--threads", "1"]);
}

#[test]
fn gtp_amazons_transcripts() {
    replay_folder("gtp-amazons", &[env!("CARGO_BIN_EXE_arbor"), "gtp", "--game", "amazons", "--threads", "1"]);
}

#[test]
fn play_tictactoe_transcripts() {
    replay_folder("play-tictactoe", &[env!("CARGO_BIN_EXE_arbor"), "play", "tictactoe", "--threads", "1"]);
}
