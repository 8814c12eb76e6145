//! The ClassAd Playground: a Yew app that runs the `classad` engine in the
//! browser. The page is a thin client: it links only the lexer (for
//! highlighting as you type) and the request/response types of
//! `classad::api` and `classad::api::session`; every evaluation, parse and
//! matchmaking run happens in Web Workers.
//!
//! The source by role, from the ground up:

/// The application shell: the store, autosave, share links, the views.
mod app;
/// The page's side of talking to the engine workers (and the messages both
/// sides share): quick requests, the matchmaking session, parses.
pub mod bridge;
/// The UI, one folder per view with the view logic beside the components
/// that use it, the shell around them and the widgets they share.
pub mod components;
/// What the user has made (`AppState`), every change to it (`Action`), and
/// where it is kept: autosave, share links, the gallery's examples.
pub mod state;
/// The second page module: the views but the workbench and the gallery.
pub mod views;
/// The code that runs inside the Web Workers: the only part that links the
/// engine's evaluator, readers and function library.
pub mod worker;

pub fn start() {
    // The engine worker loads while the page does.
    bridge::engine::warm_up();
    // The saved theme before the first paint, so a dark choice never flashes light.
    components::shell::header::set_theme(state::storage::load_theme());
    // The app draws in a task of its own, after the one in which the
    // module was instantiated (which also takes the streaming compiler's
    // last bytes): one task for both was 53-68 ms on a loaded machine.
    gloo_timers::callback::Timeout::new(0, || {
        yew::Renderer::<app::App>::new().render();
    })
    .forget();
}

/// A check: outside `worker/`, the page names only the engine's API,
/// session types and lexer.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod thin_client;
