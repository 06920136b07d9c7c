//! Arbor: a headless board-game engine. Games implement [`game::Game`] for the search and
//! [`game::Playable`] for people and text protocols; [`search`] plays any of them; [`engine`] is
//! the one API the protocols in [`protocol`] talk to.

pub mod amazons;
pub mod datagen;
pub mod engine;
pub mod game;
pub mod gomoku;
pub mod params;
pub mod protocol;
pub mod score;
pub mod search;
pub mod tictactoe;
pub mod zobrist;

#[cfg(test)]
mod layering;
