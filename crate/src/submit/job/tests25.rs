//! HTCondor 25's additions to the job ad, each against condor_submit 25's
//! own words: `src/condor_utils/submit_utils.cpp` and the dry-run golden
//! test `src/condor_tests/cmd_submit_regress_dry.expect`.

use super::*;
use crate::lang::unparse::unparse;
use crate::submit::config::{HtcVersion, SubmitConfig};
use crate::submit::hash::PlainHash;

fn build_with(text: &str, v: HtcVersion, extra: &[(&str, &str)]) -> BuiltJob {
    let mut h = PlainHash::from_lines(text);
    let mut c = SubmitConfig::default();
    c.set("ARCH", "X86_64");
    c.set("OPSYS", "LINUX");
    c.set("FILESYSTEM_DOMAIN", "submit.example.org");
    c.set("UID_DOMAIN", "submit.example.org");
    for (k, val) in extra {
        c.set(k, val);
    }
    c.version = v;
    h.config = c;
    let ctx = JobContext {
        cluster: 7,
        proc: 0,
        qdate: 1700000000,
        iwd: "/tmp/case".into(),
        submit_file: "x.sub".into(),
        ..Default::default()
    };
    build_job(&h, &ctx)
}

fn build25(text: &str) -> BuiltJob {
    build_with(text, HtcVersion::V25, &[])
}

fn attr(j: &BuiltJob, name: &str) -> String {
    j.get(name)
        .map(unparse)
        .unwrap_or_else(|| "<absent>".into())
}

const MEM_REQ: &str =
    "\"REQUIREMENTS (VacateReasonCode==21 || VacateReasonCode == 34) && VacateReasonSubCode == 102\\x1e";
const DISK_REQ: &str =
    "\"REQUIREMENTS (VacateReasonCode==21 || VacateReasonCode == 34) && VacateReasonSubCode == 104\\x1e";

/// The transform body as unparsed, with 0x1e (unparsed `\036`) shown as `\x1e`.
fn body(j: &BuiltJob, attr_name: &str) -> String {
    attr(j, attr_name).replace("\\036", "\\x1e")
}

#[test]
fn retry_request_memory_single_value_sets_it() {
    // golden retry_mem1: TransformBody_RequestMemory=/...\x1eSET RequestMemory 2048"$/
    let j = build25("executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory = 2GB");
    assert!(j.errors.is_empty(), "{:?}", j.errors);
    assert_eq!(attr(&j, "RequestMemory"), "1024");
    assert_eq!(attr(&j, "TransformOnEvict"), "\"RequestMemory\"");
    assert_eq!(
        body(&j, "TransformBody_RequestMemory"),
        format!("{MEM_REQ}SET RequestMemory 2048\"")
    );
    // retry_mem_max: the cap alone is the same SET.
    let j = build25("executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory_max = 2GB");
    assert_eq!(
        body(&j, "TransformBody_RequestMemory"),
        format!("{MEM_REQ}SET RequestMemory 2048\"")
    );
}

#[test]
fn retry_request_memory_increase_without_cap_is_evaluated_now() {
    // retry_mem_incr: 1GB + 500 MB; retry_mem_incr2: RequestMemory*2 against 1024.
    let j = build25(
        "executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory_increase = 500 MB",
    );
    assert_eq!(
        body(&j, "TransformBody_RequestMemory"),
        format!("{MEM_REQ}SET RequestMemory 1524\"")
    );
    let j = build25("executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory_increase = RequestMemory*2");
    assert_eq!(
        body(&j, "TransformBody_RequestMemory"),
        format!("{MEM_REQ}SET RequestMemory 2048\"")
    );
    // An increment that is neither positive nor about RequestMemory is refused.
    let j = build25(
        "executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory_increase = Memory*2",
    );
    assert_eq!(
        j.errors[0].message,
        "RequestMemory retry increment must be a positive number or an expression that references RequestMemory"
    );
}

#[test]
fn retry_request_memory_increase_with_cap_grows_at_match_time() {
    // retry_mem_incr_max: MaxRequestMemory=2048, NextRequestMemory=RequestMemory + 512
    let j = build25("executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory_increase = 512MB\nretry_request_memory_max = 2GB");
    assert_eq!(attr(&j, "MaxRequestMemory"), "2048");
    assert_eq!(attr(&j, "NextRequestMemory"), "RequestMemory + 512");
    assert_eq!(
        body(&j, "TransformBody_RequestMemory"),
        format!("{MEM_REQ}EVALSET RequestMemory MIN({{NextRequestMemory, MaxRequestMemory}})\"")
    );
}

#[test]
fn request_lists_walk_a_retry_list() {
    // retry_mem2 and retry_mem3: RetryRequestMemory={ 2048,8192 }
    let list_body = format!(
        "{MEM_REQ}EVALSET RequestMemory RetryRequestMemory[RetryRequestMemoryIndex?:0]\\x1eEVALSET RetryRequestMemoryIndex MIN({{size(RetryRequestMemory)-1, (RetryRequestMemoryIndex?:0)+1}})\""
    );
    for text in [
        "executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory = 2GB, 8GB",
        "executable = /bin/true\nrequest_memory = 1GB, 2G, 8 gb",
    ] {
        let j = build25(text);
        assert!(j.errors.is_empty(), "{:?}", j.errors);
        assert_eq!(attr(&j, "RequestMemory"), "1024");
        assert_eq!(attr(&j, "RetryRequestMemory"), "{ 2048,8192 }");
        assert_eq!(body(&j, "TransformBody_RequestMemory"), list_body);
    }
    // retry_disk1..3: KiB, 104 as the sub-code, `80 m` a unit too.
    let j = build25("executable = /bin/true\nrequest_disk = 10MB\nretry_request_disk = 20MB");
    assert_eq!(attr(&j, "RequestDisk"), "10240");
    assert_eq!(attr(&j, "TransformOnEvict"), "\"RequestDisk\"");
    assert_eq!(
        body(&j, "TransformBody_RequestDisk"),
        format!("{DISK_REQ}SET RequestDisk 20480\"")
    );
    let j = build25("executable = /bin/true\nrequest_disk = 10MB, 20MB, 80 m");
    assert_eq!(attr(&j, "RetryRequestDisk"), "{ 20480,81920 }");
    // A list must increase.
    let j = build25("executable = /bin/true\nrequest_memory = 1GB, 4GB, 2GB");
    assert_eq!(
        j.errors[0].message,
        "request_memory must have an increasing sequence of values, but 2048 is not greater than 4096"
    );
}

#[test]
fn request_lists_are_parse_errors_in_24() {
    let j = build_with(
        "executable = /bin/true\nrequest_memory = 1GB, 2G",
        HtcVersion::V24,
        &[],
    );
    assert!(j.errors[0].message.starts_with("Parse error in expression"));
    let j = build_with(
        "executable = /bin/true\nrequest_memory = 1GB\nretry_request_memory = 2GB",
        HtcVersion::V24,
        &[],
    );
    assert_eq!(attr(&j, "TransformOnEvict"), "<absent>");
}

#[test]
fn on_evict_checks_name_user_transforms() {
    // SetOnEvictExpressions: tags with a body only, body lines joined by 0x1e.
    let j = build25("executable = /bin/true\non_evict_checks = A B\ntransform_body_A = SET Foo 1\nrequest_memory = 1GB\nretry_request_memory = 2GB");
    assert_eq!(attr(&j, "TransformBody_A"), "\"SET Foo 1\"");
    assert_eq!(attr(&j, "TransformOnEvict"), "\"A RequestMemory\"");
}

#[test]
fn url_plugin_clauses_keep_the_schemes_case() {
    // golden xfer0: Requirements=/TARGET\.HasFileTransfer.+"FTP",TARGET\.HasFileTransferPluginMethods/
    let j = build25("executable = /bin/true\ntransfer_input_files = FTP://foo/bar");
    assert!(attr(&j, "Requirements").ends_with(
        "((TARGET.FileSystemDomain == MY.FileSystemDomain) || (TARGET.HasFileTransfer && stringListIMember(\"FTP\",TARGET.HasFileTransferPluginMethods)))"
    ));
    assert_eq!(attr(&j, "WantTransferPluginMethods"), "\"FTP\"");
    // xfer2: one clause per scheme, in strcasecmp order, HTTP before HTTPS.
    let j = build25("executable = /bin/true\nshould_transfer_files = YES\ntransfer_input_files = data, HTTPS://example.com/file2, HTTP://example.com/file1, http://x/y");
    assert!(attr(&j, "Requirements").ends_with(
        "(TARGET.HasFileTransfer && stringListIMember(\"HTTP\",TARGET.HasFileTransferPluginMethods) && stringListIMember(\"HTTPS\",TARGET.HasFileTransferPluginMethods))"
    ));
    // getURLType(url, true): the scheme's last part after + - or .
    assert_eq!(super::values::url_type("osdf+https://h/p"), "https");
    assert_eq!(super::values::url_type("1http://h/p"), "");
    assert_eq!(super::values::url_type("http://"), "");
}

#[test]
fn vm_universe_parameters() {
    // golden kvm.sub: JobVMCheckpoint=false, JobVMMemory=1024, JobVMNetworking=true,
    // JobVMNetworkingType="nat", JobVMType="kvm", JobVM_VCPUS=1,
    // RequestMemory=MY.JobVMMemory, ShouldTransferFiles="YES", TransferExecutable=false,
    // VMPARAM_vm_Disk="dummy.qcow2:sda1:w:qcow2,dummy2.qcow2:sdb1:w:qcow2"
    let j = build25("universe = vm\nexecutable = Test VM job\nvm_type = KVM\nvm_memory = 1024\nvm_disk = dummy.qcow2:sda1:w:qcow2,dummy2.qcow2:sdb1:w:qcow2\nvm_networking = true\nvm_networking_type = nat");
    assert!(j.errors.is_empty(), "{:?}", j.errors);
    for (a, v) in [
        ("JobUniverse", "13"),
        ("JobVMCheckpoint", "false"),
        ("JobVMMemory", "1024"),
        ("JobVMNetworking", "true"),
        ("JobVMNetworkingType", "\"nat\""),
        ("JobVMType", "\"kvm\""),
        ("JobVMVNCConsole", "false"),
        ("JobVM_VCPUS", "1"),
        ("RequestMemory", "MY.JobVMMemory"),
        ("ShouldTransferFiles", "\"YES\""),
        ("WhenToTransferOutput", "\"ON_EXIT\""),
        ("TransferExecutable", "false"),
        ("ExecutableSize", "1048576"),
        (
            "VMPARAM_vm_Disk",
            "\"dummy.qcow2:sda1:w:qcow2,dummy2.qcow2:sdb1:w:qcow2\"",
        ),
    ] {
        assert_eq!(attr(&j, a), v, "{a}");
    }
    // SetRequestMem's words in 25.
    assert_eq!(
        j.warnings[0].message,
        "request_memory was NOT specified.  Using RequestMemory = MY.JobVMMemory"
    );
    // SetRequirements: networking and its type.
    assert!(attr(&j, "Requirements").contains(
        "(TARGET.VM_Memory >= MY.JobVMMemory) && TARGET.VM_Networking && stringListIMember(JobVMNetworkingType,TARGET.VM_Networking_Types,\",\")"
    ));
    // Disks need 3 or 4 fields; vm_memory is required; vmware is gone.
    let j = build25("universe = vm\nexecutable = x\nvm_type = kvm\nvm_memory = 64\nvm_disk = a:b");
    assert!(j.errors[0]
        .message
        .starts_with("'vm_disk' has incorrect format."));
    let j = build25("universe = vm\nexecutable = x\nvm_type = kvm\nvm_disk = a:b:w");
    assert!(j.errors[0]
        .message
        .starts_with("vm_memory cannot be found."));
    let j = build25("universe = vm\nexecutable = x\nvm_type = vmware\nvm_memory = 64");
    assert_eq!(
        j.errors[0].message,
        "A vm_type of 'vmware' is no longer supported"
    );
    // Checkpoints transfer on eviction too; with networking only if asked.
    let j = build25("universe = vm\nexecutable = x\nvm_type = xen\nxen_kernel = vmx\nvm_memory = 64\nvm_disk = a:b:w\nvm_checkpoint = true");
    assert_eq!(attr(&j, "WhenToTransferOutput"), "\"ON_EXIT_OR_EVICT\"");
    assert_eq!(attr(&j, "JobVMHardwareVT"), "true");
    let j = build25("universe = vm\nexecutable = x\nvm_type = kvm\nvm_memory = 64\nvm_disk = a:b:w\nvm_checkpoint = true\nvm_networking = true");
    assert!(j.errors[0]
        .message
        .contains("VM networking is currently conflict with VM checkpoint"));
}

#[test]
fn ec2_keywords_and_name_tag() {
    // golden grid_ec2.sub: EC2TagName="TestSIR", EC2AmiID="ami-00000006",
    // EC2KeyPairFile=/".+ssh_key_pair\.\d+\.0"/, EC2SpotPrice="0.011", ...
    let text = "universe = grid\nexecutable = TestSIR\ngrid_resource = ec2 https://ec2.amazonaws.com/\nec2_access_key_id = Amazon.accessKeyFile\nec2_secret_access_key = Amazon.secretKeyFile\nec2_ami_id = ami-00000006\nec2_instance_type = m1.small\nec2_user_data_file = ec2_user_data\nec2_spot_price = 0.011\nec2_keypair_file = ssh_key_pair.7.0";
    let j = build25(text);
    assert!(j.errors.is_empty(), "{:?}", j.errors);
    for (a, v) in [
        ("Cmd", "\"TestSIR\""),
        ("GridResource", "\"ec2 https://ec2.amazonaws.com/\""),
        ("EC2AccessKeyId", "\"/tmp/case/Amazon.accessKeyFile\""),
        ("EC2SecretAccessKey", "\"/tmp/case/Amazon.secretKeyFile\""),
        ("EC2AmiID", "\"ami-00000006\""),
        ("EC2InstanceType", "\"m1.small\""),
        ("EC2KeyPairFile", "\"/tmp/case/ssh_key_pair.7.0\""),
        ("EC2SpotPrice", "\"0.011\""),
        ("EC2UserDataFile", "\"/tmp/case/ec2_user_data\""),
        ("EC2TagName", "\"TestSIR\""),
        ("EC2TagNames", "<absent>"),
        ("JobUniverse", "9"),
        ("TransferExecutable", "false"),
    ] {
        assert_eq!(attr(&j, a), v, "{a}");
    }
    // handleAVPairs: tag names as written; a Name tag of one's own wins.
    let j = build25(&format!("{text}\nec2_tag_Owner = me\nec2_tag_Name = mine"));
    assert_eq!(attr(&j, "EC2TagNames"), "\"Name,Owner\"");
    assert_eq!(attr(&j, "EC2TagName"), "\"mine\"");
    assert_eq!(attr(&j, "EC2TagOwner"), "\"me\"");
    let j = build25(&format!("{text}\nWantNameTag = false"));
    assert_eq!(attr(&j, "EC2TagName"), "<absent>");
    // ec2 needs an AMI; ec2_parameter_* become EC2Param_* and EC2ParamNames.
    let j = build25(&text.replace("ec2_ami_id", "#"));
    assert_eq!(
        j.errors[0].message,
        "EC2 jobs require a \"ec2_ami_id\" parameter"
    );
    let j = build25(&format!(
        "{text}\nec2_parameter_Foo = 1\nec2_parameter_names = Bar"
    ));
    assert_eq!(attr(&j, "EC2Param_Foo"), "\"1\"");
    assert_eq!(attr(&j, "EC2ParamNames"), "\"Bar, Foo\"");
}

#[test]
fn gsi_credentials_and_scitokens() {
    // SetGSICredentials: the proxy made absolute, the lifetime an integer.
    let j = build25("executable = /bin/true\nx509UserProxy = proxy\nuse_x509userproxy = true\ndelegate_job_gsi_credentials_lifetime = 2600");
    assert!(j.errors.is_empty(), "{:?}", j.errors);
    assert_eq!(attr(&j, "x509userproxy"), "\"/tmp/case/proxy\"");
    assert_eq!(attr(&j, "DelegateJobGSICredentialsLifetime"), "2600");
    let j = build25("executable = /bin/true\ndelegate_job_gsi_credentials_lifetime = 26x");
    assert_eq!(
        j.errors[0].message,
        "invalid integer setting delegate_job_gsi_credentials_lifetime = 26x"
    );
    // scitokens_file alone turns it on; use_scitokens = true needs a file.
    let j = build25("executable = /bin/true\nscitokens_file = tok");
    assert_eq!(attr(&j, "ScitokensFile"), "\"/tmp/case/tok\"");
    let j = build25("executable = /bin/true\nuse_scitokens = true");
    assert!(j.errors[0]
        .message
        .starts_with("No Scitokens filename specified."));
    let j = build25("executable = /bin/true\nuse_scitokens = auto");
    assert_eq!(attr(&j, "ScitokensFile"), "<absent>");
    let j = build25("executable = /bin/true\nuse_scitokens = maybe");
    assert_eq!(
        j.errors[0].message,
        "use_scitokens error. Value should be true, false, or auto."
    );
}
