//! The clock the matchmaking views evaluate with: the real one, or a
//! chosen local wall time (`YYYY-MM-DDTHH:MM`, a datetime-local input's
//! value). The engine cannot read the time in wasm, so the page always
//! passes it: seconds since the epoch, and the local offset that
//! `DayTime()` and friends use.

use wasm_bindgen::JsValue;

/// (seconds since the epoch, local offset in seconds east of UTC).
pub fn resolve(wall: Option<&str>) -> (f64, i32) {
    let date = match wall {
        Some(w) => {
            let d = js_sys::Date::new(&JsValue::from_str(w));
            if d.get_time().is_nan() {
                js_sys::Date::new_0()
            } else {
                d
            }
        }
        None => js_sys::Date::new_0(),
    };
    (
        (date.get_time() / 1000.0).floor(),
        (-date.get_timezone_offset() * 60.0) as i32,
    )
}

/// The present local wall time, as a datetime-local input shows it.
pub fn wall_now() -> String {
    let d = js_sys::Date::new_0();
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        d.get_hours(),
        d.get_minutes()
    )
}

/// "21:00 on 2024-03-12" for a wall time, as the toolbar says it.
pub fn describe(wall: &str) -> String {
    match wall.split_once('T') {
        Some((day, time)) => format!("{time} on {day}"),
        None => wall.to_string(),
    }
}

/// Milliseconds since the page loaded (for "took 12 ms" and progress).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}
