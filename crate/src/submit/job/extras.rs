//! The smaller steps of `make_job_ad`: SUBMIT_ATTRS, concurrency limits,
//! accounting groups, OAuth services, job deferral, container services,
//! the automatic attributes, common-mistake checks and `+Attr`/`MY.Attr`.

use super::ad::*;
use super::values::{split_list, string_is_long};
use crate::lang::ast::Value;

impl Job<'_> {
    /// SUBMIT_ATTRS / SUBMIT_EXPRS / SYSTEM_SUBMIT_ATTRS: configuration
    /// values copied into every job (`+Name` entries wait until the end).
    pub fn set_submit_attrs_base(&mut self) {
        let mut names: Vec<String> = vec![];
        for list in ["SUBMIT_ATTRS", "SUBMIT_EXPRS", "SYSTEM_SUBMIT_ATTRS"] {
            if let Some(v) = self.config(list) {
                for n in split_list(&v, ", \t\r\n") {
                    if !names.iter().any(|m| m.eq_ignore_ascii_case(&n)) {
                        names.push(n);
                    }
                }
            }
        }
        // A References set is sorted without regard to case.
        names.sort_by_key(|n| n.to_ascii_lowercase());
        for n in names {
            if let Some(rest) = n.strip_prefix('+') {
                self.forced_submit_attrs.push(rest.to_string());
            } else if n.len() > 3 && n[..3].eq_ignore_ascii_case("MY.") {
                self.forced_submit_attrs.push(n[3..].to_string());
            } else if let Some(v) = self.config(&n) {
                if let Ok(e) =
                    crate::lang::parser::parse_expr_in(&v, crate::lang::lexer::Dialect::Modern)
                {
                    self.insert(&n, e, config(&n));
                }
            }
        }
    }

    pub fn set_forced_submit_attrs(&mut self) {
        for n in self.forced_submit_attrs.clone() {
            if let Some(v) = self.config(&n) {
                self.assign_expr(&n, &v, config(&n));
            }
        }
    }

    pub fn set_concurrency_limits(&mut self) {
        if self.aborted {
            return;
        }
        let cl = self.param("concurrency_limits");
        let cle = self.param("concurrency_limits_expr");
        if let Some(p) = &cl {
            if cle.is_some() {
                return self.error_at(
                    "concurrency_limits and concurrency_limits_expr can't be used together",
                    Some(p),
                );
            }
            let mut list = split_list(&p.value.to_ascii_lowercase(), ", \t\r\n");
            for l in &list {
                if !valid_limit(l) {
                    return self.error_at(&format!("Invalid concurrency limit '{l}'"), Some(p));
                }
            }
            list.sort();
            if !list.is_empty() {
                self.assign_str("ConcurrencyLimits", &list.join(","), from(p));
            }
        } else if let Some(p) = &cle {
            self.assign_expr("ConcurrencyLimits", &p.value, from(p));
        }
    }

    pub fn set_accounting_group(&mut self) {
        if self.aborted {
            return;
        }
        let mut group = self
            .param2("accounting_group", "AccountingGroup")
            .map(|p| (p.value.clone(), from(&p)));
        let (nice, np) = self.param_bool("nice_user", Some("NiceUser"), false);
        if nice {
            let nicegroup = self
                .config("NICE_USER_ACCOUNTING_GROUP_NAME")
                .unwrap_or_else(|| "nice-user".into());
            match &group {
                None => {
                    let o = np
                        .as_ref()
                        .map(from)
                        .unwrap_or_else(|| default("nice_user"));
                    group = Some((nicegroup, o));
                }
                Some((g, _)) if *g != nicegroup => {
                    self.warn_at(
                        "nice_user conflicts with accounting_group. nice_user will be ignored",
                        np.as_ref(),
                    );
                }
                _ => {}
            }
            let o = np
                .as_ref()
                .map(from)
                .unwrap_or_else(|| default("nice_user"));
            self.assign_int("MaxJobRetirementTime", 0, o);
        }
        let gu = self.param2("accounting_group_user", "AcctGroupUser");
        if group.is_none() && gu.is_none() {
            return;
        }
        let (user, uo) = match &gu {
            Some(p) => (p.value.clone(), from(p)),
            None => (
                self.ctx.owner.clone().unwrap_or_default(),
                derived("the submitting user"),
            ),
        };
        let valid = |s: &str| {
            !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || c == '@' || c == '"')
        };
        if let Some((g, _)) = &group {
            if !valid(g) {
                let p = self.param2("accounting_group", "AccountingGroup");
                return self.error_at(&format!("Invalid accounting_group: {g}"), p.as_ref());
            }
        }
        if !valid(&user) {
            return self.error_at(
                &format!("Invalid accounting_group_user: {user}"),
                gu.as_ref(),
            );
        }
        self.assign_str("AcctGroupUser", &user, uo.clone());
        match group {
            Some((g, go)) => {
                self.assign_str("AcctGroup", &g, go.clone());
                self.assign_str("AccountingGroup", &format!("{g}.{user}"), go);
            }
            None => self.assign_str("AccountingGroup", &user, uo),
        }
    }

    /// `SetOAuth`: use_oauth_services plus `<service>_oauth_*_<handle>`
    /// keys make OAuthServicesNeeded.
    pub fn set_oauth(&mut self) {
        if self.aborted {
            return;
        }
        let Some(p) = self.param2("use_oauth_services", "UseOAuthServices") else {
            return;
        };
        let enabled = split_list(&p.value, ", \t\r\n");
        let has = |set: &[String], n: &str| set.iter().any(|s| s.eq_ignore_ascii_case(n));
        let mut names: Vec<String> = vec![];
        let mut with_handles: Vec<String> = vec![];
        for (key, _) in self.hash.keys() {
            if key.starts_with('+') || key.to_ascii_lowercase().starts_with("my.") {
                continue;
            }
            let low = key.to_ascii_lowercase();
            let found = ["_oauth_permissions", "_oauth_resource", "_oauth_options"]
                .iter()
                .filter_map(|pat| low.find(pat).map(|i| (i, i + pat.len())))
                .min();
            let Some((start, end)) = found else { continue };
            if start == 0 {
                continue;
            }
            let mut service = key[..start].to_string();
            if !has(&enabled, &service) {
                continue;
            }
            if end < key.len() {
                with_handles.push(service.clone());
                service = format!("{}*{}", service, &key[(end + 1).min(key.len())..]);
            }
            if !has(&names, &service) {
                names.push(service);
            }
        }
        for e in &enabled {
            if !has(&with_handles, e) && !has(&names, e) {
                names.push(e.clone());
            }
        }
        names.sort_by_key(|n| n.to_ascii_lowercase());
        if !names.is_empty() {
            self.assign_str("OAuthServicesNeeded", &names.join(","), from(&p));
        }
    }

    /// Which attribute makes the job need deferral (`NeedsJobDeferral`).
    pub fn needs_deferral(&self) -> Option<&'static str> {
        [
            "CronMinute",
            "CronHour",
            "CronDayOfMonth",
            "CronMonth",
            "CronDayOfWeek",
            "DeferralTime",
        ]
        .into_iter()
        .find(|a| self.has(a))
    }

    fn deferral_int(&mut self, keys: &[(&str, &str)], attr: &str, name: &str, def: i64) {
        let p = keys.iter().find_map(|(k, a)| self.param2(k, a));
        match p {
            Some(p) => {
                if !self.assign_expr(attr, &p.value, from(&p)) {
                    return;
                }
                let bad = match self.lookup(attr).and_then(|e| e.as_literal()) {
                    Some(Value::Int(i)) => *i < 0,
                    Some(_) => true,
                    None => false,
                };
                if bad {
                    let msg = format!(
                        "{} = {} is invalid, must eval to a non-negative integer.",
                        name, p.value
                    );
                    self.error_at(&msg, Some(&p));
                }
            }
            None if def >= 0 => self.assign_int(attr, def, default("job deferral default")),
            None => {}
        }
    }

    pub fn set_job_deferral(&mut self) {
        if self.aborted {
            return;
        }
        self.deferral_int(
            &[("deferral_time", "DeferralTime")],
            "DeferralTime",
            "deferral_time",
            -1,
        );
        if self.aborted || self.needs_deferral().is_none() {
            return;
        }
        self.deferral_int(
            &[
                ("cron_window", "CronWindow"),
                ("deferral_window", "DeferralWindow"),
            ],
            "DeferralWindow",
            "deferral_window",
            0,
        );
        self.deferral_int(
            &[
                ("cron_prep_time", "CronPrepTime"),
                ("deferral_prep_time", "DeferralPrepTime"),
            ],
            "DeferralPrepTime",
            "deferral_prep_time",
            300,
        );
    }

    pub fn set_container_special(&mut self) {
        if self.aborted || !(self.is_docker || self.is_container) {
            return;
        }
        let Some(p) = self.param2("container_service_names", "ContainerServiceNames") else {
            return;
        };
        self.assign_str("ContainerServiceNames", &p.value, from(&p));
        for service in split_list(&p.value, ", \t\r\n") {
            let key = format!("{service}_container_port");
            let port = self
                .param(&key)
                .and_then(|q| string_is_long(&q.value).map(|v| (v, q)));
            match port {
                Some((n, q)) if (0..=65535).contains(&n) => {
                    self.assign_int(&format!("{service}_ContainerPort"), n, from(&q));
                }
                _ => {
                    let msg = format!(
                        "Requested container service '{service}' was not assigned a port, or the assigned port was not valid."
                    );
                    return self.error_at(&msg, Some(&p));
                }
            }
        }
    }

    pub fn set_auto_attributes(&mut self) {
        if self.aborted {
            return;
        }
        if !self.has("MaxHosts") && self.universe != U_MPI {
            self.assign_int("MinHosts", 1, default("one host"));
            self.assign_int("MaxHosts", 1, default("one host"));
        }
        if !self.has("CurrentHosts") {
            self.assign_int("CurrentHosts", 0, default("no hosts yet"));
        }
        if self.has("SuccessCheckpointExitCode") {
            self.assign_bool(
                "WantFTOnCheckpoint",
                true,
                derived("checkpoint_exit_code is set"),
            );
        }
        if !self.has("MaxJobRetirementTime") && self.lookup_bool("NiceUser").unwrap_or(false) {
            self.assign_int("MaxJobRetirementTime", 0, derived("nice_user"));
        }
        let can_reconnect = matches!(self.universe, U_VANILLA | U_JAVA | U_PARALLEL | U_VM);
        if can_reconnect && !self.has("JobLeaseDuration") {
            let v = self
                .config("JOB_DEFAULT_LEASE_DURATION")
                .unwrap_or_else(|| "2400".into());
            let o = if self.cfg().get("JOB_DEFAULT_LEASE_DURATION").is_some() {
                config("JOB_DEFAULT_LEASE_DURATION")
            } else {
                default("JOB_DEFAULT_LEASE_DURATION is 2400 for jobs that can reconnect")
            };
            self.assign_expr("JobLeaseDuration", &v, o);
        }
        if !self.has("JobPrio") {
            self.assign_int("JobPrio", 0, default("priority 0"));
        }
        if self.has("JobStarterLog") && !self.has("JobStarterDebug") {
            self.assign_bool("JobStarterDebug", true, derived("starter_log is set"));
        }
    }

    pub fn report_common_mistakes(&mut self) {
        if self.aborted {
            return;
        }
        if let Some(who) = self.lookup_str("NotifyUser") {
            if who.eq_ignore_ascii_case("false") || who.eq_ignore_ascii_case("never") {
                let dom = self.config("UID_DOMAIN").unwrap_or_default();
                let msg = format!(
                    "You used  notify_user={who}  in your submit file.\nThis means notification email will go to user \"{who}@{dom}\".\nThis is probably not what you expect!\nIf you do not want notification email, put \"notification = never\"\ninto your submit file, instead."
                );
                let p = self.param2("notify_user", "NotifyUser");
                self.warn_at(&msg, p.as_ref());
            }
        }
        if let Some(h) = self.lookup_int("JobMachineAttrsHistoryLength") {
            if !(0..=i32::MAX as i64).contains(&h) {
                let p = self.param("job_machine_attrs_history_length");
                let msg = format!(
                    "job_machine_attrs_history_length={h} is out of bounds 0 to {}",
                    i32::MAX
                );
                return self.error_at(&msg, p.as_ref());
            }
        }
        if let Some(Value::Int(d)) = self
            .lookup("JobLeaseDuration")
            .and_then(|e| e.as_literal())
            .cloned()
        {
            if d > 0 && d < 20 {
                let p = self.param2("job_lease_duration", "JobLeaseDuration");
                self.warn_at(
                    "JobLeaseDuration less than 20 seconds is not allowed, using 20 instead",
                    p.as_ref(),
                );
                self.assign_int("JobLeaseDuration", 20, derived("at least 20 seconds"));
            }
        }
        if self.universe == U_SCHEDULER && self.has("DeferralTime") {
            let attr = self.needs_deferral().unwrap_or("DeferralTime");
            let msg = format!(
                "{attr} does not work for scheduler universe jobs.\nConsider submitting this job using the local universe, instead"
            );
            return self.error_at(&msg, None);
        }
        if self.has("OutputDestination") && self.has("OutputDirectory") {
            self.error_at(
                "You cannot use both output_destination and output_directory in the same submit file",
                None,
            );
        }
    }

    /// `SetForcedAttributes`: `+Attr` and `MY.Attr` lines (one macro
    /// `MY.Attr` per name: the first spelling, the last value), inserted
    /// as expressions in the macro table's order (an empty value is
    /// `undefined`); then ProcId.
    pub fn set_forced_attributes(&mut self) {
        if self.aborted {
            return;
        }
        // (name as first written, key of the last line setting it)
        let mut forced: Vec<(String, String)> = vec![];
        for (key, _) in self.hash.keys() {
            let name = if let Some(n) = key.strip_prefix('+') {
                n
            } else if key.len() > 3 && key[..3].eq_ignore_ascii_case("MY.") {
                &key[3..]
            } else {
                continue;
            };
            let name = name.trim().to_string();
            match forced
                .iter_mut()
                .find(|(n, _)| n.eq_ignore_ascii_case(&name))
            {
                Some(entry) => entry.1 = key.clone(),
                None => forced.push((name, key.clone())),
            }
        }
        forced.sort_by_key(|(n, _)| n.to_ascii_lowercase());
        for (name, key) in forced {
            let Some(p) = self.hash.param(&key) else {
                continue;
            };
            let v = if p.value.trim().is_empty() {
                "undefined".to_string()
            } else {
                p.value.clone()
            };
            if !self.assign_expr(&name, &v, from(&p)) {
                return;
            }
        }
        self.assign_int(
            "ProcId",
            self.ctx.proc,
            derived("the job's number in its cluster"),
        );
    }
}

/// `ParseConcurrencyLimit`: `name` or `name:increment` with a positive
/// number; the name may have one dot.
fn valid_limit(l: &str) -> bool {
    let (name, inc) = match l.split_once(':') {
        Some((n, i)) => (n, Some(i)),
        None => (l, None),
    };
    let name_ok = !name.is_empty()
        && name.split('.').count() <= 2
        && name
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    let inc_ok = match inc {
        None => true,
        Some(i) => i.trim().parse::<f64>().is_ok_and(|v| v > 0.0),
    };
    name_ok && inc_ok
}
