//! A submit file with everything it is run on, as a value that crosses a
//! wire: the page's engine worker makes job ads from it (verb `submit`),
//! and the analyzer resubmits it edited to check a fix in the file's terms.
//! Where there is no file system: files given alongside by name, the
//! submit directory `/home/you/submit`, no environment.

use serde::{Deserialize, Serialize};

use super::config::{HtcVersion, SubmitConfig};
use super::run::{submit, SubmitInput, Submitted};

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SubmitSource {
    pub name: String,
    pub text: String,
    /// The other files by name (what `include :` and `queue from` read,
    /// what `queue matching` globs over).
    #[serde(default)]
    pub files: Vec<(String, String)>,
    /// The submit host's configuration, `KEY = VALUE` per line.
    #[serde(default)]
    pub config: String,
    /// condor_submit's version: 24 or 25.
    pub htcondor: u32,
    pub cluster: i64,
    /// A chosen clock (`YYYY-MM-DDTHH:MM`), read as UTC wall time so a
    /// lesson's ads are the same in every time zone.
    #[serde(default)]
    pub clock: Option<String>,
    /// Otherwise now, seconds since the epoch.
    #[serde(default)]
    pub now: i64,
    pub max_procs: usize,
}

impl SubmitSource {
    /// The submit time (`QDate`): the chosen clock, else now to the minute
    /// (the ads do not change as the seconds go by).
    pub fn qdate(&self) -> i64 {
        let wall = self.clock.as_deref().and_then(|w| {
            let (date, time) = w.split_once('T')?;
            let mut d = date.split('-').map(|x| x.parse::<i64>().ok());
            let (y, m, day) = (d.next()??, d.next()??, d.next()??);
            let mut t = time.split(':').map(|x| x.parse::<i64>().ok());
            let (h, min) = (t.next()??, t.next()??);
            Some(crate::lang::time::days_from_civil(y, m, day) * 86_400 + h * 3600 + min * 60)
        });
        wall.unwrap_or(self.now.div_euclid(60) * 60)
    }

    /// The submit host: the default host with the configuration's lines
    /// (`#` comments and lines without `=` skipped).
    pub fn host(&self) -> SubmitConfig {
        let mut config = SubmitConfig::default_host();
        config.version = if self.htcondor == 24 {
            HtcVersion::V24
        } else {
            HtcVersion::V25
        };
        for line in self.config.lines() {
            if let Some((k, v)) = line.split_once('=') {
                if !k.trim().is_empty() && !k.trim_start().starts_with('#') {
                    config.set(k, v);
                }
            }
        }
        config
    }

    /// Run the file.
    pub fn run(&self) -> Submitted {
        self.run_text(&self.text, self.max_procs)
    }

    /// Run `text` in the file's place (an edit of it), at most `max_procs`.
    pub fn run_text(&self, text: &str, max_procs: usize) -> Submitted {
        let files = |name: &str| {
            self.files
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, t)| t.clone())
        };
        let names: Vec<String> = self.files.iter().map(|(n, _)| n.clone()).collect();
        submit(&SubmitInput {
            name: &self.name,
            text,
            files: &files,
            names: &names,
            config: self.host(),
            cluster: self.cluster,
            qdate: self.qdate(),
            owner: None,
            iwd: "/home/you/submit".into(),
            env: Default::default(),
            max_procs,
            dir_exists: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_clock_is_read_as_utc_wall_time() {
        let at = |clock: Option<&str>, now| {
            SubmitSource {
                clock: clock.map(String::from),
                now,
                ..Default::default()
            }
            .qdate()
        };
        assert_eq!(at(Some("2026-01-01T00:00"), 0), 1_767_225_600);
        assert_eq!(at(Some("2023-11-14T22:13"), 0), 1_700_000_000 - 20);
        assert_eq!(at(Some("2000-03-01T12:30"), 0), 951_913_800);
        assert_eq!(at(None, 1_700_000_059), 1_700_000_040);
        assert_eq!(at(Some("not a time"), 1_700_000_000), 1_699_999_980);
    }

    #[test]
    fn the_configuration_lines_set_the_host() {
        let s = SubmitSource {
            config: "# a comment = x\nARCH = aarch64\nnot a setting\n".into(),
            htcondor: 24,
            ..Default::default()
        };
        let h = s.host();
        assert_eq!(h.get("ARCH"), Some("aarch64"));
        assert_eq!(h.get("OPSYS"), Some("LINUX"));
        assert_eq!(h.version, HtcVersion::V24);
        assert_eq!(h.values().count(), 4);
    }
}
