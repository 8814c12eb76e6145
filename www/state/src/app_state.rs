//! Everything the user has made: the pools, the expression, the selected
//! ads, the mode and the open view. It is what autosave stores and what a
//! share link carries.

use std::rc::Rc;

use classad::api::Mode;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PoolText {
    pub name: String,
    /// Shared, not copied: pools can be tens of megabytes and the state is
    /// cloned on every change.
    #[serde(serialize_with = "ser_rc", deserialize_with = "de_rc")]
    pub text: Rc<str>,
}

/// Is it the same text? A pointer check first: `Rc<str>`'s own `==` compares
/// every byte even of one and the same text (std's pointer shortcut is for
/// sized types only), and states, props and hook dependencies are compared
/// on every render.
pub fn same_text(a: &Rc<str>, b: &Rc<str>) -> bool {
    Rc::ptr_eq(a, b) || (a.len() == b.len() && a == b)
}

impl PartialEq for PoolText {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name && same_text(&self.text, &o.text)
    }
}

/// A text the state shares, not copies (a pasted expression can be tens
/// of megabytes, and states are cloned on every change), compared by
/// identity first (see [`same_text`]): states, props and hook
/// dependencies holding it are compared on every render.
#[derive(Clone, Debug, Default)]
pub struct SharedText(pub Rc<str>);

impl PartialEq for SharedText {
    fn eq(&self, o: &Self) -> bool {
        same_text(&self.0, &o.0)
    }
}

impl std::ops::Deref for SharedText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for SharedText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SharedText {
    fn from(t: &str) -> Self {
        SharedText(Rc::from(t))
    }
}

impl From<String> for SharedText {
    fn from(t: String) -> Self {
        SharedText(Rc::from(t))
    }
}

impl From<Rc<str>> for SharedText {
    fn from(t: Rc<str>) -> Self {
        SharedText(t)
    }
}

impl Serialize for SharedText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SharedText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        de_rc(d).map(SharedText)
    }
}

/// A shared text written as a string (serde `serialize_with`).
pub fn ser_rc<S: Serializer>(t: &Rc<str>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t)
}

/// A string read as a shared text (serde `deserialize_with`).
pub fn de_rc<'de, D: Deserializer<'de>>(d: D) -> Result<Rc<str>, D::Error> {
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
    /// Jobs × machines, coloured by outcome.
    Matrix,
    /// One negotiation cycle, and stepping through it.
    Negotiation,
    /// Auto-clustering of the jobs.
    Clusters,
    /// Why a job does not match (the analyzer).
    Analyze,
    /// Gangmatching: requests docked with several offers at once.
    Gangs,
    /// A pool query, as condor_status -constraint asks it.
    Query,
}

impl View {
    /// The views in the second page module (`views/`), loaded when first
    /// wanted: every view but the workbench and the gallery.
    pub fn is_lazy_loaded(self) -> bool {
        !matches!(self, View::Evaluate | View::Examples)
    }

    /// The views that work on a jobs pool and a machines pool.
    pub fn is_matchmaking(self) -> bool {
        matches!(
            self,
            View::Matrix | View::Negotiation | View::Clusters | View::Analyze | View::Gangs
        )
    }
}

/// The matchmaking views' choices (absent in older links and autosaves,
/// which get the defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MatchSettings {
    /// The jobs pool; `None`: the pool whose ads look like jobs.
    pub jobs: Option<usize>,
    /// The machines pool; `None`: the pool whose ads look like machines.
    pub machines: Option<usize>,
    /// Negotiate with auto-clustering.
    pub autocluster: bool,
    /// Local wall-clock time for time functions (`YYYY-MM-DDTHH:MM`, as a
    /// datetime-local input gives it); `None`: the real clock. Kept as
    /// wall time so an example "at 21:00" is 21:00 in every time zone.
    pub clock: Option<String>,
    /// The classroom's step (0-based), `None` while it is closed: in the
    /// address (`#example=<id>&step=<n>`), so a link opens a lesson there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// Negotiate as HTCondor 25's negotiator does (user priorities, rank
    /// and priority preemption) instead of by the thesis' Figure 9 vector,
    /// which links and lessons made before the choice keep.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub htcondor: bool,
    /// The user priorities pasted for it (`condor_userprio -allusers`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub userprio: String,
    /// Negotiator knobs changed from HTCondor 25's defaults (name, value;
    /// an empty value unsets the knob, as in HTCondor's configuration).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub knobs: Vec<(String, String)>,
}

impl Default for MatchSettings {
    fn default() -> Self {
        MatchSettings {
            jobs: None,
            machines: None,
            autocluster: true,
            clock: None,
            step: None,
            htcondor: false,
            userprio: String::new(),
            knobs: vec![],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AppState {
    pub pools: Vec<PoolText>,
    pub active_pool: usize,
    pub expr: SharedText,
    pub my: Option<AdRef>,
    pub target: Option<AdRef>,
    /// The chosen ads' identities (their labels: `Name`, else
    /// `ClusterId.ProcId`, …), so a choice follows its ad when the ads
    /// before it stop parsing or move; `None` when the ad has no label of
    /// its own (the position is then all there is).
    pub my_label: Option<String>,
    pub target_label: Option<String>,
    /// Path of nested-record attributes inside MY that is the scope.
    pub scope: Vec<String>,
    pub mode: Mode,
    /// The syntax every text is read in: HTCondor's unless the user (or a
    /// gallery example in the seed papers' notation) picked another.
    #[serde(skip_serializing_if = "is_htcondor_syntax")]
    pub dialect: classad::api::Dialect,
    pub view: View,
    pub matching: MatchSettings,
    /// The analyzer's choices (its pools are `matching`'s).
    pub analyze: crate::analyzer_settings::AnalyzeSettings,
    /// The gang view's choices (requests are `matching`'s jobs pool,
    /// offers its machines pool).
    pub gang: GangSettings,
    /// The Query view's pool and query.
    pub query: QuerySettings,
    /// The submit host a submit-file pool is turned into job ads on.
    pub submit: SubmitSettings,
    /// Set on a state opened from the gallery: the [`AppState::fingerprint`]
    /// it was opened with, so an example left unchanged is not mistaken for
    /// work to keep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<u64>,
    /// The gallery example's id, for the address (`#example=<id>`) while
    /// the example is unchanged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example_id: Option<String>,
    /// In an autosave only: pools whose text was too big for the browser
    /// to keep (name, bytes). They come back empty, and the page says so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_kept: Vec<(String, u64)>,
    /// In an autosave only: pools whose text is kept under a key of its own
    /// (pool, key, bytes); their text here is empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub apart_texts: Vec<(usize, String, u64)>,
}

/// The Query view's choices (absent in older links: the defaults).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuerySettings {
    /// The pool asked; `None`: the machines pool (else the first).
    pub pool: Option<usize>,
    pub spec: classad::api::QuerySpec,
}

/// condor_submit's version and the submit host's configuration (absent in
/// older links: the defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SubmitSettings {
    /// 25 or 24.
    pub htcondor: u32,
    /// `KEY = VALUE` lines (ARCH, OPSYS, FILESYSTEM_DOMAIN, …).
    pub config: String,
}

impl Default for SubmitSettings {
    fn default() -> Self {
        SubmitSettings {
            htcondor: 25,
            config: "ARCH = X86_64\nOPSYS = LINUX\nFILESYSTEM_DOMAIN = submit.example.org\nUID_DOMAIN = submit.example.org\n".into(),
        }
    }
}

/// The gang view's choices (absent in older links: the defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GangSettings {
    pub algorithm: classad::api::session::GangAlgorithm,
    /// DYNSR's random start.
    pub seed: u64,
    pub tab: GangTab,
    /// The root ordering expression (empty: priority order).
    pub root_order: String,
    /// The naive search's docking vector (empty: each port's Rank).
    pub docking_vector: String,
}

impl Default for GangSettings {
    fn default() -> Self {
        GangSettings {
            algorithm: classad::api::session::GangAlgorithm::Naive,
            seed: 1,
            tab: GangTab::Gangs,
            root_order: String::new(),
            docking_vector: String::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GangTab {
    #[default]
    Gangs,
    Steps,
    Compare,
    Index,
}

fn is_htcondor_syntax(d: &classad::api::Dialect) -> bool {
    *d == classad::api::Dialect::Modern
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
            my_label: None,
            target_label: None,
            scope: vec![],
            mode: Mode::HTCondor,
            dialect: classad::api::Dialect::default(),
            view: View::Evaluate,
            matching: MatchSettings::default(),
            analyze: Default::default(),
            gang: Default::default(),
            query: Default::default(),
            submit: Default::default(),
            example: None,
            example_id: None,
            not_kept: vec![],
            apart_texts: vec![],
        }
    }
}

impl AppState {
    /// A fingerprint of the pools (names and texts) and the expression:
    /// FNV-1a, stable across builds (autosaves outlive them).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes.iter().chain([0xffu8].iter()) {
                h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for p in &self.pools {
            eat(p.name.as_bytes());
            eat(p.text.as_bytes());
        }
        eat(self.expr.as_bytes());
        h
    }

    /// Opened from the gallery and not changed since.
    pub fn is_untouched_example(&self) -> bool {
        self.example == Some(self.fingerprint())
    }

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
        for p in [
            &mut self.matching.jobs,
            &mut self.matching.machines,
            &mut self.query.pool,
        ] {
            if matches!(p, Some(i) if *i >= n) {
                *p = None;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A state saved before the matchmaking views (no `matching`, an old
    /// view name) still loads, with the defaults.
    #[test]
    fn older_states_load_with_matchmaking_defaults() {
        let old = r#"{"pools":[{"name":"m","text":"[a=1]"}],"active_pool":0,"expr":"a",
            "my":{"pool":0,"ad":0},"target":null,"scope":[],"mode":"htcondor","view":"examples"}"#;
        let s: AppState = serde_json::from_str(old).unwrap();
        assert_eq!(s.view, View::Examples);
        assert_eq!(s.matching, MatchSettings::default());
        assert!(s.matching.autocluster);
        assert_eq!(s.analyze, Default::default());
    }

    #[test]
    fn matchmaking_choices_round_trip_and_are_clamped() {
        let mut s = AppState {
            view: View::Negotiation,
            matching: MatchSettings {
                jobs: Some(1),
                machines: Some(7),
                autocluster: false,
                clock: Some("2024-03-12T21:00".into()),
                step: Some(2),
                htcondor: true,
                userprio: "alice@lab 0.5\n".into(),
                knobs: vec![("PREEMPTION_REQUIREMENTS".into(), "True".into())],
            },
            ..Default::default()
        };
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""view":"negotiation""#), "{json}");
        let back: AppState = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        // A link made before the policy choice keeps the thesis' vector.
        let old = json.replace(r#","htcondor":true"#, "");
        let back: AppState = serde_json::from_str(&old).unwrap();
        assert!(!back.matching.htcondor && back.matching.userprio == "alice@lab 0.5\n");
        s.normalize();
        assert_eq!((s.matching.jobs, s.matching.machines), (Some(1), None));
        assert!(View::Matrix.is_matchmaking() && !View::Evaluate.is_matchmaking());
    }

    #[test]
    fn analyzer_choices_round_trip() {
        let s = AppState {
            view: View::Analyze,
            analyze: crate::analyzer_settings::AnalyzeSettings {
                job: 3,
                plane: Some(("ImageSize".into(), "Memory".into())),
                ..Default::default()
            }
            .with_override("Requirements", "TARGET.Memory > 1")
            .toggle_fixed(0, 2),
            ..Default::default()
        };
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains(r#""view":"analyze""#), "{json}");
        let back = serde_json::from_str::<AppState>(&json).unwrap();
        // The undo history stays in the tab.
        assert_eq!(back.analyze.undo.len(), 0);
        assert_eq!(back.analyze.edits(), s.analyze.edits());
        assert_eq!(
            (back.view, back.analyze.plane),
            (View::Analyze, s.analyze.plane.clone())
        );
    }

    #[test]
    fn an_autosave_head_names_its_texts_kept_apart_and_a_state_writes_none() {
        let plain = serde_json::to_string(&AppState::default()).unwrap();
        assert!(!plain.contains("apart_texts"), "{plain}");
        let head = AppState {
            apart_texts: vec![(0, "classad-playground/autosave/text/1-1".into(), 70_000)],
            ..AppState::default()
        };
        let back: AppState = serde_json::from_str(&serde_json::to_string(&head).unwrap()).unwrap();
        assert_eq!(back.apart_texts, head.apart_texts);
        // A head from before texts were kept apart reads with none.
        let old: AppState = serde_json::from_str(&plain).unwrap();
        assert!(old.apart_texts.is_empty());
    }
}
