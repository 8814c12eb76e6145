//! The UI's only door to the engine: `classad::api` requests and
//! responses. Quick requests run right here; heavy ones (big pools) go to
//! the Web Worker (`worker.rs`) so the page never freezes.

use classad::api::{handle, Request, Response};

/// Run a request on the main thread (for small, bounded work).
pub fn call(req: Request) -> Response {
    handle(req)
}

/// Inputs larger than this are parsed in the worker, with progress.
pub const WORKER_THRESHOLD_BYTES: usize = 256 * 1024;
