//! The tic-tac-toe engine against every possible opponent: for the engine as X and as O, every
//! sequence of opponent replies is played out. At each of its turns the engine's score must be the
//! position's exact value (win or loss with its distance, or draw) from an independent minimax,
//! and its move must keep that value, so it never loses and wins whenever the opponent errs.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use arbor::engine::Engine;
use arbor::game::{Game, Outcome, Playable};
use arbor::score::{DRAW, MATE, Score};
use arbor::search::limits::SearchLimits;
use arbor::tictactoe::{Mark, TicTacToe};

/// Plain negamax over the whole tree, memoised by hash: the value with the distance counted from
/// this node, in the search's units (a win in n plies is `MATE - n`).
fn minimax(position: &mut TicTacToe, memo: &mut HashMap<u64, Score>) -> Score {
    if let Some(&value) = memo.get(&position.hash()) {
        return value;
    }
    let value = match position.outcome() {
        Some(Outcome::Loss) => -MATE,
        Some(Outcome::Win) => MATE,
        Some(Outcome::Draw) => DRAW,
        None => {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            let mut best = -MATE - 1;
            for mv in moves {
                position.make_move(mv);
                let child = minimax(position, memo);
                position.unmake_move(mv);
                best = best.max(one_ply_earlier(child));
            }
            best
        }
    };
    memo.insert(position.hash(), value);
    value
}

/// A child's value seen from its parent: the other side's view, and one ply further away.
fn one_ply_earlier(child: Score) -> Score {
    let value = -child;
    value - value.signum()
}

struct Walk {
    engine: Engine,
    memo: HashMap<u64, Score>,
    engine_side: Mark,
    positions: u64,
    engine_wins: u64,
    draws: u64,
}

impl Walk {
    fn visit(&mut self, position: &mut TicTacToe) {
        self.positions += 1;
        if let Some(verdict) = position.verdict() {
            match verdict.winner {
                Some(winner) => {
                    assert_eq!(winner, self.engine_side as usize, "the engine lost:\n{}", position.diagram(None));
                    self.engine_wins += 1;
                }
                None => self.draws += 1,
            }
            return;
        }
        if position.side_to_move() == self.engine_side {
            let expected = minimax(position, &mut self.memo);
            let stop = AtomicBool::new(false);
            let result = self.engine.think(position, &SearchLimits::default(), Instant::now(), &stop, &mut |_| {});
            assert_eq!(result.score, expected, "wrong value for\n{}", position.diagram(None));
            let mv = result.best_move.expect("a move while the game is on");
            position.make_move(mv);
            let after = minimax(position, &mut self.memo);
            assert_eq!(one_ply_earlier(after), expected, "{mv} gives away value in\n{}", position.diagram(None));
            self.visit(position);
            position.unmake_move(mv);
        } else {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            for mv in moves {
                position.make_move(mv);
                self.visit(position);
                position.unmake_move(mv);
            }
        }
    }
}

fn walk(engine_side: Mark) -> Walk {
    let mut walk =
        Walk { engine: Engine::new(1, 1), memo: HashMap::new(), engine_side, positions: 0, engine_wins: 0, draws: 0 };
    walk.visit(&mut TicTacToe::classic());
    walk
}

#[test]
fn never_loses_as_x_or_as_o() {
    for side in [Mark::X, Mark::O] {
        let walk = walk(side);
        println!(
            "engine as {}: {} positions checked, {} games won, {} drawn, none lost",
            side.symbol(),
            walk.positions,
            walk.engine_wins,
            walk.draws
        );
        assert!(walk.engine_wins > 0, "an erring opponent must be beaten");
    }
}

#[test]
fn prefers_the_fastest_win_and_the_slowest_loss() {
    let mut engine = Engine::new(1, 1);
    let stop = AtomicBool::new(false);
    let start = TicTacToe::classic();
    // X can win at once on a3 (column a) or later; it must take the win now.
    let position = start.set_up("..o/xo./x..").unwrap();
    let result = engine.think(&position, &SearchLimits::default(), Instant::now(), &stop, &mut |_| {});
    assert_eq!((position.format_move(result.best_move.unwrap()), result.score), ("a3".to_string(), MATE - 1));
    // O is lost against a double threat; it must still block one line and lose as late as it can.
    let position = start.set_up("x.x/.o./x.o").unwrap();
    let result = engine.think(&position, &SearchLimits::default(), Instant::now(), &stop, &mut |_| {});
    assert_eq!(result.score, -(MATE - 2));
    let mut memo = HashMap::new();
    assert_eq!(minimax(&mut position.clone(), &mut memo), result.score);
}
