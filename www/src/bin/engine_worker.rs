//! The Web Worker binary: answers `classad::api` requests off the main thread.

fn main() {
    console_error_panic_hook::set_once();
    classad_playground::worker::run_worker();
}
