//! The universe, the initial directory, the executable and its arguments
//! and environment (`SetUniverse`, `SetIWD`, `SetExecutable`,
//! `SetArguments`, `SetJavaVMArgs`, `SetParallelParams`, `SetEnvironment`).

use super::ad::*;
use super::args_env::{self, Env};
use super::values::{compress_path, full_path, strip_quotes};

/// `CondorUniverseNumber` plus `atoi` first (`CondorUniverseNumberEx`).
fn universe_number(s: &str) -> i64 {
    let n = super::values::atoi(s);
    if n != 0 {
        return n;
    }
    match s.to_ascii_lowercase().as_str() {
        "standard" => 1,
        "pipe" => 2,
        "linda" => 3,
        "pvm" => 4,
        "vanilla" => 5,
        "pvmd" => 6,
        "scheduler" => 7,
        "mpi" => 8,
        "grid" => 9,
        "java" => 10,
        "parallel" => 11,
        "local" => 12,
        "vm" => 13,
        _ => 0,
    }
}

fn universe_name(u: i64) -> &'static str {
    match u {
        1 => "Standard",
        2 => "Pipe",
        3 => "Linda",
        4 => "PVM",
        6 => "PVMD",
        8 => "MPI",
        _ => "Unknown",
    }
}

impl Job<'_> {
    pub fn set_universe(&mut self) {
        let p = self.param2("universe", "JobUniverse");
        let text = p
            .as_ref()
            .map(|p| p.value.clone())
            .or_else(|| self.config("DEFAULT_UNIVERSE"));
        let origin = match &p {
            Some(p) => from(p),
            None if text.is_some() => config("DEFAULT_UNIVERSE"),
            None => default("vanilla is the default universe"),
        };
        match &text {
            Some(t) => {
                self.universe = universe_number(t);
                if self.universe == 0 {
                    if t.eq_ignore_ascii_case("docker") {
                        self.universe = U_VANILLA;
                        self.is_docker = true;
                    } else if t.eq_ignore_ascii_case("container") {
                        self.universe = U_VANILLA;
                        self.is_container = true;
                    }
                }
            }
            None => self.universe = U_VANILLA,
        }
        // Images in vanilla or local make an implicit container job.
        let mut want_docker_image = false;
        if self.universe == U_VANILLA || self.universe == U_LOCAL {
            let container = self.param2("container_image", "ContainerImage");
            if self.is_docker {
                if container.is_some() {
                    self.error_at(
                        "docker universe does not allow use of container_image.",
                        container.as_ref(),
                    );
                    return;
                }
            } else {
                let docker = self.param2("docker_image", "DockerImage");
                if docker.is_some() && container.is_some() {
                    self.error_at(
                        "cannot declare both docker_image and container_image",
                        docker.as_ref(),
                    );
                    return;
                } else if docker.is_some() || container.is_some() {
                    self.is_container = true;
                    want_docker_image = docker.is_some();
                }
            }
        }
        self.assign_int("JobUniverse", self.universe, origin.clone());
        if want_docker_image {
            self.assign_bool("WantDockerImage", true, derived("docker_image is set"));
        }
        for (key, alt, attr) in [
            (
                "Remote_universe",
                "Remote_JobUniverse",
                "Remote_JobUniverse",
            ),
            (
                "Remote_Remote_universe",
                "Remote_Remote_JobUniverse",
                "Remote_Remote_JobUniverse",
            ),
        ] {
            if let Some(r) = self.param2(key, alt) {
                let u = universe_number(&r.value);
                if u == 0 {
                    let what = if attr.starts_with("Remote_Remote") {
                        "Remote_Remote_Universe"
                    } else {
                        "Remote_Universe"
                    };
                    self.error_at(
                        &format!("Unknown {} of '{}' specified", what, r.value),
                        Some(&r),
                    );
                    return;
                }
                self.assign_int(attr, u, from(&r));
            }
        }
        let (want_parallel, wp) = self.param_bool("WantParallelScheduling", None, false);
        if want_parallel {
            self.assign_bool(
                "WantParallelScheduling",
                true,
                wp.as_ref().map(from).unwrap_or(origin.clone()),
            );
        }
        match self.universe {
            U_JAVA | U_SCHEDULER | U_PARALLEL | U_MPI => {}
            U_VANILLA | U_LOCAL => {
                if self.is_docker {
                    self.assign_bool("WantDocker", true, derived("universe = docker"));
                }
                if self.is_container {
                    self.assign_bool("WantContainer", true, derived("a container job"));
                }
            }
            U_GRID => {
                let gr = self.param2("grid_resource", "GridResource");
                let Some(gr) = gr else {
                    self.error_at(
                        "grid_resource attribute not defined for grid universe job",
                        p.as_ref(),
                    );
                    return;
                };
                let gtype = gr.value.split_whitespace().next().unwrap_or("").to_string();
                let valid = [
                    "condor", "batch", "arc", "ec2", "gce", "azure", "pbs", "lsf", "sge", "nqs",
                    "slurm",
                ]
                .iter()
                .any(|g| g.eq_ignore_ascii_case(&gtype));
                self.grid_type = gtype.clone();
                if !valid {
                    let msg = format!(
                        "Invalid value '{}' for grid type\nMust be one of: condor, batch, arc, ec2, gce, or azure",
                        gtype
                    );
                    self.error_at(&msg, Some(&gr));
                }
            }
            U_VM => self.set_vm_universe(),
            u => {
                let t = text.unwrap_or_default();
                if u == 0 {
                    self.error_at(
                        &format!("I don't know about the '{}' universe.", t),
                        p.as_ref(),
                    );
                } else {
                    self.error_at(
                        &format!("'{}' is not a supported universe.", universe_name(u)),
                        p.as_ref(),
                    );
                }
            }
        }
    }

    /// `ComputeIWD` / `SetIWD`: `initialdir` against the submit directory.
    pub fn set_iwd(&mut self) {
        let p = self
            .param2("initialdir", "Iwd")
            .or_else(|| self.param2("initial_dir", "job_iwd"));
        let iwd = match &p {
            Some(p) if p.value.starts_with('/') => p.value.clone(),
            Some(p) => format!("{}/{}", self.ctx.iwd.trim_end_matches('/'), p.value),
            None => self.ctx.iwd.clone(),
        };
        self.iwd = compress_path(&iwd);
        let origin = p
            .as_ref()
            .map(from)
            .unwrap_or_else(|| default("the submit directory"));
        let iwd = self.iwd.clone();
        if let Some(exists) = self.ctx.dir_exists {
            if !exists(&iwd) {
                return self.error_at(&format!("No such directory: {iwd}"), p.as_ref());
            }
        }
        self.assign_str("Iwd", &iwd, origin);
        if !self.ctx.submit_file.is_empty() {
            let f = self.ctx.submit_file.clone();
            self.assign_str("JobSubmitFile", &f, derived("the submit file's name"));
        }
    }

    pub fn set_executable(&mut self) {
        if self.aborted {
            return;
        }
        let grid_pseudo = self.universe == U_GRID
            && ["ec2", "gce", "azure"]
                .iter()
                .any(|g| g.eq_ignore_ascii_case(&self.grid_type));
        let mut ignore_it = self.universe == U_VM || grid_pseudo;
        let mut transfer_it = true;

        if self.is_docker || self.is_container {
            let what = if self.is_docker {
                "docker_image"
            } else {
                "docker_image for container universe"
            };
            if let Some(d) = self.param2("docker_image", "DockerImage") {
                let image = strip_quotes(&d.value).to_string();
                if image.is_empty() {
                    self.error_at(&format!("'{}' is not a valid {}", d.value, what), Some(&d));
                    return;
                }
                self.assign_str("DockerImage", &image, from(&d));
            } else if self.is_docker && !self.has("DockerImage") {
                self.error_at("docker jobs require a docker_image", None);
                return;
            }
        }
        if self.is_container {
            if let Some(c) = self.param2("container_image", "ContainerImage") {
                let image = strip_quotes(&c.value).to_string();
                let bad = image.is_empty()
                    || ["instance://", "library://", "shub://"]
                        .iter()
                        .any(|p| image.starts_with(p));
                if bad {
                    self.error_at(
                        &format!("'{}' is not a valid container image", c.value),
                        Some(&c),
                    );
                    return;
                }
                self.assign_str("ContainerImage", &image, from(&c));
                let t = image.trim();
                let attr = if t.starts_with("docker:") {
                    "WantDockerImage"
                } else if t.ends_with(".sif") {
                    "WantSIF"
                } else {
                    "WantSandboxImage"
                };
                self.assign_bool(attr, true, derived("the kind of container_image"));
            } else if !self.has("ContainerImage") && !self.has("DockerImage") {
                self.error_at(
                    "container jobs require a container_image or docker_image",
                    None,
                );
                return;
            }
        }

        if let Some(sh) = self.param("shell") {
            self.assign_str("Cmd", "/bin/sh", from(&sh));
            self.assign_bool("TransferExecutable", false, from(&sh));
            return;
        }

        let ename = self.param2("executable", "Cmd");
        if ename.is_none() {
            if self.has("Cmd") {
                return;
            }
            if self.is_docker || self.is_container {
                ignore_it = true;
            } else {
                self.error_at("No 'executable' parameter was provided", None);
                return;
            }
        }
        if let Some(x) = self.param2("transfer_executable", "TransferExecutable") {
            if x.value.starts_with(['F', 'f']) {
                self.assign_bool("TransferExecutable", false, from(&x));
                transfer_it = false;
            }
        } else if self.config_bool("SUBMIT_CONTAINER_NEVER_XFER_ABSOLUTE_CMD", false)
            && (self.is_docker || self.is_container)
            && ename.as_ref().is_some_and(|e| e.value.starts_with('/'))
        {
            self.assign_bool(
                "TransferExecutable",
                false,
                config("SUBMIT_CONTAINER_NEVER_XFER_ABSOLUTE_CMD"),
            );
            transfer_it = false;
        }
        if ignore_it && transfer_it {
            self.assign_bool(
                "TransferExecutable",
                false,
                derived("the executable is not a file here"),
            );
            transfer_it = false;
        }
        let name = ename.as_ref().map(|e| e.value.clone()).unwrap_or_default();
        // Relative to the submit directory (not initialdir) when transferred.
        let full = if transfer_it {
            full_path(&self.ctx.iwd, &name)
        } else {
            name
        };
        let origin = ename
            .as_ref()
            .map(from)
            .unwrap_or_else(|| default("no executable"));
        self.assign_str("Cmd", &full, origin);
    }

    pub fn set_arguments(&mut self) {
        if self.aborted {
            return;
        }
        let args1 = self.param2("arguments", "Args");
        let args2 = self.param("arguments2");
        if let Some(sh) = self.param("shell") {
            let list = vec!["-c".to_string(), sh.value.clone()];
            self.assign_str("Arguments", &args_env::join_args_v2(&list), from(&sh));
            return;
        }
        let (allow_v1, _) = self.param_bool("allow_arguments_v1", None, false);
        if args1.is_some() && args2.is_some() && !allow_v1 {
            self.error_at(
                "If you wish to specify both 'arguments' and\n'arguments2' for maximal compatibility with different\nversions of Condor, then you must also specify\nallow_arguments_v1=true.",
                args2.as_ref(),
            );
            return;
        }
        let (parsed, p) = if let Some(a2) = &args2 {
            (args_env::parse_v2_quoted(&a2.value), Some(a2))
        } else if let Some(a1) = &args1 {
            (args_env::parse_v1_wacked_or_v2(&a1.value), Some(a1))
        } else if self.has("Args") || self.has("Arguments") {
            return;
        } else {
            (
                Ok(args_env::Args {
                    list: vec![],
                    was_v1: false,
                }),
                None,
            )
        };
        let args = match parsed {
            Ok(a) => a,
            Err(e) => {
                let e = if e.is_empty() {
                    "ERROR in arguments.".to_string()
                } else {
                    e
                };
                let v = p.map(|p| p.value.clone()).unwrap_or_default();
                self.error_at(
                    &format!("{}\nThe full arguments you specified were: {}", e, v),
                    p,
                );
                return;
            }
        };
        let origin = p.map(from).unwrap_or_else(|| default("no arguments"));
        if args.was_v1 {
            match args_env::join_args_v1(&args.list) {
                Ok(s) => self.assign_str("Args", &s, origin),
                Err(e) => {
                    self.error_at(&format!("failed to insert arguments: {}", e), p);
                    return;
                }
            }
        } else {
            self.assign_str("Arguments", &args_env::join_args_v2(&args.list), origin);
        }
        if self.universe == U_JAVA && args.list.is_empty() {
            self.error_at(
                "In Java universe, you must specify the class name to run.\nExample:\n\narguments = MyClass",
                p,
            );
        }
    }

    pub fn set_java_vm_args(&mut self) {
        if self.aborted {
            return;
        }
        let old = self.param("java_vm_args");
        let ext = self.param2("java_vm_arguments", "JavaVMArgs");
        if old.is_some() && ext.is_some() {
            self.error_at(
                "you specified a value for both java_vm_args and java_vm_arguments.",
                ext.as_ref(),
            );
            return;
        }
        let args1 = ext.or(old);
        let args2 = self.param("java_vm_arguments2");
        let (allow_v1, _) = self.param_bool("allow_arguments_v1", None, false);
        if args1.is_some() && args2.is_some() && !allow_v1 {
            self.error_at(
                "If you wish to specify both 'java_vm_arguments' and\n'java_vm_arguments2' for maximal compatibility with different\nversions of Condor, then you must also specify\nallow_arguments_v1=true.",
                args2.as_ref(),
            );
            return;
        }
        let p = match args2.as_ref().or(args1.as_ref()) {
            Some(p) => p.clone(),
            None => return,
        };
        let parsed = if args2.is_some() {
            args_env::parse_v2_quoted(&p.value)
        } else {
            args_env::parse_v1_wacked_or_v2(&p.value)
        };
        match parsed {
            Ok(a) if a.was_v1 => match args_env::join_args_v1(&a.list) {
                Ok(s) if !s.is_empty() => self.assign_str("JavaVMArgs", &s, from(&p)),
                Ok(_) => {}
                Err(e) => self.error_at(&format!("failed to insert java vm arguments into ClassAd: {}", e), Some(&p)),
            },
            Ok(a) => {
                let s = args_env::join_args_v2(&a.list);
                if !s.is_empty() {
                    self.assign_str("JavaVMArguments", &s, from(&p));
                }
            }
            Err(e) => self.error_at(
                &format!(
                    "failed to parse java VM arguments: {}\nThe full arguments you specified were {}",
                    e, p.value
                ),
                Some(&p),
            ),
        }
    }

    pub fn set_parallel_params(&mut self) {
        if self.aborted {
            return;
        }
        let want_parallel = self.lookup_bool("WantParallelScheduling").unwrap_or(false);
        if self.universe == U_MPI || self.universe == U_PARALLEL || want_parallel {
            let mc = self
                .param2("machine_count", "MachineCount")
                .or_else(|| self.param2("node_count", "NodeCount"));
            if let Some(mc) = mc {
                let n = super::values::atoi(&mc.value);
                self.assign_int("MinHosts", n, from(&mc));
                self.assign_int("MaxHosts", n, from(&mc));
            } else if !self.has("MaxHosts") {
                self.error_at("No machine_count specified!", None);
                return;
            }
            self.assign_int(
                "RequestCpus",
                1,
                default("parallel jobs request one cpu per node"),
            );
        }
        if self.universe == U_PARALLEL {
            self.assign_bool("WantIOProxy", true, derived("parallel universe"));
            self.assign_bool("JobRequiresSandbox", true, derived("parallel universe"));
        }
    }

    pub fn set_environment(&mut self) {
        if self.aborted {
            return;
        }
        let env1 = self.param2("environment", "env");
        let env2 = self.param("environment2");
        let (allow_v1, _) = self.param_bool("allow_environment_v1", None, false);
        // `env` (not `environment`) written in V1 means V1 is preferred.
        let mut prefer_v1 = false;
        if env1.is_some() && env2.is_none() {
            if let Some(e) = self.param("env") {
                prefer_v1 = !args_env::is_v2_quoted(&e.value);
            }
        }
        if env1.is_some() && env2.is_some() && !allow_v1 {
            self.error_at(
                "If you wish to specify both 'environment' and\n'environment2' for maximal compatibility with different\nversions of Condor, then you must also specify\nallow_environment_v1=true.",
                env2.as_ref(),
            );
            return;
        }
        let mut env = Env::default();
        let r = if let Some(e2) = &env2 {
            env.merge_v2_quoted(&e2.value)
        } else if let Some(e1) = &env1 {
            env.merge_v1_or_v2(&e1.value)
        } else {
            Ok(())
        };
        let p = env2.as_ref().or(env1.as_ref());
        if let Err(msg) = r {
            let v = p.map(|p| p.value.clone()).unwrap_or_default();
            self.error_at(
                &format!("{}\nThe environment you specified was: '{}'", msg, v),
                p,
            );
            return;
        }
        let getenv = self.param2("getenv", "get_env");
        if let Some(g) = &getenv {
            let v1_only = env1.is_some() && env2.is_none();
            let filter: Option<Vec<String>> = match super::values::string_is_boolean(&g.value) {
                Some(true) => {
                    if !self.config_bool("SUBMIT_ALLOW_GETENV", true) {
                        self.error_at(
                            "getenv = true command not allowed because administrator has set SUBMIT_ALLOW_GETENV = false",
                            Some(g),
                        );
                        return;
                    }
                    None
                }
                Some(false) => Some(vec!["!*".to_string()]),
                None => Some(super::values::split_list(&g.value, ", \t")),
            };
            for (k, v) in &self.ctx.env {
                if env.vars.contains_key(k) || (v1_only && v.contains([';', '\n'])) {
                    continue;
                }
                let keep = match &filter {
                    None => true,
                    Some(pats) => env_filter_allows(pats, k),
                };
                if keep {
                    env.vars.insert(k.clone(), v.clone());
                }
            }
        }
        let has_env1 = self.has("Env");
        let has_env2 = self.has("Environment");
        let mut insert_env1 = prefer_v1;
        let mut insert_env2 = !insert_env1;
        if env1.is_none() && env2.is_none() && env.vars.is_empty() && (has_env1 || has_env2) {
            insert_env1 = false;
            insert_env2 = false;
        }
        if insert_env1 && has_env2 {
            insert_env2 = true;
        }
        if insert_env2 && has_env1 {
            insert_env1 = true;
        }
        let origin = p
            .map(from)
            .or_else(|| getenv.as_ref().map(from))
            .unwrap_or_else(|| default("no environment"));
        if insert_env1 {
            match env.v1_raw() {
                Ok(s) => {
                    self.assign_str("Env", &s, origin.clone());
                    self.assign_str("EnvDelim", ";", origin.clone());
                }
                Err(e) => {
                    self.error_at(
                        &format!("failed to insert environment into job ad: {}", e),
                        p,
                    );
                    return;
                }
            }
        }
        if insert_env2 {
            self.assign_str("Environment", &env.v2_raw(), origin);
        }
    }
}

/// `getenv = <list>`: names or patterns (`*` wildcards); a leading `!`
/// excludes. A name passes when it matches an include and no exclude.
fn env_filter_allows(pats: &[String], name: &str) -> bool {
    let matches = |pat: &str| glob_nocase(pat, name);
    let mut included = false;
    let mut has_include = false;
    for p in pats {
        if let Some(x) = p.strip_prefix('!') {
            if matches(x) {
                return false;
            }
        } else {
            has_include = true;
            included |= matches(p);
        }
    }
    included || !has_include
}

fn glob_nocase(pat: &str, s: &str) -> bool {
    let (p, s) = (pat.to_ascii_lowercase(), s.to_ascii_lowercase());
    match p.split_once('*') {
        None => p == s,
        Some((pre, post)) => {
            s.len() >= pre.len() + post.len() && s.starts_with(pre) && s.ends_with(post)
        }
    }
}
