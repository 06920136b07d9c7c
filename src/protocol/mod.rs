//! Text protocols spoken on stdin/stdout: parsers and session loops, no game logic. Shared by
//! all of them: the largest values passed on to the engine ([`bounds`]), and a stdin reader
//! thread and a line writer ([`io`]).

pub mod bounds;
pub mod gomocup;
pub mod gtp;
pub mod io;
pub mod terminal;
