//! The command line's grammar, for clap: `Cli` (the global flags and a
//! subcommand), `Command` (every subcommand and its flags) and the examples
//! each one's help shows. Below both readers of it, the full parser
//! (`cli::parse`) and the small one of `odds` lines (`odds_line`).

use crate::limits_args::LimitArgs;
use clap::{Parser, Subcommand};

const SERVE_EXAMPLES: &str = "\
Examples:
  nutshell serve                                   SQLite in the data directory, port 8080
  nutshell serve --listen 0.0.0.0:9000 --database sqlite:table.db
  nutshell serve --database postgres://nutshell@localhost/nutshell
  curl -X POST localhost:8080/api/rooms            create a room: the GM key, the invite
  nutshell verify room.jsonl                       check an exported log offline";

const ROLL_EXAMPLES: &str = "\
Examples:
  nutshell roll 4d6kh3                  roll four d6, keep the highest three
  nutshell roll '2d20kh1 + 5' --seed 7  reproducible: the same seed, the same faces
  nutshell roll 4d6kh3 --faces 6,5,3,1  physical dice typed in: 4d6kh3 = [6, 5, 3, (1)] = 14
  nutshell roll '8d10>=7' '3d6! >= 20'  count successes; compare a total (1 or 0)
  nutshell roll 4d6kh3 --repeat 6 -q    six totals, one per line
  nutshell roll '2d6[fire] + 1d4[cold]' --json
  nutshell 1d20+5 to hit                an expression first rolls it; words after it label it

Notation (the whole of it: docs/notation.md):
  4d6 d20 d% d66 dF d{0,10,20}   dice: count, d, sides; d% is 1..100, d66 two digits
  kh3 kl1 dh1 dl1                keep or drop the highest/lowest (4d6kh3: best three)
  2d20kh1  2d20kl1               advantage, disadvantage
  !  !>=5  !!  !p  !o            explode on the highest face, on 5+; compound; penetrate; once
  r1  r<=2  ro1                  reroll 1s (until they stand), 2 or less, once
  min3 max4                      a face below 3 counts 3; above 4 counts 4
  8d10>=7  cs>=7  f1             count successes (the total is how many), failures
  {3d6, 2d8+1}kh1                groups: keep the best total
  3d6 >= 15                      after a space, a comparison of totals: 1 or 0
  + - * /  floor() ceil() round() min() max() abs()   whole numbers; / rounds down
  2d6[fire]                      a label";

const ODDS_EXAMPLES: &str = "\
Examples:
  nutshell odds 3d6                     the bell curve, as exact fractions
  nutshell odds 4d6kh3 --json           every outcome as {\"value\", \"probability\": \"p/q\"}
  nutshell odds '3d6! >= 20'            1 or 0: the chance of 20 or more, exact despite explosions
  nutshell odds 2d10! --at-least 15     the table, plus P(total >= 15) exactly
  nutshell odds '100d6!' --simulate 1000000   estimate instead (every core, 95% intervals)

How to read the output: docs/odds.md.";

const CHECK_EXAMPLES: &str = "\
Examples:
  nutshell check fantasy --mod 5 --dc hard --crit-success --faces 20,12
  nutshell check fantasy --mod 3 --dc 15 --effect 1d8+3 --odds
  nutshell check mls --skill 12 --mod=-2 --seed 7
  nutshell check exploding-d6 --score 3 --dc 6 --helper 2 --odds
  nutshell check tiered-d20 --skill 4 --dc 14 --edge 3 --advantage --json
  nutshell check tiered-d20 --skill 5 --dc 10 --then 3:12 --then 2:8
  nutshell check favor-3d6 --mod 2 --dc 12 --favor 1 --odds

The rules of each game, as implemented: docs/rulesets/<ruleset>.md.";

const CONTEST_EXAMPLES: &str = "\
Examples:
  nutshell contest mls --skill 12 --vs-skill 10
  nutshell contest exploding-d6 --score 3 --vs-score 2 --odds
  nutshell contest favor-3d6 --mod 2 --pc --vs-mod 2 --vs-defender --json";

const MLS_EXAMPLES: &str = "\
Examples:
  nutshell mls fight examples/mls/duel/knight.toml examples/mls/duel/brigand.toml --seed 7
  nutshell mls simulate examples/mls/skirmish/party.toml examples/mls/skirmish/goblins.toml --trials 100000
  nutshell mls fight examples/mls/archers/left.toml examples/mls/archers/right.toml --distance 30
  nutshell mls attacks --skill 7 --json
  nutshell mls damage --dam 10 --critical --armor 4 --coverage partial --odds
  nutshell mls character new                 questions step by step (answers from stdin)
  nutshell mls character check examples/mls/characters/hugo.toml
  nutshell mls advance hero.toml --adventure average --role major --years 1 --spend secondary:sword --write
  nutshell mls behave --trait 17 --seed 3

Referee's guide: docs/mls/combat.md. Players' guide to characters: docs/mls/characters.md.";

/// Dice for tabletop role-playing games: notation, rolls with full transcripts,
/// and the rules that read them.
#[derive(Debug, Parser)]
#[command(
    name = "nutshell",
    version,
    about,
    propagate_version = true,
    after_help = "An expression as the first argument rolls it: `nutshell 1d20+5` is `nutshell roll 1d20+5`."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub limits: LimitArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Roll dice expressions and show what happened to every die
    #[command(after_help = ROLL_EXAMPLES)]
    Roll(crate::roll_cmd::RollArgs),
    /// The exact odds of every outcome of an expression
    #[command(after_help = ODDS_EXAMPLES)]
    Odds(crate::odds_cmd::OddsArgs),
    /// Resolve a check of one of the five rulesets (or its exact odds with --odds)
    #[command(after_help = CHECK_EXAMPLES)]
    Check(Box<crate::rules_cmd::CheckArgs>),
    /// Resolve a contest between two sides (mls, exploding-d6, favor-3d6)
    #[command(after_help = CONTEST_EXAMPLES)]
    Contest(Box<crate::rules_cmd::ContestArgs>),
    /// Roll on a d6, d66 or d666 table from a TOML file
    Table(crate::rules_cmd::TableArgs),
    /// The MLS tactical layer: fights, fight simulations, attack rounds, damage; characters
    #[command(subcommand, after_help = MLS_EXAMPLES)]
    Mls(crate::mls_cmd::MlsCommand),
    /// Start the shared table server: rooms, verifiable rolls, a durable log
    #[command(after_help = SERVE_EXAMPLES)]
    Serve(crate::server_cmd::ServeArgs),
    /// Check an exported room log offline: hash chain, commitments, every revealed roll
    Verify(crate::server_cmd::VerifyArgs),
    /// Slash commands in Discord: print them as Discord's JSON, or register them
    #[command(subcommand)]
    Discord(crate::discord_cmd::DiscordCommand),
    /// Print a shell completion script
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}
