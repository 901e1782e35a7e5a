//! Timing a read scenario: one client alternating the HTTP request with the raw database call
//! the handler makes, or many clients on their own connections for a fixed time.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::client::Client;
use super::report::Timings;
use db::{Db, DbConn};
use db::error::AppResult;

/// The database call behind the `i`-th request, timed beside it.
pub type SqlFn = Arc<dyn Fn(&mut DbConn, usize) -> AppResult<()> + Send + Sync>;
/// The path of the `i`-th request.
pub type PathFn = Arc<dyn Fn(usize) -> String + Send + Sync>;

/// How long a scenario may run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Timed requests at one client.
    pub requests: usize,
    /// A one-client scenario stops early after this long, so a slow query cannot hold the
    /// whole run; the row shows how many requests were timed.
    pub max_single: Duration,
    /// How long the concurrent clients send requests.
    pub concurrent: Duration,
}

/// Untimed requests first, so caches and connections are warm.
const WARMUP: usize = 3;

/// A request counts when it answers 200; the first failure is printed once per scenario.
fn record(name: &str, t: &mut Timings, status: anyhow::Result<(u16, String)>, took: Duration) {
    match status {
        Ok((200, _)) => t.http.push(took),
        Ok((status, body)) => {
            if t.errors == 0 {
                eprintln!("{name}: answered {status}: {body}");
            }
            t.errors += 1;
        }
        Err(e) => {
            if t.errors == 0 {
                eprintln!("{name}: request failed: {e}");
            }
            t.errors += 1;
        }
    }
}

async fn fetch(client: &Client, path: &str) -> anyhow::Result<(u16, String)> {
    let a = client.get(path).await?;
    let snippet = if a.status.is_success() { String::new() } else { a.snippet() };
    Ok((a.status.as_u16(), snippet))
}

/// One client: each request followed by the same query straight on the database.
pub async fn single(name: &str, client: &Client, db: &Db, path: &PathFn, sql: Option<&SqlFn>, limits: Limits) -> AppResult<Timings> {
    for i in 0..WARMUP {
        let _ = client.get(&path(i)).await;
    }
    let mut t = Timings::default();
    let started = Instant::now();
    // The rate of one client is that of its requests alone, not of the database calls between.
    let mut requesting = Duration::ZERO;
    for i in 0..limits.requests {
        if started.elapsed() > limits.max_single {
            break;
        }
        let k = WARMUP + i;
        let p = path(k);
        let s = Instant::now();
        let status = fetch(client, &p).await;
        let took = s.elapsed();
        requesting += took;
        record(name, &mut t, status, took);
        if let Some(sql) = sql {
            let sql = Arc::clone(sql);
            let s = Instant::now();
            db.run(move |c| sql(c, k)).await?;
            t.sql.push(s.elapsed());
        }
    }
    t.wall = requesting;
    Ok(t)
}

/// Every client on its own connection, each sending its next request as soon as the last
/// one answered, until `limits.concurrent` has passed.
pub async fn concurrent(name: &str, clients: &[Arc<Client>], path: &PathFn, limits: Limits) -> Timings {
    // One untimed request per client opens its connection.
    let warm: Vec<_> = clients
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (c, p) = (Arc::clone(c), path(i));
            tokio::spawn(async move { c.get(&p).await.map(|_| ()) })
        })
        .collect();
    for w in warm {
        let _ = w.await;
    }
    let started = Instant::now();
    let deadline = started + limits.concurrent;
    let tasks: Vec<_> = clients
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let (c, path, name) = (Arc::clone(c), Arc::clone(path), name.to_string());
            tokio::spawn(async move {
                let mut t = Timings::default();
                let mut i = k;
                while Instant::now() < deadline {
                    let p = path(i);
                    i += 1;
                    let s = Instant::now();
                    let status = fetch(&c, &p).await;
                    record(&name, &mut t, status, s.elapsed());
                }
                t
            })
        })
        .collect();
    let mut all = Timings::default();
    for task in tasks {
        match task.await {
            Ok(t) => {
                all.http.extend(t.http);
                all.errors += t.errors;
            }
            Err(e) => {
                eprintln!("{name}: a client task failed: {e}");
                all.errors += 1;
            }
        }
    }
    all.wall = started.elapsed();
    all
}

/// One keep-alive connection against the same request answered in-process: each request
/// over the socket alternates with the router answering it directly (the whole body read
/// both ways), whose times go to `sql`. What the socket adds is what a browser waits for
/// beyond the page's own work; a page written in parts that meets Nagle's algorithm and a
/// delayed ACK waits ~40 ms more (issue 37), which the bench did not see before.
pub async fn over_the_socket(name: &str, client: &Client, router: &axum::Router, cookie: &str, path: &PathFn, limits: Limits) -> anyhow::Result<Timings> {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let in_process = |p: String| {
        let req = axum::http::Request::get(p).header(axum::http::header::COOKIE, cookie).body(axum::body::Body::empty());
        let router = router.clone();
        async move {
            let res = router.oneshot(req?).await?;
            let status = res.status();
            res.into_body().collect().await?;
            anyhow::ensure!(status.is_success(), "{name}: answered {status} in-process");
            anyhow::Ok(())
        }
    };
    for i in 0..WARMUP {
        let _ = client.get(&path(i)).await;
        in_process(path(i)).await?;
    }
    let mut t = Timings::default();
    let started = Instant::now();
    let mut requesting = Duration::ZERO;
    for i in 0..limits.requests {
        if started.elapsed() > limits.max_single {
            break;
        }
        let p = path(WARMUP + i);
        let s = Instant::now();
        in_process(p.clone()).await?;
        t.sql.push(s.elapsed());
        let s = Instant::now();
        let status = fetch(client, &p).await;
        let took = s.elapsed();
        requesting += took;
        record(name, &mut t, status, took);
    }
    t.wall = requesting;
    Ok(t)
}
