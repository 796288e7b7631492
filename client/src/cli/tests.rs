use super::*;
use clap::CommandFactory;

#[test]
fn the_command_line_is_well_formed() {
    Cli::command().debug_assert();
    let cli = Cli::try_parse_from(["baffle", "presets", "--length", "11"]).unwrap();
    assert!(matches!(cli.command, Command::Presets { length: 11 }));
    assert_eq!(cli.server, DEFAULT_SERVER);
    let cli = Cli::try_parse_from(["baffle", "audit", "verify", "x.jsonl"]).unwrap();
    assert!(matches!(
        cli.command,
        Command::Audit(AuditCommand::Verify(VerifyArgs { head: None, .. }))
    ));
    let cli = Cli::try_parse_from([
        "baffle",
        "rule",
        "m",
        "--reason",
        "r",
        "--article",
        "2.2",
        "adjust-time",
        "a",
        "-30s",
    ])
    .unwrap();
    assert!(matches!(
        cli.command,
        Command::Rule(RuleArgs {
            action: RuleAction::AdjustTime { .. },
            ..
        })
    ));
    let cli = Cli::try_parse_from(["baffle", "play", "m", "roll", "b", "--dice", "3,4"]).unwrap();
    assert!(matches!(
        cli.command,
        Command::Play(PlayArgs {
            action: PlayAction::Roll {
                side: Some(SideArg::B),
                ..
            },
            ..
        })
    ));
    // The side may be left out where the match says who is to act.
    let cli = Cli::try_parse_from(["baffle", "play", "m", "roll"]).unwrap();
    assert!(matches!(
        cli.command,
        Command::Play(PlayArgs {
            action: PlayAction::Roll { side: None, .. },
            ..
        })
    ));
    let cli = Cli::try_parse_from(["baffle", "play", "m", "move", "8/3 6/3"]).unwrap();
    let Command::Play(PlayArgs {
        action: PlayAction::Move { words },
        ..
    }) = cli.command
    else {
        panic!("a move")
    };
    assert_eq!(words, ["8/3 6/3"]);
}

#[test]
fn a_greek_keyboards_alpha_and_beta_are_the_sides() {
    for (typed, side) in [("Α", SideArg::A), ("α", SideArg::A), ("Β", SideArg::B)] {
        let cli = Cli::try_parse_from(["baffle", "play", "m", "check-in", typed]).unwrap();
        let Command::Play(PlayArgs {
            action: PlayAction::CheckIn { side: parsed },
            ..
        }) = cli.command
        else {
            panic!("{typed}: {:?}", cli.command)
        };
        assert_eq!(parsed, side, "{typed}");
    }
}
