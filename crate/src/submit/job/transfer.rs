//! File transfer (`SetTransferFiles`): the input and output lists, should
//! and when with their defaults and contradictions, FileSystemDomain, the
//! Java universe's jar files, DiskUsage and the output remaps.

use super::ad::*;
use super::values::{split_list, strip_quotes};
use crate::submit::hash::Param;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Should {
    Yes,
    No,
    IfNeeded,
}

pub fn should_from(s: &str) -> Option<Should> {
    match s.to_ascii_uppercase().as_str() {
        "YES" | "TRUE" | "ALWAYS" => Some(Should::Yes),
        "NO" | "FALSE" | "NEVER" => Some(Should::No),
        "IF_NEEDED" | "AUTO" => Some(Should::IfNeeded),
        _ => None,
    }
}

fn should_name(s: Should) -> &'static str {
    match s {
        Should::Yes => "YES",
        Should::No => "NO",
        Should::IfNeeded => "IF_NEEDED",
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum When {
    Never,
    OnExit,
    OnExitOrEvict,
    OnSuccess,
}

fn when_from(s: &str) -> Option<When> {
    match s.to_ascii_uppercase().as_str() {
        "NONE" | "NULL" => Some(When::Never),
        "ON_EXIT" | "ONEXIT" => Some(When::OnExit),
        "ON_EXIT_OR_EVICT" | "ALWAYS" => Some(When::OnExitOrEvict),
        "ON_SUCCESS" | "ONSUCCESS" => Some(When::OnSuccess),
        _ => None,
    }
}

fn when_name(w: When) -> &'static str {
    match w {
        When::Never => "NONE",
        When::OnExit => "ON_EXIT",
        When::OnExitOrEvict => "ON_EXIT_OR_EVICT",
        When::OnSuccess => "ON_SUCCESS",
    }
}

impl Job<'_> {
    pub fn set_transfer_files(&mut self) {
        if self.aborted {
            return;
        }
        let in_p = self.param2("transfer_input_files", "TransferInputFiles");
        let mut inputs: Vec<String> = in_p
            .as_ref()
            .map(|p| split_list(strip_quotes(&p.value), ","))
            .unwrap_or_default();
        let in_specified = !inputs.is_empty();

        let out_p = self.param2("transfer_output_files", "TransferOutputFiles");
        let outputs: Vec<String> = out_p
            .as_ref()
            .map(|p| split_list(strip_quotes(&p.value), ","))
            .unwrap_or_default();
        let out_specified = out_p.is_some();

        // should_transfer_files: the file, the ad, the admin's default.
        let mut default_should = false;
        let mut should_src: Option<Param> = None;
        let should_text = match self.param2("ShouldTransferFiles", "should_transfer_files") {
            Some(p) => {
                should_src = Some(p.clone());
                Some(p.value)
            }
            None => match self.lookup_str("ShouldTransferFiles") {
                Some(s) => Some(s),
                None => match self
                    .config("SUBMIT_DEFAULT_SHOULD_TRANSFER_FILES")
                    .filter(|v| should_from(v).is_some())
                {
                    Some(v) => {
                        default_should = true;
                        Some(v)
                    }
                    None => None,
                },
            },
        };
        let (mut should, should_text) = match &should_text {
            None => {
                default_should = true;
                (Should::IfNeeded, "IF_NEEDED".to_string())
            }
            Some(t) => match should_from(t) {
                Some(s) => (s, t.clone()),
                None => {
                    let msg = format!(
                        "ERROR: invalid value ({t}) for ShouldTransferFiles.  Please either specify YES, NO, or IF_NEEDED and try again."
                    );
                    return self.error_at(&msg, should_src.as_ref());
                }
            },
        };
        if should == Should::No && (in_specified || out_specified) {
            let what = match (in_specified, out_specified) {
                (true, true) => "transfer_input_files\" and \"transfer_output_files\",",
                (true, false) => "transfer_input_files\",",
                _ => "transfer_output_files\",",
            };
            let msg = format!(
                "ERROR: you specified files you want Condor to transfer via \"{what} but you disabled should_transfer_files."
            );
            return self.error_at(&msg, should_src.as_ref());
        }

        let when_p = self.param2("WhenToTransferOutput", "when_to_transfer_output");
        let when_text = when_p
            .as_ref()
            .map(|p| p.value.clone())
            .or_else(|| self.lookup_str("WhenToTransferOutput"));
        let default_when = when_text.is_none();
        let (mut when, mut when_text) = match &when_text {
            None => (When::OnExit, "ON_EXIT".to_string()),
            Some(t) => match when_from(t) {
                Some(w) => (w, t.clone()),
                None => {
                    let msg = format!(
                        "ERROR: invalid value ({t}) for WhenToTransferOutput.  Please either specify ON_EXIT, or ON_EXIT_OR_EVICT and try again."
                    );
                    return self.error_at(&msg, when_p.as_ref());
                }
            },
        };
        if !default_should && default_when && should == Should::No {
            when = When::Never;
            when_text = "NEVER".into();
        }
        if (should == Should::No && when != When::Never)
            || (should != Should::No && when == When::Never)
        {
            let msg = format!(
                "ERROR: WhenToTransferOutput specified as {when_text} yet ShouldTransferFiles defined as {should_text}.  Please remove this contradiction from your submit file and try again."
            );
            return self.error_at(&msg, when_p.as_ref().or(should_src.as_ref()));
        }
        let mut should_origin = should_src.as_ref().map(from).unwrap_or_else(|| {
            if self
                .cfg()
                .get("SUBMIT_DEFAULT_SHOULD_TRANSFER_FILES")
                .is_some()
                && default_should
            {
                config("SUBMIT_DEFAULT_SHOULD_TRANSFER_FILES")
            } else {
                default("IF_NEEDED unless should_transfer_files is set")
            }
        });
        if default_should && when == When::OnExitOrEvict && should == Should::IfNeeded {
            should = Should::Yes;
            should_origin = derived("when_to_transfer_output = ON_EXIT_OR_EVICT needs YES");
        }
        if when == When::OnExitOrEvict && should == Should::IfNeeded {
            return self.error_at(
                "ERROR: \"when_to_transfer_output = ON_EXIT_OR_EVICT\" and \"should_transfer_files = IF_NEEDED\" are incompatible.  The behavior of these two settings together would produce incorrect file access in some cases.  Please decide which one of those two settings you're more interested in. If you really want \"IF_NEEDED\", set \"when_to_transfer_output = ON_EXIT\".  If you really want \"ON_EXIT_OR_EVICT\", please set \"should_transfer_files = YES\".  After you have corrected this incompatibility, please try running condor_submit again.",
                when_p.as_ref(),
            );
        }

        self.assign_str("ShouldTransferFiles", should_name(should), should_origin);
        if should != Should::No {
            let o = when_p
                .as_ref()
                .map(from)
                .unwrap_or_else(|| default("ON_EXIT unless when_to_transfer_output is set"));
            self.assign_str("WhenToTransferOutput", when_name(when), o);
        }
        if should != Should::Yes && !self.has("FileSystemDomain") {
            if let Some(d) = self.config("FILESYSTEM_DOMAIN") {
                self.assign_str("FileSystemDomain", &d, config("FILESYSTEM_DOMAIN"));
            }
        }

        if should != Should::No {
            if let Some(tdp) = self.lookup_str("ToolDaemonCmd") {
                if !inputs.contains(&tdp) {
                    inputs.push(tdp);
                }
                if let Some(ti) = self.lookup_str("ToolDaemonInput") {
                    if !inputs.contains(&ti) {
                        inputs.push(ti);
                    }
                }
            }
        }
        if should != Should::No && self.universe == U_JAVA {
            if let Some(cmd) = self.lookup_str("Cmd").filter(|c| c != "java") {
                if !inputs.contains(&cmd) {
                    inputs.push(cmd);
                }
            }
            if let Some(jars) = self.lookup_str("JarFiles") {
                inputs.extend(split_list(&jars, ","));
            }
            self.assign_str("Cmd", "java", derived("java universe runs java"));
            self.assign_bool(
                "TransferExecutable",
                false,
                derived("java universe sends the class as an input"),
            );
        }

        // DiskUsage: the size of what is sent (file sizes are 0 here).
        if let Some(p) = self.param2("disk_usage", "DiskUsage") {
            match super::values::parse_bytes(&p.value, 1024) {
                Some((kb, _)) if kb >= 1 => self.assign_int("DiskUsage", kb, from(&p)),
                _ => {
                    let msg = format!("'{}' is not valid for disk_usage. It must be >= 1", p.value);
                    return self.error_at(&msg, Some(&p));
                }
            }
        } else {
            let exe = self.lookup_int("ExecutableSize").unwrap_or(0);
            self.assign_int(
                "TransferInputSizeMB",
                exe / 1024,
                default("input sizes (not measured)"),
            );
            self.assign_int("DiskUsage", exe, default("input sizes (not measured)"));
        }

        if should != Should::No {
            if in_specified {
                let o = in_p
                    .as_ref()
                    .map(from)
                    .unwrap_or_else(|| derived("input files"));
                self.assign_str("TransferInput", &inputs.join(","), o);
            }
            if out_specified {
                let o = out_p
                    .as_ref()
                    .map(from)
                    .unwrap_or_else(|| derived("output files"));
                self.assign_str("TransferOutput", &outputs.join(","), o);
            }
        }

        if should == Should::No && ![U_GRID, U_JAVA, U_VM].contains(&self.universe) {
            let (xfer, xp) =
                self.param_bool("transfer_executable", Some("TransferExecutable"), false);
            if xfer {
                return self.error_at(
                    "ERROR: You explicitly requested that the executable be transfered, but for this to work, you must enable Condor's file transfer functionality.  You need to define either: \"when_to_transfer_output = ON_EXIT\" or \"when_to_transfer_output = ON_EXIT_OR_EVICT\".  Optionally, you can define \"should_transfer_files = IF_NEEDED\" if you do not want any files to be transfered if the job executes on a machine in the same FileSystemDomain.  See the Condor manual for more details.",
                    xp.as_ref(),
                );
            }
        }

        if let Some(p) = self.param2("transfer_output_remaps", "TransferOutputRemaps") {
            let remaps = strip_quotes(&p.value).to_string();
            if !remaps.is_empty() {
                self.assign_str("TransferOutputRemaps", &remaps, from(&p));
            }
        }
    }
}
