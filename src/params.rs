//! The tuner's parameter table: the constants of the search and of the Gomoku evaluation that
//! SPSA moves together, each with its default, its range and its SPSA step, in one place.
//!
//! The search reads them through [`get`]. A normal build compiles each read to its default, a
//! constant, so playing costs nothing; a build with the `tune` feature reads a table of atomics
//! instead, which [`set`] fills at start-up (`--param NAME=VALUE`), before the first search or
//! board builds the tables that depend on them (late-move reductions and pruning counts, the
//! Gomoku cell table). The search parameters serve every game; the `gomoku_` ones only Gomoku.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The size of SPSA's perturbation at the end of a run (fishtest's `c_end`).
    pub step: f64,
}

macro_rules! params {
    ($($(#[doc = $doc:literal])* $id:ident = $default:literal in $min:literal..=$max:literal step $step:literal;)*) => {
        /// Every parameter, in the order of [`Id`].
        pub const TABLE: &[Param] =
            &[$(Param { name: stringify!($id), default: $default, min: $min, max: $max, step: $step as f64 }),*];

        /// A parameter's place in [`TABLE`]; its name is its text.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum Id {
            $($(#[doc = $doc])* $id),*
        }

        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; TABLE.len()] = [$(AtomicI32::new($default)),*];
    };
}

params! {
    /// Late-move reductions start at this move index.
    lmr_min_index = 3 in 1..=8 step 1;
    /// Late-move reductions start at this depth (from 2: a reduction leaves at least one ply).
    lmr_min_depth = 3 in 2..=8 step 1;
    /// The reduction is `ln(depth) * ln(index)` times this, in hundredths.
    lmr_scale_pct = 100 in 40..=200 step 10;
    /// Quiet moves past `lmp_base + depth^lmp_exponent` are not searched away from the PV.
    lmp_base = 4 in 1..=12 step 1;
    /// The exponent of late-move pruning's count, in hundredths.
    lmp_exponent_pct = 132 in 80..=200 step 8;
    /// Reverse futility margin per ply left.
    rfp_margin = 120 in 30..=400 step 15;
    /// Razoring: how close to the horizon.
    razor_max_depth = 2 in 0..=4 step 1;
    /// Razoring: the margin below alpha per ply left.
    razor_margin = 200 in 40..=600 step 25;
    /// Null-move pruning: from this depth, `nmp_base + depth / nmp_divisor` plies shallower.
    nmp_min_depth = 3 in 1..=6 step 1;
    /// Null-move pruning: the reduction's constant part.
    nmp_base = 3 in 1..=6 step 1;
    /// Null-move pruning: the depth divided by this adds to the reduction.
    nmp_divisor = 4 in 2..=8 step 1;
    /// Replies to threats searched beyond the horizon before the evaluation is trusted.
    max_threat_extension = 16 in 8..=24 step 2;
    /// Plies beyond the horizon in which the side to move may still try a forcing move.
    max_forcing_plies = 12 in 4..=24 step 2;
    /// Aspiration windows at the root: from this depth.
    aspiration_min_depth = 5 in 2..=10 step 1;
    /// Aspiration windows: this far either side of the last score.
    aspiration_delta = 100 in 20..=400 step 15;
    /// Move ordering: a killer move's bonus over the history score.
    killer_bonus = 4000 in 0..=8000 step 400;

    /// Gomoku: the worth of having the move.
    gomoku_tempo = 29 in 0..=150 step 6;
    /// Gomoku: plies past the horizon from which a four must also build in another line.
    gomoku_plain_four_plies = 4 in 1..=10 step 1;
    /// Gomoku: a stone's worth on a cell per direction by the shape it makes there, to the side
    /// to move (`mover`) and to the side waiting (`waiter`), in the order of `Shape` after `Dead`.
    gomoku_shape_mover_sleeping_one = 1 in 0..=20 step 1;
    gomoku_shape_mover_live_one = 2 in 0..=30 step 1;
    gomoku_shape_mover_sleeping_two = 9 in 0..=60 step 2;
    gomoku_shape_mover_live_two = 10 in 0..=80 step 2;
    gomoku_shape_mover_sleeping_three = 50 in 0..=200 step 6;
    gomoku_shape_mover_jump_live_three = 60 in 0..=250 step 8;
    gomoku_shape_mover_live_three = 118 in 0..=400 step 12;
    gomoku_shape_mover_jump_four = 0 in 0..=300 step 10;
    gomoku_shape_mover_rush_four = 354 in 0..=1000 step 35;
    gomoku_shape_mover_live_four = 1062 in 0..=3000 step 100;
    gomoku_shape_mover_five = 2124 in 0..=6000 step 200;
    gomoku_shape_mover_overline = 0 in 0..=3000 step 100;
    gomoku_shape_mover_double_four = 1062 in 0..=3000 step 100;
    gomoku_shape_waiter_sleeping_one = 0 in 0..=20 step 1;
    gomoku_shape_waiter_live_one = 1 in 0..=30 step 1;
    gomoku_shape_waiter_sleeping_two = 7 in 0..=60 step 2;
    gomoku_shape_waiter_live_two = 8 in 0..=80 step 2;
    gomoku_shape_waiter_sleeping_three = 50 in 0..=200 step 6;
    gomoku_shape_waiter_jump_live_three = 42 in 0..=250 step 6;
    gomoku_shape_waiter_live_three = 73 in 0..=300 step 8;
    gomoku_shape_waiter_jump_four = 54 in 0..=300 step 8;
    gomoku_shape_waiter_rush_four = 292 in 0..=1000 step 30;
    gomoku_shape_waiter_live_four = 425 in 0..=1500 step 40;
    gomoku_shape_waiter_five = 849 in 0..=3000 step 80;
    gomoku_shape_waiter_overline = 0 in 0..=1500 step 40;
    gomoku_shape_waiter_double_four = 425 in 0..=1500 step 40;
    /// Gomoku: the extra worth of a cell where one stone makes a kill shape, per role, in the
    /// order of `Threat` after `None`.
    gomoku_threat_mover_three = 43 in 0..=300 step 6;
    gomoku_threat_mover_four = 66 in 0..=300 step 8;
    gomoku_threat_mover_double_three = 128 in 0..=600 step 15;
    gomoku_threat_mover_four_three = 2242 in 0..=6000 step 200;
    gomoku_threat_mover_live_four = 4484 in 0..=12000 step 400;
    gomoku_threat_mover_five = 8968 in 0..=16383 step 800;
    gomoku_threat_waiter_three = 45 in 0..=300 step 6;
    gomoku_threat_waiter_four = 45 in 0..=300 step 6;
    gomoku_threat_waiter_double_three = 38 in 0..=600 step 6;
    gomoku_threat_waiter_four_three = 980 in 0..=4000 step 90;
    gomoku_threat_waiter_live_four = 470 in 0..=4000 step 50;
    gomoku_threat_waiter_five = 1960 in 0..=8000 step 180;
    /// Gomoku: the extra worth of a cell where one stone builds in two lines short of a kill
    /// shape, per role, in the order of `Combo` after `None`.
    gomoku_combo_mover_two_twos = 71 in 0..=300 step 8;
    gomoku_combo_mover_sleeping_three_plus = 85 in 0..=300 step 8;
    gomoku_combo_mover_three_plus = 121 in 0..=400 step 12;
    gomoku_combo_mover_four_plus = 337 in 0..=1000 step 30;
    gomoku_combo_waiter_two_twos = 53 in 0..=300 step 6;
    gomoku_combo_waiter_sleeping_three_plus = 62 in 0..=300 step 6;
    gomoku_combo_waiter_three_plus = 91 in 0..=400 step 10;
    gomoku_combo_waiter_four_plus = 270 in 0..=1000 step 25;
    /// Gomoku: move ordering's score of a move by the threat it makes, in the order of `Threat`
    /// after `None` (a move that stops the same threat of the opponent gets half).
    gomoku_order_three = 400 in 0..=2000 step 40;
    gomoku_order_four = 600 in 0..=3000 step 60;
    gomoku_order_double_three = 1500 in 0..=6000 step 150;
    gomoku_order_four_three = 3000 in 0..=12000 step 300;
    gomoku_order_live_four = 8000 in 0..=30000 step 800;
    gomoku_order_five = 20000 in 0..=60000 step 2000;
    /// Gomoku with a network: move ordering's score per unit of the policy's logit, in place of
    /// the classical cell values.
    gomoku_policy_order = 200 in 0..=1000 step 25;
    /// Gomoku with a network: the network's share of the evaluation, in percent; the classical
    /// evaluation has the rest (half and half beat the network alone at equal nodes).
    gomoku_network_share = 50 in 0..=100 step 10;
    /// Gomoku with a network: a late move whose policy logit is this many tenths of a logit
    /// or more below the best move's is reduced a ply more; one less than
    /// `gomoku_policy_keep_gap` tenths below it a ply less (0: never).
    gomoku_policy_reduce_gap = 30 in 5..=200 step 5;
    gomoku_policy_keep_gap = 5 in 0..=40 step 3;
}

/// The parameter's value: its default in a normal build.
#[inline(always)]
pub fn get(id: Id) -> i32 {
    get_after(id, 0)
}

/// The parameter `offset` places after `first`, for the constants that are tables.
#[inline(always)]
pub fn get_after(first: Id, offset: usize) -> i32 {
    let index = first as usize + offset;
    #[cfg(feature = "tune")]
    {
        VALUES[index].load(Ordering::Relaxed)
    }
    #[cfg(not(feature = "tune"))]
    {
        TABLE[index].default
    }
}

/// Sets a parameter by name; a value out of its range is refused, and so is any value but the
/// default in a build without the `tune` feature.
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let index = TABLE
        .iter()
        .position(|param| param.name == name)
        .ok_or_else(|| format!("no parameter named {name} ('arbor params' lists them)"))?;
    let param = TABLE[index];
    if !(param.min..=param.max).contains(&value) {
        return Err(format!("{name}={value} is outside its range {}..={}", param.min, param.max));
    }
    #[cfg(feature = "tune")]
    VALUES[index].store(value, Ordering::Relaxed);
    #[cfg(not(feature = "tune"))]
    if value != param.default {
        return Err(format!("{name}: this build reads its parameters as constants (build with --features tune)"));
    }
    Ok(())
}

/// [`set`] from `NAME=VALUE`.
pub fn assign(assignment: &str) -> Result<(), String> {
    let (name, value) = assignment.split_once('=').ok_or_else(|| format!("{assignment:?} is not NAME=VALUE"))?;
    let value = value.trim().parse().map_err(|_| format!("{assignment:?}: the value is not an integer"))?;
    set(name.trim(), value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_every_name_is_unique() {
        for (index, param) in TABLE.iter().enumerate() {
            assert!((param.min..=param.max).contains(&param.default), "{param:?}");
            assert!(param.min < param.max && param.step > 0.0, "{param:?}");
            assert!(TABLE[..index].iter().all(|other| other.name != param.name), "{param:?}");
        }
        assert_eq!(TABLE[Id::rfp_margin as usize].name, "rfp_margin");
        assert_eq!(get(Id::rfp_margin), TABLE[Id::rfp_margin as usize].default);
    }

    #[test]
    fn assignments_are_checked() {
        assert!(assign("rfp_margin=120").is_ok());
        assert!(assign("rfp_margin").unwrap_err().contains("NAME=VALUE"));
        assert!(assign("rfp_margin=x").unwrap_err().contains("integer"));
        assert!(assign("no_such=1").unwrap_err().contains("no parameter"));
        assert!(assign("rfp_margin=100000").unwrap_err().contains("range"));
        assert_eq!([get_after(Id::nmp_base, 0), get_after(Id::nmp_base, 1)], [3, 4]);
    }
}
