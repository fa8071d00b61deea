//! `nutshell serve`: a shared table for a game master and players. Rooms,
//! keys stored only as hashes, rolls with verifiable commit-reveal dice, a
//! durable hash-chained log per room (SQLite or PostgreSQL), live events as
//! server-sent events, and [`verify`], the offline check of an exported log.
//!
//! The server holds no rules: it calls the engine (`nutshell-dice`) as the
//! CLI does. Modules: [`app`] (router, state, auth, errors), [`api`] (one
//! module per resource), [`store`] (the two databases, one code path),
//! [`events`] (broadcast and back-fill), [`fair`] (seeds, commitments, dice,
//! canonical JSON), [`verify`].

pub mod api;
pub mod app;
pub mod events;
pub mod fair;
pub mod store;
pub mod verify;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use nutshell_dice::Limits;

pub use app::{AppState, router};
pub use store::Store;

/// Where the server listens and keeps its data.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on.
    pub listen: SocketAddr,
    /// `sqlite:PATH` or `postgres://...`.
    pub database: String,
    /// The engine's limits for every roll and exact computation.
    pub limits: Limits,
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

/// Connects to the database, binds the address and serves until Ctrl-C.
/// `ready` is called with the bound address (the port may have been 0).
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let store = Store::connect(&config.database).await?;
        let listener = tokio::net::TcpListener::bind(config.listen)
            .await
            .map_err(|error| ServeError::Listen {
                address: config.listen,
                error,
            })?;
        ready(listener.local_addr()?);
        let state = AppState {
            store,
            hub: Arc::new(events::Hub::default()),
            limits: config.limits,
        };
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
