//! A submit file run as condor_submit runs it: its statements read up to
//! each queue statement, the queue's items and steps iterated, one job ad
//! built per proc from the macro table as it stands then, ProcIds going on
//! across queue statements; then the lines nobody read are warned about.

use std::collections::BTreeMap;

use super::config::{HtcVersion, SubmitConfig};
use super::hash::{Param, SubmitHash};
use super::job::{build_job, BuiltJob, JobContext};
use super::macros::{MacroSet, Source};
use super::origin::Origin;
use super::queue::{self, Mode};
use super::reader::{Problem, Reader};

/// The most procs one submit makes here (condor_submit has no such bound:
/// `queue 100000000` would make a hundred million ads). Each proc's ad
/// with its origins takes about 35 KB and 0.2 ms: 100,000 are 18 s and
/// 3.5 GB.
pub const MAX_PROCS: usize = 100_000;

/// The procs made unless the caller asks for more (2 s and 350 MB).
pub const DEFAULT_MAX_PROCS: usize = 10_000;

/// What a submit runs on.
pub struct SubmitInput<'a> {
    /// The file's name as given (`$(SUBMIT_FILE)`, `JobSubmitFile`).
    pub name: &'a str,
    pub text: &'a str,
    /// Files given alongside, by name (`include : f`, `queue from f`).
    pub files: &'a dyn Fn(&str) -> Option<String>,
    /// Names `queue … matching` globs over (a trailing `/` marks a
    /// directory).
    pub names: &'a [String],
    pub config: SubmitConfig,
    pub cluster: i64,
    /// The submit time (`QDate`, `$(SUBMIT_TIME)`), seconds since the epoch.
    pub qdate: i64,
    pub owner: Option<String>,
    /// The submit directory (absolute).
    pub iwd: String,
    /// What `$ENV()` reads.
    pub env: BTreeMap<String, String>,
    /// At most this many procs (at most [`MAX_PROCS`]).
    pub max_procs: usize,
    /// Whether a directory exists (condor_submit checks the initial
    /// directory); `None` where there is no file system (the page).
    pub dir_exists: Option<fn(&str) -> bool>,
}

/// One proc's job ad.
pub struct Job {
    pub proc: i64,
    /// The queue statement's line that made it.
    pub queue_line: u32,
    pub built: BuiltJob,
}

/// What a submit made.
#[derive(Default)]
pub struct Submitted {
    pub jobs: Vec<Job>,
    pub warnings: Vec<Problem>,
    /// What makes condor_submit refuse the file (then `jobs` holds what
    /// was made before it).
    pub errors: Vec<Problem>,
    /// Why procs were left out, when a bound stopped the queue.
    pub cut: Option<String>,
}

/// The macro table as one proc's job builder sees it.
struct ProcHash<'a> {
    macros: &'a MacroSet,
    config: &'a SubmitConfig,
}

impl SubmitHash for ProcHash<'_> {
    fn param(&self, key: &str) -> Option<Param> {
        // `lookup` marks the key used.
        let value = self.macros.param(key)?;
        let origin = match self.macros.entry(key) {
            Some(e) => Origin::Line {
                line: e.line,
                key: e.name.clone(),
            },
            None => Origin::Default {
                why: format!("condor_submit's predefined macro {key}"),
            },
        };
        Some(Param { value, origin })
    }

    fn keys(&self) -> Vec<(String, u32)> {
        let mut keys: Vec<(String, u32)> = self
            .macros
            .entries()
            .filter(|e| e.source == Source::File)
            .map(|e| (e.name.clone(), e.line))
            .collect();
        keys.sort_by_key(|(_, l)| *l);
        keys
    }

    fn raw(&self, key: &str) -> Option<String> {
        self.macros.entry(key).map(|e| e.value.clone())
    }

    fn config(&self) -> &SubmitConfig {
        self.config
    }
}

/// The date parts `$(Year)`, `$(Month)`, `$(Day)` of a time (UTC).
fn ymd(secs: i64) -> (String, String, String) {
    let tm = crate::lang::time::gm_tm(secs);
    (
        format!("{:04}", tm.year),
        format!("{:02}", tm.mon + 1),
        format!("{:02}", tm.mday),
    )
}

/// Run a submit file.
pub fn submit(input: &SubmitInput) -> Submitted {
    let mut out = Submitted::default();
    let mut macros = MacroSet::new(input.qdate as u64 ^ 0x5eed);
    macros.env = input.env.clone();
    macros.cwd = input.iwd.clone();
    let cfg = &input.config;
    let p = &mut macros.predefined;
    p.set("ARCH", cfg.get_or("ARCH", ""));
    p.set("OPSYS", cfg.get_or("OPSYS", ""));
    for k in ["OPSYSANDVER", "OPSYSMAJORVER", "OPSYSVER", "SPOOL"] {
        p.set(k, cfg.get_or(k, ""));
    }
    p.set(
        "IsLinux",
        if cfg.get_or("OPSYS", "LINUX") == "LINUX" {
            "1"
        } else {
            "0"
        },
    );
    p.set(
        "IsWindows",
        if cfg.get_or("OPSYS", "") == "WINDOWS" {
            "1"
        } else {
            "0"
        },
    );
    p.set("SUBMIT_FILE", input.name);
    p.set("SUBMIT_TIME", input.qdate.to_string());
    let (y, m, d) = ymd(input.qdate);
    p.set("Year", y);
    p.set("Month", m);
    p.set("Day", d);
    p.set("JobId", "$(ClusterId).$(ProcId)");
    p.set("JobListId", "$(ClusterId)");
    p.set("Request_CPUs", "$(RequestCPUs)");
    p.set("Request_Memory", "$(RequestMemory)");
    p.set("VM_MEMORY", "$(Request_Memory)");
    p.set("VM_VCPUS", "$(Request_CPUs)");
    for k in ["Cluster", "ClusterId"] {
        p.set(k, input.cluster.to_string());
    }
    for k in ["Process", "ProcId", "Row", "ItemIndex", "Step", "TaskId"] {
        p.set(k, "0");
    }
    p.set("Node", "");

    let mut reader = Reader::new(input.name, input.text, input.files);
    reader.version = match cfg.version {
        HtcVersion::V24 => (24, 12, 24),
        HtcVersion::V25 => (25, 0, 0),
    };
    let max_procs = input.max_procs.clamp(1, MAX_PROCS);
    let mut proc: i64 = 0;
    let mut queues = 0;
    loop {
        let q = match reader.next_queue(&mut macros) {
            Ok(Some(q)) => q,
            Ok(None) => break,
            Err(e) => {
                out.errors.push(e);
                break;
            }
        };
        queues += 1;
        let at = |message: String| Problem {
            file: input.name.to_string(),
            line: q.line,
            column: q.column,
            message,
            warning: false,
        };
        let args = macros.expand(&q.args);
        let mut qa = match queue::parse(&args, q.more_items.as_deref()) {
            Ok(a) => a,
            Err(e) => {
                out.errors.push(at(e));
                break;
            }
        };
        if let Some(f) = &qa.items_file {
            match (input.files)(f) {
                Some(text) => qa.items.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .map(str::to_string),
                ),
                None => {
                    out.errors.push(at(format!(
                        "queue from {f}: the file was not given (add it beside the submit file)"
                    )));
                    break;
                }
            }
        }
        if let Mode::Matching { files, dirs } = qa.mode {
            qa.items = queue::matching(&qa.items, input.names, files, dirs);
        }
        let items: Vec<Option<String>> = if qa.mode == Mode::Count {
            vec![None]
        } else {
            qa.items.iter().cloned().map(Some).collect()
        };
        let n = items.len() as i64;
        let mut stop = false;
        for (index, item) in items.iter().enumerate() {
            if let Some(s) = qa.slice {
                if !s.selected(index as i64, n) {
                    continue;
                }
            }
            if let Some(item) = item {
                for (var, value) in queue::fields(&qa.vars, item) {
                    macros.insert(&var, &value, q.line, Source::Live);
                    macros.mark_used(&var);
                }
            }
            macros.predefined.set("Row", index.to_string());
            macros.predefined.set("ItemIndex", index.to_string());
            for step in 0..qa.count {
                if out.jobs.len() >= max_procs {
                    let planned = qa.count.saturating_mul(n.max(1));
                    out.cut = Some(format!(
                        "stopped at {max_procs} procs (the queue statement on line {} asks for {planned}{})",
                        q.line,
                        if queues > 1 { ", after the earlier queue statements' procs" } else { "" }
                    ));
                    stop = true;
                    break;
                }
                for k in ["Process", "ProcId"] {
                    macros.predefined.set(k, proc.to_string());
                }
                macros.predefined.set("Step", step.to_string());
                let hash = ProcHash {
                    macros: &macros,
                    config: cfg,
                };
                let ctx = JobContext {
                    cluster: input.cluster,
                    proc,
                    qdate: input.qdate,
                    owner: input.owner.clone(),
                    iwd: input.iwd.clone(),
                    submit_file: input.name.to_string(),
                    env: input
                        .env
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect(),
                    dir_exists: input.dir_exists,
                };
                let built = build_job(&hash, &ctx);
                for m in macros.take_problems() {
                    out.errors.push(at(m));
                }
                out.jobs.push(Job {
                    proc,
                    queue_line: q.line,
                    built,
                });
                proc += 1;
            }
            if stop {
                break;
            }
        }
        if stop {
            break;
        }
    }
    out.warnings.append(&mut reader.warnings);
    if queues == 0 && out.errors.is_empty() {
        out.errors.push(Problem {
            file: input.name.to_string(),
            line: input.text.lines().count().max(1) as u32,
            column: 1,
            message: "no queue statement: condor_submit makes no job".into(),
            warning: false,
        });
    }
    // condor_submit's "unused" warnings, in its table's (name) order.
    for e in macros.entries() {
        if macros.is_used(&e.name) || e.name.starts_with('+') || e.name.contains('.') {
            continue;
        }
        let message = match e.source {
            Source::Live => format!(
                "the Queue variable '{}' was unused by condor_submit. Is it a typo?",
                e.name
            ),
            Source::File => format!(
                "the line '{} = {}' was unused by condor_submit. Is it a typo?",
                e.name, e.value
            ),
        };
        out.warnings.push(Problem {
            file: input.name.to_string(),
            line: e.line,
            column: 1,
            message,
            warning: true,
        });
    }
    out
}
