//! The ClassAd Playground (Yew, client-side only).

fn main() {
    console_error_panic_hook::set_once();
    classad_playground::start();
}
