//! Rate limits: token buckets (GCRA, from the `governor` crate) for each
//! member key, and for what needs no key or a key the server has not seen,
//! by the client's address: looking up unknown keys, creating rooms, joining;
//! and joins per room.
//!
//! A request over a limit gets 429 with `Retry-After`. Buckets live in
//! memory; one that has filled up again is the same as no bucket and is
//! forgotten (every [`HOUSEKEEPING_EVERY`] checks), so the limiter holds
//! only the keys and addresses seen within about the time a bucket takes to
//! refill. Unknown keys never get a bucket of their own (they are charged to
//! their address), so random keys cannot grow the table.
//!
//! ```
//! use nutshell_server::rate::RateLimit;
//! let limit = RateLimit::new(1.0, 2);
//! assert!(limit.key("k").is_ok());
//! assert!(limit.key("k").is_ok());
//! let wait = limit.key("k").unwrap_err();
//! assert!(wait.as_secs() >= 1);
//! assert!(limit.key("other").is_ok());
//! // 0 a second turns every limit off.
//! let off = RateLimit::new(0.0, 1);
//! assert!((0..1000).all(|_| off.key("k").is_ok()));
//! ```

use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

/// Checks of one bucket between two sweeps of its refilled entries.
pub const HOUSEKEEPING_EVERY: u64 = 1024;

/// A rate: `per_second` on average, `burst` at once. A `per_second` of 0
/// (or less) means no limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub per_second: f64,
    pub burst: u32,
}

impl Rate {
    /// `count` every `seconds`, and the whole `count` at once.
    pub const fn per(count: u32, seconds: u32) -> Rate {
        Rate {
            per_second: count as f64 / seconds as f64,
            burst: count,
        }
    }
}

/// Every rate the server enforces.
#[derive(Debug, Clone, PartialEq)]
pub struct RateConfig {
    /// Requests per member key.
    pub per_key: Rate,
    /// Requests whose key is not known to this process yet (a wrong key, or
    /// a member's first request since the server started), per client
    /// address: each costs a database look-up.
    pub lookups_per_address: Rate,
    /// Rooms created per client address.
    pub rooms_per_address: Rate,
    /// Joins per client address.
    pub joins_per_address: Rate,
    /// Joins per room.
    pub joins_per_room: Rate,
}

impl RateConfig {
    /// The defaults with `per_key` requests per member key.
    pub fn with_per_key(per_key: Rate) -> RateConfig {
        RateConfig {
            per_key,
            ..RateConfig::default()
        }
    }
}

impl Default for RateConfig {
    /// 20 requests a second per key (60 at once); 5 look-ups of unknown keys
    /// a second per address (30 at once); 30 rooms an hour per address (10
    /// at once); 30 joins a minute per address and per room (20 at once).
    fn default() -> RateConfig {
        RateConfig {
            per_key: Rate {
                per_second: 20.0,
                burst: 60,
            },
            lookups_per_address: Rate {
                per_second: 5.0,
                burst: 30,
            },
            rooms_per_address: Rate {
                per_second: 30.0 / 3600.0,
                burst: 10,
            },
            joins_per_address: Rate {
                per_second: 0.5,
                burst: 20,
            },
            joins_per_room: Rate {
                per_second: 0.5,
                burst: 20,
            },
        }
    }
}

/// One kind of bucket, by key.
struct Buckets<K: Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
    checks: AtomicU64,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    fn new(rate: Rate) -> Option<Buckets<K>> {
        if !(rate.per_second > 0.0 && rate.per_second.is_finite()) {
            return None;
        }
        let period = Duration::from_secs_f64(1.0 / rate.per_second).max(Duration::from_nanos(1));
        let quota = Quota::with_period(period)?
            .allow_burst(NonZeroU32::new(rate.burst.max(1)).expect("at least 1"));
        Some(Buckets {
            limiter: DefaultKeyedRateLimiter::dashmap(quota),
            checks: AtomicU64::new(0),
        })
    }

    /// Takes a token for `key`, or says how long until there is one (at
    /// least a second: `Retry-After` counts whole seconds).
    fn check(&self, key: &K) -> Result<(), Duration> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % HOUSEKEEPING_EVERY
            == HOUSEKEEPING_EVERY - 1
        {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.check_key(key).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            Duration::from_secs(wait.as_secs_f64().ceil().max(1.0) as u64)
        })
    }

    fn len(&self) -> usize {
        self.limiter.len()
    }
}

fn check<K: Hash + Eq + Clone>(buckets: &Option<Buckets<K>>, key: &K) -> Result<(), Duration> {
    buckets.as_ref().map_or(Ok(()), |b| b.check(key))
}

/// The server's rate limits.
pub struct RateLimit {
    keys: Option<Buckets<String>>,
    lookups: Option<Buckets<IpAddr>>,
    rooms: Option<Buckets<IpAddr>>,
    joins_by_address: Option<Buckets<IpAddr>>,
    joins_by_room: Option<Buckets<String>>,
}

impl std::fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit")
            .field("tracked", &self.tracked())
            .finish()
    }
}

impl RateLimit {
    /// `per_second` requests a second per member key on average, `burst` at
    /// once, and the other limits at their defaults; a `per_second` of 0
    /// turns every limit off.
    pub fn new(per_second: f64, burst: u32) -> RateLimit {
        if per_second <= 0.0 {
            return RateLimit::off();
        }
        RateLimit::with(&RateConfig::with_per_key(Rate { per_second, burst }))
    }

    /// No limit at all.
    pub fn off() -> RateLimit {
        RateLimit {
            keys: None,
            lookups: None,
            rooms: None,
            joins_by_address: None,
            joins_by_room: None,
        }
    }

    /// The limits of `config` (each rate of 0 is off).
    pub fn with(config: &RateConfig) -> RateLimit {
        RateLimit {
            keys: Buckets::new(config.per_key),
            lookups: Buckets::new(config.lookups_per_address),
            rooms: Buckets::new(config.rooms_per_address),
            joins_by_address: Buckets::new(config.joins_per_address),
            joins_by_room: Buckets::new(config.joins_per_room),
        }
    }

    /// A request with the member key whose hash is `key_hash`.
    pub fn key(&self, key_hash: &str) -> Result<(), Duration> {
        check(&self.keys, &key_hash.to_string())
    }

    /// A request from `address` with a key this process does not know.
    pub fn lookup(&self, address: IpAddr) -> Result<(), Duration> {
        check(&self.lookups, &bucket_address(address))
    }

    /// A room created from `address`.
    pub fn room(&self, address: IpAddr) -> Result<(), Duration> {
        check(&self.rooms, &bucket_address(address))
    }

    /// A join from `address` (the address's bucket; see [`join_room`](Self::join_room)).
    pub fn join(&self, address: IpAddr) -> Result<(), Duration> {
        check(&self.joins_by_address, &bucket_address(address))
    }

    /// A join of `room`.
    pub fn join_room(&self, room: &str) -> Result<(), Duration> {
        check(&self.joins_by_room, &room.to_string())
    }

    /// How many buckets are held now (keys and addresses together).
    pub fn tracked(&self) -> usize {
        self.keys.as_ref().map_or(0, Buckets::len)
            + self.lookups.as_ref().map_or(0, Buckets::len)
            + self.rooms.as_ref().map_or(0, Buckets::len)
            + self.joins_by_address.as_ref().map_or(0, Buckets::len)
            + self.joins_by_room.as_ref().map_or(0, Buckets::len)
    }
}

/// The address a bucket is kept for: an IPv4 address (an IPv4 address
/// mapped into IPv6 as itself), or an IPv6 address's /64 network (one
/// machine is usually given a whole /64).
pub fn bucket_address(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24: unknown keys are limited by address, and neither they nor
    /// many addresses grow the limiter without bound: 150,000 random keys
    /// from one address leave one bucket; 150,000 addresses whose buckets
    /// refill at once are swept away.
    #[test]
    fn random_keys_and_many_addresses_do_not_grow_the_limiter() {
        let limit = RateLimit::with(&RateConfig {
            lookups_per_address: Rate {
                per_second: 1e9,
                burst: 1,
            },
            ..RateConfig::default()
        });
        let attacker: IpAddr = "198.51.100.7".parse().unwrap();
        for _ in 0..150_000 {
            let _ = limit.lookup(attacker);
        }
        assert_eq!(limit.tracked(), 1);
        for i in 0..150_000u32 {
            let address = IpAddr::V4((0x0a00_0000 + i).into());
            limit.lookup(address).unwrap();
        }
        // Each bucket refills within a nanosecond: every sweep empties the
        // table, so at most one sweep's worth is held.
        assert!(
            limit.tracked() <= HOUSEKEEPING_EVERY as usize + 1,
            "{} buckets held",
            limit.tracked()
        );
    }

    /// The burst is allowed, the next request waits, and the wait is
    /// given in whole seconds.
    #[test]
    fn a_burst_then_a_wait() {
        let limit = RateLimit::with(&RateConfig {
            lookups_per_address: Rate {
                per_second: 0.5,
                burst: 3,
            },
            ..RateConfig::default()
        });
        let address: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            limit.lookup(address).unwrap();
        }
        let wait = limit.lookup(address).unwrap_err();
        assert!((1..=2).contains(&wait.as_secs()), "{wait:?}");
        // Another address has its own bucket.
        limit.lookup("192.0.2.2".parse().unwrap()).unwrap();
    }

    /// Joins are limited per room whatever the address.
    #[test]
    fn joins_are_limited_per_room_and_per_address() {
        let limit = RateLimit::with(&RateConfig::default());
        for i in 0..20u8 {
            limit.join_room("r1").unwrap();
            limit.join(IpAddr::V4([192, 0, 2, i].into())).unwrap();
        }
        assert!(limit.join_room("r1").is_err());
        assert!(limit.join_room("r2").is_ok());
        let one: IpAddr = "192.0.2.200".parse().unwrap();
        for _ in 0..20 {
            limit.join(one).unwrap();
        }
        assert!(limit.join(one).is_err());
    }

    /// An IPv6 client is one bucket per /64; a mapped IPv4 address is the
    /// IPv4 address.
    #[test]
    fn addresses_are_bucketed_by_network() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(bucket_address(a), bucket_address(b));
        assert_ne!(bucket_address(a), bucket_address(c));
        let mapped: IpAddr = "::ffff:192.0.2.9".parse().unwrap();
        assert_eq!(
            bucket_address(mapped),
            "192.0.2.9".parse::<IpAddr>().unwrap()
        );
    }
}
