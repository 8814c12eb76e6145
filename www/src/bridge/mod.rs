//! The page's side of talking to the engine workers. The page links no
//! evaluator, reader or function library: every request goes to a worker
//! (`worker/` answers it).
//!
//! - `engine`: the quick worker (evaluation as you type, small parses), started with the page.
//! - `session_client`: the matchmaking views' worker, whose session keeps the pools parsed.
//! - `worker_client`: a one-request worker, cancelled by terminating it (big parses, formatting).
//! - `worker_link`: a link to a worker as both clients use it (framing, text in parts, `ready`).
//! - `parses`: the pools parsed in a worker, as a hook; `pool_summary`: what a parse tells the page.
//! - `answers`: the worker's answers read straight into the shape each view wants.
//! - `js_text`, `text_buf`: long texts between JavaScript and Rust without extra copies.
//! - `clock`: the time the page hands the engine (it cannot read it in wasm).
//! - `dialect`: the syntax every text is read in, carried by the verbs.
//! - `submit`: a submit file made into job ads (verb `submit`).
//!
//! The worker links `answers`, `pool_summary`, `worker_link` and `js_text`
//! too: they are what both sides of a message agree on.

pub mod answers;
pub mod clock;
pub mod dialect;
pub mod engine;
pub mod js_text;
pub mod parses;
pub mod pool_summary;
pub mod session_client;
pub mod submit;
pub mod text_buf;
pub mod worker_client;
pub mod worker_link;
