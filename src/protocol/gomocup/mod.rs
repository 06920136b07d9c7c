//! The Gomocup (piskvork) brain protocol, version 2, with the swap2 opening command and the
//! Yixin-Board extensions (`YXBOARD`, `YXNBEST`, blocked points, balanced openings, live search
//! reports, pondering): <https://plastovicka.github.io/protocl2en.htm>,
//! <https://github.com/accreator/Yixin-protocol>.
//!
//! [`parse`] turns one line into a [`parse::Command`]; [`session`] keeps the game and the
//! settings between lines and answers with [`parse::Response`]s.

pub mod parse;
pub mod session;

pub use parse::{Command, Info, ParseError, Response, parse_command};
pub use session::{Session, classify, run};
