//! A tournament's day from the command line (`baffle.v1.Draws`): its players, the draw,
//! its rounds, rulings on the draw's matches and the standings.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

/// How a drawn tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// A knockout (with --flights).
    Knockout,
    /// A round robin (--cycles 1 or 2).
    RoundRobin,
    /// A Swiss (--rounds).
    Swiss,
}

/// The flights of a knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FlightsArg {
    /// The main draw only.
    Main,
    /// The main and a consolation fed by its first-round losers.
    Consolation,
    /// Those and a last chance fed by the consolation's first-round losers.
    LastChance,
}

/// One flight of a knockout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FlightArg {
    /// The main draw (also a round robin's or a Swiss's only flight).
    Main,
    /// The consolation.
    Consolation,
    /// The last chance.
    LastChance,
}

/// `baffle draw …`
#[derive(Debug, Subcommand)]
pub enum DrawCommand {
    /// Open the draw of a tournament (made with `tournament create`): its format, match
    /// length and tables. The server commits to the secret draw seed now and reveals it
    /// when the draw is made.
    Open {
        /// The tournament.
        tournament: String,
        /// The format.
        #[arg(long, value_enum)]
        format: FormatArg,
        /// A knockout's flights.
        #[arg(long, value_enum, default_value_t = FlightsArg::Main)]
        flights: FlightsArg,
        /// A round robin's cycles: 1 or 2.
        #[arg(long, default_value_t = 1)]
        cycles: u32,
        /// A Swiss's rounds: 1 to 30.
        #[arg(long, default_value_t = 0)]
        rounds: u32,
        /// The matches' length in points (backgammon; a chess tournament plays games).
        #[arg(long, required_unless_present = "chess")]
        length: Option<u32>,
        /// The venue's tables, in the order they are given out: a range 1-8, a list
        /// 1,2,5, or both (1-4,7).
        #[arg(long)]
        tables: String,
        /// A chess tournament (a round robin or a Swiss): its games' settings, as
        /// `match create --chess` takes them.
        #[command(flatten)]
        chess: super::chess::ChessMatchArgs,
    },
    /// Close the field (the players checked in) and make the draw: the seed is revealed.
    Make {
        /// The tournament.
        tournament: String,
        /// A knockout's seeds by player number, seed 1 first: 3,1,7.
        #[arg(long, conflicts_with = "seed_top")]
        seeds: Option<String>,
        /// Seed the N top-rated players instead.
        #[arg(long, value_name = "N")]
        seed_top: Option<u32>,
    },
    /// The draw: its commitment (and seed once revealed), each round's matches, byes.
    Show {
        /// The tournament.
        tournament: String,
    },
    /// Replace the venue's tables.
    Tables {
        /// The tournament.
        tournament: String,
        /// The tables: 1-8, 1,2,5, or both.
        tables: String,
    },
    /// Write the tournament's log (JSON Lines) for `baffle draw verify`.
    Export {
        /// The tournament.
        tournament: String,
        /// The file (`-` or none: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Check an exported tournament log offline: its chain, the revealed seed against
    /// the commitment, the order drawn, every Swiss round's pairing and every match
    /// against the draw. Exit status 0 when it verifies, 1 when it does not.
    Verify {
        /// The export (`-`: standard input).
        file: PathBuf,
        /// A head published before (`draw show`, the phone page): the log must pass
        /// through it, so a log cut short or changed before it does not verify.
        #[arg(long)]
        head: Option<String>,
    },
}

/// A player's federation id, club, rating and experience, as `player add` and `player
/// new` take them.
#[derive(Debug, Args)]
pub struct DetailsArgs {
    /// His federation id.
    #[arg(long, default_value = "")]
    pub federation_id: String,
    /// His club.
    #[arg(long, default_value = "")]
    pub club: String,
    /// His rating, e.g. 1523.47.
    #[arg(long)]
    pub rating: Option<String>,
    /// His experience (the lengths of the rated matches he played, summed).
    #[arg(long, default_value_t = 0)]
    pub experience: u32,
}

/// `baffle player …`
#[derive(Debug, Subcommand)]
pub enum PlayerCommand {
    /// Register one player.
    Add {
        /// The tournament.
        tournament: String,
        /// His name (not with --listed: the list's is taken).
        #[arg(required_unless_present = "listed")]
        name: Option<String>,
        /// A player of the server's list (baffle player new): his name, ids, club,
        /// rating and experience come from it, and his rated results go back to it.
        #[arg(long, conflicts_with_all = ["federation_id", "club", "rating", "experience"])]
        listed: Option<String>,
        /// What else the registration says of him.
        #[command(flatten)]
        details: DetailsArgs,
        /// Approve him too (1.4).
        #[arg(long)]
        approve: bool,
    },
    /// Register the players of a CSV file, all or none. Its first row names the
    /// columns: name (required), federation_id, club, rating, experience, player_id (a
    /// player of the server's list: his details come from it), in any order.
    Import {
        /// The tournament.
        tournament: String,
        /// The CSV file (`-`: standard input).
        file: PathBuf,
        /// Approve them too (1.4).
        #[arg(long)]
        approve: bool,
    },
    /// Approve players (1.4), by number.
    Approve(Numbers),
    /// Check players in: they are at the venue, and in the draw.
    CheckIn(Numbers),
    /// Refuse a player or record his withdrawal, with the explanation given to him (1.4).
    Out {
        /// The tournament.
        tournament: String,
        /// His number.
        number: u32,
        /// The explanation.
        #[arg(long)]
        reason: String,
    },
    /// Correct a player's name: every match and table shows the new one.
    Rename {
        /// The tournament.
        tournament: String,
        /// His number.
        number: u32,
        /// The name as it should be.
        name: String,
    },
    /// The players: number, name, club, rating, status.
    List {
        /// The tournament; without it, the server's list of players, which lasts
        /// across tournaments (with each one's rating now and rated results).
        tournament: Option<String>,
    },
    /// Put a player on the server's list, which lasts across tournaments: register him
    /// in a tournament with `player add T --listed ID`, and his rating follows him.
    New {
        /// His id on the list: his federation id, or one you choose (letters, digits,
        /// '-' and '_').
        id: String,
        /// His name.
        name: String,
        /// What else the registration says of him.
        #[command(flatten)]
        details: DetailsArgs,
    },
}

/// A tournament and players' numbers, or --all.
#[derive(Debug, Args)]
pub struct Numbers {
    /// The tournament.
    pub tournament: String,
    /// The players' numbers.
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub numbers: Vec<u32>,
    /// Every player it applies to (approve: every one registered; check-in: every one
    /// approved).
    #[arg(long)]
    pub all: bool,
}

/// `baffle round …`
#[derive(Debug, Subcommand)]
pub enum RoundCommand {
    /// Start a round: its matches are created and scheduled, each as soon as its
    /// players are known and a table is free.
    Start {
        /// The tournament.
        tournament: String,
        /// The round, from 1.
        round: u32,
        /// The flight (a knockout's).
        #[arg(long, value_enum, default_value_t = FlightArg::Main)]
        flight: FlightArg,
        /// The scheduled start (lateness counts from it, 2.2): HH:MM today (UTC), or an
        /// RFC 3339 time such as 2026-05-02T10:00:00+03:00. Default: now.
        #[arg(long)]
        at: Option<String>,
    },
}

/// `baffle pairing TOURNAMENT KEY --reason … RULING`
#[derive(Debug, Args)]
pub struct PairingArgs {
    /// The tournament.
    pub tournament: String,
    /// The match's place in the draw, e.g. M1-3 (flight letter, round, index).
    pub key: String,
    /// The director's words, recorded with the ruling.
    #[arg(long)]
    pub reason: String,
    /// The ruling.
    #[command(subcommand)]
    pub ruling: PairingRuling,
}

/// A ruling on a match of the draw.
#[derive(Debug, Subcommand)]
pub enum PairingRuling {
    /// Decided without play: player N goes on.
    Forfeit {
        /// The winner's number.
        number: u32,
    },
    /// The confirmed result corrected (4.6): winner N (0 for a drawn chess game) and
    /// the score A-B.
    Correct {
        /// The winner's number.
        number: u32,
        /// The score, player A's points first: 7-3.
        score: String,
    },
    /// Not created when its round starts, until rescheduled.
    Postpone,
    /// Scheduled at TIME (HH:MM today, UTC, or RFC 3339), and brought back if postponed.
    Reschedule {
        /// The time.
        time: String,
    },
    /// Its log given up and a new one (fresh dice) given its place.
    Replace,
}

/// `baffle standings TOURNAMENT`
#[derive(Debug, Args)]
pub struct StandingsArgs {
    /// The tournament.
    pub tournament: String,
    /// The results for the federation (5.5) as CSV instead: one row per decided match.
    #[arg(long, conflicts_with = "csv_table")]
    pub csv: bool,
    /// The standings themselves as CSV (a round robin's or Swiss's table, or a
    /// knockout's placings).
    #[arg(long)]
    pub csv_table: bool,
}
