//! A GTP version 2 engine (<https://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>)
//! for any [`crate::game::Playable`] game: Go's controller protocol, with each game's own move
//! notation and colour names, and `set_position` to load a position.
//!
//! [`parse`] turns one line into a [`parse::Request`]; [`session`] keeps the game between lines.

pub mod parse;
pub mod session;

pub use parse::{Command, ParseError, Request, Response, parse_request};
pub use session::{Session, classify, run};
