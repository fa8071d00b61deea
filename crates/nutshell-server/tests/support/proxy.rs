//! A TCP proxy the tests can cut (every open connection closed, new ones
//! refused at once) and restore: a database or a server "going away"
//! without stopping it.

use std::sync::Arc;

/// The proxy: connections to `address` are passed to the upstream.
pub struct CuttableProxy {
    pub address: std::net::SocketAddr,
    cut: Arc<std::sync::atomic::AtomicBool>,
    connections: Arc<tokio::sync::Mutex<tokio::task::JoinSet<()>>>,
    _accept: tokio::task::JoinHandle<()>,
}

impl CuttableProxy {
    pub async fn start(upstream: String) -> CuttableProxy {
        use std::sync::atomic::Ordering;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let cut = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let connections = Arc::new(tokio::sync::Mutex::new(tokio::task::JoinSet::new()));
        let accept = {
            let cut = cut.clone();
            let connections = connections.clone();
            tokio::spawn(async move {
                while let Ok((mut inbound, _)) = listener.accept().await {
                    if cut.load(Ordering::SeqCst) {
                        drop(inbound); // refused: closed at once
                        continue;
                    }
                    let upstream = upstream.clone();
                    connections.lock().await.spawn(async move {
                        if let Ok(mut outbound) = tokio::net::TcpStream::connect(upstream).await {
                            let _ =
                                tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                        }
                    });
                }
            })
        };
        CuttableProxy {
            address,
            cut,
            connections,
            _accept: accept,
        }
    }

    pub async fn cut(&self) {
        self.cut.store(true, std::sync::atomic::Ordering::SeqCst);
        self.connections.lock().await.abort_all();
    }

    pub fn restore(&self) {
        self.cut.store(false, std::sync::atomic::Ordering::SeqCst);
    }
}
