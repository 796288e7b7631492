//! The `baffle` command line: every director action and query of the API.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::connect::DEFAULT_SERVER;
use crate::dice::StreamFormat;

mod args;
mod chess;
mod draw;
mod live;
mod table;
pub use args::{ClocksArg, CommandOptions, DiceArg, KindArg, PhaseArg, SideArg};
pub use chess::{ChessAction, ChessArgs, ChessMatchArgs, ColorArg, LawsArg, QuickplayArg};
pub use draw::{
    DetailsArgs, DrawCommand, FlightArg, FlightsArg, FormatArg, Numbers, PairingArgs,
    PairingRuling, PlayerCommand, RoundCommand, StandingsArgs,
};
pub use live::LiveCommand;
pub use table::{AskArg, DecisionArg, PlayAction, PlayArgs, RuleAction, RuleArgs};

/// baffle: the director's console for the baffle tournament clock and dice server.
#[derive(Debug, Parser)]
#[command(
    name = "baffle",
    version,
    after_help = "Examples:
  baffle tournament create open --name \"Club open\"
  baffle match create --tournament open --round 1 --table 7 --length 7 --players \"Anna,Ben\"
  baffle play r1-t7 check-in A
  baffle play r1-t7 opening
  baffle rule r1-t7 --reason \"6 minutes late\" --article 2.2 award A 1
  baffle match create --tournament open --table 9 --players \"Ann,Bo\" --chess rapid --games 2 --default-time 15m
  baffle chess r1-t9 press white
  baffle chess r1-t9 --reason \"illegal move seen\" --article 7.5 illegal white
  baffle console open
  baffle follow r1-t7
  baffle audit export r1-t7 -o r1-t7.jsonl && baffle audit verify r1-t7.jsonl
  baffle live join r1-t7 --code player.r1-t7.a.… && baffle live play r1-t7 --code player.r1-t7.a.…

A tournament's day, drawn by the server:
  baffle draw open open --format knockout --flights consolation --length 7 --tables 1-8
  baffle player import open players.csv --approve
  baffle player check-in open --all
  baffle draw make open --seed-top 2
  baffle round start open 1 --at 10:30
  baffle draw show open
  baffle pairing open M1-3 --reason \"Ben did not come\" forfeit 5
  baffle standings open --csv > results.csv
  baffle draw export open -o open.jsonl && baffle draw verify open.jsonl

The server and the director token are found by themselves: --server / BAFFLE_SERVER
(default http://127.0.0.1:50051); --token / BAFFLE_TOKEN, else the token file in
BAFFLE_DATA_DIR (default ./baffle-data/director.token).
Exit status: 0 done, 1 a verification failed, 2 usage, 3 server unreachable, 4 refused."
)]
pub struct Cli {
    /// The server's URL, or several (the nodes of a cluster) separated by commas: each is
    /// tried in turn, and a command for a match another node writes is sent there.
    #[arg(long, global = true, help_heading = "Global options", env = "BAFFLE_SERVER", default_value = DEFAULT_SERVER)]
    pub server: String,

    /// The director token (or a device credential). Default: read from the data dir.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BAFFLE_TOKEN",
        hide_env_values = true
    )]
    pub token: Option<String>,

    /// The server's data directory, where the director token file is.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BAFFLE_DATA_DIR",
        default_value = "./baffle-data"
    )]
    pub data_dir: PathBuf,

    /// A CA certificate (PEM) to trust for an https:// server, beside the system's:
    /// a club's own CA, or a server's self-signed certificate.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BAFFLE_CA_CERT"
    )]
    pub ca_cert: Option<PathBuf>,

    /// Print JSON instead of tables, for scripts.
    #[arg(long, global = true, help_heading = "Global options")]
    pub json: bool,

    /// The language baffle speaks: el (Ελληνικά) or en. Default: the language of
    /// LC_ALL, LC_MESSAGES or LANG (el_GR.UTF-8 → Greek), else English. --json prints
    /// the same in every language.
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        env = "BAFFLE_LANG",
        value_parser = ["el", "en"]
    )]
    pub lang: Option<String>,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `baffle`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the preset time controls the server offers.
    Presets {
        /// Match length in points for the backgammon preset.
        #[arg(long, default_value_t = 7)]
        length: u32,
    },
    /// Tournaments.
    #[command(subcommand)]
    Tournament(TournamentCommand),
    /// A drawn tournament's players: register, import, approve, check in, take out.
    #[command(subcommand)]
    Player(PlayerCommand),
    /// A tournament's draw: open it, make it, show, export and verify it.
    #[command(subcommand)]
    Draw(DrawCommand),
    /// A drawn tournament's rounds.
    #[command(subcommand)]
    Round(RoundCommand),
    /// A director's ruling on a match of the draw: forfeit, correct, postpone,
    /// reschedule, replace.
    Pairing(PairingArgs),
    /// A drawn tournament's standings: a round robin's or Swiss's table, a knockout's
    /// placings; --csv the results for the federation.
    Standings(StandingsArgs),
    /// Matches.
    #[command(subcommand, name = "match")]
    Match(MatchCommand),
    /// A player's or a device's action in a match.
    Play(PlayArgs),
    /// A director's ruling in a match, with its reason and article.
    Rule(RuleArgs),
    /// A chess match's action: a player's, or the arbiter's with --reason and --article.
    Chess(ChessArgs),
    /// Clock devices.
    #[command(subcommand)]
    Device(DeviceCommand),
    /// Dice commitment, player seeds, log export, reveal and offline verification.
    #[command(subcommand)]
    Audit(AuditCommand),
    /// Offline tools for the audited dice (no server needed).
    #[command(subcommand)]
    Dice(DiceCommand),
    /// A player's own terminal in a match of live dice: his chain, his links, his play.
    #[command(subcommand)]
    Live(LiveCommand),
    /// A live scoreboard of one match (no token needed). Without a terminal (or with
    /// --json) it prints one line per change instead: words, or NDJSON with --json.
    Follow {
        /// The match.
        match_id: String,
    },
    /// The live dashboard of a tournament's matches. Without a terminal it prints one
    /// line per change of any match instead.
    Console {
        /// The tournament.
        tournament: String,
    },
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// `baffle tournament …`
#[derive(Debug, Subcommand)]
pub enum TournamentCommand {
    /// Create a tournament and its defaults.
    Create {
        /// Its id (letters, digits, '-', '_').
        id: String,
        /// Its name.
        #[arg(long, default_value = "")]
        name: String,
        /// Where it is played, as people name it (at most 100 characters).
        #[arg(long, default_value = "")]
        venue: String,
        /// Its first day, YYYY-MM-DD.
        #[arg(long, value_name = "YYYY-MM-DD", default_value = "")]
        first_day: String,
        /// Its last day, YYYY-MM-DD (with --first-day; not before it).
        #[arg(long, value_name = "YYYY-MM-DD", default_value = "")]
        last_day: String,
        /// Match time per point.
        #[arg(long, default_value = "2m")]
        per_point: String,
        /// Simple delay per turn.
        #[arg(long, default_value = "12s")]
        delay: String,
        /// Time-out policy: lose, overtime-1m, overtime-2m, or points:K.
        #[arg(long, default_value = "lose")]
        timeout: String,
        /// Whether matches are clocked.
        #[arg(long, value_enum, default_value_t = ClocksArg::Required)]
        clocks: ClocksArg,
        /// Where the dice come from.
        #[arg(long, value_enum, default_value_t = DiceArg::Server)]
        dice: DiceArg,
        /// Breaks count in match time.
        #[arg(long)]
        breaks_in_match_time: bool,
        /// Require both players' own seeds (committed and revealed) before a match's
        /// first roll: `baffle audit player-codes` gives them their codes.
        #[arg(long)]
        require_player_seeds: bool,
        /// Live dice: every draw takes a link of each player's hash chain, given only once
        /// the draw is asked for (`baffle live join` / `baffle live play`).
        #[arg(long, conflicts_with = "require_player_seeds")]
        live_dice: bool,
        /// How long the players have to reveal their seeds once both have committed
        /// (e.g. 5m, 90s; default 5m): past it the director rules.
        #[arg(long, value_name = "DURATION")]
        reveal_window: Option<String>,
    },
    /// List tournaments (archived ones with --all).
    List {
        /// Also archived tournaments.
        #[arg(long)]
        all: bool,
    },
    /// Show one tournament.
    Show {
        /// Its id.
        id: String,
    },
    /// Archive a tournament: it leaves the default listings and the phone page's home
    /// list; it stays reachable by id, and its matches stay followable, exportable and
    /// verifiable. Refused while a match of it has no result, unless --force.
    Archive {
        /// Its id.
        id: String,
        /// Archive it even with matches not finished (they can still be played).
        #[arg(long)]
        force: bool,
    },
    /// Bring an archived tournament back into the listings.
    Unarchive {
        /// Its id.
        id: String,
    },
}

/// `baffle match …`
#[derive(Debug, Subcommand)]
pub enum MatchCommand {
    /// Create a match.
    Create {
        /// The tournament.
        #[arg(long)]
        tournament: String,
        /// The match id; default: r<round>-t<table>.
        #[arg(long)]
        id: Option<String>,
        /// The round.
        #[arg(long, default_value_t = 1)]
        round: u32,
        /// The table label.
        #[arg(long)]
        table: String,
        /// Match length in points (backgammon).
        #[arg(long, required_unless_present = "chess")]
        length: Option<u32>,
        /// The players, "A,B".
        #[arg(long)]
        players: String,
        /// Scheduled start: in this long from now (e.g. 10m); default now.
        #[arg(long)]
        start_in: Option<String>,
        /// Play without a clock (where the tournament allows it).
        #[arg(long)]
        unclocked: bool,
        /// Match 1, 2 or 3 of a best-of-three series between the same players: breaks
        /// only between matches (2.2).
        #[arg(long)]
        series_match: Option<u32>,
        /// Record and check every move (docs/board.md): results come from the board.
        #[arg(long)]
        record_moves: bool,
        /// Where this match's dice come from, if not the tournament's.
        #[arg(long, value_enum)]
        dice: Option<DiceArg>,
        /// The match this one replaces (a round has one match per table and per pair of
        /// players: a second is refused unless it names the first), with --ruling.
        #[arg(long, requires = "ruling")]
        replaces: Option<String>,
        /// The director's words for --replaces.
        #[arg(long, requires = "replaces")]
        ruling: Option<String>,
        /// A chess match instead (then --length is not needed).
        #[command(flatten)]
        chess: ChessMatchArgs,
    },
    /// List matches.
    List {
        /// Only this tournament's.
        #[arg(long)]
        tournament: Option<String>,
        /// Only this round.
        #[arg(long)]
        round: Option<u32>,
        /// Only this table.
        #[arg(long)]
        table: Option<String>,
        /// Only in this phase.
        #[arg(long, value_enum)]
        phase: Option<PhaseArg>,
        /// Also the matches of archived tournaments (without --tournament).
        #[arg(long)]
        all: bool,
    },
    /// Show one match.
    Show {
        /// The match.
        match_id: String,
    },
    /// Correct a player's misspelled name. The correction is recorded in the match's
    /// log (with the name it replaces); the console, the phone page and exports show the
    /// new name at once. Any time, also after the match.
    Rename {
        /// The match.
        match_id: String,
        /// Whose name: A or B (in chess, A has White in game 1).
        side: SideArg,
        /// The name as it should be (1 to 64 characters; quote it if it has spaces).
        name: String,
    },
    /// Write a match that records moves as a file GNU Backgammon reads (to standard
    /// output): `.mat` or `.sgf`.
    Export {
        /// The match.
        match_id: String,
        /// mat (Jellyfish, gnubg's `import mat`) or sgf (gnubg's `load match`).
        #[arg(long, value_parser = ["mat", "sgf"], default_value = "mat")]
        format: String,
    },
}

/// `baffle device …`
#[derive(Debug, Subcommand)]
pub enum DeviceCommand {
    /// The devices bound to matches (of one tournament with --tournament), and whether
    /// each is connected now.
    List {
        /// Only this tournament's matches.
        #[arg(long)]
        tournament: Option<String>,
    },
    /// Register a device; prints its credential once.
    Register {
        /// The device's id.
        id: String,
    },
    /// Bind a device to a match.
    Bind {
        /// The device's id.
        id: String,
        /// The match it plays at.
        match_id: String,
    },
    /// Unbind a device.
    Unbind {
        /// The device's id.
        id: String,
    },
    /// Revoke a device's credential (a lost or stolen device).
    Revoke {
        /// The device's id.
        id: String,
    },
}

/// `baffle audit …`
#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// The dice commitment of a match.
    Commitment {
        /// The match id.
        match_id: String,
    },
    /// A player's seed in the clear, before the first roll (text, or --hex): only for a
    /// match of dice construction 1; every match opened now refuses it, since the second
    /// player to give one would know the first's. Use `commit` and `reveal-seed`.
    Seed {
        /// The match id.
        match_id: String,
        /// Whose seed: A or B.
        side: SideArg,
        /// The seed: text, or hex with --hex.
        seed: String,
        /// The seed is hex.
        #[arg(long)]
        hex: bool,
        /// The player's code (from `audit player-codes`).
        #[arg(long)]
        code: String,
    },
    /// The two players' codes for a match, for the director to hand out: each player's
    /// identity for his seed. Issuing them again replaces the earlier ones.
    #[command(after_help = "Example:\n  baffle audit player-codes r1-t7")]
    PlayerCodes {
        /// The match id.
        match_id: String,
    },
    /// Commit to your seed (as a player, with your code), before any seed is revealed.
    /// A random seed (32 bytes) and salt are made and printed with the command that
    /// reveals them: keep it.
    #[command(after_help = "Example:\n  baffle audit commit r1-t7 --code player.r1-t7.a.…")]
    Commit {
        /// The match id.
        match_id: String,
        /// Your player code.
        #[arg(long)]
        code: String,
        /// Your own seed instead of a random one: hex, 16 to 64 bytes (a typed word is
        /// refused: it is too easy to guess).
        #[arg(long)]
        seed: Option<String>,
    },
    /// Reveal your committed seed (as a player), once both players have committed.
    #[command(
        after_help = "Example:\n  baffle audit reveal-seed r1-t7 --code player.r1-t7.a.… --seed 5f0c… --salt 93ab…"
    )]
    RevealSeed {
        /// The match id.
        match_id: String,
        /// Your player code.
        #[arg(long)]
        code: String,
        /// The seed you committed to, hex.
        #[arg(long)]
        seed: String,
        /// The salt `baffle audit commit` printed with it, hex (left out only for a match
        /// of dice construction 1).
        #[arg(long)]
        salt: Option<String>,
    },
    /// Fetch a match's log from the server as JSON Lines (no token needed).
    Export {
        /// The match id.
        match_id: String,
        /// Write to this file instead of standard output (`-`: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Reveal the server seed after the match.
    Reveal {
        /// The match id.
        match_id: String,
    },
    /// Follow a match and keep every head the server signs in a file (JSON Lines, one
    /// signed head a line), each signature checked before it is kept, until the match
    /// ends or Ctrl-C. Give the file to `audit verify --witness`.
    Witness {
        /// The match id.
        match_id: String,
        /// The file the signed heads are appended to.
        #[arg(short, long)]
        out: PathBuf,
    },
    /// Check a proof that a server signed two histories of a match: two signed heads
    /// (JSON Lines, as `audit verify --witness` prints them) of one match, key and length
    /// with different heads. Needs no server. Exit status 0 when the proof holds, 1 when
    /// it does not.
    CheckProof {
        /// The proof (`-`: standard input).
        file: PathBuf,
        /// The server's public key (`Server.GetServerInfo`, or the log's `match.opened`
        /// signer): the proof must be signed by it. Without it, the proof holds for
        /// whatever key it names — compare that key yourself.
        #[arg(long, value_name = "HEX")]
        signer: Option<String>,
    },
    /// Verify an exported match log: chain, commitment and every server roll.
    /// Exit status 0 when it verifies, 1 when it does not.
    #[command(
        after_help = "Examples:\n  baffle audit verify r1-t7.jsonl\n  baffle audit verify r1-t7.jsonl --require-reveal --head 9c1f…\n  baffle audit verify r1-t7.jsonl --player-seed a=0badc0de\n  baffle audit verify r1-t7.jsonl --witness r1-t7.heads"
    )]
    Verify(VerifyArgs),
}

/// `baffle audit verify FILE …`: what the verifier asks of the log.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The JSON Lines export (`-`: standard input).
    pub file: PathBuf,
    /// A head hash a follower witnessed: the log must pass through it.
    #[arg(long)]
    pub head: Option<String>,
    /// The log must hold the reveal (without it the dice are not yet recomputed).
    #[arg(long)]
    pub require_reveal: bool,
    /// A player's own seed, SIDE=HEX: the log's seed for that side must be it.
    #[arg(long, value_name = "SIDE=HEX")]
    pub player_seed: Vec<String>,
    /// A player's own commitment, SIDE=HEX (as `baffle audit commit` printed it; with
    /// live dice, his chain's anchor): the log's commitment for that side must be it,
    /// so a twin log fails.
    #[arg(long, value_name = "SIDE=HEX")]
    pub player_commit: Vec<String>,
    /// Signed heads a witness kept (`audit witness`; repeatable): each must be signed
    /// by the key the log names, and the log must pass through it.
    #[arg(long, value_name = "FILE")]
    pub witness: Vec<PathBuf>,
}

/// `baffle dice …`
#[derive(Debug, Subcommand)]
pub enum DiceCommand {
    /// Print the dice key of a match from its revealed seed and the player seeds.
    Key {
        /// The match id.
        #[arg(long)]
        match_id: String,
        /// The revealed server seed, 64 hex digits.
        #[arg(long)]
        server_seed: String,
        /// Player A's seed, hex (empty if none).
        #[arg(long, default_value = "")]
        seed_a: String,
        /// Player B's seed, hex (empty if none).
        #[arg(long, default_value = "")]
        seed_b: String,
    },
    /// Write the stream of a dice key to standard output, for ent or dieharder.
    Stream {
        /// The dice key, 64 hex digits.
        #[arg(long)]
        key: String,
        /// How many dice (or raw words with --format raw).
        #[arg(long, default_value_t = 1_000_000)]
        count: u64,
        /// What to write.
        #[arg(long, value_enum, default_value_t = StreamFormat::Dice)]
        format: StreamFormat,
    },
}

#[cfg(test)]
mod tests;
