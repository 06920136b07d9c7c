//! A game being played through a text front end: the position and the moves that led to it, so
//! that they can be taken back.

use crate::game::Playable;

#[derive(Clone, Debug)]
pub struct GameRecord<G: Playable> {
    position: G,
    moves: Vec<G::Move>,
}

impl<G: Playable> GameRecord<G> {
    /// A record starting at `position`; moves before it cannot be taken back.
    pub fn new(position: G) -> Self {
        GameRecord { position, moves: Vec::new() }
    }

    pub fn position(&self) -> &G {
        &self.position
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<G::Move> {
        self.moves.last().copied()
    }

    /// Reads and plays a move; an illegal one changes nothing and says why.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, String> {
        if let Some(verdict) = self.position.verdict() {
            return Err(format!("the game is over ({})", verdict.reason));
        }
        let mv = self.position.parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a move the engine chose, so it is legal.
    pub fn play(&mut self, mv: G::Move) {
        self.position.make_move(mv);
        self.moves.push(mv);
    }

    pub fn undo(&mut self) -> Option<G::Move> {
        let mv = self.moves.pop()?;
        self.position.unmake_move(mv);
        Some(mv)
    }
}
