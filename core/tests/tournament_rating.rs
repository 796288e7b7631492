//! Rating changes: FIBS's formula against the worked numbers published for it, FIDE's Elo
//! against its expectancy table and the examples found for it, and the identities both
//! must keep whatever the inputs.

use baffle_core::backgammon::setup::MAX_LENGTH;
use baffle_core::tournament::rating::{
    FibsChange, MAX_K, Rating, RatingError, Score, elo, fibs, fide_expected, fide_k,
};
use proptest::prelude::*;

fn pts(points: i64) -> Rating {
    Rating::points(points)
}

/// Hundredths to a float, for comparing with sources that print one or three decimals.
fn f(r: Rating) -> f64 {
    r.0 as f64 / 100.0
}

/// Both players experienced (400 or more), so the experience factor is 1.
const SEASONED: u32 = 400;

// ---------------------------------------------------------------- FIBS: sources

/// Kevin Bastian, "The FIBS Rating System" (https://bkgm.com/articles/McCool/ratings.html):
/// "A one-point match played between two "experienced" players with identical ratings is
/// worth 2 points; that is, the winner's rating will go up exactly 2.00 points, while the
/// loser's rating will go down exactly 2.00 points."
#[test]
fn bastian_one_point_match_between_equals_is_worth_two_points() {
    let change = fibs(pts(1500), pts(1500), 1, SEASONED, SEASONED).unwrap();
    assert_eq!(
        change,
        FibsChange {
            winner_gain: Rating(200),
            loser_loss: Rating(200)
        }
    );
}

/// GoldToken's "Ratings in Practice" table for experienced players
/// (https://m.goldtoken.com/games/wiki?wiki=Ratings%20in%20Practice), one decimal: for an
/// opponent rated so much above the player, the player's gain for a win and loss for a
/// loss in 1-, 3-, 5-, 7- and 9-point matches.
#[test]
fn goldtoken_table_for_experienced_players() {
    #[rustfmt::skip]
    let table: [(i64, [(f64, f64); 5]); 6] = [
        (1000, [(3.0, 1.0), (6.1, 0.8), (8.3, 0.6), (10.1, 0.5), (11.6, 0.4)]),
        (500, [(2.6, 1.4), (5.1, 1.9), (7.0, 2.0), (8.7, 1.9), (10.2, 1.8)]),
        (250, [(2.3, 1.7), (4.3, 2.6), (5.9, 3.1), (7.2, 3.4), (8.4, 3.6)]),
        (0, [(2.0, 2.0), (3.5, 3.5), (4.5, 4.5), (5.3, 5.3), (6.0, 6.0)]),
        (-250, [(1.7, 2.3), (2.6, 4.3), (3.1, 5.9), (3.4, 7.2), (3.6, 8.4)]),
        (-500, [(1.4, 2.6), (1.9, 5.1), (2.0, 7.0), (1.9, 8.7), (1.8, 10.2)]),
    ];
    for (above, row) in table {
        let me = pts(1500);
        let opponent = pts(1500 + above);
        for (length, (win, loss)) in [1, 3, 5, 7, 9].into_iter().zip(row) {
            let gain = fibs(me, opponent, length, SEASONED, SEASONED)
                .unwrap()
                .winner_gain;
            let lost = fibs(opponent, me, length, SEASONED, SEASONED)
                .unwrap()
                .loser_loss;
            // The table prints 2 (that is, 2.0) for the favourite's 5-point change against
            // a player 500 below: the formula gives 1.93, which rounds to 1.9 as every
            // other entry of the table does. The source is off by one in its last digit
            // here (both entries are the same quantity); the value is pinned instead.
            if above == 500 && length == 5 {
                assert_eq!(lost, Rating(193));
                assert!(
                    (f(gain) - win).abs() <= 0.05,
                    "{above} {length}: {gain} vs {win}"
                );
                continue;
            }
            if above == -500 && length == 5 {
                assert_eq!(gain, Rating(193));
                assert!(
                    (f(lost) - loss).abs() <= 0.05,
                    "{above} {length}: {lost} vs {loss}"
                );
                continue;
            }
            assert!(
                (f(gain) - win).abs() <= 0.05,
                "{above} {length}: gain {gain} vs {win}"
            );
            assert!(
                (f(lost) - loss).abs() <= 0.05,
                "{above} {length}: loss {lost} vs {loss}"
            );
        }
    }
}

/// The "batting average for favorite to maintain his rating" table posted to
/// rec.games.backgammon (https://bkgm.com/rgb/rgb.cgi?view+45), three decimals: the
/// fraction of matches a favourite must win to break even, which under the formula is
/// 1 - P_upset. It is recovered from the two changes as loss / (gain + loss); both are
/// rounded to hundredths, which moves the ratio by up to about 0.001.
#[test]
fn rgb_batting_average_table() {
    #[rustfmt::skip]
    let table: [(i64, [f64; 6]); 8] = [
        (0, [0.500, 0.500, 0.500, 0.500, 0.500, 0.500]),
        (100, [0.529, 0.550, 0.564, 0.576, 0.585, 0.594]),
        (200, [0.557, 0.598, 0.626, 0.648, 0.666, 0.682]),
        (300, [0.585, 0.645, 0.684, 0.714, 0.738, 0.759]),
        (400, [0.613, 0.689, 0.737, 0.772, 0.799, 0.822]),
        (500, [0.640, 0.730, 0.784, 0.821, 0.849, 0.871]),
        (600, [0.666, 0.768, 0.824, 0.861, 0.888, 0.908]),
        (700, [0.691, 0.802, 0.858, 0.894, 0.918, 0.935]),
    ];
    for (difference, row) in table {
        let favourite = pts(1500 + difference);
        let underdog = pts(1500);
        for (length, average) in [1, 3, 5, 7, 9, 11].into_iter().zip(row) {
            let gain = fibs(favourite, underdog, length, SEASONED, SEASONED)
                .unwrap()
                .winner_gain;
            let loss = fibs(underdog, favourite, length, SEASONED, SEASONED)
                .unwrap()
                .loser_loss;
            let ratio = f(loss) / (f(gain) + f(loss));
            assert!(
                (ratio - average).abs() <= 0.0015,
                "{difference} {length}: {ratio} vs {average}"
            );
        }
    }
}

/// The experience factor, as described on rec.games.backgammon
/// (https://bkgm.com/rgb/rgb.cgi?view+45): "a multipler to the rating changes, which
/// starts at 5(!) and declines to 4 at an experience of 100; 3 at 200, etc.", and is 1
/// from 400 on (FIBS's help: K = max(1, -experience/100+5)). A real division: 50
/// experience gives 4.5 (MacFIBS: "very close to 5.0" for a new player).
#[test]
fn experience_factor_from_five_down_to_one() {
    for (experience, change) in [
        (0, 1000),
        (50, 900),
        (100, 800),
        (150, 700),
        (200, 600),
        (300, 400),
        (399, 202),
        (400, 200),
        (5000, 200),
        (u32::MAX, 200),
    ] {
        let c = fibs(pts(1500), pts(1500), 1, experience, SEASONED).unwrap();
        assert_eq!(c.winner_gain, Rating(change), "winner with {experience}");
        assert_eq!(c.loser_loss, Rating(200));
        let c = fibs(pts(1500), pts(1500), 1, SEASONED, experience).unwrap();
        assert_eq!(c.loser_loss, Rating(change), "loser with {experience}");
        assert_eq!(c.winner_gain, Rating(200));
    }
}

/// Pinned values, so a change of arithmetic that moves a hundredth is seen (these are
/// what a log replays to).
#[test]
fn pinned_hundredths() {
    let c = fibs(pts(1500), pts(2500), 1, SEASONED, SEASONED).unwrap();
    assert_eq!(
        c,
        FibsChange {
            winner_gain: Rating(304),
            loser_loss: Rating(304)
        }
    );
    let c = fibs(pts(2500), pts(1500), 1, SEASONED, SEASONED).unwrap();
    assert_eq!(
        c,
        FibsChange {
            winner_gain: Rating(96),
            loser_loss: Rating(96)
        }
    );
    // An upset in a 7-point match by a new player (factor 5) over a seasoned one.
    let c = fibs(Rating(162_345), Rating(171_290), 7, 0, 1234).unwrap();
    assert_eq!(
        c,
        FibsChange {
            winner_gain: Rating(3004),
            loser_loss: Rating(601)
        }
    );
}

// ---------------------------------------------------------------- FIBS: identities

/// Equal ratings: the base change is 4·√N·½ = 2·√N.
#[test]
fn equal_ratings_give_two_root_n() {
    for length in 1..=MAX_LENGTH {
        let c = fibs(pts(1700), pts(1700), length, SEASONED, SEASONED).unwrap();
        let expected = (2.0 * f64::from(length).sqrt() * 100.0).round() as i64;
        assert_eq!(c.winner_gain, Rating(expected), "{length}");
        assert_eq!(c.loser_loss, Rating(expected), "{length}");
    }
}

#[test]
fn lengths_outside_one_to_max_are_refused() {
    for length in [0, MAX_LENGTH + 1, u32::MAX] {
        let err = fibs(pts(1500), pts(1500), length, 0, 0).unwrap_err();
        assert_eq!(err, RatingError::Length(length));
        let message = err.to_string();
        assert!(message.contains(&format!("1 to {MAX_LENGTH}")), "{message}");
    }
    assert!(
        fibs(pts(1500), pts(1500), 0, 0, 0)
            .unwrap_err()
            .to_string()
            .contains("unlimited")
    );
    assert!(fibs(pts(1500), pts(1500), MAX_LENGTH, 0, 0).is_ok());
}

#[test]
fn absurd_ratings_neither_wrap_nor_panic() {
    let top = Rating(i64::MAX);
    let bottom = Rating(i64::MIN);
    let c = fibs(top, bottom, 1, SEASONED, SEASONED).unwrap();
    assert_eq!(
        c,
        FibsChange {
            winner_gain: Rating(0),
            loser_loss: Rating(0)
        }
    );
    let c = fibs(bottom, top, 25, SEASONED, SEASONED).unwrap();
    assert_eq!(
        c,
        FibsChange {
            winner_gain: Rating(2000),
            loser_loss: Rating(2000)
        }
    );
}

proptest! {
    /// Zero-sum between experienced players, never negative, and what the favourite gains
    /// for a win plus what the underdog gains for one is the whole 4·√N (to rounding).
    #[test]
    fn fibs_identities(
        a in -1_000_000i64..1_000_000,
        b in -1_000_000i64..1_000_000,
        length in 1..=MAX_LENGTH,
        ea in any::<u32>(),
        eb in any::<u32>(),
        shift in -100_000i64..100_000,
    ) {
        let (a, b) = (Rating(a), Rating(b));
        let c = fibs(a, b, length, ea, eb).unwrap();
        prop_assert!(c.winner_gain.0 >= 0 && c.loser_loss.0 >= 0);
        let s = fibs(a, b, length, SEASONED, ea.max(SEASONED)).unwrap();
        prop_assert_eq!(s.winner_gain, s.loser_loss);
        let reverse = fibs(b, a, length, SEASONED, SEASONED).unwrap();
        let whole = 4.0 * f64::from(length).sqrt();
        prop_assert!((f(s.winner_gain) + f(reverse.winner_gain) - whole).abs() <= 0.011);
        // Only the difference matters.
        let moved = fibs(Rating(a.0 + shift), Rating(b.0 + shift), length, SEASONED, SEASONED);
        prop_assert_eq!(moved.unwrap(), s);
    }

    #[test]
    fn fibs_never_panics(a in any::<i64>(), b in any::<i64>(), length in any::<u32>(),
                         ea in any::<u32>(), eb in any::<u32>()) {
        if let Ok(c) = fibs(Rating(a), Rating(b), length, ea, eb) {
            prop_assert!(c.winner_gain.0 >= 0 && c.loser_loss.0 >= 0);
        }
    }
}

// ---------------------------------------------------------------- FIDE: the table

/// FIDE Rating Regulations table 8.1b (8.1.2 since 2024), as reproduced at
/// https://chess.stackexchange.com/questions/19653 and in the Russian translation at
/// http://chess.sainfo.ru/ratingtext.html: rating difference bands and the higher-rated
/// player's expected score (the lower's is 1 minus it).
#[rustfmt::skip]
const TABLE_8_1B: [(i64, i64, i64); 51] = [
    (0, 3, 50), (4, 10, 51), (11, 17, 52), (18, 25, 53), (26, 32, 54), (33, 39, 55),
    (40, 46, 56), (47, 53, 57), (54, 61, 58), (62, 68, 59), (69, 76, 60), (77, 83, 61),
    (84, 91, 62), (92, 98, 63), (99, 106, 64), (107, 113, 65), (114, 121, 66),
    (122, 129, 67), (130, 137, 68), (138, 145, 69), (146, 153, 70), (154, 162, 71),
    (163, 170, 72), (171, 179, 73), (180, 188, 74), (189, 197, 75), (198, 206, 76),
    (207, 215, 77), (216, 225, 78), (226, 235, 79), (236, 245, 80), (246, 256, 81),
    (257, 267, 82), (268, 278, 83), (279, 290, 84), (291, 302, 85), (303, 315, 86),
    (316, 328, 87), (329, 344, 88), (345, 357, 89), (358, 374, 90), (375, 391, 91),
    (392, 411, 92), (412, 432, 93), (433, 456, 94), (457, 484, 95), (485, 517, 96),
    (518, 559, 97), (560, 619, 98), (620, 735, 99), (736, i64::MAX, 100),
];

/// Every whole difference up to 1000 reads the table, with differences above 400 counted
/// as 400 (8.3.1 in the 2024 edition): so never beyond .92 / .08.
#[test]
fn expected_score_follows_table_8_1b_capped_at_400() {
    for difference in 0..=1000i64 {
        let counted = difference.min(400);
        let &(_, _, higher) = TABLE_8_1B
            .iter()
            .find(|(lo, hi, _)| (*lo..=*hi).contains(&counted))
            .unwrap();
        let strong = pts(1500 + difference);
        let weak = pts(1500);
        assert_eq!(
            fide_expected(strong, weak),
            higher,
            "higher by {difference}"
        );
        assert_eq!(
            fide_expected(weak, strong),
            100 - higher,
            "lower by {difference}"
        );
    }
}

/// chesselo.com (https://chesselo.com/chess-elo-page-3-for-mobile/): against an opponent
/// more than 400 below, "FIDE would calculate one-game Expected Result ... as 0.92", and
/// 0.08 against one more than 400 above. (The page's player A is rated so that both its
/// opponents, 1400 and 2450, are more than 400 away; 2000 is such a rating.)
#[test]
fn chesselo_difference_over_400() {
    assert_eq!(fide_expected(pts(2000), pts(1400)), 92);
    assert_eq!(fide_expected(pts(2000), pts(2450)), 8);
    // So a win over the weaker player with K = 20 is worth 20 × 0.08 = 1.60.
    assert_eq!(elo(pts(2000), pts(1400), Score::Win, 20), Ok(Rating(160)));
    assert_eq!(
        elo(pts(2000), pts(1400), Score::Loss, 20),
        Ok(Rating(-1840))
    );
}

/// Stack Exchange (https://chess.stackexchange.com/questions/19653): "the entry in table
/// 8.1b with rating difference 92-98 and expected score (for the higher rated player) of
/// .63".
#[test]
fn stackexchange_92_to_98_is_63() {
    assert_eq!(fide_expected(pts(2392), pts(2300)), 63);
    assert_eq!(fide_expected(pts(2398), pts(2300)), 63);
    assert_eq!(fide_expected(pts(2399), pts(2300)), 64);
    assert_eq!(fide_expected(pts(2391), pts(2300)), 62);
}

/// chesselo.com (https://chesselo.com/chess-elo-how-elo-rating-system-works-2/): "If your
/// Rating Increase is 0.15 and your K-factor 20, then your Rating Change will be 3. If
/// your Rating Decrease is – 0.20 and your K-factor 10, then your Rating Change will be
/// – 2." Games giving those increases: a draw against a player 110 above (PD .35), a
/// loss against one 240 above (PD .20).
#[test]
fn chesselo_rating_change_is_k_times_increase() {
    assert_eq!(elo(pts(2000), pts(2110), Score::Draw, 20), Ok(pts(3)));
    assert_eq!(elo(pts(2000), pts(2240), Score::Loss, 10), Ok(pts(-2)));
}

/// Hundredths of a difference are rounded to whole points, half away from zero, before
/// the lookup: 3.49 reads the 0-3 band, 3.50 the 4-10 band.
#[test]
fn fractional_difference_rounds_to_whole_points() {
    assert_eq!(fide_expected(Rating(150_349), pts(1500)), 50);
    assert_eq!(fide_expected(Rating(150_350), pts(1500)), 51);
    assert_eq!(fide_expected(pts(1500), Rating(150_350)), 49);
}

// ---------------------------------------------------------------- FIDE: identities

#[test]
fn equal_ratings() {
    for k in [10, 20, 40] {
        let r = pts(1850);
        assert_eq!(elo(r, r, Score::Draw, k), Ok(Rating(0)));
        assert_eq!(elo(r, r, Score::Win, k), Ok(Rating(i64::from(k) * 50)));
        assert_eq!(elo(r, r, Score::Loss, k), Ok(Rating(-i64::from(k) * 50)));
    }
}

#[test]
fn k_outside_one_to_max_is_refused() {
    for k in [0, MAX_K + 1, u32::MAX] {
        let err = elo(pts(1500), pts(1500), Score::Win, k).unwrap_err();
        assert_eq!(err, RatingError::K(k));
        assert!(err.to_string().contains(&format!("1 to {MAX_K}")), "{err}");
    }
    assert_eq!(elo(pts(1500), pts(1500), Score::Win, MAX_K), Ok(pts(350)));
}

/// FIDE's K (8.3.3 in the 2024 edition): 40 until 30 games, 10 once 2400 has been
/// reached (even after a drop), 20 otherwise.
#[test]
fn fide_k_rule() {
    assert_eq!(fide_k(pts(1500), 0, false), 40);
    assert_eq!(fide_k(pts(2500), 29, false), 40);
    assert_eq!(fide_k(pts(1500), 30, false), 20);
    assert_eq!(fide_k(Rating(239_999), 300, false), 20);
    assert_eq!(fide_k(pts(2400), 30, false), 10);
    assert_eq!(fide_k(pts(2350), 300, true), 10);
}

proptest! {
    /// Between two players with the same K, what one gains the other loses, and a change
    /// never exceeds K.
    #[test]
    fn elo_is_zero_sum_and_bounded(a in any::<i64>(), b in any::<i64>(), k in 1..=MAX_K,
                                   s in 0..3u8) {
        let (score, other) = match s {
            0 => (Score::Win, Score::Loss),
            1 => (Score::Draw, Score::Draw),
            _ => (Score::Loss, Score::Win),
        };
        let mine = elo(Rating(a), Rating(b), score, k).unwrap();
        let theirs = elo(Rating(b), Rating(a), other, k).unwrap();
        prop_assert_eq!(mine.0 + theirs.0, 0);
        prop_assert!(mine.0.abs() <= i64::from(k) * 100);
    }
}

// ---------------------------------------------------------------- Rating

#[test]
fn rating_shows_two_decimals_and_serializes_as_hundredths() {
    assert_eq!(Rating(152_347).to_string(), "1523.47");
    assert_eq!(Rating(-1840).to_string(), "-18.40");
    assert_eq!(Rating(-5).to_string(), "-0.05");
    assert_eq!(Rating(0).to_string(), "0.00");
    assert_eq!(Rating(i64::MIN).to_string(), "-92233720368547758.08");
    assert_eq!(Rating::FIBS_START.to_string(), "1500.00");
    assert_eq!(Rating::points(i64::MAX), Rating(i64::MAX));
    assert_eq!(serde_json::to_string(&Rating(152_347)).unwrap(), "152347");
    assert_eq!(
        serde_json::from_str::<Rating>("-1840").unwrap(),
        Rating(-1840)
    );
}
