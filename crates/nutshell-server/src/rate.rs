//! A per-key rate limit: a token bucket for each member key, refilled at
//! `per_second` up to `burst`. A request over it gets 429 with `Retry-After`.
//!
//! ```
//! use nutshell_server::rate::RateLimit;
//! use std::time::{Duration, Instant};
//! let limit = RateLimit::new(1.0, 2);
//! let t = Instant::now();
//! assert!(limit.check_at("k", t).is_ok());
//! assert!(limit.check_at("k", t).is_ok());
//! assert_eq!(limit.check_at("k", t), Err(Duration::from_secs(1)));
//! assert!(limit.check_at("k", t + Duration::from_secs(1)).is_ok());
//! assert!(limit.check_at("other", t).is_ok());
//! ```

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Token buckets by key.
#[derive(Debug)]
pub struct RateLimit {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, (f64, Instant)>>,
}

/// Buckets not touched for this long are forgotten (they are full again).
const FORGET_AFTER: Duration = Duration::from_secs(600);

impl RateLimit {
    /// `per_second` requests a second on average, `burst` at once; a
    /// `per_second` of 0 turns the limit off.
    pub fn new(per_second: f64, burst: u32) -> RateLimit {
        RateLimit {
            per_second,
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `key` now, or says how long until one is there.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        self.check_at(key, Instant::now())
    }

    /// [`check`](Self::check) at a given instant (for tests).
    pub fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        if self.per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 100_000 {
            buckets.retain(|_, (_, at)| now.saturating_duration_since(*at) < FORGET_AFTER);
        }
        let (tokens, at) = buckets.entry(key.to_string()).or_insert((self.burst, now));
        let elapsed = now.saturating_duration_since(*at).as_secs_f64();
        *tokens = (*tokens + elapsed * self.per_second).min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - *tokens) / self.per_second;
            Err(Duration::from_secs_f64(wait.ceil().max(1.0)))
        }
    }
}
