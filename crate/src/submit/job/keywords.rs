//! The plain keyword → attribute table condor_submit applies in
//! `SetSimpleJobExprs` (`prunable_keywords` up to the "SPECIAL HANDLING"
//! banner, HTCondor 24): each key read as an expression, a string, a
//! boolean or an integer.

use super::ad::*;
use super::values::{full_path, split_list, string_is_boolean, string_is_long, strip_quotes};

/// (key, attribute, how): `E` expression, `S` string, `B` boolean, `I`
/// integer, `U` non-negative integer; `|Q` strip quotes, `|L` a list
/// joined with commas, `|F` a file made absolute, `|A` an alternate name
/// skipped when the key before it was set.
pub const SIMPLE_KEYWORDS: &[(&str, &str, &str)] = &[
    ("next_job_start_delay", "NextJobStartDelay", "E"),
    ("keep_claim_idle", "KeepClaimIdle", "E"),
    ("job_ad_information_attrs", "JobAdInformationAttrs", "S"),
    ("ulog_execute_attrs", "UserLogExecuteEventAttrs", "S"),
    ("max_idle", "JobMaterializeMaxIdle", "E"),
    ("materialize_max_idle", "JobMaterializeMaxIdle", "E|A"),
    ("docker_network_type", "DockerNetworkType", "S"),
    ("docker_pull_policy", "DockerPullPolicy", "S"),
    (
        "docker_override_entrypoint",
        "DockerOverrideEntrypoint",
        "B",
    ),
    ("docker_send_credentials", "DockerSendCredentials", "B"),
    ("container_target_dir", "ContainerTargetDir", "S|Q"),
    ("mount_under_scratch", "MountUnderScratch", "S|Q"),
    ("transfer_container", "TransferContainer", "B"),
    ("transfer_plugins", "TransferPlugins", "S"),
    ("want_io_proxy", "WantIOProxy", "B"),
    ("want_job_networking", "WantJobNetworking", "B"),
    ("starter_debug", "JobStarterDebug", "S|Q"),
    ("starter_log", "JobStarterLog", "S|Q|F"),
    ("job_machine_attrs", "JobMachineAttrs", "S"),
    (
        "job_machine_attrs_history_length",
        "JobMachineAttrsHistoryLength",
        "I",
    ),
    ("notify_user", "NotifyUser", "S"),
    ("email_attributes", "EmailAttributes", "S|L"),
    ("remote_initialdir", "RemoteIwd", "S"),
    ("Remote_grid_resource", "Remote_GridResource", "S"),
    (
        "Remote_Remote_grid_resource",
        "Remote_Remote_GridResource",
        "S",
    ),
    ("output_destination", "OutputDestination", "S"),
    ("output_directory", "OutputDirectory", "S|F"),
    ("want_graceful_removal", "WantGracefulRemoval", "E"),
    ("job_max_vacate_time", "JobMaxVacateTime", "E"),
    ("encrypt_execute_directory", "EncryptExecuteDirectory", "B"),
    ("encrypt_input_files", "EncryptInputFiles", "S"),
    ("encrypt_output_files", "EncryptOutputFiles", "S"),
    ("dont_encrypt_input_files", "DontEncryptInputFiles", "S"),
    ("dont_encrypt_output_files", "DontEncryptOutputFiles", "S"),
    ("load_profile", "LoadProfile", "B"),
    ("primary_unix_group", "PrimaryUnixGroup", "S"),
    ("file_remaps", "FileRemaps", "E"),
    ("buffer_files", "BufferFiles", "E"),
    ("buffer_size", "BufferSize", "E"),
    ("buffer_block_size", "BufferBlockSize", "E"),
    ("fetch_files", "FetchFiles", "S"),
    ("compress_files", "CompressFiles", "S"),
    ("append_files", "AppendFiles", "S"),
    ("local_files", "LocalFiles", "S"),
    ("log", "UserLog", "S|F"),
    ("dagman_log", "DAGManNodesLog", "S|F"),
    ("log_xml", "UserLogUseXML", "B"),
    ("noop_job", "IsNoopJob", "E"),
    ("noop_job_exit_signal", "NoopJobExitSignal", "E"),
    ("noop_job_exit_code", "NoopJobExitCode", "E"),
    ("dag_node_name", "DAGNodeName", "S"),
    ("match_list_length", "LastMatchListLength", "I"),
    ("dagman_job_id", "DAGManJobId", "U"),
    ("submit_event_notes", "SubmitEventNotes", "S"),
    ("submit_event_user_notes", "SubmitEventUserNotes", "S"),
    ("stack_size", "StackSize", "E"),
    ("jar_files", "JarFiles", "S"),
    ("parallel_script_shadow", "ParallelScriptShadow", "S"),
    ("parallel_script_starter", "ParallelScriptStarter", "S"),
    ("cron_minute", "CronMinute", "S"),
    ("cron_hour", "CronHour", "S"),
    ("cron_day_of_month", "CronDayOfMonth", "S"),
    ("cron_month", "CronMonth", "S"),
    ("cron_day_of_week", "CronDayOfWeek", "S"),
    ("description", "JobDescription", "S"),
    ("batch_name", "JobBatchName", "S|Q"),
    ("batch_id", "JobBatchId", "S|Q"),
    ("max_job_retirement_time", "MaxJobRetirementTime", "E"),
    ("job_lease_duration", "JobLeaseDuration", "E"),
    ("core_size", "CoreSize", "I"),
    ("priority", "JobPrio", "I"),
    ("prio", "JobPrio", "I|A"),
    ("run_as_owner", "RunAsOwner", "B"),
    ("max_transfer_input_mb", "MaxTransferInputMB", "E"),
    ("max_transfer_output_mb", "MaxTransferOutputMB", "E"),
    ("manifest", "ManifestDesired", "B"),
    ("manifest_dir", "ManifestDir", "S"),
    ("checkpoint_exit_code", "SuccessCheckpointExitCode", "I"),
    ("checkpoint_destination", "CheckpointDestination", "S"),
    ("aws_region", "AWSRegion", "S"),
    ("aws_access_key_id_file", "EC2AccessKeyId", "S"),
    ("aws_secret_access_key_file", "EC2SecretAccessKey", "S"),
    ("s3_access_key_id_file", "EC2AccessKeyId", "S"),
    ("s3_secret_access_key_file", "EC2SecretAccessKey", "S"),
    ("gs_access_key_id_file", "EC2AccessKeyId", "S"),
    ("gs_secret_access_key_file", "EC2SecretAccessKey", "S"),
    (
        "erase_output_and_error_on_restart",
        "EraseOutputAndErrorOnRestart",
        "B",
    ),
    ("transfer_checkpoint_files", "TransferCheckpoint", "S"),
    ("preserve_relative_paths", "PreserveRelativePaths", "B"),
    ("cuda_version", "CUDAVersion", "S"),
    ("skip_if_dataflow", "SkipIfDataflow", "B"),
    ("allowed_job_duration", "AllowedJobDuration", "E"),
    ("allowed_execute_duration", "AllowedExecuteDuration", "E"),
    ("jobset", "JobSetName", "S|Q"),
];

impl Job<'_> {
    pub fn set_simple_job_exprs(&mut self) {
        let mut last_existed = false;
        for &(key, attr, how) in SIMPLE_KEYWORDS {
            if self.aborted {
                return;
            }
            let flags: Vec<&str> = how.split('|').collect();
            let has = |f: &str| flags.contains(&f);
            if has("A") && last_existed {
                last_existed = false;
                continue;
            }
            let p = self.param2(key, attr);
            last_existed = p.is_some();
            let Some(p) = p else { continue };
            let o = from(&p);
            match flags[0] {
                "S" => {
                    let mut s = if has("Q") {
                        strip_quotes(&p.value).to_string()
                    } else {
                        p.value.clone()
                    };
                    if has("L") {
                        s = split_list(&s, ", \t\r\n").join(",");
                    }
                    if has("F") && !s.is_empty() {
                        s = full_path(&self.iwd, &s);
                    }
                    self.assign_str(attr, &s, o);
                }
                "B" => match string_is_boolean(&p.value) {
                    Some(b) => self.assign_bool(attr, b, o),
                    None => {
                        let msg =
                            format!("{}={} is invalid, must eval to a boolean.", key, p.value);
                        self.error_at(&msg, Some(&p));
                    }
                },
                "I" | "U" => match string_is_long(&p.value) {
                    Some(v) if v < 0 && flags[0] == "U" => {
                        let msg = format!(
                            "{}={} is invalid, must eval to a non-negative integer.",
                            key, p.value
                        );
                        self.error_at(&msg, Some(&p));
                    }
                    Some(v) => self.assign_int(attr, v, o),
                    None => {
                        let msg =
                            format!("{}={} is invalid, must eval to an integer.", key, p.value);
                        self.error_at(&msg, Some(&p));
                    }
                },
                _ => {
                    self.assign_expr(attr, &p.value, o);
                }
            }
        }
    }
}
