//! Pages sent in two parts (issue 16): the head (CSS, scripts, module preloads) and the shell
//! (header, menu) go out before the page's own queries run, then the content and the end of
//! the page. On a slow link the browser fetches the CSS and scripts while the server reads.
//!
//! The page is rendered whole, with the same templates as ever (`layout/base.html` includes
//! `layout/head.html` and `layout/tail.html`); what was sent first is cut off at the start of
//! the content. The page's data is only read when the first part has been handed over
//! (the second part is a future polled by the body), so the first byte never waits for it.
//!
//! Once the first part is out the status is 200: a failure while reading is shown in the
//! content as an error message. A page addressed by an id (a sheet, a base-info record)
//! looks the id up inside the company before it answers, so a missing or foreign id is
//! still a 404, and its title can name the record. htmx requests get the page (or their
//! fragment) whole: htmx swaps only once it has all of it.
//!
//! Compression: tower-http's gzip would hold the head in its compressor until more data
//! came, so a streamed page compresses itself (flate2) and flushes after each part.
//!
//! The staff pages stream through `pages::stream::respond`; the customer shop's pages (their own layout,
//! `shop/base.html`) through `shop::shell::respond`. Both go through [`answer`] with their
//! [`Layout`]: the head it sends first, where the content starts, how a failed page ends.

use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::task::{Context, Poll};

use askama::Template;
use askama_web::WebTemplateExt;
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use flate2::Compression;
use flate2::write::GzEncoder;
use hyper::body::Frame;

use db::error::{AppError, AppResult};

/// A page layout that streams, built around its `Shell` (what its header shows).
pub trait Layout: Sized + Send + 'static {
    type Shell: Send + 'static;

    /// Where the content starts: the end of the layout's head.
    const CONTENT_START: &'static str;

    /// The head sent first (it ends with `CONTENT_START`).
    fn head(shell: &Self::Shell) -> askama::Result<String>;

    /// What the end of the page needs from `shell`, kept in case the content fails.
    fn ending(shell: &Self::Shell) -> Self;

    /// What follows the head when the content failed: `message`, then the end of the page.
    fn failed(&self, message: &str) -> askama::Result<String>;
}

/// What a streamed page says when its content took longer than the request time limit
/// (the server's 408 cannot be sent once the head is out).
pub const TOO_SLOW: &str = "The page took too long to load. Narrow the search or try again.";

/// Answers a full page of layout `L` around `shell`: its head goes out at once, then the
/// page `content` builds from the shell, whose queries run only after the head was handed
/// over, within `limit` (the request time limit, which no longer applies once the head has
/// gone). An htmx request gets the page whole, within the limit as any whole answer.
pub async fn answer<L, T, F, Fut>(request: &HeaderMap, limit: std::time::Duration, shell: L::Shell, content: F) -> AppResult<Response>
where
    L: Layout,
    T: Template + Send,
    F: FnOnce(L::Shell) -> Fut + Send + 'static,
    Fut: Future<Output = Result<T, AppError>> + Send + 'static,
{
    if request.contains_key("hx-request") {
        return Ok(content(shell).await?.into_web_template().into_response());
    }
    let head = L::head(&shell).map_err(|e| AppError::from(anyhow::Error::from(e)))?;
    let layout = L::ending(&shell);
    Ok(page(request, head, layout, limit, content(shell)))
}

/// Sends the `head` of a page in `layout` now and the page that `content` renders once it is
/// ready (it is the whole page, which is cut after the head).
fn page<L, T, Fut>(request: &HeaderMap, head: String, layout: L, limit: std::time::Duration, content: Fut) -> Response
where
    L: Layout,
    T: Template + Send,
    Fut: Future<Output = Result<T, AppError>> + Send + 'static,
{
    let gzip = accepts_gzip(request);
    let mut encoder = gzip.then(|| GzEncoder::new(Vec::new(), Compression::new(6)));
    let first = encode(&mut encoder, head.as_bytes(), false);
    let rest = async move {
        let html = match tokio::time::timeout(limit, content).await {
            Ok(Ok(page)) => match page.render() {
                Ok(full) => after_head(full, L::CONTENT_START),
                Err(e) => failed(&layout, &AppError::from(anyhow::Error::from(e))),
            },
            Ok(Err(e)) => failed(&layout, &e),
            Err(_) => failed(&layout, &AppError::BadRequest(TOO_SLOW.into())),
        };
        encode(&mut encoder, html.as_bytes(), true)
    };
    let mut res = Response::new(Body::new(TwoParts { first: Some(first), rest: Some(Box::pin(rest)), kept: db::kept() }));
    let headers = res.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if gzip {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    res
}

/// The page after the head, which ends with `content_start` (the whole page if that is
/// missing, which a template change would cause: better twice the header than no content).
fn after_head(mut full: String, content_start: &str) -> String {
    match full.find(content_start) {
        Some(at) => full.split_off(at + content_start.len()),
        None => {
            tracing::error!("a streamed page has no `{}`; sent whole after its head", content_start.trim_end());
            full
        }
    }
}

/// The content of a page in `layout` whose reading failed after its head was sent, and the
/// end of the page.
fn failed(layout: &impl Layout, error: &AppError) -> String {
    if let AppError::Internal(e) = error {
        tracing::error!(error = ?e, "streamed page failed");
    }
    let message = match error {
        AppError::Internal(_) => "Something went wrong. Please try again.".to_owned(),
        other => other.to_string(),
    };
    layout.failed(&message).unwrap_or_else(|_| message_only())
}

fn message_only() -> String {
    "<p>Something went wrong. Please try again.</p></main></body></html>".to_owned()
}

fn accepts_gzip(request: &HeaderMap) -> bool {
    request.get_all(header::ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(|part| {
        let mut it = part.split(';');
        let name = it.next().unwrap_or("").trim();
        let refused = it.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
        name.eq_ignore_ascii_case("gzip") && !refused
    })
}

/// `part` as it goes on the wire: gzip-compressed and flushed (the last part finishes the
/// stream), or as is.
fn encode(encoder: &mut Option<GzEncoder<Vec<u8>>>, part: &[u8], last: bool) -> Bytes {
    let Some(gz) = encoder.as_mut() else { return Bytes::copy_from_slice(part) };
    let written = gz.write_all(part).and_then(|_| if last { gz.try_finish() } else { gz.flush() });
    if let Err(e) = written {
        // Writing into a Vec does not fail; if it ever did, the client sees a cut page.
        tracing::error!("compressing a streamed page failed: {e}");
    }
    Bytes::from(std::mem::take(gz.get_mut()))
}

/// A body of two parts: the first ready now, the second when its future completes (it is
/// first polled after the first part was taken).
struct TwoParts {
    first: Option<Bytes>,
    rest: Option<Pin<Box<dyn Future<Output = Bytes> + Send>>>,
    /// The request's database connection, which the content's queries use too.
    kept: Option<db::Kept>,
}

impl hyper::body::Body for TwoParts {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(Frame::data(first))));
        }
        let this = &mut *self;
        let Some(rest) = this.rest.as_mut() else { return Poll::Ready(None) };
        let polled = match &this.kept {
            Some(kept) => db::polled_with(kept, || rest.as_mut().poll(cx)),
            None => rest.as_mut().poll(cx),
        };
        match polled {
            Poll::Ready(bytes) => {
                // The content is read: the connection goes back before it is sent.
                this.rest = None;
                this.kept = None;
                Poll::Ready(Some(Ok(Frame::data(bytes))))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.first.is_none() && self.rest.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_used_only_when_accepted() {
        let h = |v: &'static str| {
            let mut m = HeaderMap::new();
            m.insert(header::ACCEPT_ENCODING, HeaderValue::from_static(v));
            m
        };
        assert!(accepts_gzip(&h("gzip, deflate, br")));
        assert!(accepts_gzip(&h("br;q=1.0, GZIP;q=0.5")));
        assert!(!accepts_gzip(&h("br")));
        assert!(!accepts_gzip(&h("gzip;q=0")));
        assert!(!accepts_gzip(&HeaderMap::new()));
    }

    #[test]
    fn the_parts_decompress_to_the_page_and_the_first_stands_alone() {
        use std::io::Read;
        let mut enc = Some(GzEncoder::new(Vec::new(), Compression::new(6)));
        let first = encode(&mut enc, b"<head>", false);
        // The first part decodes on its own (sync flush): the browser can use it at once.
        let mut partial = Vec::new();
        let _ = flate2::read::GzDecoder::new(&first[..]).read_to_end(&mut partial);
        assert_eq!(partial, b"<head>");
        let last = encode(&mut enc, b"<main>content</main>", true);
        let mut whole = String::new();
        flate2::read::GzDecoder::new(&[first, last].concat()[..]).read_to_string(&mut whole).unwrap();
        assert_eq!(whole, "<head><main>content</main>");
    }

    #[test]
    fn the_content_is_what_follows_the_head() {
        let start = "<main class=\"content\" id=\"content\">";
        let full = format!("<head>menu{start}<h1>Invoices</h1></main>");
        assert_eq!(after_head(full, start), "<h1>Invoices</h1></main>");
    }
}
