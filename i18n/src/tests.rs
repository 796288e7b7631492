//! The catalogue's own checks: the locales in step, the proto's enums all worded, and
//! the page's compiled patterns saying exactly what Fluent says.

use std::collections::BTreeSet;

use serde_json::Value as Json;

use super::*;

fn ids(locale: Locale) -> BTreeSet<String> {
    page::compile(locale.source())
        .unwrap_or_else(|e| panic!("{}: {e}", locale.tag()))
        .keys()
        .cloned()
        .collect()
}

#[test]
fn every_locale_has_the_same_ids() {
    let en = ids(Locale::En);
    for locale in Locale::ALL {
        let other = ids(locale);
        let missing: Vec<_> = en.difference(&other).collect();
        let extra: Vec<_> = other.difference(&en).collect();
        assert!(missing.is_empty(), "{} lacks {missing:?}", locale.tag());
        assert!(
            extra.is_empty(),
            "{} has more than en: {extra:?}",
            locale.tag()
        );
    }
}

#[test]
fn every_proto_enum_value_has_words_and_no_words_name_a_missing_value() {
    for locale in Locale::ALL {
        let all = ids(locale);
        for (name, _) in enums::TABLES {
            let values = enums::values(name);
            assert!(!values.is_empty(), "{name} has values");
            for (v, id) in &values {
                assert!(
                    all.contains(id),
                    "{}: no words for {name} {v} ({id})",
                    locale.tag()
                );
            }
            let prefix = format!("{}-", enums::kebab(name));
            for id in all.iter().filter(|id| id.starts_with(&prefix)) {
                assert!(
                    values.iter().any(|(_, v)| v == id),
                    "{}: {id} names no value of {name}",
                    locale.tag()
                );
            }
        }
    }
}

#[test]
fn pause_reasons_follow_the_proto_numbers() {
    // The bug that started issue 20: 3 showed "dispute", 1 "director", 7-9 nothing.
    let en = Catalogue::new(Locale::En);
    let el = Catalogue::new(Locale::El);
    assert_eq!(en.enum_value("PauseReason", 1).unwrap(), "game over");
    assert_eq!(en.enum_value("PauseReason", 3).unwrap(), "director called");
    assert_eq!(
        el.enum_value("PauseReason", 3).unwrap(),
        "κλήση Διευθυντή Αγώνων"
    );
    assert_eq!(en.enum_value("PauseReason", 9).unwrap(), "roll disputed");
    assert_eq!(en.enum_value("PauseReason", 0), None);
    assert_eq!(
        en.enum_value("PauseReason", 10).unwrap(),
        "waiting for the players' links (live dice)"
    );
    assert_eq!(en.enum_value("PauseReason", 11), None);
    assert_eq!(
        enum_message_id("PauseReason", v1_director_called()).as_deref(),
        Some("pause-reason-director-called")
    );
}

fn v1_director_called() -> i32 {
    baffle_proto::v1::PauseReason::DirectorCalled as i32
}

#[test]
fn messages_take_their_arguments_and_plurals() {
    let en = Catalogue::new(Locale::En);
    let el = Catalogue::new(Locale::El);
    let anna = || ("name", Value::from("Anna"));
    assert_eq!(
        en.format("event-rolled", &[anna(), ("dice", "6-4".into())]),
        "Anna rolled 6-4"
    );
    assert_eq!(
        en.format("event-doubled", &[anna(), ("value", 4.into())]),
        "Anna doubled to 4"
    );
    assert_eq!(en.format("event-taken", &[anna()]), "Anna took");
    // MatchState.penalty_points counts the points a player received: in his favour.
    assert_eq!(
        en.format("penalty-points", &[anna(), ("points", 1.into())]),
        "one penalty point to Anna"
    );
    assert_eq!(
        en.format("penalty-points", &[anna(), ("points", 2.into())]),
        "2 penalty points to Anna"
    );
    assert_eq!(
        el.format("penalty-points", &[anna(), ("points", 1.into())]),
        "ένας πόντος ποινής — υπέρ: Anna"
    );
    // One roll is one roll, in either language.
    let rolls = |c: &Catalogue, n: u32| c.format("dice-verified", &[("count", n.into())]);
    assert_eq!(rolls(&en, 1), "the one roll verified in this browser");
    assert_eq!(rolls(&en, 4), "all 4 rolls verified in this browser");
    assert_eq!(
        rolls(&el, 1),
        "η μία ζαριά επαληθεύτηκε σε αυτόν τον φυλλομετρητή"
    );
    assert_eq!(
        rolls(&el, 4),
        "και οι 4 ζαριές επαληθεύτηκαν σε αυτόν τον φυλλομετρητή"
    );
    // A chess category in words, an unknown one as the server sent it.
    let category = |c: &Catalogue, k: &str| c.format("chess-category", &[("category", k.into())]);
    assert_eq!(category(&el, "rapid"), "γρήγορο");
    assert_eq!(category(&el, "blitz"), "αστραπιαίο");
    assert_eq!(category(&en, "standard"), "standard");
    assert_eq!(category(&el, "armageddon"), "armageddon");
    assert_eq!(
        el.format("warnings", &[("name", "Άννα".into()), ("count", 2.into())]),
        "Άννα: 2 παρατηρήσεις"
    );
    assert_eq!(en.format("no-such-message", &[]), "no-such-message");
}

#[test]
fn rules_are_cited_in_the_regulations_own_numbering_in_either_language() {
    let en = Catalogue::new(Locale::En);
    let el = Catalogue::new(Locale::El);
    assert_eq!(
        en.rule("backgammon", "4.3 (ii)(c)"),
        "art. 4.3 (ii)(c) of the regulations"
    );
    assert_eq!(
        el.rule("backgammon", "4.3 (ii)(c)"),
        "άρθρο 4.3 (ii)(c) του Κανονισμού"
    );
    assert_eq!(el.rule("chess", "6.12"), "άρθρο 6.12 των Κανόνων FIDE");
}

#[test]
fn the_language_is_negotiated_greek_first() {
    assert_eq!(negotiate(&["el-GR", "en"]), Locale::El);
    assert_eq!(negotiate(&["en-US", "el"]), Locale::En);
    assert_eq!(
        negotiate(&["fr-FR", "de"]),
        Locale::El,
        "Greek when nothing matches"
    );
    assert_eq!(negotiate(&["not a tag", "EN"]), Locale::En);
    assert_eq!(
        accept_language("fr;q=0.9, en-GB;q=0.8, el-GR , *;q=0.1, de;q=0"),
        ["el-GR", "fr", "en-GB"]
    );
    assert_eq!(accept_language(""), Vec::<String>::new());
    assert_eq!(Catalogue::negotiate(&["en"]).locale(), Locale::En);
}

/// The page's interpreter (`format` in server/web/app.js), again in Rust: for el and
/// en, an integer's plural category is "one" for 1 and "other" otherwise.
fn interpret(pattern: &Json, args: &[(&str, Value)]) -> String {
    match pattern {
        Json::String(s) => s.clone(),
        Json::Array(parts) => parts.iter().map(|p| interpret(p, args)).collect(),
        Json::Object(o) if o.contains_key("var") => {
            let name = o["var"].as_str().unwrap();
            match args.iter().find(|(n, _)| *n == name).map(|(_, v)| v) {
                Some(Value::Text(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                None => format!("{{${name}}}"),
            }
        }
        Json::Object(o) => {
            let variants = o["variants"].as_array().unwrap();
            let key = |i: usize| variants[i][0].as_str().unwrap().to_string();
            let arg = args.iter().find(|(n, _)| *n == o["sel"].as_str().unwrap());
            let chosen = (0..variants.len()).find(|&i| match arg.map(|(_, v)| v) {
                Some(Value::Number(n)) => key(i).parse::<f64>().ok() == Some(*n),
                Some(Value::Text(s)) => key(i) == *s,
                None => false,
            });
            let plural = || match arg.map(|(_, v)| v) {
                Some(Value::Number(n)) => {
                    let category = if *n == 1.0 { "one" } else { "other" };
                    (0..variants.len()).find(|&i| key(i) == category)
                }
                _ => None,
            };
            let i = chosen
                .or_else(plural)
                .unwrap_or(o["def"].as_u64().unwrap() as usize);
            interpret(&variants[i][1], args)
        }
        other => panic!("not a pattern: {other}"),
    }
}

/// The arguments a pattern names, and for each choice the values worth trying.
fn arguments(pattern: &Json, plain: &mut BTreeSet<String>, chosen: &mut Vec<(String, Vec<Value>)>) {
    match pattern {
        Json::Array(parts) => parts.iter().for_each(|p| arguments(p, plain, chosen)),
        Json::Object(o) if o.contains_key("var") => {
            plain.insert(o["var"].as_str().unwrap().to_string());
        }
        Json::Object(o) => {
            let mut tries: Vec<Value> = [0, 1, 2, 5].map(Value::from).into();
            for v in o["variants"].as_array().unwrap() {
                arguments(&v[1], plain, chosen);
                let key = v[0].as_str().unwrap();
                if key.parse::<f64>().is_err()
                    && !["one", "other", "few", "many", "zero", "two"].contains(&key)
                {
                    tries.push(Value::from(key));
                }
            }
            chosen.push((o["sel"].as_str().unwrap().to_string(), tries));
        }
        _ => {}
    }
}

#[test]
fn the_pages_patterns_say_what_fluent_says() {
    for locale in Locale::ALL {
        let catalogue = Catalogue::new(locale);
        let compiled = page::compile(locale.source()).unwrap();
        for (id, pattern) in &compiled {
            let (mut plain, mut chosen) = (BTreeSet::new(), Vec::new());
            arguments(pattern, &mut plain, &mut chosen);
            // Every combination of the choices' values, the other arguments as words.
            let mut sets: Vec<Vec<(String, Value)>> = vec![
                plain
                    .iter()
                    .filter(|p| !chosen.iter().any(|(c, _)| c == *p))
                    .map(|p| (p.clone(), Value::from(format!("<{p}>"))))
                    .collect(),
            ];
            for (name, tries) in &chosen {
                sets = sets
                    .into_iter()
                    .flat_map(|set| {
                        tries.iter().map(move |t| {
                            let mut s = set.clone();
                            s.push((name.clone(), t.clone()));
                            s
                        })
                    })
                    .collect();
            }
            for set in sets {
                let args: Vec<(&str, Value)> =
                    set.iter().map(|(n, v)| (n.as_str(), v.clone())).collect();
                assert_eq!(
                    interpret(pattern, &args),
                    catalogue.format(id, &args),
                    "{} {id} with {args:?}",
                    locale.tag()
                );
            }
        }
    }
}

#[test]
fn the_page_json_carries_the_proto_enum_tables() {
    let json: Json = serde_json::from_str(&page::json(Locale::El).unwrap()).unwrap();
    assert_eq!(json["locale"], "el");
    assert_eq!(
        json["enums"]["PauseReason"]["3"],
        "pause-reason-director-called"
    );
    assert_eq!(json["enums"]["PauseReason"].as_object().unwrap().len(), 10);
    assert_eq!(
        json["messages"]["pause-reason-director-called"],
        "κλήση Διευθυντή Αγώνων"
    );
    // The terminal's own words are not sent to phones; the shared ones are.
    let messages = json["messages"].as_object().unwrap();
    assert!(messages.contains_key("event-rolled"));
    assert!(!messages.keys().any(|id| id.starts_with("console-")));
    assert!(!messages.keys().any(|id| id.starts_with("match-status-")));
}

/// Every message id the phone page asks for (`t("…")` in `server/web/*.js`) is in the
/// page's catalogue in every language: a missing one would show the page its id.
#[test]
fn every_id_the_page_uses_is_in_every_pages_catalogue() {
    let web = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/web");
    let mut used = BTreeSet::new();
    for entry in std::fs::read_dir(&web).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "js") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, _) in text.match_indices("t(\"") {
            // `t(` itself, not the end of another name (`set(`, `at(`).
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                continue;
            }
            let rest = &text[at + 3..];
            let id = &rest[..rest.find('"').unwrap()];
            used.insert(id.to_string());
        }
    }
    // The scan found the calls (a scanner that finds nothing would pass anything).
    assert!(used.len() > 60, "only {} ids found: {used:?}", used.len());
    assert!(used.contains("dice-why-commitment"), "{used:?}");
    for locale in Locale::ALL {
        let page = ids(locale);
        let missing: Vec<&String> = used.iter().filter(|id| !page.contains(*id)).collect();
        assert!(missing.is_empty(), "{}: {missing:?}", locale.tag());
    }
}

/// A body of every kind [`describe::describe`] knows, and of each way one kind is said
/// (a ruling's every action, with and without its effect; an extension and a deadline).
fn sample_events() -> Vec<(String, Json)> {
    use serde_json::json;
    let mut out: Vec<(String, Json)> = describe::kinds()
        .map(|kind| {
            let body = json!({"kind": kind, "side": "A", "late": "B", "winner": "B",
                "offender": "A", "color": "black", "until": 60_000, "by": 120_000,
                "number": 2, "crawford": true, "throw": [6, 1], "dice": [3, 4], "value": 2,
                "what": "clock", "ruling": {"article": "2.2", "reason": "r"}, "play": "24/18",
                "result": "gammon", "points": 2, "reason": "director_called", "length": 7,
                "how": "timeout", "article": "2.3", "credit_ms": 1000, "charged_ms": 1000,
                "down_ms": 2000, "was": "Ana", "name": "Anna", "device": "d1",
                "outcome": "applied", "game": 2,
                "action": {"action": "warning", "side": "B"}});
            (kind.to_string(), body)
        })
        .collect();
    let actions = [
        json!({"action": "warning", "side": "A"}),
        json!({"action": "award_points", "to": "A", "points": 1}),
        json!({"action": "deduct_points", "from": "B", "points": 2}),
        json!({"action": "correct_score", "a": 1, "b": 0}),
        json!({"action": "correct_result", "winner": "B", "game": 3}),
        json!({"action": "adjust_time", "side": "A", "delta": -5000}),
        json!({"action": "set_time", "side": "B"}),
        json!({"action": "confirm_result"}),
        json!({"action": "forfeit_match", "loser": "A"}),
        json!({"action": "reschedule", "start": 63_300_000}),
        json!({"action": "reschedule"}),
        json!({"action": "something_new"}),
    ];
    let effects = [
        Json::Null,
        json!({"of": "score", "before": [1, 2], "after": [1, 3]}),
        json!({"of": "clock", "before": 1000, "after": 1000}),
    ];
    for action in actions {
        for effect in &effects {
            let mut body = json!({"ruling": {"article": "4.7"}, "action": action.clone()});
            if !effect.is_null() {
                body["effect"] = effect.clone();
            }
            out.push(("bg.ruling".into(), body));
        }
    }
    for (kind, body) in [
        ("dice.reveal_due", json!({"by": 300_000})),
        ("bg.requested", json!({"side": "B", "what": "observer"})),
        ("dice.asked", json!({"at": 1, "due": 2})),
        (
            "table.restart",
            json!({"credit_ms": 1, "charged_ms": 2, "down_ms": 3, "side": "A"}),
        ),
        (
            "device.input",
            json!({"device": "d1", "outcome": "refused: not bound"}),
        ),
        ("chess.ended", json!({"result": {"outcome": "both_lose"}})),
        ("bg.some_future_kind", json!({})),
    ] {
        out.push((kind.into(), body));
    }
    out
}

/// Every message `words` names (its own and its nested ones) is in `locale`'s own file
/// and takes exactly the arguments given: no argument missing, none left over.
fn check_words(words: &v1::Words, locale: Locale, kind: &str, report: &mut Vec<String>) {
    let patterns = page::compile(locale.source()).unwrap();
    let Some(pattern) = patterns.get(&words.id) else {
        report.push(format!("{kind}: {} is not in {}", words.id, locale.tag()));
        return;
    };
    let (mut plain, mut chosen) = (BTreeSet::new(), Vec::new());
    arguments(pattern, &mut plain, &mut chosen);
    plain.extend(chosen.into_iter().map(|(name, _)| name));
    let given: BTreeSet<String> = words.args.iter().map(|a| a.name.clone()).collect();
    if given != plain || given.len() != words.args.len() {
        report.push(format!(
            "{kind}: {} in {} uses {plain:?}, given {given:?}",
            words.id,
            locale.tag()
        ));
    }
    for arg in &words.args {
        if let Some(v1::word_arg::Value::Words(inner)) = &arg.value {
            check_words(inner, locale, kind, report);
        }
    }
}

#[test]
fn every_event_kind_is_said_by_a_message_of_both_catalogues_with_exactly_its_arguments() {
    let mut report = Vec::new();
    let samples = sample_events();
    assert!(samples.len() > 60, "{}", samples.len());
    for (kind, body) in &samples {
        let words = describe::describe(kind, body);
        for locale in Locale::ALL {
            check_words(&words, locale, kind, &mut report);
        }
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn words_are_formatted_with_the_names_and_nested_messages_of_the_locale() {
    use serde_json::json;
    let names = ["Άννα", "Βασίλης"];
    let el = Catalogue::new(Locale::El);
    let en = Catalogue::new(Locale::En);
    let paused = describe::describe("bg.paused", &json!({"reason": "director_called"}));
    assert_eq!(
        el.words(&paused, names),
        "το ρολόι σταμάτησε: κλήση Διευθυντή Αγώνων"
    );
    let ended = json!({"winner": "A", "result": "gammon", "points": 4});
    assert_eq!(
        el.words(&describe::describe("bg.game_ended", &ended), names),
        "Άννα κέρδισε την παρτίδα: 4 πόντοι (διπλή)"
    );
    let moved = json!({"ruling": {"article": "2.2"}, "action": {"action": "reschedule", "start": 63_300_000}});
    assert_eq!(
        en.words(&describe::describe("bg.ruling", &moved), ["Anna", "Ben"]),
        "ruling, art. 2.2 of the regulations: the match's start moved to 17:35 UTC"
    );
    // A kind nobody has worded yet is said by its name, and is the log's detail.
    let future = describe::describe("bg.wait_for_it", &json!({}));
    assert!(future.detail);
    assert_eq!(en.words(&future, names), "wait for it");
    // A dice draw is bookkeeping: the page leaves it out; a roll is play.
    assert!(describe::describe("dice.roll", &json!({"side": "A", "dice": [1, 2]})).detail);
    assert!(!describe::describe("bg.rolled", &json!({"side": "A", "dice": [1, 2]})).detail);
}

/// A backgammon state in `turn` (A's when a side counts), in `phase`, with `dice`.
fn turn_state(turn: v1::TurnPhase, phase: v1::MatchPhase) -> v1::MatchState {
    v1::MatchState {
        turn: turn as i32,
        turn_side: v1::Side::A as i32,
        dice: if turn == v1::TurnPhase::Moving {
            vec![6, 4]
        } else {
            vec![]
        },
        phase: phase as i32,
        ..Default::default()
    }
}

#[test]
fn the_turn_is_worded_for_every_phase_in_both_forms_and_both_languages() {
    use turn::{Form, turn};
    use v1::{MatchPhase as M, TurnPhase as T};
    let en = Catalogue::new(Locale::En);
    let el = Catalogue::new(Locale::El);
    let names = ["Anna", "Ben"];
    // (turn, phase, in a line, in a cell), in English; then the line in Greek.
    let cases = [
        (
            T::Opening,
            M::Playing,
            "opening roll",
            "opening",
            "αρχική ζαριά",
        ),
        (
            T::OnRoll,
            M::Playing,
            "Anna to roll",
            "Anna roll",
            "Anna ρίχνει",
        ),
        (
            T::Moving,
            M::Playing,
            "Anna to move 6-4",
            "Anna move",
            "Anna παίζει 6-4",
        ),
        (
            T::DoubleOffered,
            M::Playing,
            "Anna doubled: Ben to take or pass",
            "Anna doubled",
            "Anna διπλασίασε: Ben δέχεται ή αρνείται",
        ),
        (T::Unspecified, M::Waiting, "waiting", "-", "αναμονή"),
        (
            T::Unspecified,
            M::BetweenGames,
            "between games",
            "-",
            "μεταξύ παρτίδων",
        ),
    ];
    let mut report = Vec::new();
    for (phase, match_phase, line, cell, greek) in cases {
        let s = turn_state(phase, match_phase);
        let [l, c] = [Form::Line, Form::Cell].map(|f| turn(&s, f).expect("backgammon"));
        for locale in Locale::ALL {
            check_words(&l, locale, "turn line", &mut report);
            check_words(&c, locale, "turn cell", &mut report);
        }
        assert_eq!(en.words(&l, names), line, "{phase:?}");
        assert_eq!(en.words(&c, names), cell, "{phase:?}");
        assert_eq!(el.words(&l, names), greek, "{phase:?}");
    }
    // Every phase the proto has is in the table above.
    let covered: BTreeSet<i32> = cases.iter().map(|c| c.0 as i32).collect();
    let all: BTreeSet<i32> = enums::values("TurnPhase").iter().map(|(v, _)| *v).collect();
    assert!(all.len() >= 4 && all.is_subset(&covered), "{all:?}");
    assert!(report.is_empty(), "{}", report.join("\n"));
    // A result ends the match, whatever the turn was.
    let over = v1::MatchState {
        result: Some(v1::MatchResult::default()),
        ..turn_state(T::Moving, M::Over)
    };
    let said = |f| en.words(&turn(&over, f).unwrap(), names);
    assert_eq!(
        (said(Form::Line), said(Form::Cell)),
        ("match over".into(), "over".into())
    );
    assert_eq!(
        el.words(&turn(&over, Form::Line).unwrap(), names),
        "τέλος ματς"
    );
    // Chess says who is to move by colour, not here.
    let chess = v1::MatchState {
        chess: Some(v1::ChessState::default()),
        ..turn_state(T::Moving, M::Playing)
    };
    assert_eq!(turn(&chess, Form::Line), None);
}

#[test]
fn the_cube_is_worded_in_the_middle_owned_and_in_the_crawford_game() {
    let en = Catalogue::new(Locale::En);
    let el = Catalogue::new(Locale::El);
    let mut s = v1::MatchState {
        cube_value: 0,
        ..Default::default()
    };
    let said = |c: &Catalogue, s: &v1::MatchState| c.words(&turn::cube(s).unwrap(), ["A", "B"]);
    assert_eq!(said(&en, &s), "cube 1");
    s.cube_value = 2;
    s.cube_owner = v1::Side::B as i32;
    assert_eq!(
        (said(&en, &s), said(&el, &s)),
        ("cube 2 B".into(), "βίδος 2 B".into())
    );
    s.crawford = true;
    assert_eq!(said(&en, &s), "Crawford");
    s.chess = Some(v1::ChessState::default());
    assert_eq!(turn::cube(&s), None);
}
