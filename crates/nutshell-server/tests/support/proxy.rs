//! A TCP proxy the tests can cut (every open connection closed, new ones
//! refused at once) and restore: a database or a server "going away"
//! without stopping it. It can also stall: connections stay open and new
//! ones are taken, but no byte passes either way until it is restored, as
//! in a network partition.

#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The proxy: connections to `address` are passed to the upstream.
pub struct CuttableProxy {
    pub address: std::net::SocketAddr,
    cut: Arc<AtomicBool>,
    stalled: Arc<AtomicBool>,
    connections: Arc<tokio::sync::Mutex<tokio::task::JoinSet<()>>>,
    _accept: tokio::task::JoinHandle<()>,
}

/// Copies one direction, holding bytes while the proxy is stalled.
async fn pass(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    stalled: Arc<AtomicBool>,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        while stalled.load(Ordering::SeqCst) {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let n = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        while stalled.load(Ordering::SeqCst) {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        if to.write_all(&buffer[..n]).await.is_err() {
            return;
        }
    }
}

impl CuttableProxy {
    pub async fn start(upstream: String) -> CuttableProxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let stalled = Arc::new(AtomicBool::new(false));
        let connections = Arc::new(tokio::sync::Mutex::new(tokio::task::JoinSet::new()));
        let accept = {
            let cut = cut.clone();
            let stalled = stalled.clone();
            let connections = connections.clone();
            tokio::spawn(async move {
                while let Ok((inbound, _)) = listener.accept().await {
                    if cut.load(Ordering::SeqCst) {
                        drop(inbound); // refused: closed at once
                        continue;
                    }
                    let upstream = upstream.clone();
                    let stalled = stalled.clone();
                    connections.lock().await.spawn(async move {
                        if let Ok(outbound) = tokio::net::TcpStream::connect(upstream).await {
                            let (in_read, in_write) = inbound.into_split();
                            let (out_read, out_write) = outbound.into_split();
                            tokio::join!(
                                pass(in_read, out_write, stalled.clone()),
                                pass(out_read, in_write, stalled),
                            );
                        }
                    });
                }
            })
        };
        CuttableProxy {
            address,
            cut,
            stalled,
            connections,
            _accept: accept,
        }
    }

    pub async fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        self.connections.lock().await.abort_all();
    }

    /// Stops every byte, keeping the connections open.
    pub fn stall(&self) {
        self.stalled.store(true, Ordering::SeqCst);
    }

    pub fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
        self.stalled.store(false, Ordering::SeqCst);
    }
}
