//! What the director types for a draw, read: tables (`1-8`, `1,2,5`), numbers
//! (`3,1,7`), a rating (`1523.47`), a score (`7-3`), a time (`10:30` or RFC 3339), and a
//! CSV file of players. Each refusal is a sentence in the director's language.

use baffle_core::tournament::entrant::same_name;
use baffle_core::tournament::{Details, rating::Rating};
use baffle_proto::v1;

use crate::words;

/// The most tables a range may name (a typo such as 1-800 is not a venue).
const MAX_TABLES: u32 = 500;

/// `1-8`, `1,2,5` or `1-4,7` as the tables' labels, in order.
pub fn tables(text: &str) -> Result<Vec<String>, String> {
    let bad = || words::say_with("cli-draw-bad-tables", &[("text", text.into())]);
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(bad());
        }
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = match (a.trim().parse(), b.trim().parse()) {
                    (Ok(a), Ok(b)) if a <= b && b - a < MAX_TABLES => (a, b),
                    _ => return Err(bad()),
                };
                out.extend((a..=b).map(|n| n.to_string()));
            }
            None => out.push(part.to_string()),
        }
    }
    Ok(out)
}

/// `3,1,7` as numbers.
pub fn numbers(text: &str) -> Result<Vec<u32>, String> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse()
                .map_err(|_| words::say_with("cli-draw-bad-numbers", &[("text", text.into())]))
        })
        .collect()
}

/// `1523.47` (at most two decimals) as hundredths.
pub fn rating(text: &str) -> Result<i64, String> {
    let bad = || words::say_with("cli-draw-bad-rating", &[("text", text.into())]);
    let (whole, frac) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let whole: i64 = whole.parse().map_err(|_| bad())?;
    let frac: i64 = format!("{frac:0<2}").parse().map_err(|_| bad())?;
    whole
        .checked_mul(100)
        .and_then(|w| w.checked_add(frac))
        .ok_or_else(bad)
}

/// `7-3` as the two scores.
pub fn score(text: &str) -> Result<(u32, u32), String> {
    text.split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)))
        .ok_or_else(|| words::say_with("cli-draw-bad-score", &[("text", text.into())]))
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12; // March is 0
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date (year, month, day) of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// An instant (ms since the epoch) as its UTC date: `2026-01-15`.
pub fn date(ms: i64) -> String {
    let (y, m, d) = civil_from_days(ms.div_euclid(86_400_000));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `HH:MM` (today, UTC, `now_ms` telling which day) or an RFC 3339 time
/// (`2026-05-02T10:00:00+03:00`, `…Z`, seconds optional) as ms since the epoch.
pub fn time(text: &str, now_ms: i64) -> Result<i64, String> {
    let bad = || words::say_with("cli-draw-bad-time", &[("text", text.into())]);
    let t = text.trim();
    let hm = |s: &str| -> Option<i64> {
        let mut parts = s.split(':');
        let h: i64 = parts.next()?.parse().ok()?;
        let m: i64 = parts.next()?.parse().ok()?;
        let sec: i64 = parts.next().map_or(Some(0), |x| x.parse().ok())?;
        if parts.next().is_some() || h > 23 || m > 59 || sec > 59 {
            return None;
        }
        Some(((h * 60 + m) * 60 + sec) * 1000)
    };
    if !t.contains(['T', 't', ' ']) {
        let day = now_ms.div_euclid(86_400_000);
        return hm(t).map(|at| day * 86_400_000 + at).ok_or_else(bad);
    }
    let (day, rest) = t.split_once(['T', 't', ' ']).ok_or_else(bad)?;
    let mut ymd = day.split('-');
    let mut next = || ymd.next().and_then(|x| x.parse::<i64>().ok());
    let (y, m, d) = (next(), next(), next());
    let (Some(y), Some(m), Some(d)) = (y, m, d) else {
        return Err(bad());
    };
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad());
    }
    let (clock, offset) = if let Some(c) = rest.strip_suffix(['Z', 'z']) {
        (c, 0)
    } else {
        let at = rest.rfind(['+', '-']).ok_or_else(bad)?;
        let sign = if rest[at..].starts_with('-') { -1 } else { 1 };
        let off = hm(&rest[at + 1..]).ok_or_else(bad)?;
        (&rest[..at], sign * off)
    };
    let at = hm(clock).ok_or_else(bad)?;
    Ok(days_from_civil(y, m, d) * 86_400_000 + at - offset)
}

/// The columns a players' CSV may have; `name` is required.
const PLAYER_COLUMNS: [&str; 6] = [
    "name",
    "federation_id",
    "club",
    "rating",
    "experience",
    "player_id",
];

/// The players of a CSV file with a header row (`name` required; `federation_id`,
/// `club`, `rating`, `experience`, `player_id` optional, in any order), each checked as
/// the server would check it and against `known` (the names already entered): every
/// refusal names its line, and every bad line is named (one per line of the error), so
/// a file is mended in one pass.
pub fn players_csv(text: &str, known: &[String]) -> Result<Vec<v1::EntrantDetails>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(false)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| words::say_with("cli-import-unreadable", &[("why", e.to_string().into())]))?
        .iter()
        .map(|h| h.trim().to_lowercase().replace([' ', '-'], "_"))
        .collect();
    if !header.iter().any(|h| h == "name") {
        return Err(words::say("cli-import-no-name"));
    }
    if let Some(other) = header
        .iter()
        .find(|h| !PLAYER_COLUMNS.contains(&h.as_str()))
    {
        return Err(words::say_with(
            "cli-import-unknown-column",
            &[("column", other.clone().into())],
        ));
    }
    let mut players: Vec<(u64, v1::EntrantDetails)> = Vec::new();
    let mut refusals = Vec::new();
    for row in reader.records() {
        let checked = row
            .map_err(|e| {
                let line = e.position().map_or(0, csv::Position::line);
                bad_line(line, e.to_string())
            })
            .and_then(|row| player_row(&header, &row, &players, known));
        match checked {
            Ok(Some(player)) => players.push(player),
            Ok(None) => {}
            Err(why) => refusals.push(why),
        }
    }
    if !refusals.is_empty() {
        return Err(refusals.join("\n"));
    }
    if players.is_empty() {
        return Err(words::say("cli-import-empty"));
    }
    Ok(players.into_iter().map(|(_, p)| p).collect())
}

/// "line 4: …".
fn bad_line(line: u64, why: String) -> String {
    words::say_with(
        "cli-import-bad-line",
        &[("line", line.into()), ("why", why.into())],
    )
}

/// One row of a players' CSV, checked against the rows before it (`players`) and the
/// names already entered: the player with his line, none for an empty row.
fn player_row(
    header: &[String],
    row: &csv::StringRecord,
    players: &[(u64, v1::EntrantDetails)],
    known: &[String],
) -> Result<Option<(u64, v1::EntrantDetails)>, String> {
    let line = row.position().map_or(0, csv::Position::line);
    let at = |why: String| bad_line(line, why);
    let cell = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .and_then(|i| row.get(i))
            .unwrap_or("")
            .to_string()
    };
    if row.iter().all(str::is_empty) {
        return Ok(None);
    }
    let rating = match cell("rating").as_str() {
        "" => None,
        r => Some(rating(r).map_err(at)?),
    };
    let experience = match cell("experience").as_str() {
        "" => 0,
        x => x.parse().map_err(|_| {
            at(words::say_with(
                "cli-draw-bad-experience",
                &[("text", x.into())],
            ))
        })?,
    };
    let details = v1::EntrantDetails {
        name: cell("name"),
        federation_id: cell("federation_id"),
        club: cell("club"),
        rating_hundredths: rating,
        experience,
        player_id: cell("player_id"),
    };
    let core = Details {
        name: details.name.clone(),
        federation_id: details.federation_id.clone(),
        club: details.club.clone(),
        rating: details.rating_hundredths.map(Rating),
        experience,
        player: String::new(),
    };
    core.validate().map_err(|e| at(e.message))?;
    if let Some((first, _)) = players
        .iter()
        .find(|(_, p)| same_name(&p.name, &details.name))
    {
        return Err(at(words::say_with(
            "cli-import-duplicate",
            &[("name", details.name.into()), ("first", (*first).into())],
        )));
    }
    if known.iter().any(|k| same_name(k, &details.name)) {
        return Err(at(words::say_with(
            "cli-import-already-entered",
            &[("name", details.name.into())],
        )));
    }
    Ok(Some((line, details)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_take_ranges_and_lists() {
        assert_eq!(tables("1-3").unwrap(), ["1", "2", "3"]);
        assert_eq!(tables("1,2,5").unwrap(), ["1", "2", "5"]);
        assert_eq!(tables("1-2, 7,A").unwrap(), ["1", "2", "7", "A"]);
        for bad in ["", "3-1", "1,,2", "1-x", "1-900"] {
            assert!(tables(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ratings_are_hundredths() {
        assert_eq!(rating("1523.47"), Ok(152_347));
        assert_eq!(rating("1500"), Ok(150_000));
        assert_eq!(rating("1500.5"), Ok(150_050));
        for bad in ["", "-1", "1.234", "abc", "1,5"] {
            assert!(rating(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn times_are_utc_instants() {
        // 2026-01-15 00:00 UTC.
        let day = 1_768_435_200_000;
        assert_eq!(date(day), "2026-01-15");
        assert_eq!(date(day - 1), "2026-01-14");
        assert_eq!(time("10:30", day + 5_000), Ok(day + 37_800_000));
        assert_eq!(time("2026-01-15T10:30:00Z", 0), Ok(day + 37_800_000));
        assert_eq!(time("2026-01-15T12:30+02:00", 0), Ok(day + 37_800_000));
        assert_eq!(time("2026-01-15T05:30:00-05:00", 0), Ok(day + 37_800_000));
        for bad in ["25:00", "10", "2026-13-01T10:00Z", "soon"] {
            assert!(time(bad, day).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_players_file_is_read_by_its_header() {
        let text = "club,name,rating\nVolos,Anna Pappa,1523.47\n\nPatras,Ben,\n";
        let p = players_csv(text, &[]).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "Anna Pappa");
        assert_eq!(p[0].club, "Volos");
        assert_eq!(p[0].rating_hundredths, Some(152_347));
        assert_eq!(p[1].rating_hundredths, None);
    }

    #[test]
    fn a_bad_line_is_named() {
        let e = players_csv("name\nAnna\nBen\n anna \n", &[]).unwrap_err();
        assert!(e.contains("line 4") && e.contains("line 2"), "{e}");
        let e = players_csv("name,rating\nAnna,12x\n", &[]).unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        let e = players_csv("name\nAnna\n", &["ANNA".into()]).unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(players_csv("club\nVolos\n", &[]).is_err());
        assert!(players_csv("name,colour\nAnna,red\n", &[]).is_err());
    }

    #[test]
    fn every_bad_line_is_named_at_once() {
        let e = players_csv("name,rating\nAnna,12x\nBen,1500\nCleo,-3\n", &[]).unwrap_err();
        assert!(e.contains("line 2") && e.contains("line 4"), "{e}");
        assert!(!e.contains("line 3"), "{e}");
        assert_eq!(e.lines().count(), 2, "{e}");
    }

    #[test]
    fn a_player_of_the_servers_list_is_named_by_his_id() {
        let p = players_csv("name,player_id\nAnna,p-17\n", &[]).unwrap();
        assert_eq!(p[0].player_id, "p-17");
    }
}
