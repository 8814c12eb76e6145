//! `SetGridParams`: the grid resource and the per-grid keywords (ARC,
//! batch, EC2, GCE, Azure) in condor_submit's order, EC2's free-form
//! `ec2_parameter_*`, and EC2 tags / cloud labels (`handleAVPairs`).
//! Credential and data files are made absolute, not opened (file checks
//! are off, as condor_submit's default).

use super::ad::*;
use super::values::{full_path, split_list};
use crate::submit::hash::Param;

/// "FROM INSTANCE": use the EC2 instance's role, not key files.
const USE_INSTANCE_ROLE: &str = "FROM INSTANCE";

impl Job<'_> {
    /// A plain string keyword.
    fn grid_str(&mut self, key: &str, attr: &str) -> Option<Param> {
        let p = self.param2(key, attr)?;
        self.assign_str(attr, &p.value, from(&p));
        Some(p)
    }

    /// A file keyword: the path made absolute against the job's iwd.
    fn grid_file(&mut self, key: &str, attr: &str) {
        if let Some(p) = self.param2(key, attr) {
            let f = full_path(&self.iwd, &p.value);
            self.assign_str(attr, &f, from(&p));
        }
    }

    /// A keyword the grid type needs: "<Kind> jobs require a "key" parameter".
    fn grid_required(&mut self, key: &str, attr: &str, needed: bool, msg: &str) {
        if self.grid_str(key, attr).is_none() && needed && !self.has(attr) {
            self.error_at(msg, None);
        }
    }

    pub fn set_grid_params(&mut self) {
        if self.aborted || self.universe != U_GRID {
            return;
        }
        match self.param2("grid_resource", "GridResource") {
            Some(p) => {
                self.assign_str("GridResource", &p.value, from(&p));
                if p.value.eq_ignore_ascii_case("ec2") {
                    return self.error_at("EC2 grid jobs require a service URL", Some(&p));
                }
            }
            None if !self.has("GridResource") => {
                return self.error_at("No resource identifier was found.", None);
            }
            None => {}
        }
        // The grid type: the resource's first word.
        let gtype = self
            .lookup_str("GridResource")
            .map(|g| g.split(' ').next().unwrap_or("").to_ascii_lowercase())
            .unwrap_or_default();
        for (key, attr) in [
            ("arc_rte", "ArcRte"),
            ("arc_resources", "ArcResources"),
            ("arc_application", "ArcApplication"),
            ("arc_data_staging", "ArcDataStaging"),
            ("batch_extra_submit_args", "BatchExtraSubmitArgs"),
            ("batch_project", "BatchProject"),
            ("batch_queue", "BatchQueue"),
        ] {
            self.grid_str(key, attr);
        }
        if let Some(p) = self.param2("batch_runtime", "BatchRuntime") {
            if !self.assign_expr("BatchRuntime", &p.value, from(&p)) {
                return;
            }
        }
        self.set_ec2_params(&gtype);
        if self.aborted {
            return;
        }
        self.handle_av_pairs("ec2_tag_names", "EC2TagNames", "ec2_tag_", "EC2Tag", &gtype);
        self.handle_av_pairs(
            "cloud_label_names",
            "CloudLabelNames",
            "cloud_label_",
            "CloudLabel",
            &gtype,
        );
        self.set_gce_azure_params(&gtype);
    }

    fn set_ec2_params(&mut self, gtype: &str) {
        // The key files, or the instance's role for both.
        for (keys, attr) in [
            (
                ["ec2_access_key_id", "aws_access_key_id_file"],
                "EC2AccessKeyId",
            ),
            (
                ["ec2_secret_access_key", "aws_secret_access_key_file"],
                "EC2SecretAccessKey",
            ),
        ] {
            let p = self
                .param2(keys[0], attr)
                .or_else(|| self.param2(keys[1], attr));
            if let Some(p) = p {
                if p.value.eq_ignore_ascii_case(USE_INSTANCE_ROLE) {
                    self.assign_str("EC2AccessKeyId", USE_INSTANCE_ROLE, from(&p));
                    self.assign_str("EC2SecretAccessKey", USE_INSTANCE_ROLE, from(&p));
                } else {
                    let f = full_path(&self.iwd, &p.value);
                    self.assign_str(attr, &f, from(&p));
                }
            }
        }
        if gtype == "ec2" {
            if !self.has("EC2AccessKeyId") {
                return self.error_at(
                    "EC2 jobs require a 'ec2_access_key_id' or 'aws_access_key_id_file' parameter",
                    None,
                );
            }
            if !self.has("EC2SecretAccessKey") {
                return self.error_at(
                    "EC2 jobs require a 'ec2_secret_access_key' or 'aws_secret_access_key_file' parameter",
                    None,
                );
            }
        }
        // "ec2_keyp_air" is condor_submit's own spelling of the alternate.
        let kp = self
            .param2("ec2_keypair", "EC2KeyPair")
            .or_else(|| self.param2("ec2_keyp_air", "EC2KeyPair"));
        if let Some(p) = kp {
            self.assign_str("EC2KeyPair", &p.value, from(&p));
        }
        let kpf = self
            .param2("ec2_keypair_file", "EC2KeyPairFile")
            .or_else(|| self.param2("ec2_key_pair_file", "EC2KeyPairFile"));
        if let Some(p) = kpf {
            if self.has("EC2KeyPair") {
                self.warn_at(
                    "EC2 job(s) contain both ec2_keypair && ec2_keypair_file, ignoring ec2_keypair_file",
                    Some(&p),
                );
            } else {
                let f = full_path(&self.iwd, &p.value);
                self.assign_str("EC2KeyPairFile", &f, from(&p));
            }
        }
        self.grid_str("ec2_security_groups", "EC2SecurityGroups");
        self.grid_str("ec2_security_ids", "EC2SecurityIDs");
        self.grid_required(
            "ec2_ami_id",
            "EC2AmiID",
            gtype == "ec2",
            "EC2 jobs require a \"ec2_ami_id\" parameter",
        );
        if self.aborted {
            return;
        }
        for (key, attr) in [
            ("ec2_instance_type", "EC2InstanceType"),
            ("ec2_vpc_subnet", "EC2VpcSubnet"),
            ("ec2_vpc_ip", "EC2VpcIp"),
            ("ec2_elastic_ip", "EC2ElasticIp"),
            ("ec2_availability_zone", "EC2AvailabilityZone"),
        ] {
            self.grid_str(key, attr);
        }
        if let Some(p) = self.param2("ec2_ebs_volumes", "EC2ElasticBlockStorageVolumes") {
            if !super::vm::valid_disks(&p.value, 2, 2) {
                return self.error_at(
                    "'ec2_ebs_volumes' has incorrect format.\nThe format shoud be like \"<instance_id>:<devicename>\"\ne.g.> For single volume: ec2_ebs_volumes = vol-35bcc15e:hda1\n      For multiple disks: ec2_ebs_volumes = vol-35bcc15e:hda1,vol-35bcc16f:hda2",
                    Some(&p),
                );
            }
            if !self.has("EC2AvailabilityZone") {
                return self.error_at(
                    "'ec2_ebs_volumes' requires 'ec2_availability_zone'",
                    Some(&p),
                );
            }
            self.assign_str("EC2ElasticBlockStorageVolumes", &p.value, from(&p));
        }
        for (key, attr) in [
            ("ec2_spot_price", "EC2SpotPrice"),
            ("ec2_block_device_mapping", "EC2BlockDeviceMapping"),
            ("ec2_user_data", "EC2UserData"),
        ] {
            self.grid_str(key, attr);
        }
        self.grid_file("ec2_user_data_file", "EC2UserDataFile");
        self.grid_str("ec2_iam_profile_arn", "EC2IamProfileArn");
        // condor_submit's test is the wrong way round: the name is kept
        // only when an ARN is given too, and without one it warns.
        if let Some(p) = self.param2("ec2_iam_profile_name", "EC2IamProfileName") {
            if !self.has("EC2IamProfileArn") {
                self.warn_at(
                    "EC2 job(s) contain both ec2_iam_profile_arn and ec2_iam_profile_name; ignoring ec2_iam_profile_name.",
                    Some(&p),
                );
            } else {
                self.assign_str("EC2IamProfileName", &p.value, from(&p));
            }
        }
        self.set_ec2_run_params();
    }

    /// `ec2_parameter_<name> = value` → `EC2Param_<name>` (the raw value),
    /// and every name in `EC2ParamNames` (`.` in a listed name reads `_`).
    fn set_ec2_run_params(&mut self) {
        let mut names: Vec<String> = match self.param2("ec2_parameter_names", "EC2ParamNames") {
            Some(p) => split_list(&p.value, ", \t\r\n"),
            None => self
                .lookup_str("EC2ParamNames")
                .map(|n| split_list(&n, ", \t\r\n"))
                .unwrap_or_default(),
        };
        const PREFIX: &str = "ec2_parameter_";
        for key in self.sorted_keys() {
            // (`get`: a key may hold any UTF-8, a prefix length may split a character)
            let Some(name) = key
                .get(..PREFIX.len())
                .filter(|h| h.eq_ignore_ascii_case(PREFIX))
                .and_then(|_| key.get(PREFIX.len()..))
                .map(str::to_string)
            else {
                continue;
            };
            if key.eq_ignore_ascii_case("ec2_parameter_names") {
                continue;
            }
            let raw = self.hash.raw(&key).unwrap_or_default();
            let origin = self
                .param(&key)
                .map(|p| from(&p))
                .unwrap_or_else(|| derived(&key));
            self.assign_str(&format!("EC2Param_{name}"), &raw, origin);
            let known = names
                .iter()
                .any(|n| n.replace('.', "_").eq_ignore_ascii_case(&name));
            if !known {
                names.push(name);
            }
        }
        if !names.is_empty() {
            self.assign_str(
                "EC2ParamNames",
                &names.join(", "),
                derived("the ec2_parameter_* keys"),
            );
        }
    }

    /// The file's keys, sorted without regard to case, as condor_submit's
    /// macro table iterates them.
    fn sorted_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.hash.keys().into_iter().map(|(k, _)| k).collect();
        keys.sort_by_key(|k| k.to_ascii_lowercase());
        keys.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        keys
    }

    /// `handleAVPairs`: tags (`ec2_tag_<name>` or `EC2Tag<name>`) with
    /// their names listed in `EC2TagNames`; an ec2 job is also tagged
    /// `Name` = its executable unless `WantNameTag` is false.
    fn handle_av_pairs(
        &mut self,
        names_key: &str,
        names_attr: &str,
        submit_prefix: &str,
        job_prefix: &str,
        gtype: &str,
    ) {
        let mut names: Vec<String> = match self.param2(names_key, names_attr) {
            Some(p) => split_list(&p.value, ", \t\r\n"),
            None => self
                .lookup_str(names_attr)
                .map(|n| split_list(&n, ", \t\r\n"))
                .unwrap_or_default(),
        };
        let strip = |key: &str, prefix: &str| -> Option<String> {
            let head = key.get(..prefix.len())?;
            let rest = key.get(prefix.len()..)?;
            (head.eq_ignore_ascii_case(prefix) && !rest.is_empty()).then(|| rest.to_string())
        };
        for key in self.sorted_keys() {
            let Some(name) = strip(&key, submit_prefix).or_else(|| strip(&key, job_prefix)) else {
                continue;
            };
            let is_names = name
                .get(..5)
                .is_some_and(|h| h.eq_ignore_ascii_case("Names"));
            if !is_names && !names.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
                names.push(name);
            }
        }
        for name in &names {
            let p = self.param2(
                &format!("{submit_prefix}{name}"),
                &format!("{job_prefix}{name}"),
            );
            if let Some(p) = p {
                self.assign_str(&format!("{job_prefix}{name}"), &p.value, from(&p));
            }
        }
        if gtype == "ec2" && !names.iter().any(|n| n.eq_ignore_ascii_case("Name")) {
            let (want, _) = self.param_bool("WantNameTag", None, true);
            if want {
                if let Some(cmd) = self.lookup_str("Cmd") {
                    let why = derived("EC2 names an instance after the executable");
                    self.assign_str(&format!("{job_prefix}Name"), &cmd, why);
                }
            }
        }
        if !names.is_empty() {
            let why = derived("the tags' names, as written (EC2 tags are case-sensitive)");
            self.assign_str(names_attr, &names.join(","), why);
        }
    }

    fn set_gce_azure_params(&mut self, gtype: &str) {
        self.grid_file("gce_auth_file", "GceAuthFile");
        self.grid_str("gce_account", "GceAccount");
        let gce = gtype == "gce";
        self.grid_required(
            "gce_image",
            "GceImage",
            gce,
            "GCE jobs require a \"gce_image\" parameter",
        );
        if self.aborted {
            return;
        }
        self.grid_required(
            "gce_machine_type",
            "GceMachineType",
            gce,
            "GCE jobs require a \"gce_machine_type\" parameter",
        );
        if self.aborted {
            return;
        }
        if let Some(p) = self.param2("gce_metadata", "GceMetadata") {
            let list = split_list(&p.value, ",").join(",");
            self.assign_str("GceMetadata", &list, from(&p));
        }
        self.grid_file("gce_metadata_file", "GceMetadataFile");
        let (b, p) = self.param_bool("gce_preemptible", Some("GcePreemptible"), false);
        if let Some(p) = p {
            if self.aborted {
                return;
            }
            self.assign_bool("GcePreemptible", b, from(&p));
        }
        self.grid_file("gce_json_file", "GceJsonFile");
        self.grid_file("azure_auth_file", "AzureAuthFile");
        let azure = gtype == "azure";
        for (key, attr) in [
            ("azure_image", "AzureImage"),
            ("azure_location", "AzureLocation"),
            ("azure_size", "AzureSize"),
            ("azure_admin_username", "AzureAdminUsername"),
            ("azure_admin_key", "AzureAdminKey"),
        ] {
            let msg = format!("ERROR: Azure jobs require an \"{key}\" parameter");
            self.grid_required(key, attr, azure, &msg);
            if self.aborted {
                return;
            }
        }
    }
}
