//! The time-control presets as a table a director reads.

use baffle_core::Millis;
use baffle_core::clock::TimeControl;
use baffle_proto::v1::Preset;

/// Renders presets as a plain-text table, one line each, with their periods spelled out.
pub fn render(presets: &[Preset]) -> String {
    let mut out = format!("{:<16} {}\n", "NAME", "PERIODS");
    for p in presets {
        let periods = p
            .control
            .clone()
            .map(TimeControl::try_from)
            .map(|c| match c {
                Ok(c) => describe(&c),
                Err(e) => format!("(unreadable: {e})"),
            })
            .unwrap_or_else(|| "(none)".into());
        out.push_str(&format!("{:<16} {periods}\n", p.name));
        out.push_str(&format!("{:<16} {}\n", "", p.description));
    }
    out
}

/// "90:00.0 for 40 moves, +0:30.0 per move (Fischer); then 30:00.0 ..."
pub fn describe(control: &TimeControl) -> String {
    control
        .periods()
        .iter()
        .map(|p| {
            let moves = p
                .moves
                .map_or("rest of game".into(), |m| format!("{m} moves"));
            format!("{} for {moves}, {}", face(p.base), p.method)
        })
        .collect::<Vec<_>>()
        .join("; then ")
}

fn face(t: Millis) -> String {
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use baffle_core::clock::presets;

    #[test]
    fn the_table_names_every_preset_and_its_periods() {
        let wire: Vec<Preset> = presets(7).unwrap().iter().map(Into::into).collect();
        let table = render(&wire);
        assert!(table.contains("backgammon"));
        assert!(table.contains("14:00.0 for rest of game, 0:12.0 simple delay"));
        assert!(table.contains("1:30:00.0 for 40 moves, +0:30.0 per move (Fischer); then 30:00.0"));
        assert_eq!(table.lines().count(), 1 + 2 * 4);
    }
}
