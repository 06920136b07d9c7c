//! `arbor solve`'s solved list as a long proof uses it: a run stopped while it appended leaves a
//! last line cut short, which the next run drops (and goes on); a bad line before the last is
//! still an error.

mod common;

use common::arbor;

#[test]
fn a_solved_list_cut_short_resumes_and_a_bad_line_inside_is_refused() {
    let list = std::fs::read_to_string("docs/solve/5x5-start.txt").unwrap();
    let whole: String = list.lines().take(20).map(|line| format!("{line}\n")).collect();
    let next = list.lines().nth(20).unwrap();
    let folder = std::env::temp_dir().join(format!("arbor-solve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("list.txt");
    let path_text = path.to_str().unwrap();
    let solve = || arbor(&["solve", "amazons", "--size", "5x5", "--solved", path_text, "--nodes", "2000"], b"");

    std::fs::write(&path, format!("{whole}{}", &next[..next.len() / 2])).unwrap();
    let output = solve();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.starts_with(&whole) && after.ends_with('\n'), "the torn line is gone:\n{after}");
    assert!(after[whole.len()..].lines().all(|l| l.ends_with(" wins")), "only whole lines were added:\n{after}");

    std::fs::write(&path, format!("{}\n{whole}", &next[..next.len() / 2])).unwrap();
    let output = solve();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 1: "));
    std::fs::remove_dir_all(&folder).unwrap();
}
