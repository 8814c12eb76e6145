//! The gangmatching model (thesis ch. 3): an ad's ports.
//!
//! `Ports = { [ Label = …; Requirements or Constraint = …; Rank = …; … ], … }`;
//! an ad without `Ports` has one implicit port labelled `other`: the ad
//! itself, with its own Requirements/Constraint and Rank. Labels are
//! case-insensitive, unique within an ad, and visible from their port to
//! the end of the list: a port that refers to a label declared by a later
//! port is an error. Errors are values, never panics.

use std::sync::Arc;

use crate::lang::ast::{ClassAd, Expr, ExprKind};
use crate::matchmaking::matching::DEFAULT_REQUIREMENTS;

/// At most this many ports per ad (the search is exponential in them).
pub const MAX_PORTS: usize = 64;

/// One port of an ad.
#[derive(Clone, Debug)]
pub struct Port {
    /// The label as written (`other` for the implicit port).
    pub label: String,
    /// The label case-folded.
    pub key: String,
    /// The name of the attribute holding the port's constraint
    /// (`Requirements` or `Constraint`), if it has one.
    pub constraint_attr: Option<String>,
    /// Whether the port defines `Rank`.
    pub has_rank: bool,
}

/// An ad with its ports.
#[derive(Clone, Debug)]
pub struct GangAd {
    pub ad: Arc<ClassAd>,
    pub ports: Vec<Port>,
    /// No `Ports` attribute: the single port is the ad itself.
    pub implicit: bool,
    /// The ports' records, in order (empty for an implicit port).
    pub records: Vec<Arc<ClassAd>>,
}

impl GangAd {
    /// Port `p`'s record (`None` for an implicit port).
    pub fn port_record(&self, p: usize) -> Option<&Arc<ClassAd>> {
        self.records.get(p)
    }
}

/// Why an ad's ports are unusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// `Ports` is not a list literal of records.
    NotAList,
    /// `Ports` is an empty list.
    NoPorts,
    TooManyPorts(usize),
    /// Port (1-based) is not a record.
    PortNotRecord(usize),
    /// Port (1-based) has no usable `Label`.
    MissingLabel(usize),
    DuplicateLabel {
        port: usize,
        label: String,
        first: usize,
    },
    /// Port `port` (label `port_label`) refers to `label`, declared later
    /// by port `declared_by`.
    LaterLabel {
        port: usize,
        port_label: String,
        label: String,
        declared_by: usize,
    },
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::NotAList => write!(f, "Ports must be a list of records"),
            ModelError::NoPorts => write!(f, "Ports is an empty list"),
            ModelError::TooManyPorts(n) => {
                write!(f, "Ports has {n} ports; at most {MAX_PORTS} are allowed")
            }
            ModelError::PortNotRecord(p) => write!(f, "port {p} is not a record"),
            ModelError::MissingLabel(p) => {
                write!(f, "port {p} has no Label (a name or a string)")
            }
            ModelError::DuplicateLabel { port, label, first } => write!(
                f,
                "port {port} declares label {label}, already declared by port {first}"
            ),
            ModelError::LaterLabel {
                port,
                port_label,
                label,
                declared_by,
            } => write!(
                f,
                "port {port} ({port_label}) refers to {label}, which is declared later by port {declared_by}"
            ),
        }
    }
}

impl std::error::Error for ModelError {}

fn constraint_attr(ad: &ClassAd) -> Option<String> {
    DEFAULT_REQUIREMENTS
        .iter()
        .find(|n| ad.position(n).is_some())
        .map(|n| n.to_string())
}

fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner) => strip(inner),
        _ => e,
    }
}

fn label_of(e: &Expr) -> Option<String> {
    match &strip(e).kind {
        ExprKind::Attr { name, .. } => Some(name.text.to_string()),
        ExprKind::Literal(v) => v.as_str().filter(|s| !s.is_empty()).map(str::to_string),
        _ => None,
    }
}

/// Every relative attribute name an expression mentions (bounded walk).
fn names_in(e: &Expr, out: &mut Vec<String>, budget: &mut usize) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        if let ExprKind::Attr {
            name,
            absolute: false,
        } = &e.kind
        {
            out.push(name.key.to_string());
        }
        if let ExprKind::Record(ad) = &e.kind {
            for (_, x) in ad.iter() {
                stack.push(x);
            }
        }
        stack.extend(e.children());
    }
}

/// Read an ad's ports.
pub fn ports_of(ad: &Arc<ClassAd>) -> Result<GangAd, ModelError> {
    let Some(ports) = ad.get("Ports") else {
        return Ok(GangAd {
            ad: ad.clone(),
            ports: vec![Port {
                label: "other".into(),
                key: "other".into(),
                constraint_attr: constraint_attr(ad),
                has_rank: ad.position("Rank").is_some(),
            }],
            implicit: true,
            records: Vec::new(),
        });
    };
    let ExprKind::List(items) = &strip(ports).kind else {
        return Err(ModelError::NotAList);
    };
    if items.is_empty() {
        return Err(ModelError::NoPorts);
    }
    if items.len() > MAX_PORTS {
        return Err(ModelError::TooManyPorts(items.len()));
    }
    let mut out: Vec<Port> = Vec::with_capacity(items.len());
    let mut records = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let ExprKind::Record(rec) = &strip(item).kind else {
            return Err(ModelError::PortNotRecord(i + 1));
        };
        let label = rec
            .get("Label")
            .and_then(label_of)
            .ok_or(ModelError::MissingLabel(i + 1))?;
        let key = label.to_ascii_lowercase();
        if let Some(first) = out.iter().position(|p| p.key == key) {
            return Err(ModelError::DuplicateLabel {
                port: i + 1,
                label,
                first: first + 1,
            });
        }
        out.push(Port {
            label,
            key,
            // A port without its own climbs to its ad's, as any lookup the
            // port does not define does in Figure 32's environment.
            constraint_attr: constraint_attr(rec).or_else(|| constraint_attr(ad)),
            has_rank: rec.position("Rank").is_some() || ad.position("Rank").is_some(),
        });
        records.push(rec.clone());
    }
    // Label scope: a port sees its own label and those before it.
    for (i, rec) in records.iter().enumerate() {
        let mut names = Vec::new();
        let mut budget = 100_000;
        for (attr, e) in rec.iter() {
            if attr.eq_ignore_ascii_case("Label") {
                continue;
            }
            names_in(e, &mut names, &mut budget);
        }
        for n in names {
            // An attribute of the port or of the ad shadows a label.
            if rec.position(&n).is_some() || ad.position(&n).is_some() {
                continue;
            }
            if let Some(j) = out.iter().skip(i + 1).position(|p| p.key == n) {
                let j = i + 1 + j;
                return Err(ModelError::LaterLabel {
                    port: i + 1,
                    port_label: out[i].label.clone(),
                    label: out[j].label.clone(),
                    declared_by: j + 1,
                });
            }
        }
    }
    Ok(GangAd {
        ad: ad.clone(),
        ports: out,
        implicit: false,
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_classad;

    fn ad(s: &str) -> Arc<ClassAd> {
        Arc::new(parse_classad(s).unwrap())
    }

    #[test]
    fn implicit_port() {
        let g = ports_of(&ad("[ Requirements = other.x > 1; Rank = 2 ]")).unwrap();
        assert!(g.implicit);
        assert_eq!(g.ports[0].label, "other");
        assert_eq!(g.ports[0].constraint_attr.as_deref(), Some("Requirements"));
        assert!(g.ports[0].has_rank);
    }

    #[test]
    fn a_port_without_a_constraint_uses_its_ads() {
        let g = ports_of(&ad(
            "[ Constraint = a.x > 1; Rank = 2; Ports = { [ Label = a ], [ Label = b; Requirements = b.y ] } ]",
        ))
        .unwrap();
        assert_eq!(g.ports[0].constraint_attr.as_deref(), Some("Constraint"));
        assert!(g.ports[0].has_rank);
        assert_eq!(g.ports[1].constraint_attr.as_deref(), Some("Requirements"));
        let g = ports_of(&ad("[ Ports = { [ Label = a ] } ]")).unwrap();
        assert_eq!(g.ports[0].constraint_attr, None);
    }

    #[test]
    fn labels_and_errors() {
        let g = ports_of(&ad(
            "[ Ports = { [ Label = Host1; Constraint = Host1.x > 0 ], [ Label = \"Host2\"; Constraint = host1.s == Host2.s ] } ]",
        ))
        .unwrap();
        assert_eq!(g.ports.len(), 2);
        assert_eq!(g.ports[1].label, "Host2");
        let e = ports_of(&ad(
            "[ Ports = { [ Label = Host1; Constraint = Host2.x > 0 ], [ Label = Host2; Constraint = true ] } ]",
        ))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "port 1 (Host1) refers to Host2, which is declared later by port 2"
        );
        let e = ports_of(&ad("[ Ports = { [ Label = a ], [ Label = A ] } ]")).unwrap_err();
        assert!(matches!(
            e,
            ModelError::DuplicateLabel {
                port: 2,
                first: 1,
                ..
            }
        ));
        assert_eq!(
            ports_of(&ad("[ Ports = 3 ]")).unwrap_err(),
            ModelError::NotAList
        );
        assert_eq!(
            ports_of(&ad("[ Ports = { 3 } ]")).unwrap_err(),
            ModelError::PortNotRecord(1)
        );
        assert_eq!(
            ports_of(&ad("[ Ports = { [ x = 1 ] } ]")).unwrap_err(),
            ModelError::MissingLabel(1)
        );
    }
}
