//! The Gomocup (piskvork) brain protocol, version 2, with the Yixin stop words and the swap2
//! opening command: <https://plastovicka.github.io/protocl2en.htm>.
//!
//! [`parse`] turns one line into a [`parse::Command`]; [`session`] keeps the game and the
//! settings between lines and answers with [`parse::Response`]s.

pub mod parse;
pub mod session;

pub use parse::{Command, Info, ParseError, Response, parse_command};
pub use session::{Session, classify, run};
