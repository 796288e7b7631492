//! The words' own checks: every id the client asks for is in both catalogues, the
//! language is chosen as documented, and events read the same as on the page.

use std::path::Path;

use serde_json::json;

use super::*;

/// An event of `kind` with `body` as the server sends it: its words made by the server's
/// function ([`describe`]), said here.
fn event(kind: &str, body: &serde_json::Value, names: [&str; 2]) -> String {
    let e = v1::Event {
        kind: kind.into(),
        body: body.to_string(),
        words: Some(describe(kind, body)),
        ..v1::Event::default()
    };
    super::event(&e, names)
}

/// Every message id written as the first argument of a `say`, `say_with` or
/// `ask_side` or `bad` call in `source`.
fn ids_in(source: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for call in ["say(", "say_with(", "ask_side(", "bad("] {
        for (at, _) in source.match_indices(call) {
            // `fn say(` is the definition, not a call.
            if source[..at].ends_with("fn ") {
                continue;
            }
            let rest = source[at + call.len()..].trim_start();
            if let Some(literal) = rest.strip_prefix('"') {
                let id: String = literal.chars().take_while(|c| *c != '"').collect();
                ids.push(id);
            }
        }
    }
    ids
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("the client's sources") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            out.push((path.display().to_string(), text));
        }
    }
}

#[test]
fn the_id_scanner_finds_calls_and_skips_definitions() {
    let source = "pub fn say(id: &str) {}\n say(\"a-b\"); say_with(\n  \"c-d\", &[]); ask_side(\"e\", a, b);";
    assert_eq!(ids_in(source), ["a-b", "c-d", "e"]);
}

#[test]
fn every_id_the_client_uses_is_in_both_catalogues() {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let mut used = 0;
    for (path, text) in &files {
        if path.ends_with("tests.rs") {
            continue;
        }
        for id in ids_in(text) {
            used += 1;
            for locale in Locale::ALL {
                assert!(
                    Catalogue::new(locale).has(&id),
                    "{path}: \"{id}\" is not in {}.ftl",
                    locale.tag()
                );
            }
        }
    }
    // The scan found the calls (a scanner that finds nothing would pass anything).
    assert!(used > 150, "only {used} ids found");
}

#[test]
fn the_language_comes_from_the_flag_then_the_posix_variables_then_english() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(choose(None, env(&[("LANG", "el_GR.UTF-8")])), Locale::El);
    assert_eq!(choose(None, env(&[])), Locale::En);
    assert_eq!(choose(None, env(&[("LANG", "C.UTF-8")])), Locale::En);
    assert_eq!(choose(None, env(&[("LANG", "fr_FR.UTF-8")])), Locale::En);
    // LC_ALL before LC_MESSAGES before LANG; an empty one does not count.
    let both = env(&[
        ("LC_ALL", ""),
        ("LC_MESSAGES", "en_GB.UTF-8"),
        ("LANG", "el_GR.UTF-8"),
    ]);
    assert_eq!(choose(None, both), Locale::En);
    assert_eq!(
        choose(None, env(&[("LC_ALL", "el_GR@euro"), ("LANG", "en_US")])),
        Locale::El
    );
    // --lang / BAFFLE_LANG first.
    assert_eq!(choose(Some("el"), env(&[("LANG", "en_US")])), Locale::El);
    assert_eq!(choose(Some("en"), env(&[("LANG", "el_GR")])), Locale::En);
}

#[test]
fn events_are_said_in_words_with_names_in_both_languages() {
    let names = ["Anna", "Ben"];
    let throw = json!({"kind": "bg.opening_throw", "throw": [6, 1]});
    assert_eq!(
        event("bg.opening_throw", &throw, names),
        "opening throw: Anna 6, Ben 1"
    );
    assert_eq!(
        event("bg.rolled", &json!({"side": "B", "dice": [3, 4]}), names),
        "Ben rolled 3-4"
    );
    assert_eq!(event("bg.future_thing", &json!({}), names), "future thing");
    in_locale(Locale::El, || {
        assert_eq!(
            event(
                "bg.rolled",
                &json!({"side": "B", "dice": [3, 4]}),
                ["Άννα", "Βασίλης"]
            ),
            "Βασίλης έφερε 3-4"
        );
        assert_eq!(
            event("bg.paused", &json!({"reason": "director_called"}), names),
            "το ρολόι σταμάτησε: κλήση Διευθυντή Αγώνων"
        );
        assert_eq!(
            event(
                "bg.game_ended",
                &json!({"winner": "A", "result": "gammon", "points": 4}),
                ["Άννα", "Βασίλης"]
            ),
            "Άννα κέρδισε την παρτίδα: 4 πόντοι (διπλή)"
        );
    });
    // The thread's language is back.
    assert_eq!(event("bg.taken", &json!({"side": "A"}), names), "Anna took");
    // 2.2: a match's start moved, or the match put off, says what changed.
    let moved = json!({"action": {"action": "reschedule", "start": 63_300_000}});
    assert!(event("bg.ruling", &moved, names).ends_with("the match's start moved to 17:35 UTC"));
    let put_off = json!({"action": {"action": "reschedule"}});
    assert!(
        event("bg.ruling", &put_off, names).ends_with("the match put off until its start is set")
    );
    // From a server older than the words: the same words, made here.
    let old = v1::Event {
        kind: "bg.taken".into(),
        body: json!({"kind": "bg.taken", "side": "B"}).to_string(),
        ..v1::Event::default()
    };
    assert_eq!(super::event(&old, names), "Ben took");
}

#[test]
fn anomalies_name_the_player_without_statistics() {
    let said = anomaly(
        "r1-t7",
        ["Anna", "Ben"],
        "player A's dice: faces are unevenly spread (p = 4.52e-24 over 60 dice)",
    );
    assert_eq!(
        said,
        "r1-t7: Anna's dice look wrong: faces are unevenly spread"
    );
}

#[test]
fn a_future_keeps_its_language_across_polls() {
    let fut = InLocale::new(Locale::El, async {
        let first = say("console-no-match");
        tokio::task::yield_now().await;
        (first, say("console-no-match"))
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let (a, b) = rt.block_on(fut);
    assert_eq!(a, "δεν έχει επιλεγεί ματς");
    assert_eq!(b, a);
    assert_eq!(say("console-no-match"), "no match selected");
}

#[test]
fn the_reveal_deadline_and_its_extension_are_said_with_their_time_and_rule() {
    let names = ["Anna", "Ben"];
    let first = json!({"kind": "dice.reveal_due", "by": 5 * 60_000});
    assert_eq!(
        event("dice.reveal_due", &first, names),
        "the seeds are to be revealed by 00:05 UTC"
    );
    let extended = json!({"kind": "dice.reveal_due", "by": 14 * 3_600_000 + 47 * 60_000,
        "reason": "his phone died", "article": "2.3"});
    assert_eq!(
        event("dice.reveal_due", &extended, names),
        "ruling, art. 2.3 of the regulations: the seeds' reveal extended to 14:47 UTC"
    );
    in_locale(Locale::El, || {
        let said = event("dice.reveal_due", &extended, names);
        assert!(
            said.contains("παρατείνεται") && said.contains("14:47 UTC"),
            "{said}"
        );
    });
}

#[test]
fn a_restart_says_how_long_the_server_was_down_and_what_was_given_back() {
    let names = ["Anna", "Ben"];
    let all =
        json!({"at": 5, "charged_ms": 21000, "credit_ms": 21000, "down_ms": 21400, "side": "B"});
    let part =
        json!({"at": 5, "charged_ms": 90000, "credit_ms": 60000, "down_ms": 91000, "side": "A"});
    in_locale(Locale::En, || {
        assert_eq!(
            event("table.restart", &all, names),
            "the server was down 0:21.4: 0:21.0 given back to Ben's clock"
        );
        let said = event("table.restart", &part, names);
        assert!(
            said.contains("1:30.0")
                && said.contains("1:00.0")
                && said.contains("Anna")
                && said.contains("director"),
            "{said}"
        );
    });
    in_locale(Locale::El, || {
        let said = event("table.restart", &all, names);
        assert!(
            said.contains("διακομιστής") && said.contains("Ben"),
            "{said}"
        );
    });
}

#[test]
fn a_correction_says_what_it_changed_before_and_after() {
    // A new director's corrections were all "the director's decision".
    let names = ["Anna", "Ben"];
    let ruling = |action: serde_json::Value, effect: serde_json::Value| json!({"action": action, "ruling": {"reason": "r", "article": "4.7"}, "effect": effect});
    let score = ruling(
        json!({"action": "correct_score", "a": 1, "b": 0}),
        json!({"of": "score", "before": [2, 3], "after": [1, 0]}),
    );
    let clock = ruling(
        json!({"action": "adjust_time", "side": "B", "delta": 30000}),
        json!({"of": "clock", "side": "B", "before": 686100, "after": 716100}),
    );
    let confirm = ruling(
        json!({"action": "confirm_result"}),
        json!({"of": "score", "before": [7, 3], "after": [7, 3]}),
    );
    let deduct = ruling(
        json!({"action": "deduct_points", "from": "A", "points": 1}),
        json!({"of": "score", "before": [3, 2], "after": [2, 2]}),
    );
    in_locale(Locale::En, || {
        assert_eq!(
            event("bg.ruling", &score, names),
            "ruling, art. 4.7 of the regulations: score corrected: 2–3 → 1–0"
        );
        assert_eq!(
            event("bg.ruling", &clock, names),
            "ruling, art. 4.7 of the regulations: Ben's clock +0:30.0: 11:26.1 → 11:56.1"
        );
        assert!(event("bg.ruling", &confirm, names).ends_with("result confirmed at 7–3"));
        assert!(
            event("bg.ruling", &deduct, names).ends_with("one point deducted from Anna: 3–2 → 2–2")
        );
        // A ruling recorded before effects: the action alone.
        let old = json!({"action": {"action": "correct_score", "a": 1, "b": 0}, "ruling": {"reason": "r", "article": "4.7"}});
        assert!(event("bg.ruling", &old, names).ends_with("score corrected"));
    });
    in_locale(Locale::El, || {
        let said = event("bg.ruling", &score, names);
        assert!(said.contains("διόρθωση σκορ: 2–3 → 1–0"), "{said}");
    });
}
