//! An exact solver for small boards and late endings: who wins with best play, and a winning
//! first move.
//!
//! Depth-first proof-number search (df-pn, Nagai 2002) in negamax form: every position keeps
//! a proof number (about how many positions must still be solved to show that the side to
//! move wins) and a disproof number (to show that it loses). A position's proof number is the
//! least disproof number of its children, its disproof number the sum of their proof numbers,
//! and the search always extends the child that looks cheapest to settle, within thresholds,
//! so it neither commits to one line as a plain depth-first search does nor keeps the whole
//! tree in memory. A table keyed by the position's Zobrist key (side to move included) holds
//! the numbers, so the many transpositions of Amazons (the same arrows shot in another order)
//! are worked on once. A side without a move has lost. Once the queens are walled apart, each
//! side's count of moves is a one-player question (how many moves its queens can make in their
//! own regions), solved exactly and separately: the side to move wins when it can make
//! strictly more moves than its opponent. Where queens of two regions stand side by side, or
//! a region is still shared, the same counts give bounds that often decide (`exact`). A
//! position not yet expanded starts with its count of moves as disproof number (all must be
//! refuted) and proof number 1, both weighted by the play search's evaluation of it, so the
//! search favours moves that leave the opponent few replies and a poor game, and (killers) the
//! last moves that won a position as far from the root; among equals, the play search's cheap
//! order (`order.rs`) decides. A child is worked on until its numbers pass
//! the runner-up's by a quarter (the 1 + ε trick of Pawlewicz and Lew), which spares the
//! search switching back and forth between two close children.

use super::attacks::{Bits, GRID, neighbours, queen_attacks};
use super::board::{Color, Move, Position};
use super::eval::DistanceMap;
use crate::score::Score;
use keys::{Keys, Symmetries};
use rustc_hash::{FxHashMap, FxHashSet};

mod keys;

/// A proof or disproof number that is settled: the other one is then 0.
const INFINITE: u32 = u32::MAX / 4;

/// What [`solve`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// `None` when the node budget ran out first.
    pub winner: Option<Color>,
    /// A winning first move of the side to move, when it wins.
    pub best: Option<Move>,
    /// Positions expanded, children counted and one-player fills searched.
    pub nodes: u64,
}

/// Solves `pos` exactly, giving up after about `max_nodes` nodes.
pub fn solve(pos: &Position, max_nodes: u64) -> Solution {
    Solver::new(pos).run(max_nodes)
}

/// [`solve`] for the play search, which tries again with more nodes as it goes deeper: one
/// solver per thread, its table kept from one call to the next (a verdict holds from any root,
/// so a later try resumes the earlier ones and proofs of the last move's positions carry over),
/// started afresh on another board size or once it holds [`KEPT_POSITIONS`] positions.
pub fn solve_resuming(pos: &Position, max_nodes: u64) -> Solution {
    thread_local! {
        static SOLVER: std::cell::RefCell<Option<Solver>> = const { std::cell::RefCell::new(None) };
    }
    SOLVER.with_borrow_mut(|slot| {
        let solver = match slot {
            Some(solver)
                if (solver.root.width(), solver.root.height()) == (pos.width(), pos.height())
                    && solver.table_len() < KEPT_POSITIONS =>
            {
                solver
            }
            _ => slot.insert(Solver::new(pos)),
        };
        solver.set_root(pos);
        solver.nodes = 0;
        let solution = solver.run(max_nodes);
        solver.settled.clear();
        solution
    })
}

/// The most positions [`solve_resuming`] keeps (about 24 bytes each).
const KEPT_POSITIONS: usize = 1 << 21;

/// Positions settled with at least this many nodes of work are worth keeping in a solved list
/// ([`Solver::take_settled`]): cheaper ones are found again faster than a list is read.
const RECORD_WORK: u32 = 10_000;

/// A proof search that can be continued: [`Solver::run`] spends more nodes on the same
/// position, keeping its table, and the positions it settled on the way can be saved
/// ([`Solver::take_settled`]) and given to another solver ([`Solver::learn`]), here or on
/// another machine, so a long proof can stop, resume and be shared out.
pub struct Solver {
    root: Position,
    /// Proof and disproof numbers for the side to move, and the nodes spent on the position
    /// so far, by the key it shares with its symmetric images ([`Keys::canonical`]).
    numbers: FxHashMap<u64, Entry>,
    /// The most moves a side's queens can make alone, by (its queens, the occupied squares,
    /// the gates among its queens).
    fills: FxHashMap<(u128, u128, u128), u32>,
    symmetries: Symmetries,
    /// Positions settled with [`RECORD_WORK`] nodes or more since the last
    /// [`Solver::take_settled`], and their winners.
    settled: Vec<(Position, Color)>,
    nodes: u64,
    max_nodes: u64,
    /// By distance from the root: the last two moves that won a position there.
    killers: Vec<Killers>,
}

/// Moves that won positions at one distance from the root, the latest first.
type Killers = [Option<Move>; 2];

#[derive(Clone, Copy)]
struct Entry {
    proof: u32,
    disproof: u32,
    work: u32,
}

impl Entry {
    /// A position whose side to move `wins` (or loses) with best play.
    fn settled(wins: bool, work: u32) -> Entry {
        let (proof, disproof) = if wins { (0, INFINITE) } else { (INFINITE, 0) };
        Entry { proof, disproof, work }
    }
}

impl Solver {
    pub fn new(pos: &Position) -> Solver {
        Solver {
            root: pos.clone(),
            numbers: FxHashMap::default(),
            fills: FxHashMap::default(),
            symmetries: Symmetries::of(pos),
            settled: Vec::new(),
            nodes: 0,
            max_nodes: 0,
            killers: Vec::new(),
        }
    }

    /// Takes `winner` as the result of `pos` (a position on the root's board) with best play,
    /// as a solved list records it: the search will not look into it again.
    pub fn learn(&mut self, pos: &Position, winner: Color) {
        let key = Keys::of(pos, &self.symmetries).canonical(&self.symmetries);
        self.numbers.insert(key, Entry::settled(winner == pos.side_to_move(), 0));
    }

    /// Searches on for about `nodes` more nodes; the answer so far.
    pub fn run(&mut self, nodes: u64) -> Solution {
        self.max_nodes = self.nodes.saturating_add(nodes);
        let mut pos = self.root.clone();
        let me = pos.side_to_move();
        let keys = Keys::of(&pos, &self.symmetries);
        let finished = self.expand(&mut pos, keys, INFINITE, INFINITE, 0).is_some();
        // Settled one way or the other, unless the budget ran out or the numbers grew past
        // what they can count.
        match self.numbers(keys.canonical(&self.symmetries)) {
            (0, _) if finished => {}
            (_, 0) if finished => return Solution { winner: Some(me.opponent()), best: None, nodes: self.nodes },
            _ => return Solution { winner: None, best: None, nodes: self.nodes },
        }
        let best = pos.legal_moves().into_iter().find(|&mv| {
            let (_, disproof) = self.numbers(keys.after(mv, &self.symmetries).canonical(&self.symmetries));
            disproof == 0
        });
        Solution { winner: Some(me), best, nodes: self.nodes }
    }

    /// The positions settled with much work since the last call, with their winners, oldest
    /// first.
    pub fn take_settled(&mut self) -> Vec<(Position, Color)> {
        std::mem::take(&mut self.settled)
    }

    /// Makes `pos` (on the same board) the position [`Solver::run`] solves, keeping the table:
    /// what was settled on the way to one root is settled for the next.
    pub fn set_root(&mut self, pos: &Position) {
        debug_assert_eq!((pos.width(), pos.height()), (self.root.width(), self.root.height()));
        self.root = pos.clone();
    }

    /// How many positions the table holds.
    pub fn table_len(&self) -> usize {
        self.numbers.len()
    }
}

/// Bits of a move's index in its sort key ([`Solver::ordered_moves`]): an Amazons position on
/// the largest board has far fewer than 2^16 moves.
const INDEX_BITS: u32 = 16;

/// How many children never expanded [`Solver::expand`] makes a first guess for
/// ([`initial_numbers`]): guessing is most of a search's time, and past the first few in the
/// play search's order a child's guess seldom picks the child worked on next.
const COUNTED_CHILDREN: u64 = 16;

/// Evaluation (about a hundred a square) that doubles a first guess: a position the side to
/// move leads by this much gets twice the disproof number, one it trails by this much twice the
/// proof number. Half or twice this took more nodes.
const EVALUATION_DOUBLING: f64 = 400.0;

/// The most evaluation a first guess takes into account, either way: past it a lead says little
/// more about the work a proof needs.
const LEAD_CAP: Score = 800;

/// How much a killer's first disproof number shrinks ([`Solver::killers`]): a move that won a
/// position at the same distance from the root, where the positions differ by a move or two,
/// often wins this one too. Four took fewer nodes on one large proof and more on the small ones.
const KILLER_DIVISOR: u32 = 2;

/// The first guess at the numbers of a position never expanded: to disprove it takes refuting
/// each of its moves, so its disproof number starts at their count, and one without a move is
/// lost; then both lean on the play search's evaluation ([`EVALUATION_DOUBLING`]). The
/// evaluation costs more than the count, but it steers the search to the moves that win so
/// much better that large proofs take less time.
fn initial_numbers(pos: &Position) -> (u32, u32) {
    let replies = pos.count_moves();
    if replies == 0 {
        return (INFINITE, 0);
    }
    let odds = (f64::from(pos.evaluate().clamp(-LEAD_CAP, LEAD_CAP)) / EVALUATION_DOUBLING).exp2();
    let proof = (1.0 / odds).round().max(1.0);
    let disproof = (replies as f64 * odds).round().clamp(1.0, f64::from(INFINITE - 1));
    (proof as u32, disproof as u32)
}

impl Solver {
    /// The numbers of the position with table key `key`: from the table, or 1 and 1 for a
    /// position never expanded.
    fn numbers(&self, key: u64) -> (u32, u32) {
        self.numbers.get(&key).map_or((1, 1), |entry| (entry.proof, entry.disproof))
    }

    /// Works on `pos`, `ply` moves from the root, until its proof number reaches `proof_limit`
    /// or its disproof number `disproof_limit` (both reached once it is settled); `None` once
    /// the budget is spent.
    fn expand(
        &mut self,
        pos: &mut Position,
        keys: Keys,
        proof_limit: u32,
        disproof_limit: u32,
        ply: usize,
    ) -> Option<()> {
        self.spend()?;
        let key = keys.canonical(&self.symmetries);
        let start = self.nodes;
        let earlier = match self.numbers.get(&key) {
            // Settled already: learnt from a solved list, or the root of an earlier run.
            Some(entry) if entry.proof == 0 || entry.disproof == 0 => return Some(()),
            Some(entry) => entry.work,
            // A position in the table has been looked at: it is not one settled without a search.
            None => {
                if let Some(wins) = self.exact(pos)? {
                    self.numbers.insert(key, Entry::settled(wins, 1));
                    return Some(());
                }
                0
            }
        };
        // Each child once (moves to symmetric images lead to one position), with its keys and
        // numbers (for its side to move, the opponent): from the table, or, for a child never
        // expanded, its first guess ([`initial_numbers`], a killer's disproof number shrunk by
        // [`KILLER_DIVISOR`]) for the first COUNTED_CHILDREN of them, killers first and then in
        // the play search's order, and for the rest the mean disproof number of those.
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let killers = self.killers[ply];
        let moves = self.ordered_moves(pos, &killers);
        let mut seen = FxHashSet::with_capacity_and_hasher(moves.len(), Default::default());
        let mut children: Vec<(Move, u64, (u32, u32))> = Vec::with_capacity(moves.len());
        for mv in moves {
            let child_key = keys.after(mv, &self.symmetries).canonical(&self.symmetries);
            if seen.insert(child_key) {
                children.push((mv, child_key, (1, 1)));
            }
        }
        // All the children's table reads back to back, before any first guess: in a table
        // larger than the processor's caches each read waits on memory, and read in a row
        // they wait together.
        let known: Vec<Option<(u32, u32)>> = (children.iter())
            .map(|&(_, child_key, _)| self.numbers.get(&child_key).map(|entry| (entry.proof, entry.disproof)))
            .collect();
        let (mut counted, mut disproofs, mut guessed) = (0, 0u64, Vec::new());
        for (i, known) in known.into_iter().enumerate() {
            let mv = children[i].0;
            children[i].2 = match known {
                Some(numbers) => numbers,
                None if counted == COUNTED_CHILDREN => {
                    guessed.push(i);
                    (1, 1)
                }
                None => {
                    // A node each: a child's first guess costs about what a search node does.
                    self.spend()?;
                    pos.make(mv);
                    let mut first = initial_numbers(pos);
                    pos.unmake(mv);
                    if killers.contains(&Some(mv)) {
                        first.1 = (first.1 / KILLER_DIVISOR).max(u32::from(first.1 != 0));
                    }
                    if first.1 != 0 {
                        counted += 1;
                        disproofs += u64::from(first.1);
                    }
                    first
                }
            };
        }
        for i in guessed {
            children[i].2 = (1, (disproofs / counted.max(1)).max(1) as u32);
        }
        loop {
            let (mut proof, mut disproof) = (INFINITE, 0u32);
            let (mut chosen, mut chosen_proof, mut second) = (0, 0, INFINITE);
            for (i, &(_, _, (child_proof, child_disproof))) in children.iter().enumerate() {
                disproof = disproof.saturating_add(child_proof).min(INFINITE);
                if child_disproof < proof {
                    (second, proof) = (proof, child_disproof);
                    (chosen, chosen_proof) = (i, child_proof);
                } else if child_disproof < second {
                    second = child_disproof;
                }
            }
            let work = earlier.saturating_add((self.nodes - start).min(u64::from(u32::MAX)) as u32);
            self.numbers.insert(key, Entry { proof, disproof, work });
            if proof >= proof_limit || disproof >= disproof_limit {
                if proof == 0 {
                    let winner = Some(children[chosen].0);
                    let slot = &mut self.killers[ply];
                    if slot[0] != winner {
                        *slot = [winner, slot[0]];
                    }
                }
                if (proof == 0 || disproof == 0) && work >= RECORD_WORK {
                    let me = pos.side_to_move();
                    self.settled.push((pos.clone(), if proof == 0 { me } else { me.opponent() }));
                }
                return Some(());
            }
            let child_proof_limit = disproof_limit.saturating_sub(disproof - chosen_proof);
            let child_disproof_limit = proof_limit.min(second.saturating_add(second / 4 + 1));
            let (mv, child_key, _) = children[chosen];
            pos.make(mv);
            let done =
                self.expand(pos, keys.after(mv, &self.symmetries), child_proof_limit, child_disproof_limit, ply + 1);
            children[chosen].2 = self.numbers(child_key);
            pos.unmake(mv);
            done?;
        }
    }

    /// Counts a node; `None` past the budget.
    fn spend(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.max_nodes).then_some(())
    }

    /// `pos`'s moves, `killers` first (the latest first), then in the play search's order, ties
    /// in the order of generation. As in the search's ordering, each move's sort key is one
    /// integer with the move's index below it, so an unstable sort gives the stable order.
    fn ordered_moves(&self, pos: &Position, killers: &Killers) -> Vec<Move> {
        let moves = pos.legal_moves();
        let mut scores = Vec::with_capacity(moves.len());
        pos.order_scores(&moves, &mut scores);
        debug_assert!(moves.len() <= 1 << INDEX_BITS);
        let mut keys: Vec<i64> = (scores.iter().zip(&moves).enumerate())
            .map(|(index, (&score, &mv))| {
                let rank = killers.iter().position(|&k| k == Some(mv)).unwrap_or(killers.len()) as i64;
                // A rank step outweighs any score; higher scores first.
                ((rank << 33) - i64::from(score)) << INDEX_BITS | index as i64
            })
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|key| moves[(key & ((1 << INDEX_BITS) - 1)) as usize]).collect()
    }

    /// Whether the side to move wins, where that is known without a search: `Some(false)`
    /// without a move, else by bounds on each side's moves ([`Regions`]). A side that plays
    /// only sealed moves in its own regions is sure of their sealed fill, and while it does the
    /// other side's moves are bounded: in its own regions (merged where its queens stand side by
    /// side) by their fill, elsewhere by the empty squares it reaches past the first side's
    /// queens, which never move. The side to move wins when the moves it is sure of outnumber
    /// all the opponent could make, and loses when the opponent is sure of as many as it could
    /// make itself. Once nothing is shared and no queen stands next to another region's, both
    /// bounds are the fill and that is the whole game. `None` while the bounds cannot tell,
    /// and (outside) once the budget is spent.
    fn exact(&mut self, pos: &Position) -> Option<Option<bool>> {
        if !pos.has_moves() {
            return Some(Some(false));
        }
        let regions = Regions::of(pos);
        let reach = [0, 1].map(|side| regions.reach(pos, side));
        // Each side's own empty squares bound its sealed fill from above, and the squares the
        // other reaches in shared parts are part of its bound: the fills can only decide when
        // these allow it.
        let most_sure = regions.own.each_ref().map(|own| own.iter().map(|r| r.empty.count_ones()).sum::<u32>());
        let least_most =
            reach.each_ref().map(|parts| parts.iter().filter(|p| p.shared).map(|p| p.empty.count_ones()).sum::<u32>());
        if most_sure[0] > least_most[1] && self.sure(&regions.own[0])? > self.most(&reach[1])? {
            return Some(Some(true));
        }
        if most_sure[1] >= least_most[0] && self.sure(&regions.own[1])? >= self.most(&reach[0])? {
            return Some(Some(false));
        }
        Some(None)
    }

    /// The moves a side is sure of in its own regions: their sealed fills.
    fn sure(&mut self, own: &[Region]) -> Option<u32> {
        own.iter().try_fold(0, |sum, r| Some(sum + self.fill(r.queens, GRID & !r.empty, r.gates)?))
    }

    /// The most moves a side can make while the other keeps to its own regions: the fill of
    /// each part it has alone, the empty squares of each part it shares.
    fn most(&mut self, parts: &[Part]) -> Option<u32> {
        parts.iter().try_fold(0, |sum, p| {
            let part = if p.shared { p.empty.count_ones() } else { self.fill(p.queens, GRID & !p.empty, 0)? };
            Some(sum + part)
        })
    }

    /// The most moves `queens` can make one after another with nobody else moving, where a
    /// queen leaving one of the squares `gates` shoots its arrow back into it (sealing the
    /// region, [`Region::gates`]). Each move fills one square of their regions, so it is at
    /// most the squares they reach, and a line of moves that long ends the search.
    fn fill(&mut self, queens: u128, occupied: u128, gates: u128) -> Option<u32> {
        if let Some(&known) = self.fills.get(&(queens, occupied, gates)) {
            return Some(known);
        }
        self.spend()?;
        let bound = DistanceMap::queen(queens, occupied).reached.count_ones();
        let mut most = 0;
        'moves: for from in Bits(queens) {
            let vacated = occupied ^ 1 << from;
            let sealed = gates & 1 << from != 0;
            for to in Bits(queen_attacks(from, occupied)) {
                let moved = queens ^ 1 << from | 1 << to;
                let arrows = if sealed { 1 << from } else { queen_attacks(to, vacated) };
                for arrow in Bits(arrows) {
                    let after = vacated | 1 << to | 1 << arrow;
                    most = most.max(1 + self.fill(moved, after, gates & !(1 << from))?);
                    if most == bound {
                        break 'moves;
                    }
                }
            }
        }
        self.fills.insert((queens, occupied, gates), most);
        Some(most)
    }
}

/// A king-connected set of empty squares, with the queens next to them, is a region; a queen
/// with no empty square next to it is a region alone. One that holds queens of one side only
/// is that side's own. The other side can reach into it only through the square of one of its
/// queens that stands next to a queen of another region (a gate) once that queen has moved;
/// a gate queen that moves and shoots its arrow back into the square it left (a sealed move)
/// closes that way, so a side making only sealed moves in its own regions keeps them to
/// itself. Regions that hold queens of both sides are shared.
struct Regions {
    /// The side to move's own regions and then the opponent's.
    own: [Vec<Region>; 2],
    /// The empty squares of the shared regions.
    shared: u128,
}

struct Region {
    queens: u128,
    empty: u128,
    /// The queens that stand next to a queen of another region.
    gates: u128,
}

/// Where a side's queens can ever go while the other side makes only sealed moves in its own
/// regions: its queens and the empty squares they reach, king-connected through empty squares
/// and its own queens, with the other side's queens and own regions as walls.
struct Part {
    queens: u128,
    empty: u128,
    /// Whether it takes in a shared region, whose empty squares then bound its moves.
    shared: bool,
}

impl Regions {
    fn of(pos: &Position) -> Regions {
        let me = pos.side_to_move();
        let empty = pos.empty_bits();
        let queens = [pos.queen_bits(me), pos.queen_bits(me.opponent())];
        let all_queens = queens[0] | queens[1];
        let mut regions = Regions { own: [Vec::new(), Vec::new()], shared: 0 };
        let mut unseen = all_queens;
        while unseen != 0 {
            let region = grown(unseen & unseen.wrapping_neg(), |region| {
                neighbours(region) & empty | neighbours(region & empty) & all_queens
            });
            unseen &= !region;
            let gates = region & neighbours(all_queens & !region);
            match (region & queens[0] != 0, region & queens[1] != 0) {
                (true, true) => regions.shared |= region & empty,
                (mine, _) => regions.own[usize::from(!mine)].push(Region {
                    queens: region & all_queens,
                    empty: region & empty,
                    gates: gates & all_queens,
                }),
            }
        }
        regions
    }

    /// The parts of `side` (0 the side to move, 1 the opponent): see [`Part`].
    fn reach(&self, pos: &Position, side: usize) -> Vec<Part> {
        let me = pos.side_to_move();
        let queens = pos.queen_bits(if side == 0 { me } else { me.opponent() });
        let walled = self.own[1 - side].iter().fold(0, |walls, r| walls | r.empty);
        let open = pos.empty_bits() & !walled;
        let mut parts = Vec::new();
        let mut unseen = queens;
        while unseen != 0 {
            let part = grown(unseen & unseen.wrapping_neg(), |part| neighbours(part) & (open | queens));
            unseen &= !part;
            parts.push(Part { queens: part & queens, empty: part & open, shared: part & self.shared != 0 });
        }
        parts
    }
}

/// `seed` with what `step` adds to it, again and again until it adds nothing new.
fn grown(mut seed: u128, step: impl Fn(u128) -> u128) -> u128 {
    loop {
        let next = seed | step(seed);
        if next == seed {
            return seed;
        }
        seed = next;
    }
}

/// Whether the game's search should call on the solver here ([`crate::game::Game::solve_threats`]):
/// only once the regions both sides reach are this small can a move's share of nodes prove
/// anything.
pub fn worth_solving(pos: &Position) -> bool {
    Regions::of(pos).shared.count_ones() <= SOLVABLE_SHARED_SQUARES
}

/// The most plies the game can still last: the empty squares the queens reach, king-connected
/// through empty squares. A move keeps its queen among them and its arrow fills one of them.
pub fn most_plies(pos: &Position) -> u32 {
    let me = pos.side_to_move();
    let queens = pos.queen_bits(me) | pos.queen_bits(me.opponent());
    let empty = pos.empty_bits();
    (grown(queens, |part| neighbours(part) & (empty | queens)) & empty).count_ones()
}

/// The most empty squares in shared regions for [`worth_solving`]: a 5x5 position with 16
/// took millions of nodes, a dozen tens of thousands.
const SOLVABLE_SHARED_SQUARES: u32 = 14;

#[cfg(test)]
mod tests {
    use super::super::board::tests::sq;
    use super::*;
    use crate::amazons::Square;

    /// The side to move wins exactly when some move leaves the opponent lost: the plain
    /// definition, searched without the numbers, the table, the order or the separated count.
    fn plain_wins(pos: &mut Position) -> bool {
        pos.legal_moves().into_iter().any(|mv| {
            pos.make(mv);
            let lost = !plain_wins(pos);
            pos.unmake(mv);
            lost
        })
    }

    /// [`plain_wins`] with a table, for positions of a few empty squares.
    fn remembered_wins(pos: &mut Position, memo: &mut FxHashMap<u64, bool>) -> bool {
        if let Some(&known) = memo.get(&pos.hash()) {
            return known;
        }
        let wins = pos.legal_moves().into_iter().any(|mv| {
            pos.make(mv);
            let lost = !remembered_wins(pos, memo);
            pos.unmake(mv);
            lost
        });
        memo.insert(pos.hash(), wins);
        wins
    }

    /// What the regions decide without a search agrees with play, above all where queens of
    /// both sides stand side by side: a queen that moves leaves its square empty, and the
    /// other side's queen next to it can step or shoot through it into the region it left,
    /// unless the move shoots back into that square.
    #[test]
    fn regions_decide_only_what_play_confirms() {
        // White's queen walls b3 off alone; four moves there would beat Black's three, but
        // whichever way it leaves b3, c4 follows it through the square (c4-b3, or c4-d5/b3),
        // and sealing b3 behind it leaves White two.
        let arrows = ["a2", "a3", "b1", "b2", "b4", "b5", "c3", "c5", "d1", "d2", "d3", "e1", "e3"].map(sq);
        let pos = Position::from_setup_sized(5, 5, &[sq("b3")], &[sq("c4"), sq("d4")], &arrows, Color::White).unwrap();
        assert_eq!(solve(&pos, u64::MAX).winner, Some(Color::Black));
        // Random sparse set-ups, each with a white queen next to a black one and up to two more
        // queens a side.
        let mut keys = crate::zobrist::KeyStream::new(0x501e_0000_0000_0002);
        let mut memo = FxHashMap::default();
        for (width, height) in [(5, 5), (6, 5)] {
            let (mut decided, mut gated, mut tried) = (0, 0, 0);
            while tried < 60_000 {
                let mut squares: Vec<Square> =
                    (0..width * height).map(|i| Square::new(i % width, i / width).unwrap()).collect();
                for i in (1..squares.len()).rev() {
                    squares.swap(i, (keys.next_key() % (i as u64 + 1)) as usize);
                }
                let first = squares.remove(0);
                let Some(at) = squares
                    .iter()
                    .position(|s| s.file().abs_diff(first.file()) <= 1 && s.rank().abs_diff(first.rank()) <= 1)
                else {
                    continue;
                };
                let next_to = squares.remove(at);
                let mut white = vec![first];
                let mut black = vec![next_to];
                white.extend(squares.drain(..(keys.next_key() % 3) as usize));
                black.extend(squares.drain(..(keys.next_key() % 3) as usize));
                let empty = 4 + (keys.next_key() % 7) as usize;
                let side = if keys.next_key().is_multiple_of(2) { Color::White } else { Color::Black };
                let mut pos =
                    Position::from_setup_sized(width, height, &white, &black, &squares[empty..], side).unwrap();
                tried += 1;
                let mut solver = Solver::new(&pos);
                solver.max_nodes = u64::MAX;
                if let Some(Some(wins)) = solver.exact(&pos) {
                    memo.clear();
                    assert_eq!(wins, remembered_wins(&mut pos, &mut memo), "{pos:?}");
                    decided += 1;
                    gated += usize::from(Regions::of(&pos).own.iter().flatten().any(|r| r.gates != 0));
                }
            }
            // Most decided set-ups have a queen beside another region's: the gates decide them.
            assert!(
                decided >= 10_000 && gated >= decided / 2,
                "{width}x{height}: {decided} of {tried} set-ups decided, {gated} with gates"
            );
        }
    }

    /// Along random games on five board sizes, a position's first numbers lean the way its
    /// evaluation does, a doubling per [`EVALUATION_DOUBLING`].
    #[test]
    fn first_guesses_lean_on_the_evaluation() {
        let (mut leading, mut trailing) = (0, 0);
        super::super::board::tests::along_random_games(0x0a11_5123_5eed_0005, |pos| {
            let replies = pos.count_moves() as u32;
            let (proof, disproof) = initial_numbers(pos);
            if replies == 0 {
                assert_eq!((proof, disproof), (INFINITE, 0));
                return;
            }
            let lead = pos.evaluate();
            assert!(proof >= 1 && disproof >= 1);
            if lead >= EVALUATION_DOUBLING as Score {
                leading += 1;
                assert!(proof == 1 && disproof >= 2 * replies, "{lead}: {proof} {disproof} of {replies}");
            } else if lead <= -EVALUATION_DOUBLING as Score {
                trailing += 1;
                assert!(proof >= 2 && disproof <= replies.div_ceil(2), "{lead}: {proof} {disproof} of {replies}");
            } else if lead == 0 {
                assert_eq!((proof, disproof), (1, replies));
            }
        });
        assert!(leading >= 10 && trailing >= 10, "{leading} leading, {trailing} trailing");
    }

    /// The root's killer is a move that won it, and killers lead the order, the latest first.
    #[test]
    fn killers_are_moves_that_won_and_come_first() {
        let mut pos = Position::start(5, 5).unwrap();
        for mv in ["a2-c2/b2", "d5-d4/d3", "d1-d2/d1", "a4-a3/a4", "c2-c3/c5"] {
            pos.play(pos.parse_move(mv).unwrap()).unwrap();
        }
        if solve(&pos, u64::MAX).winner != Some(pos.side_to_move()) {
            pos.play(pos.legal_moves()[0]).unwrap();
        }
        let mut solver = Solver::new(&pos);
        assert_eq!(solver.run(u64::MAX).winner, Some(pos.side_to_move()));
        let killers = solver.killers[0];
        let winner = killers[0].expect("the root was won by a move");
        let keys = Keys::of(&pos, &solver.symmetries);
        assert_eq!(solver.numbers(keys.after(winner, &solver.symmetries).canonical(&solver.symmetries)).1, 0);
        assert_eq!(solver.ordered_moves(&pos, &killers)[0], winner);
        let last = *solver.ordered_moves(&pos, &[None; 2]).last().unwrap();
        assert_eq!(solver.ordered_moves(&pos, &[Some(last), Some(winner)])[..2], [last, winner]);
    }

    /// The one integer key per move orders as a stable sort by killer rank and then score
    /// does: negative scores, ties and killers included.
    #[test]
    fn the_order_is_the_stable_sort_of_ranks_and_scores() {
        let solver = Solver::new(&Position::start(5, 5).unwrap());
        super::super::board::tests::along_random_games(0x0a11_5123_5eed_0005, |pos| {
            let moves = pos.legal_moves();
            let killers = [moves.get(moves.len() / 2).copied(), moves.last().copied()];
            let mut scores = Vec::new();
            pos.order_scores(&moves, &mut scores);
            let rank = |mv: &Move| killers.iter().position(|&k| k == Some(*mv)).unwrap_or(2);
            let mut expected: Vec<(Move, i32)> = moves.iter().copied().zip(scores).collect();
            expected.sort_by_key(|(mv, score)| (rank(mv), std::cmp::Reverse(*score)));
            let expected: Vec<Move> = expected.into_iter().map(|(mv, _)| mv).collect();
            assert_eq!(solver.ordered_moves(pos, &killers), expected, "{pos:?}");
        });
    }

    /// Small endings, crowded with arrows so that the plain search finishes: the solver's
    /// verdict matches it, and its move wins.
    #[test]
    fn verdicts_match_the_plain_definition() {
        let mut keys = crate::zobrist::KeyStream::new(0x501e_0000_0000_0001);
        // A square board (eight symmetries) and a rectangle (four).
        for (width, height) in [(5, 5), (6, 5)] {
            let (mut checked, mut won) = (0, 0);
            while checked < 40 {
                let mut pos = Position::start(width, height).unwrap();
                // Random moves until about eight empty squares are left.
                while pos.arrow_count() + 16 < (width * height) as u32 && !pos.is_over() {
                    let moves = pos.legal_moves();
                    pos.play(moves[(keys.next_key() % moves.len() as u64) as usize]).unwrap();
                }
                if pos.is_over() {
                    continue;
                }
                let solution = solve(&pos, u64::MAX);
                let me = pos.side_to_move();
                let expected = if plain_wins(&mut pos.clone()) { me } else { me.opponent() };
                assert_eq!(solution.winner, Some(expected), "{pos:?}");
                won += usize::from(expected == me);
                if let Some(best) = solution.best {
                    let mut after = pos.clone();
                    after.play(best).unwrap();
                    assert!(!plain_wins(&mut after), "{best} does not win\n{pos:?}");
                }
                checked += 1;
            }
            assert!(
                (10..=30).contains(&won),
                "{won} of 40 won on {width}x{height}: the sample should hold both verdicts"
            );
        }
    }

    #[test]
    fn separated_sides_count_their_own_moves() {
        // White's a1 queen has a1..a5 with b-file arrows: four moves (down a file of five).
        // Black's e5 queen has the c..e files, far more: Black wins whoever moves.
        let arrows = ["b1", "b2", "b3", "b4", "b5"].map(sq);
        for side in [Color::White, Color::Black] {
            let pos = Position::from_setup_sized(5, 5, &[sq("a1")], &[sq("e5")], &arrows, side).unwrap();
            assert_eq!(solve(&pos, u64::MAX).winner, Some(Color::Black));
        }
        // Files a and e, four moves each: the side to move runs out first and loses.
        let arrows = ["b1", "b2", "b3", "b4", "b5", "d1", "d2", "d3", "d4", "d5"].map(sq);
        for side in [Color::White, Color::Black] {
            let pos = Position::from_setup_sized(5, 5, &[sq("a1")], &[sq("e1")], &arrows, side).unwrap();
            assert_eq!(solve(&pos, u64::MAX).winner, Some(side.opponent()));
        }
    }

    /// A proof run in small slices reaches the verdict of one long run, and the positions it
    /// settled, given to a new solver, settle the same root with fewer nodes.
    #[test]
    fn runs_resume_and_solved_lists_carry_over() {
        let mut pos = Position::start(5, 5).unwrap();
        for mv in ["a2-c2/b2", "d5-d4/d3", "d1-d2/d1", "a4-a3/a4", "c2-c3/c5"] {
            pos.play(pos.parse_move(mv).unwrap()).unwrap();
        }
        let whole = solve(&pos, u64::MAX);
        assert!(whole.winner.is_some() && whole.nodes > 5 * u64::from(RECORD_WORK), "{whole:?}");
        let mut sliced = Solver::new(&pos);
        let mut answer = sliced.run(5_000);
        while answer.winner.is_none() {
            answer = sliced.run(5_000);
        }
        assert_eq!(answer.winner, whole.winner);
        let settled = sliced.take_settled();
        assert!(!settled.is_empty() && sliced.take_settled().is_empty());
        let mut helped = Solver::new(&pos);
        for (position, winner) in &settled {
            helped.learn(position, *winner);
        }
        let again = helped.run(u64::MAX);
        assert_eq!(again.winner, whole.winner);
        assert!(again.nodes < whole.nodes, "{} nodes with the list, {} without", again.nodes, whole.nodes);
    }

    #[test]
    fn an_exhausted_budget_proves_nothing() {
        let solution = solve(&Position::start(6, 5).unwrap(), 1_000);
        assert_eq!((solution.winner, solution.best), (None, None));
        assert!(solution.nodes > 1_000);
    }
}
