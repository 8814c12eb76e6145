//! The vm universe: `SetUniverse`'s forced file transfer and
//! `SetVMParams` (vm_type, vm_memory, vm_vcpus, vm_disk, networking,
//! checkpoint, VNC, xen's kernel), the same in HTCondor 24 and 25.

use super::ad::*;
use super::values::{parse_bytes, string_is_boolean};

/// `validate_disk_param`: comma-separated disks, each with `min..=max`
/// colon-separated fields (`file:device:permission[:format]`).
pub(super) fn valid_disks(s: &str, min: usize, max: usize) -> bool {
    let mut any = false;
    for disk in s.trim_start_matches(' ').split(',').map(str::trim) {
        if disk.is_empty() {
            continue;
        }
        any = true;
        let n = disk.matches(':').count() + 1;
        if n < min || n > max {
            return false;
        }
    }
    any
}

impl Job<'_> {
    /// A boolean key without complaint (`submit_param_bool` in
    /// `SetUniverse`, where a bad value is reported later).
    fn quiet_bool(&self, key: &str, alt: &str) -> bool {
        self.param2(key, alt)
            .and_then(|p| string_is_boolean(&p.value))
            .unwrap_or(false)
    }

    /// `SetUniverse` for vm jobs: file transfer is always on, on exit
    /// or (for checkpoints) on eviction too.
    pub fn set_vm_universe(&mut self) {
        if !self.quiet_bool("vm_checkpoint", "JobVMCheckpoint") {
            let why = "the vm universe always transfers files";
            self.set_submit_param("ShouldTransferFiles", "YES", why);
            self.set_submit_param("WhenToTransferOutput", "ON_EXIT", why);
            return;
        }
        if self.quiet_bool("vm_networking", "JobVMNetworking") {
            let when = self.param2("WhenToTransferOutput", "when_to_transfer_output");
            let evict = when
                .as_ref()
                .is_some_and(|w| w.value.eq_ignore_ascii_case("ON_EXIT_OR_EVICT"));
            if !evict {
                let p = self.param2("vm_checkpoint", "JobVMCheckpoint");
                return self.error_at(
                    "ERROR: You explicitly requested both VM checkpoint and VM networking. However, VM networking is currently conflict with VM checkpoint. If you still want to use both VM networking and VM checkpoint, you explicitly must define \"when_to_transfer_output = ON_EXIT_OR_EVICT\"",
                    p.as_ref(),
                );
            }
        }
        let why = "vm_checkpoint transfers files on eviction";
        self.set_submit_param("ShouldTransferFiles", "YES", why);
        self.set_submit_param("WhenToTransferOutput", "ON_EXIT_OR_EVICT", why);
    }

    /// A boolean vm setting: the file's, else the ad's, else false.
    fn vm_bool(&mut self, key: &str, attr: &str) -> bool {
        let (b, p) = self.param_bool(key, Some(attr), false);
        match p {
            Some(p) => self.assign_bool(attr, b, from(&p)),
            None => match self.lookup_bool(attr) {
                Some(b) => return b,
                None => self.assign_bool(attr, false, default("off unless asked for")),
            },
        }
        b
    }

    pub fn set_vm_params(&mut self) {
        if self.aborted || self.universe != U_VM {
            return;
        }
        let vm_type = match self.param2("vm_type", "JobVMType") {
            Some(p) => {
                let t = p.value.to_ascii_lowercase();
                self.assign_str("JobVMType", &t, from(&p));
                t
            }
            None => self.lookup_str("JobVMType").unwrap_or_default(),
        };
        self.vm_bool("vm_checkpoint", "JobVMCheckpoint");
        if self.aborted {
            return;
        }
        let networking = self.vm_bool("vm_networking", "JobVMNetworking");
        if networking {
            if let Some(p) = self.param2("vm_networking_type", "JobVMNetworkingType") {
                self.assign_str("JobVMNetworkingType", &p.value, from(&p));
            }
        }
        self.vm_bool("vm_vnc", "JobVMVNCConsole");
        if self.aborted {
            return;
        }
        // Memory in MiB; suspending a vm writes it to disk, hence the size.
        let vm_mem = match self.param2("vm_memory", "JobVMMemory") {
            Some(p) => {
                let mb = parse_bytes(&p.value, 1 << 20).map(|(n, _)| n).unwrap_or(0);
                if mb <= 0 {
                    return self.error_at(
                        "vm_memory is incorrectly specified\nFor example, for vm memroy of 128 Megabytes,\nyou need to use 128 in your submit description file.",
                        Some(&p),
                    );
                }
                self.assign_int("JobVMMemory", mb, from(&p));
                mb
            }
            None => match self.lookup_int("JobVMMemory") {
                Some(mb) => mb,
                None => {
                    return self.error_at(
                        "vm_memory cannot be found.\nPlease specify vm_memory for vm universe in your submit description file.",
                        None,
                    )
                }
            },
        };
        self.assign_int(
            "ExecutableSize",
            vm_mem.saturating_mul(1024),
            derived("a vm's memory, in KiB"),
        );
        match self.param2("vm_vcpus", "JobVM_VCPUS") {
            Some(p) => {
                let n = super::values::atoi(&p.value).max(1);
                self.assign_int("JobVM_VCPUS", n, from(&p));
            }
            None if self.has("JobVM_VCPUS") => {}
            None => self.assign_int("JobVM_VCPUS", 1, default("one virtual cpu")),
        }
        if let Some(p) = self.param2("vm_macaddr", "JobVM_MACADDR") {
            self.assign_str("JobVM_MACADDR", &p.value, from(&p));
        }
        let (no_output, p) = self.param_bool("vm_no_output_vm", None, false);
        if let Some(p) = p {
            self.assign_bool("VMPARAM_No_Output_VM", no_output, from(&p));
        }
        if self.aborted {
            return;
        }
        if vm_type.eq_ignore_ascii_case("xen") {
            self.set_xen_params();
            if self.aborted {
                return;
            }
        }
        if vm_type.eq_ignore_ascii_case("xen") || vm_type.eq_ignore_ascii_case("kvm") {
            match self.param("vm_disk") {
                Some(p) => {
                    if !valid_disks(&p.value, 3, 4) {
                        return self.error_at(
                            "'vm_disk' has incorrect format.\nThe format shoud be like \"<filename>:<devicename>:<permission>\"\ne.g.> For single disk: <vm>_disk = filename1:hda1:w\n      For multiple disks: <vm>_disk = filename1:hda1:w,filename2:hda2:w",
                            Some(&p),
                        );
                    }
                    self.assign_str("VMPARAM_vm_Disk", &p.value, from(&p));
                }
                None if self.has("VMPARAM_vm_Disk") => {}
                None => {
                    return self.error_at(
                        "'<vm>_disk' cannot be found.\nPlease specify '<vm>_disk' for the virtual machine in your submit description file.",
                        None,
                    )
                }
            }
        } else if vm_type.eq_ignore_ascii_case("vmware") {
            let p = self.param2("vm_type", "JobVMType");
            self.error_at("A vm_type of 'vmware' is no longer supported", p.as_ref());
        }
    }

    /// xen: the kernel (`included`, `vmx` or a file), its initrd, root
    /// device and parameters.
    fn set_xen_params(&mut self) {
        let kernel = match self.param2("xen_kernel", "VMPARAM_Xen_Kernel") {
            Some(p) => {
                self.assign_str("VMPARAM_Xen_Kernel", &p.value, from(&p));
                p.value
            }
            None => match self.lookup_str("VMPARAM_Xen_Kernel") {
                Some(k) => k,
                None => {
                    return self.error_at(
                        "'xen_kernel' cannot be found.\nPlease specify 'xen_kernel' for the xen virtual machine in your submit description file.\nxen_kernel must be one of \"included\", \"vmx\", <file-name>.",
                        None,
                    )
                }
            },
        };
        let real_kernel = if kernel.eq_ignore_ascii_case("included") {
            false
        } else if kernel.eq_ignore_ascii_case("vmx") {
            self.assign_bool("JobVMHardwareVT", true, derived("xen_kernel = vmx"));
            false
        } else {
            true
        };
        if let Some(p) = self.param("xen_initrd") {
            if !real_kernel {
                return self.error_at(
                    "To use xen_initrd, xen_kernel should be a real kernel file.",
                    Some(&p),
                );
            }
            self.assign_str("VMPARAM_Xen_Initrd", &p.value, from(&p));
        }
        if real_kernel {
            match self.param("xen_root") {
                Some(p) => self.assign_str("VMPARAM_Xen_Root", &p.value, from(&p)),
                None => {
                    return self.error_at(
                        "'xen_root' cannot be found.\nPlease specify 'xen_root' for the xen virtual machine in your submit description file.",
                        None,
                    )
                }
            }
        }
        if let Some(p) = self.param2("xen_kernel_params", "VMPARAM_Xen_Kernel_Params") {
            // trim_quotes(s, "\"'"): one quote of either kind off each end.
            let mut v = p.value.as_str();
            if v.len() >= 2 {
                if v.starts_with(['"', '\'']) {
                    v = &v[1..];
                }
                if v.ends_with(['"', '\'']) {
                    v = &v[..v.len() - 1];
                }
            }
            self.assign_str("VMPARAM_Xen_Kernel_Params", v, from(&p));
        }
    }
}
