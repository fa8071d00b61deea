//! `nutshell serve` (start the shared table server) and `nutshell verify`
//! (check an exported room log offline). The server itself is the
//! `nutshell-server` crate; this only parses flags and prints.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use nutshell_dice::Limits;

use crate::exit::Failure;

/// `nutshell serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The address and port to listen on (port 0 picks a free one)
    #[arg(
        long,
        env = "NUTSHELL_LISTEN",
        default_value = "127.0.0.1:8080",
        value_name = "ADDRESS:PORT"
    )]
    pub listen: SocketAddr,
    /// The database: `sqlite:PATH` or `postgres://USER@HOST/DB` (default: an
    /// SQLite file `nutshell.db` in the data directory, `NUTSHELL_DATA` or
    /// `~/.local/share/nutshell`, created on first start)
    #[arg(long, env = "NUTSHELL_DATABASE_URL", value_name = "URL")]
    pub database: Option<String>,
    /// Requests a second per member key, on average (0 turns the limit off)
    #[arg(
        long,
        env = "NUTSHELL_RATE_LIMIT",
        default_value_t = 20.0,
        value_name = "N"
    )]
    pub rate_limit: f64,
    /// Requests per member key at once, before the rate limit applies
    #[arg(
        long,
        env = "NUTSHELL_RATE_BURST",
        default_value_t = 60,
        value_name = "N"
    )]
    pub rate_burst: u32,
}

/// `nutshell verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A room's log as exported by `GET /api/rooms/{room}/log` (JSON lines; `-` reads standard
    /// input), read a line at a time: any size, lines up to 64 MiB (an explicit --max-file-size
    /// bounds the file and each line instead)
    pub file: PathBuf,
}

pub fn serve(args: &ServeArgs, limits: &Limits) -> Result<(), Failure> {
    if !(args.rate_limit.is_finite() && args.rate_limit >= 0.0) {
        return Err(Failure::bad_input(format!(
            "error: --rate-limit {}: expected a number of requests a second, 0 or more",
            args.rate_limit
        )));
    }
    let database = match &args.database {
        Some(url) => {
            if !(url.starts_with("sqlite:")
                || url.starts_with("postgres://")
                || url.starts_with("postgresql://"))
            {
                return Err(Failure::bad_input(format!(
                    "error: --database `{url}`: expected `sqlite:PATH` or `postgres://...`"
                )));
            }
            url.clone()
        }
        None => {
            let (url, file) = nutshell_server::default_database()
                .map_err(|e| Failure::other(format!("error: {e}")))?;
            eprintln!("nutshell serve: data in {}", file.display());
            url
        }
    };
    let config = nutshell_server::Config {
        listen: args.listen,
        database,
        limits: limits.clone(),
        rate_per_second: args.rate_limit,
        rate_burst: args.rate_burst,
    };
    nutshell_server::run(config, |address| {
        eprintln!("nutshell serve: listening on http://{address}/ (API description: http://{address}/api/openapi.json; Ctrl-C stops)");
    })
    .map_err(|e| Failure::other(format!("error: {e}")))
}

pub fn verify(args: &VerifyArgs, limits: &Limits) -> Result<(), Failure> {
    use nutshell_server::verify::{ReadLimits, VerifyError, verify_reader};
    let shown = args.file.display();
    // A room log is the user's own data, read a line at a time: no cap on the
    // whole file unless `--max-file-size` is given (a value other than its
    // default), which then bounds the file and each line; otherwise one line
    // may have at most 64 MiB.
    let read = match crate::files::max_bytes() {
        crate::files::DEFAULT_MAX_FILE_BYTES => ReadLimits::default(),
        given => ReadLimits {
            max_line_bytes: given,
            max_total_bytes: Some(given),
        },
    };
    let checked = if args.file.as_os_str() == "-" {
        verify_reader(std::io::stdin().lock(), limits, read)
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| Failure::bad_input(format!("error: cannot read {shown}: {e}")))?;
        verify_reader(std::io::BufReader::new(file), limits, read)
    };
    match checked {
        // Exit 2: the file could not be read to its end (or is over a limit).
        Err(VerifyError::Read(message)) => Err(Failure::bad_input(format!(
            "error: cannot read {shown}: {message}"
        ))),
        // Exit 1: the log does not check.
        Err(VerifyError::Log(failure)) => Err(Failure::other(format!("error: {shown}: {failure}"))),
        Ok(report) => {
            let mut out = std::io::stdout().lock();
            writeln!(
                out,
                "{shown}: OK: room {}, {} events from #{} chained; {} rolls recomputed from revealed seeds, {} epochs' seeds match their commitments",
                report.room,
                report.events,
                report.first_seq,
                report.rolls_verified,
                report.epochs_revealed
            )?;
            if report.rolls_pending > 0 {
                writeln!(
                    out,
                    "{} rolls wait for their epoch's seed (checkable after the GM's next reveal)",
                    report.rolls_pending
                )?;
            }
            if report.rolls_hidden > 0 {
                writeln!(
                    out,
                    "{} secret rolls are hidden from this export: only their commitments are checked",
                    report.rolls_hidden
                )?;
            }
            Ok(())
        }
    }
}
