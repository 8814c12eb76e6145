//! Job status, standard files, notification, rank and the policy
//! expressions (`SetJobStatus`, `SetStdin/out/err`, `SetNotification`,
//! `SetRank`, `SetPeriodicExpressions`, `SetLeaveInQueue`,
//! `SetJobRetries`, `SetKillSig`).

use super::ad::*;
use crate::submit::hash::Param;

/// Linux signal numbers and names, as condor's `sig_name.cpp` lists them.
const SIGNALS: &[(i64, &str)] = &[
    (1, "SIGHUP"),
    (2, "SIGINT"),
    (3, "SIGQUIT"),
    (4, "SIGILL"),
    (5, "SIGTRAP"),
    (6, "SIGABRT"),
    (7, "SIGBUS"),
    (8, "SIGFPE"),
    (9, "SIGKILL"),
    (10, "SIGUSR1"),
    (11, "SIGSEGV"),
    (12, "SIGUSR2"),
    (13, "SIGPIPE"),
    (14, "SIGALRM"),
    (15, "SIGTERM"),
    (17, "SIGCHLD"),
    (18, "SIGCONT"),
    (19, "SIGSTOP"),
    (20, "SIGTSTP"),
    (21, "SIGTTIN"),
    (22, "SIGTTOU"),
    (23, "SIGURG"),
    (24, "SIGXCPU"),
    (25, "SIGXFSZ"),
    (27, "SIGPROF"),
    (28, "SIGWINCH"),
    (29, "SIGIO"),
    (31, "SIGSYS"),
];

impl Job<'_> {
    pub fn set_job_status(&mut self) {
        if self.aborted {
            return;
        }
        let (hold, hp) = self.param_bool("hold", None, false);
        if hold {
            let o = hp.as_ref().map(from).unwrap_or_else(|| default("hold"));
            self.assign_int("JobStatus", 5, o.clone());
            self.assign_int("HoldReasonCode", 15, o.clone());
            self.assign_str("HoldReason", "submitted on hold at user's request", o);
        } else {
            self.assign_int("JobStatus", 1, default("a new job is idle"));
        }
        self.assign_int(
            "EnteredCurrentStatus",
            self.ctx.qdate,
            derived("the submit time"),
        );
    }

    /// `SetStdin`, `SetStdout`, `SetStderr`: one file each, `/dev/null`
    /// when unset (and then not transferred).
    pub fn set_std_file(&mut self, which: usize) {
        if self.aborted {
            return;
        }
        let (tkey, tattr, skey, sattr, key, alt, attr) = [
            (
                "transfer_input",
                "TransferIn",
                "stream_input",
                "StreamIn",
                "input",
                "stdin",
                "In",
            ),
            (
                "transfer_output",
                "TransferOut",
                "stream_output",
                "StreamOut",
                "output",
                "stdout",
                "Out",
            ),
            (
                "transfer_error",
                "TransferErr",
                "stream_error",
                "StreamErr",
                "error",
                "stderr",
                "Err",
            ),
        ][which.min(2)];
        let mut transfer_it = self.lookup_bool(tattr).unwrap_or(true);
        let (t, tp) = self.param_bool(tkey, Some(tattr), transfer_it);
        let must_set = t != transfer_it;
        transfer_it = t;
        let cur_stream = self.lookup_bool(sattr).unwrap_or(false);
        let (mut stream_it, sp) = self.param_bool(skey, Some(sattr), cur_stream);
        let value = self.param2(key, alt);
        if value.is_some() || !self.has(attr) {
            let file = value.as_ref().map(|v| v.value.clone()).unwrap_or_default();
            let file = if file.is_empty() || file == "/dev/null" {
                transfer_it = false;
                stream_it = false;
                "/dev/null".to_string()
            } else {
                if self.universe == U_VM {
                    self.error_at(
                        "You cannot use input, ouput, and error parameters in the submit description file for vm universe",
                        value.as_ref(),
                    );
                    return;
                }
                file
            };
            let o = value
                .as_ref()
                .map(from)
                .unwrap_or_else(|| default("no file: /dev/null"));
            self.assign_str(attr, &file, o);
        }
        let why = |p: &Option<Param>, d: &str| p.as_ref().map(from).unwrap_or_else(|| default(d));
        if transfer_it {
            self.assign_bool(sattr, stream_it, why(&sp, "not streamed unless asked"));
            if must_set {
                self.assign_bool(tattr, transfer_it, why(&tp, "transferred"));
            }
        } else {
            let o = tp
                .as_ref()
                .map(from)
                .unwrap_or_else(|| derived("nothing to transfer for /dev/null"));
            self.assign_bool(tattr, false, o);
        }
    }

    pub fn set_notification(&mut self) {
        if self.aborted {
            return;
        }
        let p = self.param2("notification", "JobNotification");
        let how = p
            .as_ref()
            .map(|p| p.value.clone())
            .or_else(|| self.config("JOB_DEFAULT_NOTIFICATION"));
        let n = match how.as_deref().map(str::to_ascii_lowercase).as_deref() {
            None | Some("never") => 0,
            Some("always") => 1,
            Some("complete") => 2,
            Some("error") => 3,
            Some("start") => 4,
            Some(_) => {
                self.error_at(
                    "Notification must be 'Never', 'Always', 'Complete', 'Start', or 'Error'",
                    p.as_ref(),
                );
                return;
            }
        };
        let o = match &p {
            Some(p) => from(p),
            None if how.is_some() => config("JOB_DEFAULT_NOTIFICATION"),
            None => default("no notification"),
        };
        self.assign_int("JobNotification", n, o);
    }

    pub fn set_rank(&mut self) {
        if self.aborted {
            return;
        }
        let orig = self.param2("rank", "preferences");
        let mut default_rank = None;
        let mut append_rank = None;
        if self.universe == U_VANILLA {
            default_rank = self
                .config("DEFAULT_RANK_VANILLA")
                .map(|v| (v, "DEFAULT_RANK_VANILLA"));
            append_rank = self
                .config("APPEND_RANK_VANILLA")
                .map(|v| (v, "APPEND_RANK_VANILLA"));
        }
        if default_rank.is_none() {
            default_rank = self.config("DEFAULT_RANK").map(|v| (v, "DEFAULT_RANK"));
        }
        if append_rank.is_none() {
            append_rank = self.config("APPEND_RANK").map(|v| (v, "APPEND_RANK"));
        }
        let rank = match (&orig, &default_rank) {
            (Some(p), _) => Some((p.value.clone(), from(p))),
            (None, Some((v, k))) => Some((v.clone(), config(k))),
            _ => None,
        };
        let rank = match (rank, append_rank) {
            (Some((r, _)), Some((a, k))) => Some((format!("({r}) + ({a})"), config(k))),
            (None, Some((a, k))) => Some((a, config(k))),
            (r, None) => r,
        };
        match rank {
            Some((text, o)) => {
                self.assign_expr("Rank", &text, o);
            }
            None => self.assign_val(
                "Rank",
                crate::lang::ast::Value::Real(0.0),
                default("no rank: 0.0"),
            ),
        }
    }

    /// Assign an expression key when set; with `policy_default`, condor's
    /// SUBMIT_INSERT_DEFAULT_POLICY_EXPRS value when unset.
    fn expr_key(&mut self, key: &str, attr: &str, policy_default: Option<bool>) {
        if let Some(p) = self.param2(key, attr) {
            self.assign_expr(attr, &p.value, from(&p));
        } else if let Some(b) = policy_default {
            if self.config_bool("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS", false) && !self.has(attr) {
                self.assign_bool(attr, b, config("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS"));
            }
        }
    }

    pub fn set_periodic_expressions(&mut self) {
        if self.aborted {
            return;
        }
        self.expr_key("periodic_hold", "PeriodicHold", Some(false));
        self.expr_key("periodic_hold_reason", "PeriodicHoldReason", None);
        self.expr_key("periodic_hold_subcode", "PeriodicHoldSubCode", None);
        self.expr_key("periodic_release", "PeriodicRelease", Some(false));
        self.expr_key("periodic_remove", "PeriodicRemove", Some(false));
        self.expr_key("periodic_vacate", "PeriodicVacate", Some(false));
        self.expr_key("on_exit_hold_reason", "OnExitHoldReason", None);
        self.expr_key("on_exit_hold_subcode", "OnExitHoldSubCode", None);
    }

    pub fn set_leave_in_queue(&mut self) {
        if self.aborted {
            return;
        }
        if let Some(p) = self.param2("leave_in_queue", "LeaveJobInQueue") {
            self.assign_expr("LeaveJobInQueue", &p.value, from(&p));
        } else if !self.has("LeaveJobInQueue") {
            self.assign_bool(
                "LeaveJobInQueue",
                false,
                default("jobs leave the queue when done"),
            );
        }
    }

    /// `SetJobRetries`: max_retries, success_exit_code and retry_until
    /// compose OnExitRemove.
    pub fn set_job_retries(&mut self) {
        if self.aborted {
            return;
        }
        let erc = self.param2("on_exit_remove", "OnExitRemove");
        let ehc = self.param2("on_exit_hold", "OnExitHold");
        let mut enable = false;
        let mut num_retries = None;
        let mut success = None;
        if let Some(p) = self.param2("max_retries", "JobMaxRetries") {
            match super::values::string_is_long(&p.value) {
                Some(v) => num_retries = Some((v, p)),
                None => {
                    let msg = format!(
                        "max_retries={} is invalid, must eval to an integer.",
                        p.value
                    );
                    return self.error_at(&msg, Some(&p));
                }
            }
            enable = true;
        }
        if let Some(p) = self.param2("success_exit_code", "JobSuccessExitCode") {
            match super::values::string_is_long(&p.value)
                .filter(|v| *v >= i32::MIN as i64 && *v < i32::MAX as i64)
            {
                Some(v) => success = Some((v, p)),
                None => {
                    let msg = format!(
                        "success_exit_code={} is invalid, must eval to an integer.",
                        p.value
                    );
                    return self.error_at(&msg, Some(&p));
                }
            }
            enable = true;
        }
        let retry_until = self.param("retry_until");
        if retry_until.is_some() {
            enable = true;
        }
        if !enable {
            match &erc {
                Some(p) => {
                    self.assign_expr("OnExitRemove", &p.value, from(p));
                }
                None => {
                    if self.config_bool("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS", false)
                        && !self.has("OnExitRemove")
                    {
                        self.assign_bool(
                            "OnExitRemove",
                            true,
                            config("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS"),
                        );
                    }
                }
            }
            match &ehc {
                Some(p) => {
                    self.assign_expr("OnExitHold", &p.value, from(p));
                }
                None => {
                    if self.config_bool("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS", false)
                        && !self.has("OnExitHold")
                    {
                        self.assign_bool(
                            "OnExitHold",
                            false,
                            config("SUBMIT_INSERT_DEFAULT_POLICY_EXPRS"),
                        );
                    }
                }
            }
            return;
        }
        // retry_until: an exit code, or an expression wrapped for ||.
        let mut until = String::new();
        if let Some(p) = &retry_until {
            let parsed =
                crate::lang::parser::parse_expr_in(&p.value, crate::lang::lexer::Dialect::Modern);
            let ok = match parsed {
                Ok(e) => {
                    let refs = super::requirements::references(&e);
                    match super::values::string_is_long(&p.value) {
                        Some(code) if refs.0.is_empty() && refs.1.is_empty() => {
                            if code < i32::MIN as i64 || code > i32::MAX as i64 {
                                false
                            } else {
                                until = format!("ExitCode =?= {code}");
                                true
                            }
                        }
                        _ => {
                            until = wrap_for(&e, crate::lang::ast::BinaryOp::Or, &p.value);
                            true
                        }
                    }
                }
                Err(_) => false,
            };
            if !ok {
                let msg = format!(
                    "retry_until={} is invalid, it must be an integer or boolean expression.",
                    p.value
                );
                return self.error_at(&msg, Some(p));
            }
        }
        match &num_retries {
            Some((n, p)) => self.assign_int("JobMaxRetries", *n, from(p)),
            None if !self.has("JobMaxRetries") => {
                let n = self
                    .config("DEFAULT_JOB_MAX_RETRIES")
                    .and_then(|v| super::values::string_is_long(&v))
                    .unwrap_or(2);
                self.assign_int("JobMaxRetries", n, config("DEFAULT_JOB_MAX_RETRIES"));
            }
            None => {}
        }
        match &ehc {
            Some(p) => {
                self.assign_expr("OnExitHold", &p.value, from(p));
            }
            None if !self.has("OnExitHold") => {
                self.assign_bool("OnExitHold", false, derived("retries are enabled"))
            }
            None => {}
        }
        if self.aborted {
            return;
        }
        if self.has("OnExitRemove") && success.is_none() && until.is_empty() {
            return;
        }
        let mut code_check = match &success {
            Some((v, p)) => {
                self.assign_int("JobSuccessExitCode", *v, from(p));
                "JobSuccessExitCode".to_string()
            }
            None => "0".to_string(),
        };
        if !until.is_empty() {
            code_check += " || ";
            code_check += &until;
        }
        let mut expr = format!("NumJobCompletions > JobMaxRetries || ExitCode =?= {code_check}");
        if let Some(p) = &erc {
            match crate::lang::parser::parse_expr_in(&p.value, crate::lang::lexer::Dialect::Modern)
            {
                Ok(e) => {
                    expr += " || ";
                    expr += &wrap_for(&e, crate::lang::ast::BinaryOp::Or, &p.value);
                }
                Err(_) => {
                    let msg = format!(
                        "on_exit_remove={} is invalid, it must be a boolean expression.",
                        p.value
                    );
                    return self.error_at(&msg, Some(p));
                }
            }
        }
        let why = success
            .as_ref()
            .map(|(_, p)| p)
            .or(num_retries.as_ref().map(|(_, p)| p))
            .or(retry_until.as_ref())
            .map(from)
            .unwrap_or_else(|| derived("retries"));
        self.assign_expr("OnExitRemove", &expr, why);
    }

    pub fn set_kill_sig(&mut self) {
        if self.aborted {
            return;
        }
        for (key, attr) in [
            ("kill_sig", "KillSig"),
            ("remove_kill_sig", "RemoveKillSig"),
            ("hold_kill_sig", "HoldKillSig"),
        ] {
            match self.param2(key, attr) {
                Some(p) => {
                    let Some(name) = fixup_signal(&p.value) else {
                        return self.error_at(&format!("invalid signal {}", p.value), Some(&p));
                    };
                    self.assign_str(attr, &name, from(&p));
                }
                None if attr == "KillSig" && self.universe != U_VANILLA => {
                    self.assign_str(
                        "KillSig",
                        "SIGTERM",
                        default("SIGTERM outside vanilla universe"),
                    );
                }
                None => {}
            }
        }
        if let Some(p) = self.param2("kill_sig_timeout", "KillSigTimeout") {
            self.assign_int("KillSigTimeout", super::values::atoi(&p.value), from(&p));
        }
    }
}

/// A signal given by number or name, as its upper-case name.
fn fixup_signal(s: &str) -> Option<String> {
    let n = super::values::atoi(s);
    if n != 0 {
        return SIGNALS
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, v)| v.to_string());
    }
    SIGNALS
        .iter()
        .find(|(_, v)| v.eq_ignore_ascii_case(s))
        .map(|_| s.to_ascii_uppercase())
}

/// `check_expr_and_wrap_for_op`: the text in parentheses when its top
/// operator binds looser than `op`.
pub fn wrap_for(e: &crate::lang::ast::Expr, op: crate::lang::ast::BinaryOp, text: &str) -> String {
    use crate::lang::ast::ExprKind;
    let needs = match &e.kind {
        ExprKind::Binary(top, _, _) => top.precedence() < op.precedence(),
        ExprKind::Cond(..) | ExprKind::Elvis(..) => true,
        _ => false,
    };
    if needs {
        format!("({})", crate::lang::unparse::unparse(e))
    } else {
        text.to_string()
    }
}
