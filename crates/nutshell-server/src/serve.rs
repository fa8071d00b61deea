//! Accepting connections under limits: how many are open in all and from
//! one address, how long a client may take to send a request's head (and,
//! on a kept-alive connection, the next one), and how long it may leave an
//! answer unread. The requests themselves are then the router's.
//!
//! A connection over a limit is answered `503` at once (`Retry-After: 1`,
//! without reading its request) and closed, so the listener's queue never
//! fills with connections nobody serves. A connection that sends no complete
//! request head within [`ConnectionLimits::header_timeout`] of opening, or
//! of its previous answer, is closed: silent and slow-header connections
//! cost a file descriptor for that long only. A reader that takes none of
//! an answer (an export, an event stream) for
//! [`ConnectionLimits::write_timeout`] is dropped rather than buffered for.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::rate::bucket_address;

/// Limits on connections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Open connections in all.
    pub max_connections: usize,
    /// Open connections from one address (an IPv6 /64 counts as one).
    pub max_per_address: usize,
    /// The longest a connection may take to send a request's head, from
    /// its opening or from its previous answer (so also how long an idle
    /// kept-alive connection stays).
    pub header_timeout: Duration,
    /// The longest a connection may leave an answer's bytes unread.
    pub write_timeout: Duration,
    /// How long a stopping server waits for requests in flight.
    pub shutdown_grace: Duration,
}

impl Default for ConnectionLimits {
    /// 4,096 connections, 128 per address, 10 s for a request's head, 30 s
    /// for an unread answer, 10 s to finish at shutdown.
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            max_connections: 4096,
            max_per_address: 128,
            header_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Open connections by address.
#[derive(Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place, given back when it closes.
struct Admitted {
    open: Arc<Mutex<Open>>,
    address: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(count) = open.by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

fn admit(open: &Arc<Mutex<Open>>, limits: &ConnectionLimits, peer: IpAddr) -> Option<Admitted> {
    let address = bucket_address(peer);
    let mut state = open.lock().unwrap_or_else(|e| e.into_inner());
    if state.total >= limits.max_connections {
        return None;
    }
    let count = state.by_address.entry(address).or_insert(0);
    if *count >= limits.max_per_address {
        return None;
    }
    *count += 1;
    state.total += 1;
    Some(Admitted {
        open: open.clone(),
        address,
    })
}

/// What a refused connection is sent before it is closed.
const REFUSED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 95\r\n\r\n{\"error\":{\"code\":\"too_many_connections\",\"message\":\"too many open connections: try again soon\"}}";

/// Serves `app` on `listener` under `limits` until `shutdown` completes;
/// then stops accepting and gives the requests in flight
/// [`ConnectionLimits::shutdown_grace`] to finish. Each request carries
/// [`ConnectInfo`] with the client's address.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let open = Arc::new(Mutex::new(Open::default()));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before
                    // it was taken: wait a little rather than spin.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(admitted) = admit(&open, &limits, peer.ip()) else {
            let _ = stream.try_write(REFUSED);
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(WriteTimeout::new(stream, limits.write_timeout));
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(request.map(axum::body::Body::new))
        });
        let connection = graceful.watch(builder.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(admitted);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!("connections still open at the end of the grace period were closed");
    }
    Ok(())
}

/// A stream whose writes fail (and so whose connection closes) once one has
/// waited for the reader longer than the timeout.
pub struct WriteTimeout<S> {
    inner: S,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<S> WriteTimeout<S> {
    pub fn new(inner: S, timeout: Duration) -> WriteTimeout<S> {
        WriteTimeout {
            inner,
            timeout,
            stalled: None,
        }
    }

    /// Clears the clock when a write got through; starts it (and checks
    /// it) while writes wait.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
            Poll::Pending => {
                let timeout = self.timeout;
                let stalled = self
                    .stalled
                    .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
                match stalled.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the client read nothing of the answer in time",
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteTimeout<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteTimeout<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_admitted_per_address_and_in_all() {
        let open = Arc::new(Mutex::new(Open::default()));
        let limits = ConnectionLimits {
            max_connections: 3,
            max_per_address: 2,
            ..ConnectionLimits::default()
        };
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = admit(&open, &limits, a).unwrap();
        let _second = admit(&open, &limits, a).unwrap();
        assert!(
            admit(&open, &limits, a).is_none(),
            "a third from one address"
        );
        let _third = admit(&open, &limits, b).unwrap();
        assert!(admit(&open, &limits, b).is_none(), "a fourth in all");
        drop(first);
        assert!(admit(&open, &limits, a).is_some(), "a place came back");
    }

    #[test]
    fn the_refusal_is_a_complete_answer() {
        let text = std::str::from_utf8(REFUSED).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        serde_json::from_str::<serde_json::Value>(body).unwrap();
    }
}
