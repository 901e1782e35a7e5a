//! File downloads: a spreadsheet export streamed from its file on disk, with the xlsx
//! content type and attachment headers.

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio_util::io::ReaderStream;

use xlsx::export::Written;
use db::error::AppResult;

/// Sends a written export as `file_name`; its file goes when the body is dropped (sent, or
/// the client went away).
pub async fn xlsx(file_name: &str, written: Written) -> AppResult<Response> {
    let (file, len) = written.open().await?;
    let body = Body::from_stream(ReaderStream::with_capacity(Sending { file, _written: written }, 64 * 1024));
    let mut res = attachment(file_name, body);
    res.headers_mut().insert(header::CONTENT_LENGTH, len.into());
    Ok(res)
}

/// A download named `file_name`: the xlsx content type and attachment headers.
pub fn attachment(file_name: &str, body: impl Into<Body>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file_name}\"")),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        body.into(),
    )
        .into_response()
}

/// A PDF document named `file_name`, shown in the browser's viewer (`inline`) or saved
/// (`attachment`); never cached, as it shows the sheet as it is now.
pub fn pdf(file_name: &str, inline: bool, bytes: Vec<u8>) -> Response {
    // RFC 6266: a plain-ASCII name in quotes, and the exact name percent-encoded.
    let plain: String = file_name.chars().map(|c| if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' { c } else { '_' }).collect();
    let exact: String = file_name.bytes().map(|b| if b.is_ascii_alphanumeric() || b"-._~".contains(&b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect();
    let how = if inline { "inline" } else { "attachment" };
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (header::CONTENT_DISPOSITION, format!("{how}; filename=\"{plain}\"; filename*=UTF-8''{exact}")),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        bytes,
    )
        .into_response()
}

/// The open export being sent; the file goes when the body is dropped.
struct Sending {
    file: tokio::fs::File,
    _written: Written,
}

impl tokio::io::AsyncRead for Sending {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut tokio::io::ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().file).poll_read(cx, buf)
    }
}
