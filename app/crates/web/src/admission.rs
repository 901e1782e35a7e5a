//! Reads are let in a few at a time; requests that change data never wait here (issue 38).
//!
//! With thirty readers at once on two cores, every request shared the processors with all the
//! others: a save and approval that takes 12 ms alone took 130–185 ms, most of it waiting for
//! the CPU behind the readers' statements and rendering. A read now first takes one of a few
//! places (the cores and one more) and keeps it until its answer is produced; the others wait
//! here, costing nothing. A save then competes with a few readers, not all of them. A place
//! not free within a short wait is not waited for any longer (an export that streams for
//! seconds, or a slow link, holds its place): the read goes ahead as before, late by that
//! wait at most.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The places for reads.
#[derive(Clone)]
pub struct Readers {
    places: Arc<Semaphore>,
    wait: Duration,
}

/// The longest a read waits for a place before it goes ahead without one.
const WAIT: Duration = Duration::from_millis(50);

impl Readers {
    /// One place per core and one more, so the processors stay busy while a read waits on its
    /// statement or its socket.
    pub fn for_this_machine() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Self::new(cores + 1, WAIT)
    }

    pub fn new(places: usize, wait: Duration) -> Self {
        Self { places: Arc::new(Semaphore::new(places)), wait }
    }

    /// A place, or `None` when none came free within the wait.
    pub async fn enter(&self) -> Option<OwnedSemaphorePermit> {
        tokio::time::timeout(self.wait, Arc::clone(&self.places).acquire_owned()).await.ok().and_then(Result::ok)
    }
}

/// Whether a read of `path` takes a place: not the files sent as they are (static files, a
/// stored report being downloaded, at a slow link's pace) nor the health check.
pub fn takes_a_place(path: &str) -> bool {
    !(path.starts_with("/static/") || path.starts_with("/api/download/") || path == "/healthz")
}

/// A response body that keeps its read's place until the body has been produced whole (a
/// streamed page runs its queries while its body is read).
pub struct Holding {
    inner: Body,
    place: Option<OwnedSemaphorePermit>,
}

impl Holding {
    pub fn body(inner: Body, place: Option<OwnedSemaphorePermit>) -> Body {
        if place.is_none() {
            return inner;
        }
        Body::new(Self { inner, place })
    }
}

impl hyper::body::Body for Holding {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let polled = std::pin::Pin::new(&mut self.inner).poll_frame(cx);
        if matches!(polled, std::task::Poll::Ready(None) | std::task::Poll::Ready(Some(Err(_)))) {
            self.place = None;
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test(start_paused = true)]
    async fn a_read_waits_for_a_place_only_so_long() {
        let readers = Readers::new(2, Duration::from_millis(50));
        let (a, b) = (readers.enter().await, readers.enter().await);
        assert!(a.is_some() && b.is_some());
        let started = tokio::time::Instant::now();
        assert!(readers.enter().await.is_none(), "no third place");
        assert_eq!(started.elapsed(), Duration::from_millis(50), "it waited the wait, no more");
        drop(a);
        assert!(readers.enter().await.is_some(), "a place given back is taken");
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_keeps_its_place_until_read_whole() {
        let readers = Readers::new(1, Duration::from_millis(50));
        let mut body = Holding::body(Body::from("the page"), readers.enter().await);
        assert!(readers.enter().await.is_none(), "the place is held while the body is unread");
        let first = body.frame().await.expect("a frame").unwrap();
        assert_eq!(first.into_data().unwrap(), "the page");
        assert!(readers.enter().await.is_none(), "held until the body says it is done");
        assert!(body.frame().await.is_none());
        assert!(readers.enter().await.is_some(), "given back at the body's end, before it is dropped");
        drop(body);
    }
}
