//! `SetGridParams` (simplified): the grid resource and the plain
//! per-grid keywords; credential files are made absolute (not opened).

use super::ad::*;
use super::values::{full_path, string_is_boolean};

/// (key, attribute, how): `S` string, `F` file (absolute), `E`
/// expression, `B` boolean.
const GRID_KEYWORDS: &[(&str, &str, char)] = &[
    ("arc_rte", "ArcRte", 'S'),
    ("arc_resources", "ArcResources", 'S'),
    ("arc_application", "ArcApplication", 'S'),
    ("arc_data_staging", "ArcDataStaging", 'S'),
    ("batch_extra_submit_args", "BatchExtraSubmitArgs", 'S'),
    ("batch_project", "BatchProject", 'S'),
    ("batch_queue", "BatchQueue", 'S'),
    ("batch_runtime", "BatchRuntime", 'E'),
    ("ec2_access_key_id", "EC2AccessKeyId", 'F'),
    ("ec2_secret_access_key", "EC2SecretAccessKey", 'F'),
    ("ec2_keypair", "EC2KeyPair", 'S'),
    ("ec2_keypair_file", "EC2KeyPairFile", 'F'),
    ("ec2_security_groups", "EC2SecurityGroups", 'S'),
    ("ec2_security_ids", "EC2SecurityIDs", 'S'),
    ("ec2_ami_id", "EC2AmiID", 'S'),
    ("ec2_instance_type", "EC2InstanceType", 'S'),
    ("ec2_vpc_subnet", "EC2VpcSubnet", 'S'),
    ("ec2_vpc_ip", "EC2VpcIp", 'S'),
    ("ec2_elastic_ip", "EC2ElasticIp", 'S'),
    ("ec2_availability_zone", "EC2AvailabilityZone", 'S'),
    ("ec2_ebs_volumes", "EC2ElasticBlockStorageVolumes", 'S'),
    ("ec2_spot_price", "EC2SpotPrice", 'S'),
    ("ec2_block_device_mapping", "EC2BlockDeviceMapping", 'S'),
    ("ec2_user_data", "EC2UserData", 'S'),
    ("ec2_user_data_file", "EC2UserDataFile", 'F'),
    ("ec2_iam_profile_arn", "EC2IamProfileArn", 'S'),
    ("ec2_iam_profile_name", "EC2IamProfileName", 'S'),
    ("gce_auth_file", "GceAuthFile", 'F'),
    ("gce_account", "GceAccount", 'S'),
    ("gce_image", "GceImage", 'S'),
    ("gce_machine_type", "GceMachineType", 'S'),
    ("gce_metadata", "GceMetadata", 'S'),
    ("gce_metadata_file", "GceMetadataFile", 'F'),
    ("gce_preemptible", "GcePreemptible", 'B'),
    ("gce_json_file", "GceJsonFile", 'F'),
    ("azure_auth_file", "AzureAuthFile", 'F'),
    ("azure_image", "AzureImage", 'S'),
    ("azure_location", "AzureLocation", 'S'),
    ("azure_size", "AzureSize", 'S'),
    ("azure_admin_username", "AzureAdminUsername", 'S'),
    ("azure_admin_key", "AzureAdminKey", 'S'),
];

impl Job<'_> {
    pub fn set_grid_params(&mut self) {
        if self.aborted || self.universe != U_GRID {
            return;
        }
        match self.param2("grid_resource", "GridResource") {
            Some(p) => {
                if p.value.eq_ignore_ascii_case("ec2") {
                    return self.error_at("EC2 grid jobs require a service URL", Some(&p));
                }
                self.assign_str("GridResource", &p.value, from(&p));
            }
            None if !self.has("GridResource") => {
                return self.error_at("No resource identifier was found.", None);
            }
            None => {}
        }
        for &(key, attr, how) in GRID_KEYWORDS {
            let Some(p) = self.param2(key, attr) else {
                continue;
            };
            match how {
                'F' => {
                    let f = full_path(&self.iwd, &p.value);
                    self.assign_str(attr, &f, from(&p));
                }
                'E' => {
                    self.assign_expr(attr, &p.value, from(&p));
                }
                'B' => match string_is_boolean(&p.value) {
                    Some(b) => self.assign_bool(attr, b, from(&p)),
                    None => {
                        let msg =
                            format!("{}={} is invalid, must eval to a boolean.", key, p.value);
                        return self.error_at(&msg, Some(&p));
                    }
                },
                _ => self.assign_str(attr, &p.value, from(&p)),
            }
            if self.aborted {
                return;
            }
        }
    }
}
