//! What a request evaluates with: the semantics and the clock. Every
//! request that evaluates carries one, flattened into its JSON
//! (`"mode"`, `"now"`, `"tz_offset"`, each optional).

use serde::{Deserialize, Serialize};

use crate::lang::eval::{EvalOptions, Mode};
use crate::lang::time::Clock;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EvalContext {
    #[serde(default)]
    pub mode: Mode,
    /// The clock pinned (seconds since the epoch); the real clock if absent.
    #[serde(default)]
    pub now: Option<f64>,
    /// The local time-zone offset pinned (seconds east of UTC).
    #[serde(default)]
    pub tz_offset: Option<i32>,
}

impl EvalContext {
    /// `mode` with the real clock and zone.
    pub fn in_mode(mode: Mode) -> EvalContext {
        EvalContext {
            mode,
            ..Default::default()
        }
    }

    /// `mode` at a pinned clock and zone.
    pub fn at(mode: Mode, now: f64, tz_offset: i32) -> EvalContext {
        EvalContext {
            mode,
            now: Some(now),
            tz_offset: Some(tz_offset),
        }
    }

    pub fn options(&self) -> EvalOptions {
        EvalOptions {
            mode: self.mode,
            clock: Clock {
                now: self.now,
                local_offset: self.tz_offset,
            },
        }
    }
}
