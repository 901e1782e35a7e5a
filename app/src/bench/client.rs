//! The benchmark's HTTP client: hyper-util's client, one per simulated browser, each with a
//! pool of its own so that a client used from one task keeps exactly one keep-alive
//! connection.

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::Client as Http;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

/// A signed-in session: the cookie and the CSRF token its writes send.
#[derive(Clone)]
pub struct Session {
    pub cookie: String,
    pub csrf: String,
}

/// One browser talking to the server under test over loopback.
pub struct Client {
    http: Http<HttpConnector, Full<Bytes>>,
    addr: SocketAddr,
    session: Session,
}

/// A whole answer.
pub struct Answer {
    pub status: StatusCode,
    pub body: Bytes,
}

impl Answer {
    /// The start of the body, for error messages.
    pub fn snippet(&self) -> String {
        String::from_utf8_lossy(&self.body[..self.body.len().min(300)]).into_owned()
    }
}

impl Client {
    /// A client with a connection of its own (opened on the first request).
    pub fn new(addr: SocketAddr, session: Session) -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let http = Http::builder(TokioExecutor::new()).pool_max_idle_per_host(1).build(connector);
        Self { http, addr, session }
    }

    /// Another browser of the same session, on a new connection.
    pub fn another(&self) -> Self {
        Self::new(self.addr, self.session.clone())
    }

    fn request(&self, method: Method, path: &str, body: Option<(&str, Bytes)>) -> anyhow::Result<Request<Full<Bytes>>> {
        let builder = Request::builder()
            .method(method)
            .uri(format!("http://{}{path}", self.addr))
            .header(header::COOKIE, HeaderValue::from_str(&self.session.cookie)?)
            .header(header::ACCEPT, "*/*");
        Ok(match body {
            Some((content_type, bytes)) => builder.header(header::CONTENT_TYPE, content_type).header("x-csrf-token", &self.session.csrf).body(Full::new(bytes))?,
            None => builder.body(Full::new(Bytes::new()))?,
        })
    }

    async fn send(&self, req: Request<Full<Bytes>>) -> anyhow::Result<Answer> {
        let res = self.http.request(req).await?;
        let status = res.status();
        let body = res.into_body().collect().await?.to_bytes();
        Ok(Answer { status, body })
    }

    /// `GET path`, the whole body read.
    pub async fn get(&self, path: &str) -> anyhow::Result<Answer> {
        self.send(self.request(Method::GET, path, None)?).await
    }

    /// `GET path` keeping only the body's length, so a large download does not count in the
    /// process's memory.
    pub async fn get_counting(&self, path: &str) -> anyhow::Result<(StatusCode, u64)> {
        let res = self.http.request(self.request(Method::GET, path, None)?).await?;
        let status = res.status();
        let mut body = res.into_body();
        let mut length = 0u64;
        while let Some(frame) = body.frame().await {
            if let Ok(data) = frame?.into_data() {
                length += data.len() as u64;
            }
        }
        Ok((status, length))
    }

    /// `POST path` with a JSON body.
    pub async fn post_json(&self, path: &str, json: &str) -> anyhow::Result<Answer> {
        self.post(path, "application/json", Bytes::copy_from_slice(json.as_bytes())).await
    }

    /// `POST path` with a body of the given type.
    pub async fn post(&self, path: &str, content_type: &str, body: Bytes) -> anyhow::Result<Answer> {
        self.send(self.request(Method::POST, path, Some((content_type, body)))?).await
    }
}
