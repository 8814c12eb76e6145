//! The ClassAd Playground: a Yew app that runs the `classad` engine in the
//! browser. The UI talks to the engine through `classad::api` (JSON
//! requests and responses), directly for quick work and through a Web
//! Worker for heavy work.

pub mod analyzer;
pub mod answers;
mod app;
pub mod clock;
pub mod components;
pub mod engine;
pub mod examples;
pub mod identity;
pub mod matchmaking;
pub mod matrix_cache;
pub mod parses;
pub mod session_client;
pub mod share;
pub mod state;
pub mod store;
pub mod storage;
pub mod trace;
pub mod worker;

pub fn start() {
    // The saved theme before the first paint, so a dark choice never flashes light.
    components::header::set_theme(storage::load_theme());
    yew::Renderer::<app::App>::new().render();
}
