//! What one move makes over all four lines through its cell: the kill shapes.
//!
//! A single line gives a four or a three; the game is decided by combinations: two fours or a
//! live four cannot be stopped, a four with a live three wins unless the block of the four
//! also stops the three, two live threes win unless the defender has fours of his own.
//!
//! Under renju black may not make two fours or an overline, so for black those combinations are
//! [`Threat::Forbidden`] unless the move also makes five. Two threes can be forbidden too, but
//! whether a three is real depends on cells off its lines; `renju.rs` decides those.

use super::pattern::Shape;

/// Strongest combination a move makes, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Threat {
    /// Renju: black may not play here (overline or double four, and no five).
    Forbidden = 0,
    None,
    /// One live three: the opponent must answer it.
    Three,
    /// One four (rush or jump): the opponent must block its one five point.
    Four,
    /// Two live threes at once (double three).
    DoubleThree,
    /// A four and a live three at once (four-three).
    FourThree,
    /// A live four, or two fours at once (double four): wins unless the opponent makes five.
    LiveFour,
    Five,
}

/// Number of [`Threat`] values, for count arrays.
pub const THREAT_KINDS: usize = 8;

impl Threat {
    const ALL: [Threat; THREAT_KINDS] = [
        Threat::Forbidden,
        Threat::None,
        Threat::Three,
        Threat::Four,
        Threat::DoubleThree,
        Threat::FourThree,
        Threat::LiveFour,
        Threat::Five,
    ];

    pub fn from_u8(v: u8) -> Threat {
        Threat::ALL[usize::from(v)]
    }

    /// Combines the shapes a move makes in the four directions.
    pub fn from_shapes(shapes: [Shape; 4]) -> Threat {
        let mut fours = 0;
        let mut threes = 0;
        for shape in shapes {
            match shape {
                Shape::Five => return Threat::Five,
                Shape::LiveFour | Shape::DoubleFour => fours += 2,
                s if s.is_four() => fours += 1,
                s if s.is_live_three() => threes += 1,
                _ => {}
            }
        }
        Threat::combine(fours, threes)
    }

    /// The same for renju's black, who loses by an overline or two fours (a straight four is
    /// one four) unless the move also makes five.
    pub fn from_shapes_forbidding(shapes: [Shape; 4]) -> Threat {
        if shapes.contains(&Shape::Five) {
            return Threat::Five;
        }
        let mut fours = 0;
        let mut threes = 0;
        for shape in shapes {
            match shape {
                Shape::Overline => return Threat::Forbidden,
                Shape::DoubleFour => fours += 2,
                s if s.is_four() => fours += 1,
                s if s.is_live_three() => threes += 1,
                _ => {}
            }
        }
        match fours {
            0 | 1 if shapes.contains(&Shape::LiveFour) => Threat::LiveFour,
            0 | 1 => Threat::combine(fours, threes),
            _ => Threat::Forbidden,
        }
    }

    fn combine(fours: u32, threes: u32) -> Threat {
        match (fours, threes) {
            (f, _) if f >= 2 => Threat::LiveFour,
            (1, t) if t >= 1 => Threat::FourThree,
            (1, _) => Threat::Four,
            (0, t) if t >= 2 => Threat::DoubleThree,
            (0, 1) => Threat::Three,
            _ => Threat::None,
        }
    }

    /// Forces a reply at once: the opponent must block or lose next move.
    pub fn is_four(self) -> bool {
        matches!(self, Threat::Four | Threat::FourThree | Threat::LiveFour | Threat::Five)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Shape::*;

    #[test]
    fn kill_shapes_combine_lines() {
        assert_eq!(Threat::from_shapes([Five, Dead, Dead, Dead]), Threat::Five);
        assert_eq!(Threat::from_shapes([LiveFour, Dead, LiveTwo, Dead]), Threat::LiveFour);
        assert_eq!(Threat::from_shapes([RushFour, JumpFour, Dead, Dead]), Threat::LiveFour);
        assert_eq!(Threat::from_shapes([RushFour, LiveThree, Dead, Dead]), Threat::FourThree);
        assert_eq!(Threat::from_shapes([JumpFour, JumpLiveThree, Dead, Dead]), Threat::FourThree);
        assert_eq!(Threat::from_shapes([LiveThree, JumpLiveThree, Dead, Dead]), Threat::DoubleThree);
        assert_eq!(Threat::from_shapes([RushFour, SleepingThree, Dead, Dead]), Threat::Four);
        assert_eq!(Threat::from_shapes([LiveThree, SleepingThree, LiveTwo, Dead]), Threat::Three);
        assert_eq!(Threat::from_shapes([Overline, LiveTwo, Dead, Dead]), Threat::None);
    }

    #[test]
    fn renju_black_loses_by_two_fours_or_an_overline_unless_he_makes_five() {
        let forbidding = Threat::from_shapes_forbidding;
        assert_eq!(forbidding([LiveFour, Dead, LiveTwo, Dead]), Threat::LiveFour);
        assert_eq!(forbidding([LiveFour, RushFour, Dead, Dead]), Threat::Forbidden);
        assert_eq!(forbidding([RushFour, JumpFour, Dead, Dead]), Threat::Forbidden);
        assert_eq!(forbidding([DoubleFour, Dead, Dead, Dead]), Threat::Forbidden);
        assert_eq!(forbidding([Overline, LiveThree, Dead, Dead]), Threat::Forbidden);
        assert_eq!(forbidding([Five, Overline, DoubleFour, Dead]), Threat::Five);
        assert_eq!(forbidding([RushFour, LiveThree, Dead, Dead]), Threat::FourThree);
        // Two threes may or may not be forbidden: that takes the recursive check.
        assert_eq!(forbidding([LiveThree, JumpLiveThree, Dead, Dead]), Threat::DoubleThree);
    }
}
