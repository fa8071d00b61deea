//! `nutshell serve`: a shared table for a game master and players. Rooms,
//! keys stored only as hashes, rolls with verifiable commit-reveal dice, a
//! durable hash-chained log per room (SQLite or PostgreSQL), live events as
//! server-sent events, and [`verify`], the offline check of an exported log.
//!
//! The server holds no rules: it calls the engine (`nutshell-dice`) as the
//! CLI does. Modules: [`app`] (router, state, auth, errors), [`api`] (one
//! module per resource), [`store`] (the two databases, one code path),
//! [`events`] (broadcast and back-fill), [`fair`] (seeds, commitments, dice,
//! canonical JSON), [`action`] (what a member asks the dice for, typed),
//! [`replay`] (performing an action: the dispatch the routes and
//! [`verify`] share), [`verify`].

pub mod action;
pub mod api;
pub mod app;
pub mod decided;
pub mod discord;
pub mod error;
pub mod events;
pub mod extract;
pub mod fair;
pub mod fight;
pub mod group_commit;
pub mod limits;
pub mod memory;
pub mod names;
pub mod rate;
pub mod replay;
pub mod roll_error;
pub mod serve;
pub mod sheet;
pub mod state;
pub mod store;
pub mod verify;
pub mod web;
pub mod work;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use nutshell_dice::Limits;

pub use app::router;
pub use limits::ServerLimits;
pub use state::AppState;
pub use store::Store;

/// Where the server listens and keeps its data.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// `sqlite:PATH` or `postgres://...`.
    pub database: String,
    /// Every limit: the engine's, the answers', the rooms', the
    /// connections', the rates (a per-key rate of 0 turns every rate limit
    /// off).
    pub limits: ServerLimits,
    /// Answering Discord's slash commands (`--discord-public-key`), or not.
    pub discord: Option<discord::DiscordConfig>,
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {address}: {error}")]
    Listen {
        address: SocketAddr,
        error: std::io::Error,
    },
    #[error("cannot create the data directory {path}: {error}")]
    DataDir {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Discord(String),
}

/// The default database: `nutshell.db` in the data directory (created if
/// missing): `$NUTSHELL_DATA`, else `$XDG_DATA_HOME/nutshell`, else
/// `~/.local/share/nutshell`, else `./nutshell-data`.
pub fn default_database() -> Result<(String, PathBuf), ServeError> {
    let dir = std::env::var_os("NUTSHELL_DATA")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_DATA_HOME").map(|d| PathBuf::from(d).join("nutshell")))
        .or_else(|| {
            std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/nutshell"))
        })
        .unwrap_or_else(|| PathBuf::from("nutshell-data"));
    std::fs::create_dir_all(&dir).map_err(|error| ServeError::DataDir {
        path: dir.clone(),
        error,
    })?;
    let file = dir.join("nutshell.db");
    Ok((format!("sqlite:{}", file.display()), file))
}

/// The shared state for a store: a hub (with its PostgreSQL listener when
/// the store is PostgreSQL), the engine's `limits`, the rate limits, and
/// the server's defaults for everything else ([`ServerLimits`]).
pub fn state(store: Store, limits: Limits, rate: rate::RateLimit) -> AppState {
    let server = ServerLimits {
        engine: limits,
        ..ServerLimits::default()
    };
    state_with(store, &server, rate)
}

/// The shared state with every limit of `limits` (its rates are given as
/// `rate`, which tests may build otherwise).
pub fn state_with(store: Store, limits: &ServerLimits, rate: rate::RateLimit) -> AppState {
    let hub = Arc::new(events::Hub::default());
    store.pass_to(hub.clone());
    if store.backend() == store::Backend::Postgres {
        hub.listen_postgres(store.clone());
    }
    let state = AppState {
        store,
        hub,
        limits: limits.engine.clone(),
        rate: Arc::new(rate),
        fights: Arc::default(),
        answer: limits.answer.clone(),
        pool: Arc::new(work::WorkPool::new(limits.pool.clone())),
        render: Arc::new(work::WorkPool::new(limits.render.clone())),
        request_timeout: limits.request_timeout,
        discord: None,
    };
    // The decisions of played fights in progress whose time runs out are
    // taken by the engine even if nobody reads the fight after a restart.
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(api::played::arm_all(state.clone()));
    }
    state
}

/// Connects to the database, binds the address and serves until Ctrl-C or
/// SIGTERM: the listener stops taking connections, requests in flight finish
/// (an acknowledged event is committed before its answer is sent), then the
/// process exits. `ready` is called with the bound address (the port may have
/// been 0). Logs go to stderr, one line per request (`RUST_LOG` filters
/// them; default `info`), coloured only when stderr is a terminal.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Colours only on a terminal (and never with NO_COLOR set): a log file
    // gets plain text.
    let colour = std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colour)
        // A standard error that is gone (a closed pipe) loses the log lines;
        // reporting that would `eprintln!`, which panics the request's task.
        .log_internal_errors(false)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let discord = match &config.discord {
        Some(discord) => Some(Arc::new(
            discord::Discord::new(discord).map_err(ServeError::Discord)?,
        )),
        None => None,
    };
    runtime.block_on(async move {
        let store = Store::connect_with(&config.database, config.limits.store.clone()).await?;
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|error| ServeError::Listen {
                address: config.listen,
                error,
            })?;
        let address = listener.local_addr()?;
        tracing::info!(%address, backend = ?store.backend(), "listening");
        ready(address);
        let rate = if config.limits.rates.per_key.per_second > 0.0 {
            rate::RateLimit::with(&config.limits.rates)
        } else {
            rate::RateLimit::off()
        };
        let mut state = state_with(store, &config.limits, rate);
        state.discord = discord;
        let app = router(state);
        serve::serve(
            listener,
            app,
            config.limits.connections.clone(),
            shutdown_signal(),
        )
        .await?;
        tracing::info!("stopped");
        Ok(())
    })
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    tracing::info!("shutting down: finishing requests in flight");
}
