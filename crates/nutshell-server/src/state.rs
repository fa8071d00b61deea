//! [`AppState`]: what every handler shares (the store, the live event hub,
//! the limits, the pools, the fights kept between steps, Discord's part).
//! Built once by the server's start; cloning it is cheap (every part is
//! shared).

use std::sync::Arc;

use nutshell_dice::Limits;

use crate::api::cache::Cache;
use crate::events::Hub;
use crate::limits::AnswerLimits;
use crate::store::Store;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub hub: Arc<Hub>,
    /// The engine's limits for rolls and exact odds: no request can tie the
    /// server up for longer than `max_work` allows.
    pub limits: Limits,
    /// Requests per member key, and per address for what needs no key.
    pub rate: Arc<crate::rate::RateLimit>,
    /// Fights between steps.
    pub fights: Arc<Cache>,
    /// How large an odds answer may be.
    pub answer: AnswerLimits,
    /// Long work (odds, simulations), fair between rooms.
    pub pool: Arc<crate::work::WorkPool>,
    /// Rendering pages of the log for exports and event streams, off the
    /// threads that answer requests.
    pub render: Arc<crate::work::WorkPool>,
    /// How long a request may take from its head to its answer's head
    /// (reading its body included).
    pub request_timeout: std::time::Duration,
    /// Discord's interactions endpoint, when the server answers Discord
    /// (`--discord-public-key`).
    pub discord: Option<Arc<crate::discord::Discord>>,
}
