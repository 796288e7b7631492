//! Durations as directors write them: `12s`, `2m`, `1m30s`, `1h`, `-30s`, `500ms`, `30.4s`,
//! and as a clock shows them: `5:00`, `1:30:00`, `-0:30`, `+0:30.4` (the consoles print
//! tenths: a figure shown must be one a director can type back).

use baffle_core::Millis;

/// Parses a duration; a leading `-` makes it negative.
pub fn parse(text: &str) -> Result<Millis, String> {
    let bad = || format!("{text:?} is not a duration like 12s, 2m, 1m30s, -30s or 5:00");
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest.is_empty() {
        return Err(bad());
    }
    if rest.contains(':') {
        return clock_face(rest).map(|ms| Millis(sign * ms)).ok_or_else(bad);
    }
    let mut total: i64 = 0;
    let mut number = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            number.push(c);
            continue;
        }
        let unit = match (c, chars.peek()) {
            ('m', Some('s')) => {
                chars.next();
                1
            }
            ('h', _) => 3_600_000,
            ('m', _) => 60_000,
            ('s', _) => 1_000,
            _ => return Err(bad()),
        };
        // Fractions of a second only: `30.4s`, not `1.5m`.
        let n = match number.split_once('.') {
            Some((whole, fraction)) if unit == 1_000 => seconds_ms(whole, fraction),
            Some(_) => None,
            None => number.parse::<i64>().ok().and_then(|n| n.checked_mul(unit)),
        };
        total = total.checked_add(n.ok_or_else(bad)?).ok_or_else(bad)?;
        number.clear();
    }
    if !number.is_empty() {
        return Err(bad());
    }
    Ok(Millis(sign * total))
}

/// `whole.fraction` seconds in milliseconds: 1 to 3 digits after the point.
fn seconds_ms(whole: &str, fraction: &str) -> Option<i64> {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || fraction.len() > 3 {
        return None;
    }
    let ms: i64 = format!("{fraction:0<3}").parse().ok()?;
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(1_000)?
        .checked_add(ms)
}

/// `m:ss` or `h:mm:ss` in milliseconds, with tenths after the seconds allowed (`0:30.4`):
/// seconds and minutes after the first field below 60.
fn clock_face(text: &str) -> Option<i64> {
    let (text, tenths) = match text.split_once('.') {
        Some((face, fraction)) => (face, seconds_ms("0", fraction)?),
        None => (text, 0),
    };
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() > 3
        || fields
            .iter()
            .any(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let mut total: i64 = 0;
    for (i, field) in fields.iter().enumerate() {
        let n: i64 = field.parse().ok()?;
        if i > 0 && (n >= 60 || field.len() != 2) {
            return None;
        }
        total = total.checked_mul(60)?.checked_add(n)?;
    }
    total.checked_mul(1_000)?.checked_add(tenths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse("12s"), Ok(Millis::secs(12)));
        assert_eq!(parse("2m"), Ok(Millis::mins(2)));
        assert_eq!(parse("1m30s"), Ok(Millis::secs(90)));
        assert_eq!(parse("-30s"), Ok(Millis::secs(-30)));
        assert_eq!(parse("1h"), Ok(Millis::mins(60)));
        assert_eq!(parse("250ms"), Ok(Millis(250)));
        assert_eq!(parse("5:00"), Ok(Millis::mins(5)));
        assert_eq!(parse("1:30:00"), Ok(Millis::mins(90)));
        assert_eq!(parse("-0:30"), Ok(Millis::secs(-30)));
        // The figure a console shows, typed back (a second new director could not).
        assert_eq!(parse("30.4s"), Ok(Millis(30_400)));
        assert_eq!(parse("+0:30.4"), Ok(Millis(30_400)));
        assert_eq!(parse("-1:02.25"), Ok(Millis(-62_250)));
        assert_eq!(parse("1m0.5s"), Ok(Millis(60_500)));
        for bad in [
            "",
            "12",
            "x",
            "5d",
            "-",
            "1m30",
            "5:0",
            "5:60",
            ":30",
            "1:2:3:4",
            "1.5m",
            "30.s",
            ".5s",
            "0:30.",
            "0:30.1234",
            "30.4",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
