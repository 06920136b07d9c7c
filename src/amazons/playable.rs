//! Amazons for people and text protocols: GTP and the terminal game read moves in any accepted
//! notation, load positions from a short set-up text, and report who could not move.

use super::board::{Move, Position, Square};
use crate::game::{Playable, Verdict};

impl Playable for Position {
    const NAME: &'static str = "amazons";
    const MOVE_FORMAT: &'static str = "queen from, queen to, arrow: d1-d7/g7 (also d1d7g7, or six letters \
                                       dadggg as the Chinese championship platform writes it)";
    const MOVE_EXAMPLE: &'static str = "d1-d7/g7";

    /// The first player's name first: White's, but Black's on Botzone's 8x8 board.
    fn player_names(&self) -> [&'static str; 2] {
        let first = self.first_player();
        [first.name(), first.opponent().name()]
    }

    fn to_move(&self) -> usize {
        usize::from(self.side_to_move() != self.first_player())
    }

    /// The start of that size ([`Position::start`]), 5x5 to 11x11.
    fn resized(&self, width: usize, height: usize) -> Result<Self, String> {
        let start = Position::start(width, height).map_err(|e| e.to_string())?;
        Ok(start.with_weights(self.weights()))
    }

    fn setup_text(&self) -> String {
        Position::setup_text(self)
    }

    /// `white a4 d1 g1 j4 black a7 d10 g10 j7 arrows e5 f6 tomove black`, on the board of the
    /// present size: each keyword is followed by its squares (spaces or commas between them);
    /// `arrows` and `tomove` (default the first player) may be left out.
    fn set_up(&self, text: &str) -> Result<Self, String> {
        let (mut white, mut black, mut arrows) = (Vec::new(), Vec::new(), Vec::new());
        let mut side = self.first_player();
        let mut section = None;
        for token in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
            let token = token.to_ascii_lowercase();
            match token.as_str() {
                "white" | "black" | "arrows" | "tomove" if section != Some("tomove") || token == "tomove" => {
                    section = Some(match token.as_str() {
                        "white" => "white",
                        "black" => "black",
                        "arrows" => "arrows",
                        _ => "tomove",
                    });
                }
                _ => match section {
                    Some("tomove") => {
                        side = token.parse()?;
                        section = None;
                    }
                    Some(list) => {
                        let square: Square =
                            token.parse().map_err(|_| format!("'{token}' in {list} is not a square"))?;
                        match list {
                            "white" => white.push(square),
                            "black" => black.push(square),
                            _ => arrows.push(square),
                        }
                    }
                    None => return Err(format!("'{token}' belongs to no section (white, black, arrows, tomove)")),
                },
            }
        }
        if section == Some("tomove") {
            return Err("tomove without the side to move".into());
        }
        let pos = Position::from_setup_sized(self.width(), self.height(), &white, &black, &arrows, side)
            .map_err(|e| e.to_string())?;
        Ok(pos.with_weights(self.weights()).with_first_player(self.first_player()))
    }

    fn solver_by_default(&self) -> bool {
        true
    }

    fn parse_move(&self, text: &str) -> Result<Move, String> {
        Position::parse_move(self, text).map_err(|e| e.to_string())
    }

    fn diagram(&self, last: Option<Move>) -> String {
        Position::diagram(self, last)
    }

    fn verdict(&self) -> Option<Verdict> {
        let loser = self.side_to_move();
        (!self.has_moves())
            .then(|| Verdict { winner: Some(self.to_move() ^ 1), reason: format!("{loser} has no legal move") })
    }
}

#[cfg(test)]
mod tests {
    use super::super::eval::PATENT_WEIGHTS;
    use super::*;

    #[test]
    fn set_up_text_loads_any_position() {
        let start = Position::new();
        let same = start.set_up("white a4 d1 g1 j4 black a7 d10 g10 j7").unwrap();
        assert_eq!(same.hash(), start.hash());
        let pos = start.set_up("White a1, BLACK j10 arrows a2 b1 b2 tomove white").unwrap();
        let verdict = pos.verdict().unwrap();
        assert_eq!((verdict.winner, verdict.reason.as_str()), (Some(1), "white has no legal move"));
        for bad in [
            "",
            "white a1",
            "white a1 black a1",
            "a1 white b2 black c3",
            "white a1 black k3",
            "white a1 black b1 tomove red",
        ] {
            assert!(start.set_up(bad).is_err(), "{bad}");
        }
    }

    /// What [`Position::setup_text`] writes, `set_position` reads back as the same position.
    #[test]
    fn set_up_text_reads_back() {
        let mut keys = crate::zobrist::KeyStream::new(0x0005_e70b);
        for (width, height) in [(5, 5), (6, 5), (8, 8), (10, 10), (11, 7)] {
            let start = Position::start(width, height).unwrap();
            let mut pos = start.clone();
            for _ in 0..12 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves[keys.below(moves.len() as u64) as usize]).unwrap();
                let again = start.set_up(&pos.setup_text()).unwrap();
                assert_eq!(
                    (again.hash(), again.side_to_move()),
                    (pos.hash(), pos.side_to_move()),
                    "{}",
                    pos.setup_text()
                );
            }
        }
    }

    #[test]
    fn moves_read_in_every_form_and_only_when_legal() {
        let pos = Position::new();
        let mv = Playable::parse_move(&pos, "dadggg").unwrap();
        assert_eq!(pos.format_move(mv), "d1-d7/g7");
        assert!(Playable::parse_move(&pos, "a7-a6/a5").unwrap_err().contains("a7"));
        assert!(pos.resized(4, 4).is_err() && pos.resized(12, 11).is_err() && pos.resized(10, 10).is_ok());
    }

    #[test]
    fn new_games_keep_the_weight_table() {
        let patent = Position::new().with_weights(&PATENT_WEIGHTS);
        assert!(std::ptr::eq(patent.resized(6, 5).unwrap().weights(), &PATENT_WEIGHTS));
        assert!(std::ptr::eq(patent.set_up("white a1 black j10").unwrap().weights(), &PATENT_WEIGHTS));
    }
}
