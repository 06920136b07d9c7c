//! Replays every transcript under `protocol-tests/gomocup` against the real `pbrain-arbor`
//! binary, each with its own engine process, and fails with every file, line, expected and
//! actual output that went wrong.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread;

use arbor::protocol::transcript::run_transcript;

fn transcripts(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    files
}

#[test]
fn gomocup_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/gomocup");
    let files = transcripts(&dir);
    assert!(!files.is_empty(), "no transcripts in {}", dir.display());
    let engine = vec![env!("CARGO_BIN_EXE_pbrain-arbor").to_string()];
    // One engine per core at a time: the transcripts' time limits assume the engine is not
    // starved of CPU by its siblings.
    let workers = thread::available_parallelism().map_or(1, |n| n.get()).min(files.len());
    let queue = Mutex::new(files.iter());
    let failures = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                while let Some(file) = queue.lock().unwrap().next() {
                    if let Err(failure) = run_transcript(&engine, file) {
                        failures.lock().unwrap().push(failure.to_string());
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{} of {} transcripts failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
