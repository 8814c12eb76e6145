//! The ClassAd Playground: a Yew app that runs the `classad` engine in the
//! browser. The page is a thin client: it links only the lexer (for
//! highlighting as you type) and the request/response types of
//! `classad::api` and `classad::session`; every evaluation, parse and
//! matchmaking run happens in Web Workers (`engine.rs` for quick work,
//! `session_client.rs` for the matchmaking views), which `worker.rs`
//! answers.

pub mod analyzer;
pub mod answers;
mod app;
pub mod clock;
pub mod components;
pub mod engine;
pub mod examples;
pub mod focus;
pub mod identity;
pub mod js_text;
pub mod matchmaking;
pub mod matrix_cache;
pub mod parses;
pub mod pool_summary;
pub mod session_client;
pub mod share;
pub mod state;
pub mod storage;
pub mod store;
pub mod text_buf;
pub mod trace;
pub mod views;
pub mod words;
pub mod worker;
pub mod worker_link;

pub fn start() {
    // The engine worker loads while the page does.
    engine::warm_up();
    // The saved theme before the first paint, so a dark choice never flashes light.
    components::header::set_theme(storage::load_theme());
    // The app draws in a task of its own, after the one in which the
    // module was instantiated (which also takes the streaming compiler's
    // last bytes): one task for both was 53-68 ms on a loaded machine.
    gloo_timers::callback::Timeout::new(0, || {
        yew::Renderer::<app::App>::new().render();
    })
    .forget();
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod thin_client;
