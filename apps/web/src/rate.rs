//! Per-address limits: a bucket of requests for each client address, refilled at a steady
//! rate, so that one address cannot create games or act without end.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// The buckets one address may hold before the oldest idle ones are let go.
const MAX_ADDRESSES: usize = 100_000;

/// `count` requests each `per`, for each address; at most `count` at once.
#[derive(Debug)]
pub(crate) struct Limiter {
    count: u32,
    per: Duration,
    /// The limit in words, for the refusal.
    words: String,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl Limiter {
    pub(crate) fn new(count: u32, per: Duration, words: String) -> Limiter {
        Limiter { count: count.max(1), per, words, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one request from `address`'s bucket, or refuses it when the bucket is empty.
    pub(crate) fn take(&self, address: IpAddr) -> Result<(), ApiError> {
        let now = Instant::now();
        let full = f64::from(self.count);
        let rate = full / self.per.as_secs_f64().max(1e-9);
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= MAX_ADDRESSES && !buckets.contains_key(&address) {
            // A flood of addresses: the buckets that have refilled say nothing; let them go.
            buckets.retain(|_, (left, at)| {
                *left + now.duration_since(*at).as_secs_f64() * rate < full
            });
        }
        let (left, at) = buckets.entry(address).or_insert((full, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() * rate).min(full);
        *at = now;
        if *left >= 1.0 {
            *left -= 1.0;
            Ok(())
        } else {
            Err(ApiError::TooManyRequests { limit: self.words.clone() })
        }
    }

    /// Lets go of the buckets that have refilled.
    pub(crate) fn prune(&self) {
        let now = Instant::now();
        let full = f64::from(self.count);
        let rate = full / self.per.as_secs_f64().max(1e-9);
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        buckets.retain(|_, (left, at)| *left + now.duration_since(*at).as_secs_f64() * rate < full);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_burst_then_waits_while_another_goes_on() {
        let limiter = Limiter::new(3, Duration::from_secs(3600), "3 an hour".into());
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        for _ in 0..3 {
            limiter.take(a).unwrap();
        }
        let refused = limiter.take(a).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "too many requests from this address: at most 3 an hour; wait a moment"
        );
        limiter.take(b).unwrap();
        limiter.prune();
        assert!(limiter.take(a).is_err(), "pruning keeps a bucket that has not refilled");
    }
}
