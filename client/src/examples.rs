//! Examples for every subcommand's `--help`, kept in one table rather than spread over
//! the derive attributes, so that a test can check that no subcommand lacks one.
//! [`command`] is `Cli`'s clap command with them attached; the binary and the completion
//! script both use it.

use clap::{CommandFactory, FromArgMatches};

use crate::cli::Cli;

/// (subcommand path, examples). A path is the subcommand names after `baffle`.
const EXAMPLES: &[(&str, &str)] = &[
    ("presets", "baffle presets --length 11"),
    (
        "player",
        "baffle player import open players.csv --approve\n  baffle player check-in open --all\n  baffle player list open",
    ),
    (
        "player add",
        "baffle player add open \"Ελένη Παππά\" --club Βόλος --rating 1523.47 --experience 420 --approve\n  baffle player add open \"Ben Hall\" --federation-id GR-1207\n  baffle player add open --listed GR-1207 --approve",
    ),
    (
        "player import",
        "baffle player import open players.csv --approve\n  (players.csv: name,federation_id,club,rating,experience,player_id — only name is required; a player_id of the server's list brings his details from it)",
    ),
    (
        "player approve",
        "baffle player approve open 3 4 9\n  baffle player approve open --all",
    ),
    (
        "player check-in",
        "baffle player check-in open 1 2 5\n  baffle player check-in open --all",
    ),
    (
        "player out",
        "baffle player out open 7 --reason \"withdrew: ill\"",
    ),
    (
        "player rename",
        "baffle player rename open 4 \"Βασίλης Παπαδάκης\"",
    ),
    (
        "player list",
        "baffle player list open\n  baffle player list open --json\n  baffle player list",
    ),
    (
        "player new",
        "baffle player new GR-1207 \"Ben Hall\" --club Βόλος --rating 1544 --experience 600",
    ),
    (
        "draw",
        "baffle draw open open --format knockout --flights consolation --length 7 --tables 1-8\n  baffle draw make open --seed-top 2\n  baffle draw show open",
    ),
    (
        "draw open",
        "baffle draw open open --format knockout --flights consolation --length 7 --tables 1-8\n  baffle draw open league --format round-robin --cycles 2 --length 5 --tables 1,2,5\n  baffle draw open swiss --format swiss --rounds 5 --length 7 --tables 1-4,9",
    ),
    (
        "draw make",
        "baffle draw make open --seed-top 2\n  baffle draw make open --seeds 3,1,7",
    ),
    (
        "draw show",
        "baffle draw show open\n  baffle draw show open --json",
    ),
    ("draw tables", "baffle draw tables open 1-6,9"),
    (
        "draw export",
        "baffle draw export open -o open.jsonl\n  baffle draw export open | baffle draw verify -",
    ),
    ("draw verify", "baffle draw verify open.jsonl"),
    (
        "round",
        "baffle round start open 1\n  baffle round start open 2 --at 14:30\n  baffle round start open 1 --flight consolation --at 2026-05-02T16:00:00+03:00",
    ),
    (
        "round start",
        "baffle round start open 1\n  baffle round start open 2 --at 14:30\n  baffle round start open 1 --flight consolation --at 2026-05-02T16:00:00+03:00",
    ),
    (
        "pairing",
        "baffle pairing open M1-3 --reason \"Ben did not come (2.2)\" forfeit 5\n  baffle pairing open M1-2 --reason \"score misreported (4.6)\" correct 4 7-5\n  baffle pairing open C1-1 --reason \"player ill\" postpone\n  baffle pairing open C1-1 --reason \"after lunch\" reschedule 15:00\n  baffle pairing open M2-1 --reason \"log damaged\" replace",
    ),
    (
        "standings",
        "baffle standings open\n  baffle standings open --csv > open-results.csv\n  baffle standings open --csv-table > open-standings.csv",
    ),
    (
        "live",
        "baffle live join r1-t7 --code player.r1-t7.a.…\n  baffle live play r1-t7 --code player.r1-t7.a.…",
    ),
    (
        "live join",
        "baffle live join r1-t7 --code player.r1-t7.a.…\n  baffle live join r1-t7 --code player.r1-t7.b.… --chain-file ~/ben-r1-t7.json",
    ),
    (
        "live play",
        "baffle live play r1-t7 --code player.r1-t7.a.…\n  printf 'opening\\npress\\n' | baffle live play r1-t7 --code player.r1-t7.a.…",
    ),
    (
        "tournament",
        "baffle tournament create open --name \"Club open\"\n  baffle tournament list",
    ),
    (
        "tournament create",
        "baffle tournament create open --name \"Club open\"\n  baffle tournament create blitz --per-point 1m --delay 8s --timeout points:1\n  baffle tournament create live --live-dice",
    ),
    (
        "tournament list",
        "baffle tournament list --json\n  baffle tournament list --all",
    ),
    ("tournament show", "baffle tournament show open"),
    (
        "tournament archive",
        "baffle tournament archive open\n  baffle tournament archive demo-4821 --force",
    ),
    ("tournament unarchive", "baffle tournament unarchive open"),
    (
        "match",
        "baffle match create --tournament open --table 7 --length 7 --players \"Anna,Ben\"\n  baffle match list --tournament open",
    ),
    (
        "match create",
        "baffle match create --tournament open --round 1 --table 7 --length 7 --players \"Anna,Ben\"\n  baffle match create --tournament open --id open-r2-t7 --round 2 --table 7 --length 7 --players \"Anna,Ben\" --start-in 10m\n  baffle match create --tournament open --table 9 --players \"Ann,Bo\" --chess rapid --games 2 --default-time 15m",
    ),
    (
        "match list",
        "baffle match list --tournament open\n  baffle match list --round 2 --phase over --json",
    ),
    ("match show", "baffle match show r1-t7"),
    (
        "match rename",
        "baffle match rename r1-t7 b \"Βασίλης Παπαδάκης\"\n  baffle match rename r1-t9 A \"Anna Smith\"",
    ),
    (
        "match export",
        "baffle match export r1-t7 > r1-t7.mat\n  baffle match export r1-t7 --format sgf > r1-t7.sgf",
    ),
    (
        "play",
        "baffle play r1-t7 check-in A\n  baffle play r1-t7 opening\n  baffle play r1-t7 press a\n  baffle play r1-t7 pause director-called",
    ),
    (
        "rule",
        "baffle rule r1-t7 --reason \"6 minutes late\" --article 2.2 award A 1\n  baffle rule r1-t7 --reason \"clock replaced\" --article 3.7 set-time b 5:00\n  baffle rule r1-t7 --reason \"result checked\" --article 4.6 confirm\n  baffle rule r1-t7 --reason \"his phone died\" --article 2.3 extend-reveal 10",
    ),
    (
        "chess",
        "baffle chess r1-t9 arrive white\n  baffle chess r1-t9 press white\n  baffle chess r1-t9 --reason \"dispute\" --article 6.12 pause\n  baffle chess r1-t9 --reason \"illegal move seen\" --article 7.5 illegal white",
    ),
    (
        "device",
        "baffle device register t7\n  baffle device bind t7 r1-t7\n  baffle device list",
    ),
    ("device list", "baffle device list --tournament open"),
    ("device register", "baffle device register t7"),
    ("device bind", "baffle device bind t7 r1-t7"),
    ("device unbind", "baffle device unbind t7"),
    ("device revoke", "baffle device revoke t7"),
    (
        "audit",
        "baffle audit export r1-t7 -o r1-t7.jsonl && baffle audit verify r1-t7.jsonl",
    ),
    ("audit commitment", "baffle audit commitment r1-t7"),
    (
        "audit seed",
        "baffle audit seed r1-t7 a 0badc0de --hex --code player.r1-t7.a.…",
    ),
    ("audit export", "baffle audit export r1-t7 -o r1-t7.jsonl"),
    ("audit reveal", "baffle audit reveal r1-t7"),
    (
        "audit witness",
        "baffle audit witness r1-t7 --out r1-t7.heads\n  baffle audit verify r1-t7.jsonl --witness r1-t7.heads",
    ),
    ("audit check-proof", "baffle audit check-proof proof.jsonl"),
    (
        "dice",
        "baffle dice stream --key 5f0c… --count 1000000 > dice.txt",
    ),
    (
        "dice key",
        "baffle dice key --match-id r1-t7 --server-seed 9c1f… --seed-a 0badc0de",
    ),
    (
        "dice stream",
        "baffle dice stream --key 5f0c… --format raw --count 10000000 | dieharder -a -g 200",
    ),
    (
        "follow",
        "baffle follow r1-t7\n  baffle follow r1-t7 --json | jq .state.status",
    ),
    ("console", "baffle console open"),
    (
        "completions",
        "baffle completions bash > ~/.local/share/bash-completion/completions/baffle",
    ),
];

/// The examples of the subcommand at `path`, if the table has them.
pub fn examples(path: &str) -> Option<&'static str> {
    EXAMPLES.iter().find(|(p, _)| *p == path).map(|(_, e)| *e)
}

/// Attaches the table's examples to `command` and its subcommands at `path`. A
/// subcommand that already has an `after_help` keeps it.
fn attach(mut command: clap::Command, path: &str) -> clap::Command {
    if command.get_after_help().is_none()
        && let Some(text) = examples(path)
    {
        command = command.after_help(format!("Examples:\n  {text}"));
    }
    let names: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        command = command.mut_subcommand(&name, |c| attach(c, &sub_path));
    }
    command
}

/// `Cli`'s command with every subcommand's examples.
pub fn command() -> clap::Command {
    attach(Cli::command(), "")
}

/// Parses the process's arguments (exiting with clap's message on an error, as
/// `Cli::parse` does), with the examples in every `--help`.
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subcommand, at any depth, shows at least one example in its help.
    #[test]
    fn every_subcommand_has_examples() {
        fn walk(c: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for sub in c.get_subcommands() {
                let p = if path.is_empty() {
                    sub.get_name().to_string()
                } else {
                    format!("{path} {}", sub.get_name())
                };
                if sub.get_after_help().is_none() && !p.starts_with("help") {
                    missing.push(p.clone());
                }
                // The actions of play, rule, chess and pairing are shown in their
                // parent's help.
                if !["play", "rule", "chess", "pairing"].contains(&p.as_str()) {
                    walk(sub, &p, missing);
                }
            }
        }
        let mut missing = Vec::new();
        walk(&command(), "", &mut missing);
        assert!(missing.is_empty(), "no examples for: {missing:?}");
    }
}
