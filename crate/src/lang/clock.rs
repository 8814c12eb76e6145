//! A monotonic clock for the engine's own decisions and counters (how long
//! a step took, whether building an index pays). Natively the system's;
//! in wasm, where the library has none, the embedding page's worker gives
//! one ([`set`]); without it [`now`] is `None`.

/// The wasm clock (seconds, any origin), set once by the embedder.
static WASM_CLOCK: std::sync::OnceLock<fn() -> f64> = std::sync::OnceLock::new();

/// Set the clock [`now`] reads in wasm (natively the system's monotonic
/// clock is used). The first call wins.
pub fn set(now: fn() -> f64) {
    let _ = WASM_CLOCK.set(now);
}

/// Seconds since some fixed origin; `None` when there is no clock.
pub fn now() -> Option<f64> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static ORIGIN: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        Some(
            ORIGIN
                .get_or_init(std::time::Instant::now)
                .elapsed()
                .as_secs_f64(),
        )
    }
    #[cfg(target_arch = "wasm32")]
    {
        WASM_CLOCK.get().map(|f| f())
    }
}
