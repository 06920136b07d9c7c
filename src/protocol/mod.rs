//! Text protocols spoken on stdin/stdout: parsers and session loops, no game logic. Shared by
//! all of them: the largest values passed on to the engine ([`bounds`]), a stdin reader thread and a line writer ([`io`]), and a transcript runner that
//! checks any engine binary against scripted conversations ([`transcript`]).

pub mod bounds;
pub mod gomocup;
pub mod gtp;
pub mod io;
pub mod terminal;
pub mod transcript;
