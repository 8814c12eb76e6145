//! `request_*`: memory in MiB and disk in KiB with units, cpus, GPUs and
//! their property limits, custom resources, and the `require_gpus`
//! clauses condor_submit completes (`SetRequestResources`,
//! `SetRequestMem/Disk/Cpus/Gpus`, `SetResourceRequirements`,
//! `SetImageSize`).

use super::ad::*;
use super::values::{parse_bytes, parse_bytes_until};
use crate::submit::config::HtcVersion;
use crate::submit::hash::Param;
use crate::submit::origin::Origin;

/// Configuration defaults for the four built-in requests, by version.
fn builtin_default(version: HtcVersion, key: &str) -> Option<&'static str> {
    match (version, key) {
        (HtcVersion::V24, "JOB_DEFAULT_REQUESTMEMORY") => {
            Some("ifthenelse(MemoryUsage =!= UNDEFINED,MemoryUsage,(ImageSize+1023)/1024)")
        }
        (HtcVersion::V24, "JOB_DEFAULT_REQUESTDISK") => Some("DiskUsage"),
        (HtcVersion::V25, "JOB_DEFAULT_REQUESTMEMORY") => Some("128"),
        (HtcVersion::V25, "JOB_DEFAULT_REQUESTDISK") => {
            Some("MAX({1024, (TransferInputSizeMB+1) * 1.25}) * 1024")
        }
        (_, "JOB_DEFAULT_REQUESTCPUS") => Some("1"),
        _ => None,
    }
}

impl Job<'_> {
    /// The submit value, or the configured default when unset (and the
    /// ad has none yet).
    fn request_value(
        &self,
        key: &str,
        attr: &str,
        cfg_key: &str,
    ) -> Option<(String, Option<Param>, Origin)> {
        if let Some(p) = self.param2(key, attr) {
            return Some((p.value.clone(), Some(p.clone()), from(&p)));
        }
        if self.has(attr) {
            return None;
        }
        if let Some(v) = self.config(cfg_key) {
            return Some((v, None, config(cfg_key)));
        }
        builtin_default(self.cfg().version, cfg_key).map(|v| {
            let why = format!("condor_submit's default {cfg_key} when {key} is not set");
            (v.to_string(), None, default(&why))
        })
    }

    /// A size with units, in `base` bytes; a bare number warns or fails
    /// under SUBMIT_REQUEST_MISSING_UNITS.
    fn request_size(&mut self, key: &str, attr: &str, cfg_key: &str, base: i64, unit_word: &str) {
        // A vm job's memory request defaults to the vm's memory.
        if attr == "RequestMemory"
            && self.param2(key, attr).is_none()
            && !self.has(attr)
            && self.has("JobVMMemory")
        {
            self.warn_at(
                "request_memory was NOT specified.  Using RequestMemory = MY.JobVMMemory",
                None,
            );
            self.assign_expr(
                attr,
                "MY.JobVMMemory",
                derived("a vm job without request_memory"),
            );
            return;
        }
        let Some((v, p, o)) = self.request_value(key, attr, cfg_key) else {
            return;
        };
        // 25 reads `a, b, …` as a first request and its retries.
        let v25 = self.cfg().version == HtcVersion::V25;
        let parsed = if v25 {
            parse_bytes_until(&v, base, Some(b',')).map(|(n, u, end)| (n, u, Some(end)))
        } else {
            parse_bytes(&v, base).map(|(n, u)| (n, u, None))
        };
        if let Some((n, unit, end)) = parsed {
            if let Some(missing) = self.config("SUBMIT_REQUEST_MISSING_UNITS") {
                if !unit {
                    let (must, level) = if missing.eq_ignore_ascii_case("error") {
                        ("must", "ERROR")
                    } else {
                        ("should", "WARNING")
                    };
                    let suffix = if base == 1024 {
                        "(i.e K, M, or B)"
                    } else {
                        "(i.e K, M, G or T)"
                    };
                    let but = if base == 1024 { "" } else { "but " };
                    let msg = format!(
                        "{level}: {key}={v} defaults to {unit_word}, {but}{must} contain a units suffix {suffix}"
                    );
                    if level == "ERROR" {
                        return self.error_at(&msg, p.as_ref());
                    }
                    self.warn_at(&msg, p.as_ref());
                }
            }
            self.assign_int(attr, n, o);
            if let Some(end) = end {
                // `endp[0] == ',' && endp[1]`: something after the comma.
                let after = v
                    .get(end + 1..)
                    .filter(|_| v[end..].starts_with(','))
                    .unwrap_or("");
                self.set_request_retries(attr, key, base, after);
            }
        } else if v.eq_ignore_ascii_case("undefined") {
            // no request at all
        } else {
            self.assign_expr(attr, &v, o);
        }
    }

    fn request_plain(&mut self, key: &str, attr: &str, cfg_key: &str) {
        let Some((v, _, o)) = self.request_value(key, attr, cfg_key) else {
            return;
        };
        if !v.eq_ignore_ascii_case("undefined") {
            self.assign_expr(attr, &v, o);
        }
    }

    fn set_request_gpus(&mut self) {
        self.request_plain("request_gpus", "RequestGPUs", "JOB_DEFAULT_REQUESTGPUS");
        if !self.has("RequestGPUs") {
            return;
        }
        if let Some(p) = self.param2("require_gpus", "RequireGPUs") {
            self.assign_expr("RequireGPUs", &p.value, from(&p));
        }
        for (key, attr) in [
            ("gpus_minimum_capability", "GPUsMinCapability"),
            ("gpus_maximum_capability", "GPUsMaxCapability"),
        ] {
            if let Some(p) = self.param2(key, attr) {
                self.assign_expr(attr, &p.value, from(&p));
            }
        }
        if let Some(p) = self.param2("gpus_minimum_memory", "GPUsMinMemory") {
            match parse_bytes(&p.value, 1 << 20) {
                Some((n, unit)) => {
                    if let Some(missing) = self
                        .config("SUBMIT_REQUEST_MISSING_UNITS")
                        .filter(|_| !unit)
                    {
                        let v = &p.value;
                        if missing.eq_ignore_ascii_case("error") {
                            let msg = format!("ERROR: gpus_minimum_memory={v} defaults to megabytes, but must contain a units suffix (i.e K, M, or B)");
                            return self.error_at(&msg, Some(&p));
                        }
                        let msg = format!("WARNING: gpus_minimum_memory={v} defaults to megabytes, but should contain a units suffix (i.e K, M, or B)");
                        self.warn_at(&msg, Some(&p));
                    }
                    self.assign_int("GPUsMinMemory", n, from(&p));
                }
                None => {
                    self.assign_expr("GPUsMinMemory", &p.value, from(&p));
                }
            }
        } else if let Some(p) = self.param2("request_gpu_memory", "request_gpus_memory") {
            self.warn_at(
                "WARNING: request_gpu_memory is not a submit command, did you mean gpus_minimum_memory?",
                Some(&p),
            );
        }
        if let Some(p) = self.param2("gpus_minimum_runtime", "GPUsMinRuntime") {
            match runtime_version(&p.value) {
                Some(v) => self.assign_int("GPUsMinRuntime", v, from(&p)),
                None => {
                    self.assign_expr("GPUsMinRuntime", &p.value, from(&p));
                }
            }
        }
    }

    /// `SetRequestResources`: every `request_<name>` key, then the four
    /// built-in ones whether or not they are set.
    pub fn set_request_resources(&mut self) {
        if self.aborted {
            return;
        }
        let mut keys: Vec<(String, u32)> = self.hash.keys();
        // The macro table is kept sorted without regard to case.
        keys.sort_by_key(|(k, _)| k.to_ascii_lowercase());
        keys.dedup_by(|a, b| a.0.eq_ignore_ascii_case(&b.0));
        let mut done = [false; 4];
        for (key, _) in keys {
            let low = key.to_ascii_lowercase();
            let Some(rname) = low
                .strip_prefix("request_")
                .map(|_| &key["request_".len()..])
            else {
                continue;
            };
            match low.as_str() {
                // condor_submit's common mistakes: said, not used.
                "request_cpu" | "request_gpu" => {
                    let p = self.param(&key);
                    let msg = format!("{key} is not a valid submit keyword, did you mean {low}s?");
                    self.warn_at(&msg, p.as_ref());
                    continue;
                }
                "request_cpus" => {
                    done[0] = true;
                    self.request_plain("request_cpus", "RequestCpus", "JOB_DEFAULT_REQUESTCPUS");
                }
                "request_gpus" => {
                    done[1] = true;
                    self.set_request_gpus();
                }
                "request_disk" => {
                    done[2] = true;
                    self.request_size(
                        "request_disk",
                        "RequestDisk",
                        "JOB_DEFAULT_REQUESTDISK",
                        1024,
                        "kilobytes",
                    );
                }
                "request_memory" => {
                    done[3] = true;
                    self.request_size(
                        "request_memory",
                        "RequestMemory",
                        "JOB_DEFAULT_REQUESTMEMORY",
                        1 << 20,
                        "megabytes",
                    );
                }
                "request_gpu_memory" | "request_gpus_memory" => {}
                _ => {
                    if rname.len() < 2 || rname.starts_with('_') {
                        continue;
                    }
                    let Some(p) = self.param(&key) else { continue };
                    if p.value.starts_with('"') {
                        self.string_requests.push(rname.to_string());
                    }
                    self.assign_expr(&format!("Request{rname}"), &p.value, from(&p));
                }
            }
            if self.aborted {
                return;
            }
        }
        if !done[0] {
            self.request_plain("request_cpus", "RequestCpus", "JOB_DEFAULT_REQUESTCPUS");
        }
        if !done[1] {
            self.set_request_gpus();
        }
        if !done[2] {
            self.request_size(
                "request_disk",
                "RequestDisk",
                "JOB_DEFAULT_REQUESTDISK",
                1024,
                "kilobytes",
            );
        }
        if !done[3] {
            self.request_size(
                "request_memory",
                "RequestMemory",
                "JOB_DEFAULT_REQUESTMEMORY",
                1 << 20,
                "megabytes",
            );
        }
    }

    /// `SetResourceRequirements`: gpus_minimum_* become clauses of
    /// RequireGPUs unless it already constrains that property.
    pub fn set_resource_requirements(&mut self) {
        if self.aborted || !self.has("RequestGPUs") {
            return;
        }
        let require = self.lookup("RequireGPUs").cloned();
        let props: Vec<String> = match &require {
            Some(e) => {
                let (internal, external) = super::requirements::references(e);
                internal.into_iter().chain(external).collect()
            }
            None => vec![],
        };
        let refs = |name: &str| props.iter().any(|p| p.eq_ignore_ascii_case(name));
        let mut clauses: Vec<&str> = vec![];
        if self.has("GPUsMinCapability") && !refs("Capability") {
            clauses.push("Capability >= GPUsMinCapability");
        }
        if self.has("GPUsMaxCapability") && !refs("Capability") {
            clauses.push("Capability <= GPUsMaxCapability");
        }
        if self.has("GPUsMinMemory") && !refs("GlobalMemoryMb") {
            clauses.push("GlobalMemoryMb >= GPUsMinMemory");
        }
        if self.has("GPUsMinRuntime") && !refs("MaxSupportedVersion") {
            clauses.push("MaxSupportedVersion >= GPUsMinRuntime");
        }
        if clauses.is_empty() {
            return;
        }
        let text = match &require {
            Some(e) => {
                let t = crate::lang::unparse::unparse(e);
                format!(
                    "{} && {}",
                    super::policy::wrap_for(e, crate::lang::ast::BinaryOp::And, &t),
                    clauses.join(" && ")
                )
            }
            None => clauses.join(" && "),
        };
        self.assign_expr("RequireGPUs", &text, derived("gpus_minimum_* set"));
    }

    /// `SetImageSize`: ExecutableSize and ImageSize (file sizes are not
    /// known here: 0 unless image_size is given).
    pub fn set_image_size(&mut self) {
        if self.aborted {
            return;
        }
        if self.universe != U_VM {
            self.assign_int(
                "ExecutableSize",
                0,
                default("the executable's size (not measured)"),
            );
        }
        if let Some(p) = self.param2("image_size", "ImageSize") {
            let kb = parse_bytes(&p.value, 1024).map(|(n, _)| n);
            if kb.is_none() {
                self.error_at(
                    &format!("'{}' is not valid for Image Size", p.value),
                    Some(&p),
                );
            }
            match kb {
                Some(n) if n >= 1 => self.assign_int("ImageSize", n, from(&p)),
                _ => self.error_at("Image Size must be positive", Some(&p)),
            }
        } else if !self.has("ImageSize") {
            let exe = self.lookup_int("ExecutableSize").unwrap_or(0);
            self.assign_int("ImageSize", exe, derived("the executable's size"));
        }
    }
}

/// `gpus_minimum_runtime`: `x` or `x.y` as x*1000 + y*10 (a number over
/// 1000 is already in that form).
fn runtime_version(s: &str) -> Option<i64> {
    let (maj, min) = match s.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let all_digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(maj) || min.is_some_and(|m| !all_digits(m)) {
        return None;
    }
    let major: i64 = maj.parse().ok()?;
    match min {
        None if major > 1000 => Some(major),
        None => Some(major * 1000),
        Some(m) => {
            let minor: i64 = m.parse().ok()?;
            (minor < 100).then_some(major * 1000 + minor * 10)
        }
    }
}
