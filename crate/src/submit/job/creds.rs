//! `SetGSICredentials`: the X.509 proxy file (`x509userproxy`,
//! `use_x509userproxy`), `delegate_job_gsi_credentials_lifetime`, and
//! the SciTokens file (`use_scitokens`, `scitokens_file`,
//! `BEARER_TOKEN_FILE`).
//!
//! Not modelled: condor_submit also reads the proxy (its expiration,
//! subject, VOMS attributes) and refuses an unreadable or expired one;
//! here the proxy's path is taken as given.

use super::ad::*;
use super::values::{full_path, string_is_boolean};

/// The effective uid, for GSI's default proxy `/tmp/x509up_u<uid>`
/// (read from /proc, as there is no libc here).
fn euid() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("Uid:"))?;
    line.split_whitespace().nth(2)?.parse().ok()
}

impl Job<'_> {
    /// `getenv` in the submitting environment.
    fn submit_env(&self, name: &str) -> Option<String> {
        self.ctx
            .env
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    }

    pub fn set_gsi_credentials(&mut self) {
        if self.aborted {
            return;
        }
        let proxy = self.param("x509userproxy");
        let (use_proxy, _) = self.param_bool("use_x509userproxy", None, false);
        let proxy_file = match &proxy {
            Some(p) => Some((p.value.clone(), from(p))),
            None if use_proxy => {
                // get_x509_proxy_filename: $X509_USER_PROXY, else GSI's default.
                let f = self
                    .submit_env("X509_USER_PROXY")
                    .or_else(|| euid().map(|u| format!("/tmp/x509up_u{u}")));
                match f {
                    Some(f) => Some((f, derived("use_x509userproxy: GSI's default proxy"))),
                    None => {
                        let p = self.param("use_x509userproxy");
                        return self.error_at(
                            "Can't determine proxy filename\nX509 user proxy is required for this job.",
                            p.as_ref(),
                        );
                    }
                }
            }
            None => None,
        };
        if let Some((f, origin)) = proxy_file {
            let full = full_path(&self.iwd, &f);
            self.assign_str("x509userproxy", &full, origin);
        }
        if let Some(p) = self.param2(
            "delegate_job_gsi_credentials_lifetime",
            "DelegateJobGSICredentialsLifetime",
        ) {
            // strtol with nothing left over.
            let t = p.value.trim_start();
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            let ok = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            if ok {
                // strtol saturates; the int it lands in is clamped here.
                let sat = if t.starts_with('-') {
                    i64::MIN
                } else {
                    i64::MAX
                };
                let n = t.parse::<i64>().unwrap_or(sat);
                let n = n.clamp(i32::MIN as i64, i32::MAX as i64);
                self.assign_int("DelegateJobGSICredentialsLifetime", n, from(&p));
            } else {
                let msg = format!(
                    "invalid integer setting delegate_job_gsi_credentials_lifetime = {}",
                    p.value
                );
                return self.error_at(&msg, Some(&p));
            }
        }
        self.set_scitokens();
    }

    /// `use_scitokens = true|false|auto` and `scitokens_file`.
    fn set_scitokens(&mut self) {
        let cmd = self.param2("use_scitokens", "use_scitoken");
        let file = self.param2("scitokens_file", "ScitokensFile");
        let mut use_it = file.is_some();
        if let Some(c) = &cmd {
            if c.value.eq_ignore_ascii_case("auto") {
                use_it = file.is_some()
                    || self
                        .submit_env("BEARER_TOKEN_FILE")
                        .is_some_and(|v| !v.is_empty());
            } else {
                match string_is_boolean(&c.value) {
                    Some(b) => use_it = b,
                    None => {
                        return self.error_at(
                            "use_scitokens error. Value should be true, false, or auto.",
                            Some(c),
                        )
                    }
                }
            }
        }
        if !use_it {
            return;
        }
        let (token, origin) = match &file {
            Some(p) => (p.value.clone(), from(p)),
            None => match self.submit_env("BEARER_TOKEN_FILE") {
                Some(t) => (t, derived("the BEARER_TOKEN_FILE environment variable")),
                None => {
                    return self.error_at(
                        "No Scitokens filename specified. Expected either scitokens_file command or the BEARER_TOKEN_FILE environment variable to be set.",
                        cmd.as_ref(),
                    )
                }
            },
        };
        let full = full_path(&self.iwd, &token);
        self.assign_str("ScitokensFile", &full, origin);
    }
}
