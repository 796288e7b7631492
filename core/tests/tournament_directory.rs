//! The directory's checks of what a director types when he creates a tournament, seen
//! from outside the crate (the unit tests in `tournament::directory` cover the rest).

use baffle_core::tournament::ErrorKind;
use baffle_core::tournament::directory::{Command, Directory, VenueDates};

fn create(venue_dates: VenueDates) -> Command {
    Command::CreateTournament {
        id: "club".into(),
        name: "Club night".into(),
        defaults: Default::default(),
        venue_dates,
    }
}

/// A stranger gave a tournament a last day and no first: it was accepted, and the
/// tournament's card showed an end without a beginning. It is refused, naming the field
/// that is missing, and nothing is recorded.
#[test]
fn a_last_day_without_a_first_day_is_refused_naming_the_first_day() {
    let d = Directory::default();
    let refused = d
        .decide(&create(VenueDates {
            venue: "Athens".into(),
            first_day: String::new(),
            last_day: "2026-11-23".into(),
        }))
        .unwrap_err();
    assert_eq!(refused.kind, ErrorKind::Invalid);
    assert!(
        refused.message.contains("tournament.first_day") && refused.message.contains("2026-11-23"),
        "{}",
        refused.message
    );
    assert!(d.tournaments.is_empty());
    // A first day alone is a one-day (or open-ended) tournament, and both are fine.
    for (first, last) in [("2026-11-21", ""), ("2026-11-21", "2026-11-23"), ("", "")] {
        let ok = d.decide(&create(VenueDates {
            venue: String::new(),
            first_day: first.into(),
            last_day: last.into(),
        }));
        assert!(ok.is_ok(), "{first:?}–{last:?}: {ok:?}");
    }
}
