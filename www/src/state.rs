//! Everything the user has made: the pools, the expression, the selected
//! ads, the mode and the open view. It is what autosave stores and what a
//! share link carries.

use std::rc::Rc;

use classad::Mode;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolText {
    pub name: String,
    /// Shared, not copied: pools can be tens of megabytes and the state is
    /// cloned on every change (and `Rc` equality is a pointer check first).
    #[serde(serialize_with = "ser_rc", deserialize_with = "de_rc")]
    pub text: Rc<str>,
}

fn ser_rc<S: Serializer>(t: &Rc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t)
}

fn de_rc<'de, D: Deserializer<'de>>(d: D) -> Result<Rc<str>, D::Error> {
    String::deserialize(d).map(Rc::from)
}

/// An ad chosen by pool and position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdRef {
    pub pool: usize,
    pub ad: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    #[default]
    Evaluate,
    Examples,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppState {
    pub pools: Vec<PoolText>,
    pub active_pool: usize,
    pub expr: String,
    pub my: Option<AdRef>,
    pub target: Option<AdRef>,
    /// Path of nested-record attributes inside MY that is the scope.
    pub scope: Vec<String>,
    pub mode: Mode,
    pub view: View,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            pools: vec![
                PoolText {
                    name: "machines".into(),
                    text: Rc::from(DEFAULT_MACHINES),
                },
                PoolText {
                    name: "jobs".into(),
                    text: Rc::from(DEFAULT_JOBS),
                },
            ],
            active_pool: 0,
            expr: "TARGET.RequestMemory <= Memory && MY.Requirements".into(),
            my: Some(AdRef { pool: 0, ad: 0 }),
            target: Some(AdRef { pool: 1, ad: 0 }),
            scope: vec![],
            mode: Mode::HTCondor,
            view: View::Evaluate,
        }
    }
}

impl AppState {
    /// Clamp indices after pools were edited or a link was loaded.
    pub fn normalize(&mut self) {
        if self.pools.is_empty() {
            self.pools.push(PoolText {
                name: "pool".into(),
                text: Rc::from(""),
            });
        }
        if self.active_pool >= self.pools.len() {
            self.active_pool = 0;
        }
        let n = self.pools.len();
        for r in [&mut self.my, &mut self.target] {
            if matches!(r, Some(a) if a.pool >= n) {
                *r = None;
            }
        }
    }
}

const DEFAULT_MACHINES: &str = r#"[
  Name = "slot1@node1.example.org";
  MyType = "Machine";
  Arch = "X86_64";
  OpSys = "LINUX";
  Memory = 8192;
  Cpus = 4;
  LoadAvg = 0.12;
  KeyboardIdle = 1800;
  Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3;
  Requirements = Start && TARGET.Owner != "riffraff";
  Rank = TARGET.Department == "Physics" ? 10 : 0;
  Gpu = [ Model = "A100"; Memory = 40960; Capability = 8.0 ]
]
[
  Name = "slot1@node2.example.org";
  MyType = "Machine";
  Arch = "X86_64";
  OpSys = "LINUX";
  Memory = 2048;
  Cpus = 1;
  LoadAvg = 0.9;
  KeyboardIdle = 30;
  Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3;
  Requirements = Start;
  Rank = 0
]
"#;

const DEFAULT_JOBS: &str = r#"[
  MyType = "Job";
  ClusterId = 42;
  ProcId = 0;
  Owner = "alice";
  Department = "Physics";
  RequestMemory = 4096;
  RequestCpus = 2;
  Requirements = TARGET.Arch == "X86_64" && TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus;
  Rank = TARGET.Memory
]
"#;
