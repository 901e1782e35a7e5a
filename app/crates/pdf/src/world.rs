//! The typst `World` of one render: the template as the main file, `common.typ`, the data
//! as `/data.json`, the company's logo, and the embedded fonts. Fonts and the standard
//! library are loaded once per process.

use std::sync::LazyLock;

use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};
use typst_layout::PagedDocument;

use super::{COMMON, PdfError, Template};

/// The company's logo as the templates receive it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Logo {
    /// TyreDesk's own logo (`static/img/logo.svg`), for a company that uploaded none.
    Default,
    /// An uploaded image and its content type (`image/png`, `image/jpeg`, `image/gif`,
    /// `image/webp` or `image/svg+xml`).
    Image { mime: String, bytes: Vec<u8> },
    /// No logo.
    None,
}

impl Logo {
    /// The path the templates open the logo at (`data.logo`).
    pub(super) fn path(&self) -> Option<String> {
        self.file().map(|(name, _)| format!("/{name}"))
    }

    /// The file name the template asks for, or `None` when there is no logo.
    fn file(&self) -> Option<(&'static str, Bytes)> {
        static DEFAULT: &[u8] = include_bytes!("../../../../static/img/logo.svg");
        match self {
            Self::Default => Some(("logo.svg", Bytes::new(DEFAULT))),
            Self::Image { mime, bytes } => {
                let name = match mime.as_str() {
                    "image/png" => "logo.png",
                    "image/jpeg" => "logo.jpg",
                    "image/gif" => "logo.gif",
                    "image/webp" => "logo.webp",
                    "image/svg+xml" => "logo.svg",
                    _ => return None,
                };
                Some((name, Bytes::new(bytes.clone())))
            }
            Self::None => None,
        }
    }
}

struct Shared {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

static SHARED: LazyLock<Shared> = LazyLock::new(|| {
    static REGULAR: &[u8] = include_bytes!("../fonts/LiberationSans-Regular.ttf");
    static BOLD: &[u8] = include_bytes!("../fonts/LiberationSans-Bold.ttf");
    let fonts: Vec<Font> = [REGULAR, BOLD].into_iter().flat_map(|f| Font::iter(Bytes::new(f))).collect();
    Shared { library: LazyHash::new(Library::default()), book: LazyHash::new(FontBook::from_fonts(&fonts)), fonts }
});

fn file_id(path: &str) -> FileId {
    RootedPath::new(VirtualRoot::Project, VirtualPath::new(path).expect("a fixed absolute path")).intern()
}

struct OneRender {
    main: Source,
    common: Source,
    data: Bytes,
    logo: Option<(&'static str, Bytes)>,
    /// Other images the data names by path (the run sheet's QR code).
    images: Vec<(&'static str, Bytes)>,
}

impl World for OneRender {
    fn library(&self) -> &LazyHash<Library> {
        &SHARED.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &SHARED.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else if id == self.common.id() {
            Ok(self.common.clone())
        } else {
            Err(not_found(id))
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        let name = id.get().vpath().get_without_slash();
        if name == "data.json" {
            return Ok(self.data.clone());
        }
        match &self.logo {
            Some((logo, bytes)) if *logo == name => Ok(bytes.clone()),
            _ => self.images.iter().find(|(n, _)| *n == name).map(|(_, b)| b.clone()).ok_or_else(|| not_found(id)),
        }
    }

    fn font(&self, index: usize) -> Option<Font> {
        SHARED.fonts.get(index).cloned()
    }

    /// Documents carry their own dates; the template never asks for today.
    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

fn not_found(id: FileId) -> FileError {
    FileError::NotFound(id.get().vpath().get_without_slash().into())
}

/// Typesets and writes one PDF, with other images beside the logo, each at `/{name}`.
pub(super) fn compile_with_images(template: Template, data: Vec<u8>, logo: &Logo, images: &[(&'static str, Vec<u8>)]) -> Result<Vec<u8>, PdfError> {
    compile_all(template, data, logo, images).map(|(pdf, _)| pdf)
}

/// [`compile_with_images`] without other images, also saying how many pages the PDF has.
#[cfg(test)]
pub(super) fn compile_counted(template: Template, data: Vec<u8>, logo: &Logo) -> Result<(Vec<u8>, usize), PdfError> {
    compile_all(template, data, logo, &[])
}

fn compile_all(template: Template, data: Vec<u8>, logo: &Logo, images: &[(&'static str, Vec<u8>)]) -> Result<(Vec<u8>, usize), PdfError> {
    let logo = logo.file();
    let world = OneRender {
        main: Source::new(file_id(&format!("/{}.typ", template.name)), template.source.into()),
        common: Source::new(file_id("/common.typ"), COMMON.into()),
        data: Bytes::new(data),
        logo,
        images: images.iter().map(|(n, b)| (*n, Bytes::new(b.clone()))).collect(),
    };
    let document: PagedDocument = typst::compile(&world).output.map_err(|errors| PdfError::Template {
        template: template.name,
        message: errors.iter().map(|e| e.message.to_string()).collect::<Vec<_>>().join("; "),
    })?;
    let pdf = typst_pdf::pdf(&document, &typst_pdf::PdfOptions::default()).map_err(|errors| PdfError::Write(errors.iter().map(|e| e.message.to_string()).collect::<Vec<_>>().join("; ")))?;
    // typst memoises layouts across compiles; keep what the last few renders used, so a
    // long-running server's memory stays flat.
    typst::comemo::evict(8);
    Ok((pdf, document.pages().len()))
}
