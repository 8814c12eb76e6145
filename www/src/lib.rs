//! The ClassAd Playground: a Yew app that runs the `classad` engine in the
//! browser. The UI talks to the engine only through `classad::api`
//! (JSON requests and responses), directly for quick work and through a
//! Web Worker for heavy work.

mod app;
pub mod components;
pub mod engine;
pub mod examples;
pub mod share;
pub mod state;
pub mod storage;
pub mod worker;

pub fn start() {
    yew::Renderer::<app::App>::new().render();
}
