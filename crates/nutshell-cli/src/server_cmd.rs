//! `nutshell serve` (start the shared table server) and `nutshell verify`
//! (check an exported room log offline). The server itself is the
//! `nutshell-server` crate; this only parses flags and prints.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use nutshell_dice::Limits;
use nutshell_server::ServerLimits;
use nutshell_server::rate::Rate;

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
    /// The database: a file for SQLite (`room.db` or `sqlite:room.db`) or
    /// `postgres://USER@HOST/DB` (default: an
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
    /// Open connections in all; more are answered 503 and closed
    #[arg(
        long,
        env = "NUTSHELL_MAX_CONNECTIONS",
        default_value_t = 4096,
        value_name = "N"
    )]
    pub max_connections: usize,
    /// Open connections from one client address (an IPv6 /64 counts as one)
    #[arg(
        long,
        env = "NUTSHELL_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 128,
        value_name = "N"
    )]
    pub max_connections_per_address: usize,
    /// Seconds a client may take to send a request's head (and an idle kept-alive
    /// connection stays open)
    #[arg(
        long,
        env = "NUTSHELL_HEADER_TIMEOUT",
        default_value_t = 10.0,
        value_name = "SECONDS"
    )]
    pub header_timeout: f64,
    /// Seconds from a request's head to its answer, body included (then 408)
    #[arg(
        long,
        env = "NUTSHELL_REQUEST_TIMEOUT",
        default_value_t = 30.0,
        value_name = "SECONDS"
    )]
    pub request_timeout: f64,
    /// Seconds a client may leave an answer or a stream unread before it is dropped
    #[arg(
        long,
        env = "NUTSHELL_WRITE_TIMEOUT",
        default_value_t = 30.0,
        value_name = "SECONDS"
    )]
    pub write_timeout: f64,
    /// Seconds a database operation may take; then the request gets 503 with Retry-After
    #[arg(
        long,
        env = "NUTSHELL_DATABASE_TIMEOUT",
        default_value_t = 5.0,
        value_name = "SECONDS"
    )]
    pub database_timeout: f64,
    /// Threads for long work (exact odds, simulations) at a lower priority; 0: half the cores
    #[arg(long, env = "NUTSHELL_WORKERS", default_value_t = 0, value_name = "N")]
    pub workers: usize,
    /// MiB of heap above which no new long work (odds, simulations, pages of exports and
    /// streams) is started: 503 with Retry-After until jobs end; 0: no limit
    #[arg(
        long,
        env = "NUTSHELL_MEMORY_LIMIT",
        default_value_t = 1024,
        value_name = "MIB"
    )]
    pub memory_limit: usize,
    /// Most events a room may hold
    #[arg(
        long,
        env = "NUTSHELL_MAX_ROOM_EVENTS",
        default_value_t = 100_000,
        value_name = "N"
    )]
    pub max_room_events: i64,
    /// Most bytes of events a room may hold
    #[arg(long, env = "NUTSHELL_MAX_ROOM_BYTES", default_value_t = 64 * 1024 * 1024, value_name = "BYTES")]
    pub max_room_bytes: u64,
    /// Most bytes one event (a roll, a fight step, a sheet) may take
    #[arg(long, env = "NUTSHELL_MAX_EVENT_BYTES", default_value_t = 256 * 1024, value_name = "BYTES")]
    pub max_event_bytes: usize,
    /// Most members of a room, the GM included
    #[arg(
        long,
        env = "NUTSHELL_MAX_MEMBERS",
        default_value_t = 64,
        value_name = "N"
    )]
    pub max_members: usize,
    /// Rooms created per hour per client address (0 turns this limit off)
    #[arg(
        long,
        env = "NUTSHELL_ROOMS_PER_HOUR",
        default_value_t = 30.0,
        value_name = "N"
    )]
    pub rooms_per_hour: f64,
    #[command(flatten)]
    pub exact: crate::limits_args::ExactLimitArgs,
    #[command(flatten)]
    pub discord: crate::discord_cmd::DiscordServeArgs,
}

/// `SECONDS` of a timeout flag, or why not.
fn seconds(flag: &str, value: f64) -> Result<std::time::Duration, Failure> {
    if value.is_finite() && value > 0.0 && value <= 86_400.0 {
        Ok(std::time::Duration::from_secs_f64(value))
    } else {
        Err(Failure::bad_input(format!(
            "error: --{flag} {value}: expected seconds above 0 and at most 86400"
        )))
    }
}

/// The server's limits from the flags and the engine limits given.
fn server_limits(args: &ServeArgs, limits: &Limits) -> Result<ServerLimits, Failure> {
    let mut server = ServerLimits {
        engine: nutshell_server::limits::engine_limits_from(&args.exact.apply(limits)),
        ..ServerLimits::default()
    };
    for (flag, value) in [
        ("max-connections", args.max_connections),
        (
            "max-connections-per-address",
            args.max_connections_per_address,
        ),
        ("max-event-bytes", args.max_event_bytes),
        ("max-members", args.max_members),
    ] {
        if value == 0 {
            return Err(Failure::bad_input(format!(
                "error: --{flag} 0: expected a number above 0"
            )));
        }
    }
    if args.max_room_events < 1 || args.max_room_bytes == 0 {
        return Err(Failure::bad_input(
            "error: --max-room-events and --max-room-bytes must be above 0".to_string(),
        ));
    }
    if !(args.rooms_per_hour.is_finite() && args.rooms_per_hour >= 0.0) {
        return Err(Failure::bad_input(format!(
            "error: --rooms-per-hour {}: expected a number, 0 or more",
            args.rooms_per_hour
        )));
    }
    server.connections.max_connections = args.max_connections;
    server.connections.max_per_address = args.max_connections_per_address;
    server.connections.header_timeout = seconds("header-timeout", args.header_timeout)?;
    server.connections.write_timeout = seconds("write-timeout", args.write_timeout)?;
    server.request_timeout = seconds("request-timeout", args.request_timeout)?;
    server.store.timeout = seconds("database-timeout", args.database_timeout)?;
    server.store.max_room_events = args.max_room_events;
    server.store.max_room_bytes = args.max_room_bytes;
    server.store.max_event_bytes = args.max_event_bytes;
    server.store.max_members = args.max_members;
    if args.workers > 0 {
        server.pool.workers = args.workers;
    }
    server.rates.per_key = Rate {
        per_second: args.rate_limit,
        burst: args.rate_burst,
    };
    server.rates.rooms_per_address = Rate {
        per_second: args.rooms_per_hour / 3600.0,
        burst: server.rates.rooms_per_address.burst,
    };
    Ok(server)
}

/// `nutshell verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// A room's log as exported by `GET /api/rooms/{room}/log` (JSON lines; `-` reads standard
    /// input), read a line at a time: any size, lines up to 64 MiB (an explicit --max-file-size
    /// bounds the file and each line instead)
    pub file: PathBuf,
    /// The room's latest event as you noted it from the page, `SEQ:HASH`: the log must end
    /// exactly there (a log whose last events were cut off is refused)
    #[arg(long, value_name = "SEQ:HASH")]
    pub head: Option<String>,
}

pub fn serve(args: &ServeArgs, limits: &Limits) -> Result<(), Failure> {
    nutshell_server::memory::set_ceiling(
        (args.memory_limit > 0).then(|| args.memory_limit.saturating_mul(1 << 20)),
    );
    if !(args.rate_limit.is_finite() && args.rate_limit >= 0.0) {
        return Err(Failure::bad_input(format!(
            "error: --rate-limit {}: expected a number of requests a second, 0 or more",
            args.rate_limit
        )));
    }
    let database = match &args.database {
        Some(url) => {
            if url.starts_with("sqlite:")
                || url.starts_with("postgres://")
                || url.starts_with("postgresql://")
            {
                url.clone()
            } else if url.trim().is_empty() || url.contains("://") {
                return Err(Failure::bad_input(format!(
                    "error: --database `{url}`: expected a file for SQLite (`room.db`, also written `sqlite:room.db`) or `postgres://USER@HOST/DB`"
                )));
            } else {
                // A plain path is an SQLite file, as `sqlite:PATH`.
                eprintln!("nutshell serve: data in {url} (SQLite)");
                format!("sqlite:{url}")
            }
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
        limits: server_limits(args, limits)?,
        discord: args.discord.config()?,
    };
    nutshell_server::run(config, |address| {
        eprintln!("nutshell serve: listening on http://{address}/ (API description: http://{address}/api/openapi.json; Ctrl-C stops)");
    })
    .map_err(|e| Failure::other(format!("error: {e}")))
}

/// `nutshell verify`'s exit status when every line checks but some rolls
/// were not recomputed: they wait for their epoch's seed, are hidden from
/// this export, or their seed's commitment is before it.
pub const VERIFY_INCOMPLETE: u8 = 3;

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
    // Exit 2: the file could not be read to its end (or is over a limit).
    let report = checked.map_err(|VerifyError::Read(message)| {
        Failure::bad_input(format!("error: cannot read {shown}: {message}"))
    })?;
    let mut problems: Vec<String> = report.failures.iter().map(ToString::to_string).collect();
    if report.failures_total > report.failures.len() {
        problems.push(format!(
            "and {} more lines that do not check",
            report.failures_total - report.failures.len()
        ));
    }
    if let Some(head) = &args.head
        && report.events > 0
        && let Err(message) = report.check_head(head)
    {
        problems.push(message);
    }
    let counts = format!(
        "room {}, {} events from #{} chained (the last: {}:{}); {} rolls recomputed from revealed seeds{}, {} epochs' seeds match their commitments",
        report.room,
        report.events,
        report.first_seq,
        report.last_seq,
        report.last_hash,
        report.rolls_verified,
        if report.rolls_legacy > 0 {
            format!(
                " ({} of them of an earlier server, keyed by their sequence number)",
                report.rolls_legacy
            )
        } else {
            String::new()
        },
        report.epochs_revealed
    );
    let mut waiting = Vec::new();
    if report.rolls_pending > 0 {
        waiting.push(format!(
            "{} rolls wait for their epoch's seed (checkable after the GM's next reveal)",
            report.rolls_pending
        ));
    }
    if report.rolls_hidden > 0 {
        waiting.push(format!(
            "{} secret events are hidden from this export: only their commitments are checked",
            report.rolls_hidden
        ));
    }
    if report.rolls_unanchored > 0 {
        waiting.push(format!(
            "{} rolls were recomputed from seeds whose commitment is before this export: export from the start to compare them",
            report.rolls_unanchored
        ));
    }
    // Words that differ from today's, what the dice decided being the same:
    // they do not fail a line, and each is shown.
    let mut notes = String::new();
    if report.notes_total > 0 {
        notes.push_str(&format!(
            "{} note(s): words that differ from today's, what the dice decided being the same:",
            report.notes_total
        ));
        for note in &report.notes {
            notes.push_str(&format!("\n  {note}"));
        }
        if report.notes_total > report.notes.len() {
            notes.push_str(&format!(
                "\n  and {} more words that differ",
                report.notes_total - report.notes.len()
            ));
        }
    }
    if !problems.is_empty() {
        // Exit 1: the log does not check; every line that does not is named,
        // and what the rest holds is said.
        let mut message = format!("error: {shown}: {} problem(s):", problems.len());
        for problem in &problems {
            message.push_str(&format!("\n  {problem}"));
        }
        message.push_str(&format!("\nthe rest: {counts}"));
        for line in &waiting {
            message.push_str(&format!("\n{line}"));
        }
        if !notes.is_empty() {
            message.push_str(&format!("\n{notes}"));
        }
        return Err(Failure::other(message));
    }
    let mut out = std::io::stdout().lock();
    if waiting.is_empty() {
        writeln!(out, "{shown}: OK: {counts}")?;
        if !notes.is_empty() {
            writeln!(out, "{notes}")?;
        }
        return Ok(());
    }
    writeln!(out, "{shown}: OK so far, not complete: {counts}")?;
    for line in &waiting {
        writeln!(out, "{line}")?;
    }
    if !notes.is_empty() {
        writeln!(out, "{notes}")?;
    }
    // Exit 3: everything present checks, but not every roll was recomputed.
    Err(Failure {
        message: format!(
            "{shown}: not every roll could be recomputed yet (exit status {VERIFY_INCOMPLETE})"
        ),
        code: VERIFY_INCOMPLETE,
    })
}
