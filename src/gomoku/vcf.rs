//! Threat-space search: victory by continuous fours (VCF).
//!
//! The attacker plays only fours, so every defence is forced: the one cell that stops the five
//! (under caro also the cell past its far end, when that shuts the five at both ends; every
//! stop is searched, [`Board::five_stops`]).
//! That makes the tree narrow enough to read 20 and more plies deep where the main search sees
//! a handful. A counter-four by the defender must be blocked by a move that is itself a four.
//! Under renju black attacks only with moves he may play, and a white four whose one block is
//! forbidden to black has already won.

use super::board::Board;
use super::threat::Threat;
use super::types::Move;

/// Deepest VCF line, in plies.
const MAX_VCF_PLIES: u32 = 40;

/// One ply's move lists, kept from one VCF node to the next to reuse their buffers.
#[derive(Default)]
struct Lists {
    attacks: Vec<Move>,
    /// The defender's stops of the five the current attack threatens.
    stops: Vec<Move>,
}

impl Board {
    /// A move that wins for the side to move by continuous fours, and the plies to the five.
    pub(crate) fn find_vcf(&mut self, max_nodes: u32) -> Option<(Move, u32)> {
        let mut budget = max_nodes;
        self.find_vcf_within(&mut budget)
    }

    /// [`Board::find_vcf`] spending from `budget`, which keeps what is left: a caller that
    /// counts nodes (the VCT solver) learns how many were used.
    pub(crate) fn find_vcf_within(&mut self, budget: &mut u32) -> Option<(Move, u32)> {
        let mut lists = Vec::new();
        self.vcf(budget, MAX_VCF_PLIES, &mut lists, 0)
    }

    fn vcf(&mut self, budget: &mut u32, plies_left: u32, lists: &mut Vec<Lists>, level: usize) -> Option<(Move, u32)> {
        let me = self.side_to_move();
        let opp = me.opponent();
        if let Some(five) = self.find_threat(me, Threat::Five) {
            return Some((five, 1));
        }
        let opp_fives = self.threat_count(opp, Threat::Five);
        if opp_fives == 0
            && self.threat_count(me, Threat::LiveFour) > 0
            && let Some(live) =
                self.candidates().find(|&m| self.threat(m, me) == Threat::LiveFour && self.is_legal_for(m, me))
        {
            return Some((live, 3));
        }
        if self.four_cells(me) == 0 || opp_fives > 1 || plies_left < 3 || *budget == 0 {
            return None;
        }
        if lists.len() <= level {
            lists.push(Lists::default());
        }
        let mut attacks = std::mem::take(&mut lists[level].attacks);
        attacks.clear();
        // Against a four, only a four that also blocks it keeps the initiative.
        self.fours_where(&mut attacks, |m| opp_fives == 0 || self.threat(m, opp) == Threat::Five);
        let mut found = None;
        for &attack in &attacks {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            self.make(attack);
            let result = self.every_stop_loses(budget, plies_left, lists, level);
            self.unmake(attack);
            if let Some(plies) = result {
                found = Some((attack, plies + 2));
                break;
            }
        }
        lists[level].attacks = attacks;
        found
    }

    /// After the attacker's four, with the defender to move: whether every stop of the five
    /// ([`Board::five_stops`]) still loses to continuous fours, and if so the plies from the
    /// defender's reply to the five (the longest line). A defender with no legal stop loses to
    /// the five next move.
    fn every_stop_loses(
        &mut self,
        budget: &mut u32,
        plies_left: u32,
        lists: &mut Vec<Lists>,
        level: usize,
    ) -> Option<u32> {
        let defender = self.side_to_move();
        let attacker = defender.opponent();
        if self.threat_count(attacker, Threat::Five) == 0 {
            return None;
        }
        let mut stops = std::mem::take(&mut lists[level].stops);
        self.five_stops(attacker, &mut stops);
        stops.retain(|&m| self.is_legal_for(m, defender));
        let mut longest = Some(1);
        for &stop in &stops {
            if self.threat(stop, defender) == Threat::Five {
                longest = None;
                break;
            }
            self.make(stop);
            let deeper = self.vcf(budget, plies_left - 2, lists, level + 1);
            self.unmake(stop);
            match (deeper, longest) {
                (Some((_, plies)), Some(most)) => longest = Some(most.max(plies)),
                _ => {
                    longest = None;
                    break;
                }
            }
        }
        lists[level].stops = stops;
        longest
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::tests::{board_from, mv};
    use super::super::types::Rule;

    #[test]
    fn finds_a_four_four_by_continuous_fours() {
        // Black to move: (4,4) makes a four on row 4 and column 4 at once.
        let mut board = board_from(
            &[
                "...............",
                "....X..........",
                "....X..........",
                "....X....O.....",
                ".XXX.....O.....",
                ".........O.....",
                "..........O....",
                "...OO..........",
            ],
            Rule::Freestyle,
        );
        let (first, plies) = board.find_vcf(10_000).expect("a win");
        assert_eq!(first, mv(4, 4));
        assert_eq!(plies, 3);
    }

    #[test]
    fn finds_a_four_then_a_double_four() {
        // Black's four at (6,5) turns the diagonal into a three, so (7,6) then makes two fours.
        let mut board = board_from(
            &[
                "..............O",
                "...............",
                "...O...........",
                "....X.........O",
                ".....X.........",
                "..OXXX.........",
                "........XXXO...",
                "...............",
                "...............",
                "...............",
                "..............O",
                "...............",
                "...............",
                "...............",
                "O..O...........",
            ],
            Rule::Freestyle,
        );
        let start_hash = board.hash();
        let found = board.find_vcf(100_000);
        assert_eq!(board.hash(), start_hash);
        let (first, plies) = found.expect("a vcf");
        assert!(plies >= 5, "{first} in {plies}");
    }

    #[test]
    fn caro_double_four_wins_though_each_four_has_two_stops() {
        // Black's (4,1) makes a four on row 1, shut at (0,1), and one in column 4 with five
        // points (4,0) and (4,5). In caro White can stop the row's five at (5,1) or past it at
        // (6,1), and the column's at (4,0), which shuts the other five at both ends; no stone
        // does both, so Black still wins in 3.
        let rows = [
            "...............",
            "OXXX...........",
            "....X..........",
            "....X..........",
            "....X..........",
            "...............",
            "....O..O.......",
            ".O.........O.O.",
        ];
        assert_eq!(board_from(&rows, Rule::Caro).find_vcf(10_000), Some((mv(4, 1), 3)));
        assert_eq!(board_from(&rows, Rule::Freestyle).find_vcf(10_000), Some((mv(4, 1), 3)));
    }

    #[test]
    fn no_vcf_without_fours() {
        let mut board =
            board_from(&["..........", "...X......", "....O.....", ".....X....", "..O......."], Rule::Freestyle);
        assert_eq!(board.find_vcf(100_000), None);
    }
}
