//! Fitting text into a terminal's columns (counted with `unicode-width`: a Greek letter
//! takes one, as a Latin one does). Names are shortened visibly rather than cut — first
//! names to initials, then surnames only, then each cut with "…" — and a line that ends
//! in what to do keeps that end (its key) and shortens what comes before.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns `text` takes on a terminal.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` in at most `columns`: whole if it fits, else cut with "…" as its last column.
pub fn ellipsis(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    if columns == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > columns - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    let mut out = out.trim_end().to_string();
    out.push('…');
    out
}

/// `text` in at most `columns`: whole if it fits, else its end kept after a "…" (a match
/// id's table, "…-r1-t7", tells it from its neighbours; their common start does not).
pub fn ellipsis_start(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    if columns == 0 {
        return String::new();
    }
    let mut kept = Vec::new();
    let mut used = 0;
    for c in text.chars().rev() {
        let w = c.width().unwrap_or(0);
        if used + w > columns - 1 {
            break;
        }
        kept.push(c);
        used += w;
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// A name with its first names as initials: "Γ. Παπαδόπουλος", "B. Smith".
fn initials(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    match words.split_last() {
        Some((last, first)) if !first.is_empty() => {
            let mut out = String::new();
            for w in first {
                out.extend(w.chars().next());
                out.push_str(". ");
            }
            out.push_str(last);
            out
        }
        _ => name.to_string(),
    }
}

/// A name's last word, the surname.
fn surname(name: &str) -> &str {
    name.split_whitespace().last().unwrap_or(name)
}

/// One name, as `word` words it ("Ben (on points)"), in at most `columns`: whole if it
/// fits; else with first names as initials; else the surname only; else that cut with "…".
pub fn name(name: &str, columns: usize, word: impl Fn(&str) -> String) -> String {
    for form in [name.to_string(), initials(name), surname(name).to_string()] {
        let text = word(&form);
        if width(&text) <= columns {
            return text;
        }
    }
    let room = columns.saturating_sub(width(&word("")));
    ellipsis(&word(&ellipsis(surname(name), room.max(1))), columns)
}

/// Both players, as `pair` words them ("A – B"), in at most `columns`: whole if they
/// fit; else with first names as initials; else surnames only; else both surnames cut
/// with "…", the room shared between them. Player B is never left out while there is a
/// column for each name.
pub fn players(a: &str, b: &str, columns: usize, pair: impl Fn(&str, &str) -> String) -> String {
    let tries = [
        (a.to_string(), b.to_string()),
        (initials(a), initials(b)),
        (surname(a).to_string(), surname(b).to_string()),
    ];
    for (x, y) in &tries {
        let text = pair(x, y);
        if width(&text) <= columns {
            return text;
        }
    }
    let (x, y) = (surname(a), surname(b));
    let room = columns.saturating_sub(width(&pair("", "")));
    let (wx, wy) = (width(x), width(y));
    let half = room / 2;
    let (cx, cy) = if wx <= half {
        (wx, room - wx)
    } else if wy <= room - half {
        (room - wy, wy)
    } else {
        (half, room - half)
    };
    pair(&ellipsis(x, cx.max(1)), &ellipsis(y, cy.max(1)))
}

/// A line in at most `columns`, keeping what follows its last " — " whole (what to do,
/// and its key: "confirm the result: c", "d to dismiss") and shortening what comes
/// before with "…"; a line without one is cut with "…" at its end.
pub fn keep_tail(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_string();
    }
    if let Some(i) = text.rfind(" — ") {
        let (head, tail) = text.split_at(i);
        let tail_width = width(tail);
        if tail_width + 2 <= columns {
            return ellipsis(head, columns - tail_width) + tail;
        }
    }
    ellipsis(text, columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dash(a: &str, b: &str) -> String {
        format!("{a} – {b}")
    }

    #[test]
    fn names_are_shortened_visibly_never_dropped() {
        let (a, b) = ("Γιώργος Παπαδόπουλος", "Κωνσταντίνος Αθανασόπουλος");
        assert_eq!(players(a, b, 60, dash), format!("{a} – {b}"));
        assert_eq!(
            players(a, b, 40, dash),
            "Γ. Παπαδόπουλος – Κ. Αθανασόπουλος"
        );
        assert_eq!(players(a, b, 30, dash), "Παπαδόπουλος – Αθανασόπουλος");
        let cut = players(a, b, 18, dash);
        assert_eq!(cut, "Παπαδό… – Αθανασό…");
        assert!(width(&cut) <= 18);
        assert_eq!(
            players("Anna Jones", "Ben Smith", 20, dash),
            "A. Jones – B. Smith"
        );
        // A short name leaves its room to the long one.
        assert_eq!(players("Ben", "Αθανασόπουλος", 12, dash), "Ben – Αθανα…");
    }

    #[test]
    fn a_long_id_keeps_its_end() {
        assert_eq!(ellipsis_start("spring-open-r1-t7", 17), "spring-open-r1-t7");
        assert_eq!(ellipsis_start("spring-open-r1-t7", 7), "…-r1-t7");
        assert_eq!(ellipsis_start("ανοιχτό-r1-t7", 6), "…r1-t7");
        assert_eq!(ellipsis_start("r1-t7", 0), "");
    }

    #[test]
    fn a_line_keeps_its_key() {
        let line = "r1-t8 (τραπέζι 8): νίκη: Κωνσταντίνος Αθανασόπουλος (στους πόντους) — επικυρώστε το αποτέλεσμα: c";
        let fitted = keep_tail(line, 78);
        assert!(
            fitted.ends_with("— επικυρώστε το αποτέλεσμα: c"),
            "{fitted}"
        );
        assert!(fitted.contains('…'), "{fitted}");
        assert!(width(&fitted) <= 78);
        assert_eq!(keep_tail("short — c", 78), "short — c");
        assert_eq!(ellipsis("abcdef", 4), "abc…");
        let won = |n: &str| format!("{n} (on points)");
        assert_eq!(name("Ben Smith", 30, won), "Ben Smith (on points)");
        assert_eq!(name("Ben Smith", 20, won), "B. Smith (on points)");
        assert_eq!(name("Ben Smith", 17, won), "Smith (on points)");
        assert_eq!(name("Ben Smith", 16, won), "Smi… (on points)");
    }
}
