//! # baffle-tests: end-to-end tests
//!
//! Helpers to run a real `baffled` in-process on a free loopback port; the tests
//! themselves are in `tests/tests/`.

use std::net::SocketAddr;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server running in this process. Dropping it does not stop it; call [`TestServer::stop`].
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: oneshot::Sender<()>,
    task: JoinHandle<Result<(), baffle_server::ServeError>>,
}

impl TestServer {
    /// Starts a server on a free port of 127.0.0.1.
    pub async fn start() -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind loopback");
        let addr = listener.local_addr().expect("local address");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(baffle_server::serve(listener, async {
            let _ = stopped.await;
        }));
        TestServer { addr, stop, task }
    }

    /// The server's URL, as `baffle --server` takes it.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops the server and waits until it has.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        self.task
            .await
            .expect("server task")
            .expect("server ran cleanly");
    }
}
