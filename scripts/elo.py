#!/usr/bin/env python3
"""Elo difference with a 95% error bar from a match's wins/losses/draws (python3 stdlib only).

Logistic model: score p = (W + D/2) / N, Elo = -400 * log10(1/p - 1).
The error bar uses the standard error of the per-game score,
se = sqrt(sum_i (s_i - p)^2 / N) / sqrt(N), and maps p +- 1.96 se through the same formula
(half the width of that interval is the "+-" value, as cutechess-cli prints it).
LOS (likelihood of superiority) = 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))).
Games played in pairs (one opening, colours swapped) are not independent: `pair_stats` gives the
same figures from the pairs' scores, the standard error of their mean and LOS = Phi((mean - 1/2) /
se), as the pentanomial SPRT reads them.

Usage:  python3 scripts/elo.py W L D       e.g.  python3 scripts/elo.py 12 8 4
"""
import math
import sys


def elo_from_score(p):
    """Elo difference for an expected score p in [0, 1] (infinite at 0 and 1)."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def elo_stats(wins, losses, draws):
    """Return (score, elo, err95, los) for the first player; err95 is inf where the results
    do not vary (or reach 0 or 1 within it)."""
    n = wins + losses + draws
    if n == 0:
        return 0.5, 0.0, math.inf, 0.5
    p = (wins + 0.5 * draws) / n
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = p - 1.96 * se, p + 1.96 * se
    # Results without any spread bound nothing: the bar is infinite, not zero.
    err = (elo_from_score(hi) - elo_from_score(lo)) / 2 if se > 0 and 0 < lo and hi < 1 else math.inf
    decisive = wins + losses
    los = 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * decisive))) if decisive else 0.5
    return p, elo_from_score(p), err, los


def pair_stats(pair_scores):
    """(score, elo, err95, los) from game pairs, each scored 0, 0.25, ... 1: the figures of
    elo_stats with the standard error of the pairs' mean, since a pair's two games are correlated."""
    n = len(pair_scores)
    if n < 2:
        return 0.5, 0.0, math.inf, 0.5
    mean = sum(pair_scores) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in pair_scores) / n / n)
    lo, hi = mean - 1.96 * se, mean + 1.96 * se
    err = (elo_from_score(hi) - elo_from_score(lo)) / 2 if se > 0 and 0 < lo and hi < 1 else math.inf
    los = 0.5 * (1 + math.erf((mean - 0.5) / (se * math.sqrt(2)))) if se > 0 else 0.5
    return mean, elo_from_score(mean), err, los


def format_pairs(pair_scores):
    """format_elo's line from game pairs (pair_stats)."""
    p, elo, err, los = pair_stats(pair_scores)
    return (f"Score: {100 * p:.1f}%   Elo difference: {elo:+.1f} +/- {err:.1f} (95%, by pairs)"
            f"   LOS: {100 * los:.1f}%")


def pair_llr(pair_scores, elo0, elo1):
    """Log-likelihood ratio of elo1 against elo0 (logistic Elo) from game pairs, each scored 0,
    0.25, 0.5, 0.75 or 1 (the pentanomial model), by the normal approximation of the
    generalised SPRT (fishtest's LLR_alt2): N (s1 - s0) (2 mean - s0 - s1) / (2 variance), with
    s the expected score of each hypothesis. 0 while the pairs do not vary at all."""
    n = len(pair_scores)
    if n < 2:
        return 0.0
    mean = sum(pair_scores) / n
    variance = sum((x - mean) ** 2 for x in pair_scores) / n
    if variance <= 0:
        return 0.0
    s0, s1 = (1 / (1 + 10 ** (-elo / 400)) for elo in (elo0, elo1))
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def sprt_bounds(alpha=0.05, beta=0.05):
    """The LLR at which an SPRT accepts H0 (lower) or H1 (upper)."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def format_elo(wins, losses, draws):
    p, elo, err, los = elo_stats(wins, losses, draws)
    return (f"Score: {100 * p:.1f}%   Elo difference: {elo:+.1f} +/- {err:.1f} (95%)"
            f"   LOS: {100 * los:.1f}%")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(format_elo(*(int(x) for x in sys.argv[1:])))
