//! Reading a [`Response`] back, as the playground's page does.
//!
//! A `Response` is written internally tagged (`{"kind": "value", …}`), the
//! API's documented JSON. serde's derived reader for such an enum first
//! copies the whole answer into a generic tree to find its tag: in the
//! page's wasm that reader costs tens of KB, and a big trace would be read
//! twice. So a `Response` is read as one flat record holding every
//! variant's fields, then shaped into its variant (a field its variant
//! needs and the record lacks is an error): the same JSON, read once.

use serde::{Deserialize, Deserializer};

use super::{AdSummary, Diagnostic, Highlight, InputFormat, Response, TraceNode};

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    Version,
    Pool,
    Highlight,
    Value,
    Text,
    Match,
    Failed,
}

/// Every variant's fields; each variant takes its own.
#[derive(Deserialize)]
struct Record {
    kind: Kind,
    engine: Option<String>,
    ads: Option<Vec<AdSummary>>,
    diagnostics: Option<Vec<Diagnostic>>,
    format: Option<InputFormat>,
    tokens: Option<Vec<Highlight>>,
    value: Option<String>,
    value_kind: Option<String>,
    trace: Option<TraceNode>,
    text: Option<String>,
    job_accepts: Option<bool>,
    machine_accepts: Option<bool>,
    job_requirements: Option<TraceNode>,
    machine_requirements: Option<TraceNode>,
    job_rank: Option<String>,
    machine_rank: Option<String>,
    which: Option<String>,
}

/// A field the variant cannot do without.
fn need<T, E: serde::de::Error>(field: Option<T>, name: &'static str) -> Result<T, E> {
    field.ok_or_else(|| E::missing_field(name))
}

impl<'de> Deserialize<'de> for Response {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = Record::deserialize(d)?;
        Ok(match r.kind {
            Kind::Version => Response::Version {
                engine: need(r.engine, "engine")?,
            },
            Kind::Pool => Response::Pool {
                ads: need(r.ads, "ads")?,
                diagnostics: need(r.diagnostics, "diagnostics")?,
                format: r.format,
            },
            Kind::Highlight => Response::Highlight {
                tokens: need(r.tokens, "tokens")?,
            },
            Kind::Value => Response::Value {
                value: need(r.value, "value")?,
                value_kind: need(r.value_kind, "value_kind")?,
                trace: r.trace,
                diagnostics: r.diagnostics.unwrap_or_default(),
            },
            Kind::Text => Response::Text {
                diagnostics: need(r.diagnostics, "diagnostics")?,
                text: need(r.text, "text")?,
            },
            Kind::Match => Response::Match {
                job_accepts: need(r.job_accepts, "job_accepts")?,
                machine_accepts: need(r.machine_accepts, "machine_accepts")?,
                job_requirements: r.job_requirements,
                machine_requirements: r.machine_requirements,
                job_rank: need(r.job_rank, "job_rank")?,
                machine_rank: need(r.machine_rank, "machine_rank")?,
            },
            Kind::Failed => Response::Failed {
                diagnostics: need(r.diagnostics, "diagnostics")?,
                which: need(r.which, "which")?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{handle_json, Response};

    /// Every kind of answer the API writes reads back as itself.
    #[test]
    fn every_response_reads_back_as_written() {
        let pool = r#"[ Name = \"m\"; Memory = 5 ]\n[ Owner = \"u\" ]"#;
        let requests = [
            r#"{"op":"version"}"#.to_string(),
            format!(r#"{{"op":"parse_pool","text":"{pool}"}}"#),
            r#"{"op":"highlight","text":"a = 1 + \"x\""}"#.into(),
            r#"{"op":"evaluate","expr":"A + 1","my":"[A = 2]","trace":true}"#.into(),
            r#"{"op":"evaluate","expr":"1 +"}"#.into(),
            r#"{"op":"format","text":"[a=1]","to":"old"}"#.into(),
            r#"{"op":"match","job":"[Requirements = TARGET.Memory > 2]","machine":"[Memory = 5]"}"#
                .into(),
            r#"{"op":"nonsense"}"#.into(),
        ];
        let mut kinds = std::collections::BTreeSet::new();
        for req in requests {
            let written = handle_json(&req);
            let read: Response =
                serde_json::from_str(&written).unwrap_or_else(|e| panic!("{req}: {e}: {written}"));
            assert_eq!(serde_json::to_string(&read).unwrap(), written, "{req}");
            kinds.insert(written.split('"').nth(3).unwrap().to_string());
        }
        assert_eq!(
            kinds.into_iter().collect::<Vec<_>>(),
            [
                "failed",
                "highlight",
                "match",
                "pool",
                "text",
                "value",
                "version"
            ]
        );
    }

    /// A field the kind needs is required; one it may leave out is not.
    #[test]
    fn a_kind_missing_a_field_it_needs_is_an_error() {
        let e = serde_json::from_str::<Response>(r#"{"kind":"value","value":"1"}"#).unwrap_err();
        assert!(e.to_string().contains("missing field `value_kind`"), "{e}");
        let e = serde_json::from_str::<Response>(r#"{"kind":"gone"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown variant `gone`"), "{e}");
        let r = serde_json::from_str::<Response>(
            r#"{"kind":"value","value":"1","value_kind":"integer"}"#,
        )
        .unwrap();
        assert!(matches!(r, Response::Value { trace: None, .. }));
    }
}
