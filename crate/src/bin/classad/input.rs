//! Reading the command's inputs: files or standard input, pools mapped into
//! memory for lazy ads, one ad for `eval --my`, diagnostics rendered with
//! their file's name.

use std::io::Read;
use std::sync::Arc;

use classad::formats;
use classad::lang::ast::SharedText;
use classad::{ClassAd, Dialect};

pub fn read_input(file: &Option<String>) -> Result<(String, String), String> {
    let (bytes, name) = match file {
        Some(f) if f != "-" => (
            std::fs::read(f).map_err(|e| format!("cannot read {f}: {e}"))?,
            f.clone(),
        ),
        _ => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            (b, "<stdin>".to_string())
        }
    };
    Ok((text_of(bytes, &name), name))
}

/// The text of a file's bytes. Bytes that are not UTF-8 (a Latin-1 name
/// from a Windows host) read as U+FFFD, and a warning says where the first
/// one is and how many lines hold one: every ad is kept.
fn text_of(bytes: Vec<u8>, name: &str) -> String {
    let (text, warning) = formats::decode_text_owned(bytes);
    if let Some(d) = warning {
        eprint!("{}", d.render(&text, name));
    }
    text
}

/// "parsed N of M job definitions, … machine definitions": what the work
/// read of the ads (the long format's definitions are parsed when read).
pub fn parsed_stats(jobs: &[Arc<ClassAd>], machines: &[Arc<ClassAd>]) -> String {
    let count = |ads: &[Arc<ClassAd>]| {
        ads.iter()
            .fold((0, 0), |(p, t), a| (p + a.parsed_count(), t + a.len()))
    };
    let ((jp, jt), (mp, mt)) = (count(jobs), count(machines));
    format!("parsed {jp} of {jt} job definitions, {mp} of {mt} machine definitions")
}

/// A pool file's text for ads to read lazily: the file mapped into memory
/// when it is a non-empty UTF-8 file (its bytes are the page cache's, not
/// a copy of hundreds of megabytes), else read as [`read_input`] reads.
fn shared_input(path: &str) -> Result<(Arc<dyn SharedText>, String), String> {
    if path != "-" {
        if let Some(map) = map_file(path) {
            return Ok((Arc::new(MappedText(map)), path.to_string()));
        }
    }
    let (text, name) = read_input(&Some(path.to_string()))?;
    Ok((Arc::new(text), name))
}

fn map_file(path: &str) -> Option<memmap2::Mmap> {
    let file = std::fs::File::open(path).ok()?;
    if !file.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
        return None;
    }
    // SAFETY: the map is read-only and lives as long as the ads reading
    // it. A file truncated or rewritten while the command runs is not
    // supported (its reads would see the new bytes, or fault), as for
    // any tool that maps its input.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    std::str::from_utf8(&map).is_ok().then_some(map)
}

/// A mapped pool file.
struct MappedText(memmap2::Mmap);

impl SharedText for MappedText {
    fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// Read exactly one ad from a file, reporting parse errors with location.
pub fn read_one_ad(path: &str, d: Dialect) -> Result<ClassAd, String> {
    let (text, name) = read_input(&Some(path.to_string()))?;
    let pool = formats::read_pool(&text, formats::InputFormat::Auto, d);
    for diag in pool.diagnostics.iter().filter(|d| !d.is_error()) {
        eprint!("{}", diag.render(&text, &name));
    }
    if let Some(diag) = pool.diagnostics.iter().find(|d| d.is_error()) {
        return Err(diag.render(&text, &name));
    }
    match pool.ads.len() {
        0 => Ok(ClassAd::new()),
        1 => Ok(pool.ads.into_iter().next().unwrap().ad),
        n => Err(format!("{name}: expected one ad, found {n}")),
    }
}

/// Read a pool file; function-library ads are returned separately.
pub fn read_ads(path: &str, dialect: Dialect) -> Result<(Vec<Arc<ClassAd>>, Vec<ClassAd>), String> {
    let (shared, name) = shared_input(path)?;
    // Both ways are UTF-8 (see `shared_input`).
    let text = std::str::from_utf8(shared.bytes()).unwrap_or_default();
    let pool = formats::read_pool_shared(&shared, formats::InputFormat::Auto, dialect);
    for diag in &pool.diagnostics {
        eprint!("{}", diag.render(text, &name));
    }
    if pool.diagnostics.iter().any(|d| d.is_error()) {
        return Err(format!("{name}: fix the errors above first"));
    }
    let (libs, ads): (Vec<_>, Vec<_>) = pool
        .ads
        .into_iter()
        .map(|a| a.ad)
        .partition(classad::matchmaking::userfn::is_library);
    // A function library is checked here, while its text is at hand, so
    // its problems are located in its file.
    for lib in &libs {
        if let Err(ds) = classad::matchmaking::userfn::UserFunctions::from_ad(lib) {
            let shown: String = ds
                .iter()
                .map(|d| d.clone().locate(text).render(text, &name))
                .collect();
            eprint!("{shown}");
            return Err(format!("{name}: fix the function library first"));
        }
    }
    Ok((ads.into_iter().map(Arc::new).collect(), libs))
}
