//! A network trained for other boards is refused where it would go unused (`bench`'s positions,
//! `datagen`'s games), so a measurement never runs the classical evaluation unnoticed.

mod common;

use common::arbor;

#[test]
fn bench_and_datagen_refuse_a_network_of_another_rule() {
    let mut bytes = std::fs::read("src/gomoku/network/freestyle15.arbn").unwrap();
    bytes[6] = 2; // the rule byte (scripts/learn/MODEL.md): renju
    let folder = std::env::temp_dir().join(format!("arbor-network-flag-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let renju = folder.join("renju15.arbn");
    std::fs::write(&renju, &bytes).unwrap();
    let renju = renju.to_str().unwrap();
    let out = folder.join("games.bin");
    for args in [
        vec!["bench", "--network", renju, "1"],
        vec!["datagen", "--out", out.to_str().unwrap(), "--games", "1", "--nodes", "100", "--network", renju],
    ] {
        let output = arbor(&args, b"");
        let error = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}: {error}");
        assert!(error.starts_with("arbor: --network: trained on Renju 15x15, not on the"), "{args:?}: {error}");
    }
    let renju_games = arbor(
        &[
            "datagen",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "1",
            "--nodes",
            "100",
            "--rule",
            "renju",
            "--network",
            renju,
        ],
        b"",
    );
    assert!(renju_games.status.success(), "{}", String::from_utf8_lossy(&renju_games.stderr));
    std::fs::remove_dir_all(&folder).unwrap();
}
