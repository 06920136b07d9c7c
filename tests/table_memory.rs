//! A new transposition table holds no memory until a search writes it, so that a manager's
//! `max_memory` or `hash_size`, applied just before a move, costs that move no time. Linux
//! only: it reads the process's resident size.

#![cfg(target_os = "linux")]

use arbor::engine::Engine;

/// The process's resident memory in KiB.
fn resident_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn a_new_table_is_not_resident() {
    let before = resident_kib();
    let mut engine = Engine::new(512, 1);
    engine.set_hash_mb(256);
    assert!(engine.apply_hash_size());
    let grown_mib = resident_kib().saturating_sub(before) / 1024;
    assert!(grown_mib < 64, "two tables of 768 MiB in all made {grown_mib} MiB resident");
    assert_eq!(engine.hash_mb(), 256);
}
