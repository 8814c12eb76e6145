//! The submit host's configuration that condor_submit reads (`ARCH`,
//! `OPSYS`, `FILESYSTEM_DOMAIN`, `APPEND_REQUIREMENTS`, …): settings with
//! defaults a user can change (`classad submit --config KEY=VALUE`).

use std::collections::BTreeMap;

/// Which condor_submit's rules: they differ between 24 and 25 (the
/// vanilla Disk clause, `HasCommonFilesTransfer`, `OCU`, retry requests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HtcVersion {
    V24,
    #[default]
    V25,
}

/// [`SubmitConfig::default_host`]'s values.
pub const DEFAULT_HOST: [(&str, &str); 4] = [
    ("ARCH", "X86_64"),
    ("OPSYS", "LINUX"),
    ("FILESYSTEM_DOMAIN", "submit.example.org"),
    ("UID_DOMAIN", "submit.example.org"),
];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubmitConfig {
    /// Keys upper-cased.
    values: BTreeMap<String, String>,
    pub version: HtcVersion,
}

impl SubmitConfig {
    /// The submit host the CLI and the page assume unless told otherwise:
    /// a Linux x86_64 machine in the domain `submit.example.org`
    /// (condor_submit would take FILESYSTEM_DOMAIN and UID_DOMAIN from the
    /// host's name).
    pub fn default_host() -> SubmitConfig {
        let mut c = SubmitConfig::default();
        for (k, v) in DEFAULT_HOST {
            c.set(k, v);
        }
        c
    }

    /// A configuration value the user set, `None` when not set (the caller
    /// knows condor_submit's default: see [`SubmitConfig::get_or`]).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .get(&key.to_ascii_uppercase())
            .map(String::as_str)
    }

    /// The value, or condor_submit's default for it.
    pub fn get_or<'a>(&'a self, key: &str, default: &'a str) -> &'a str {
        self.get(key).unwrap_or(default)
    }

    pub fn set(&mut self, key: &str, value: &str) {
        self.values
            .insert(key.trim().to_ascii_uppercase(), value.trim().to_string());
    }

    /// Every value set, keys upper-cased.
    pub fn values(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}
