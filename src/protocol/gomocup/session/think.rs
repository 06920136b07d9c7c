//! The commands that think: a move (`BEGIN`, `TURN`, `BOARD`, `YXNBEST`), swap2's choice,
//! balance, and pondering between lines; each hands the engine the session's limits and turns
//! what it finds into replies.

use std::io;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::replies::{Realtime, balance_progress, nbest_line, progress, proven_loss, proven_win};
use super::{Answer, Response, SWAP2_JUDGE_SHARE, Session, square};
use crate::engine::balance::BalanceTarget;
use crate::game::Game;
use crate::gomoku::swap2::{self, Judgement, Swap2Choice};
use crate::gomoku::{Board, Move};
use crate::search::limits::SearchLimits;
use crate::search::time;
use crate::search::{SearchEvent, SearchResult};

impl<W: io::Write + Send> Session<W> {
    pub(super) fn finish_swap2(
        &mut self,
        points: &[(usize, usize)],
        error: Option<String>,
        received: Instant,
    ) -> Result<Answer, String> {
        if let Some(error) = self.rule_error.take().or(error) {
            return Err(error);
        }
        let current = self.game()?;
        let stones = points.iter().map(|&(x, y)| square(&current, x, y)).collect::<Result<Vec<_>, _>>()?;
        let budget = time::move_budget(&self.time.limits()).unwrap_or(self.time.turn);
        let judge_time = budget.saturating_sub(received.elapsed()).mul_f64(SWAP2_JUDGE_SHARE);
        // A move's limits (depth, blocked points), on the judge's share of its time and nodes.
        let limits = self.move_limits();
        let judge_nodes = limits.nodes.map(|nodes| ((nodes as f64 * SWAP2_JUDGE_SHARE) as u64).max(1));
        let limits = SearchLimits { move_time: Some(judge_time), clock: None, nodes: judge_nodes, ..limits };
        let Session { engine, signals, blocked, .. } = self;
        let mut judge = |board: &Board| {
            signals.arm();
            let result = engine.go(board, &limits, Instant::now(), signals.stop_flag(), &mut |_| {});
            Judgement { score: result.score, best: result.best_move }
        };
        let choice = swap2::choose(current.width(), current.height(), self.rule, &stones, blocked, &mut judge);
        self.time.charge(received.elapsed());
        if self.signals.quit_requested() {
            return Ok(Answer::Quit);
        }
        Ok(Answer::Reply(match choice.map_err(|error| error.to_string())? {
            Swap2Choice::Opening(stones) => Response::Stones(stones.to_vec()),
            Swap2Choice::PutTwo(stones) => Response::Stones(stones.to_vec()),
            Swap2Choice::Swap => Response::Swap,
            Swap2Choice::Play(mv) => Response::Move(mv),
        }))
    }

    /// Searches `board`, where the brain is to move, plays the answer on it, keeps it as the
    /// game (its first `setup` moves set up by `BOARD`) and replies with the move, after the
    /// `nbest` best moves as messages if asked (`YXNBEST`). The clock started at `received`.
    pub(super) fn play_best(
        &mut self,
        mut board: Board,
        setup: usize,
        received: Instant,
        nbest: Option<usize>,
    ) -> Result<Answer, String> {
        if board.is_over() {
            return Err("the game is over".into());
        }
        let result = self.search(&board, received, nbest.unwrap_or(1));
        self.time.charge(received.elapsed());
        if self.signals.quit_requested() {
            return Ok(Answer::Quit);
        }
        let mv = result.best_move.ok_or(if self.blocked.is_empty() {
            "no move to play"
        } else {
            "every move is blocked"
        })?;
        board.play(mv).map_err(|error| format!("search chose {mv}: {error}"))?;
        let mut replies = Vec::new();
        if nbest.is_some() {
            replies.extend(
                result.lines.iter().enumerate().map(|(i, line)| Response::Message(nbest_line(i, line, result.depth))),
            );
        }
        replies.push(Response::Move(mv));
        if self.pondering && !board.is_over() {
            self.ponder = Some(board.clone());
        }
        self.board = Some(board);
        self.setup = setup;
        Ok(Answer::Replies(replies))
    }

    /// The limits of a search for the brain's own move: the clock, the depth and node caps,
    /// the blocked points and whether the threat solver is used.
    pub(super) fn move_limits(&self) -> SearchLimits {
        SearchLimits {
            depth: self.max_depth,
            nodes: self.max_nodes,
            excluded: self.blocked.iter().map(|&mv| Board::encode_move(mv)).collect(),
            solver: self.threat_solver,
            ..self.time.limits()
        }
    }

    /// Runs the engine with the session's settings, ranking `lines` root moves, reporting
    /// progress as `MESSAGE` lines (and, in GUI mode, live lines) until `END` arrives.
    fn search(&mut self, board: &Board, received: Instant, lines: usize) -> SearchResult<Move> {
        let limits = SearchLimits { multi_pv: lines, report_root_moves: self.gui, ..self.move_limits() };
        let Session { engine, out, signals, gui, .. } = self;
        let mut live = Realtime::default();
        signals.arm();
        engine.go(board, &limits, received, signals.stop_flag(), &mut |event| {
            if signals.quit_requested() {
                return;
            }
            let lines = match event {
                SearchEvent::Iteration(info) => {
                    let mut lines = vec![Response::Message(progress(info))];
                    if *gui {
                        lines.push(Response::Message("REALTIME REFRESH".into()));
                        lines.extend(info.pv.first().and_then(|&mv| live.best(mv)));
                    }
                    lines
                }
                SearchEvent::RootMove { mv, score, new_best } => {
                    live.root_move(mv, score, new_best).into_iter().collect()
                }
                SearchEvent::Proven { mv, plies, nodes } => vec![Response::Message(proven_win(mv, plies, nodes))],
                SearchEvent::Refuted { mv, plies, nodes } => vec![Response::Message(proven_loss(mv, plies, nodes))],
            };
            for line in lines {
                if out.line(line).is_err() {
                    // The manager is gone: stop thinking for it. Writing the reply will fail
                    // too and end the session.
                    signals.stop_flag().store(true, Ordering::SeqCst);
                }
            }
        })
    }

    /// Searches `position`, where the opponent is to move, until the next line arrives, so
    /// the table holds the answers to the likely replies. Says only, in one `MESSAGE` once it
    /// is over, how far it got.
    pub(super) fn ponder_on(&mut self, position: &Board) -> io::Result<()> {
        if self.signals.quit_requested() || !self.signals.start_pondering() {
            return Ok(());
        }
        let limits = SearchLimits { depth: self.max_depth, solver: self.threat_solver, ..SearchLimits::default() };
        let result = self.engine.go(position, &limits, Instant::now(), self.signals.stop_flag(), &mut |_| {});
        self.signals.stop_pondering();
        if self.signals.quit_requested() {
            return Ok(());
        }
        let pv: Vec<String> = result.pv.iter().map(Move::to_string).collect();
        let elapsed = result.elapsed.as_millis();
        let text = format!("ponder depth {} n {} tm {elapsed} pv {}", result.depth, result.nodes, pv.join(" "));
        self.out.line(Response::Message(text))
    }

    /// `YXBALANCEONE` / `YXBALANCETWO`: places the `stones` stones after which the position's
    /// value for the side to move is closest to `bias` (in the engine's score units), within
    /// the move's time, and answers them.
    pub(super) fn balance(&mut self, stones: usize, bias: i32, received: Instant) -> Result<Answer, String> {
        let mut board = self.game()?;
        if board.is_over() {
            return Err("the game is over".into());
        }
        let limits = self.move_limits();
        let Session { engine, out, signals, .. } = self;
        signals.arm();
        let found = engine.balance(
            &board,
            BalanceTarget { stones, bias },
            &limits,
            received,
            signals.stop_flag(),
            &mut |round| {
                if !signals.quit_requested() && out.line(Response::Message(balance_progress(round))).is_err() {
                    signals.stop_flag().store(true, Ordering::SeqCst);
                }
            },
        );
        self.time.charge(received.elapsed());
        if self.signals.quit_requested() {
            return Ok(Answer::Quit);
        }
        let found = found.ok_or("no stones to place")?;
        for &mv in &found.moves {
            board.play(mv).map_err(|error| format!("balance chose {mv}: {error}"))?;
        }
        self.board = Some(board);
        Ok(Answer::Reply(match found.moves[..] {
            [mv] => Response::Move(mv),
            _ => Response::Stones(found.moves),
        }))
    }
}
