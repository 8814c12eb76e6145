//! The two flavours of the language: HTCondor's and plain new ClassAds.
//! Mostly an evaluation matter, but the parser needs it too (old ClassAd
//! syntax such as `;` between arguments is HTCondor's), so it stands here,
//! below both.

use serde::{Deserialize, Serialize};

/// Evaluation semantics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// What HTCondor's daemons and tools do: an unscoped name that is not
    /// found in the ad's scope falls back to the target ad of a match, and
    /// HTCondor's extra functions are available.
    #[default]
    HTCondor,
    /// Plain new-ClassAd semantics (thesis ch. 2 / libclassad alone).
    Strict,
}

impl std::str::FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Mode, String> {
        match s.to_ascii_lowercase().as_str() {
            "htcondor" | "condor" => Ok(Mode::HTCondor),
            "strict" | "new" => Ok(Mode::Strict),
            _ => Err(format!("unknown mode `{s}`: use htcondor or strict")),
        }
    }
}
