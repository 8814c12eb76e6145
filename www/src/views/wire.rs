//! What crosses between the page and the views module: JSON text. The
//! pools go apart, as JavaScript strings (`root::set_pool`), and only when
//! they change: they can be megabytes. The rest of the state goes on every
//! change, with the analyzer's undo history, which links and autosaves
//! leave out but the views need.

use serde::{Deserialize, Serialize};

use crate::state::actions::Action;
use crate::state::analyzer_settings::Edits;
use crate::state::app_state::{AppState, PoolText};

#[derive(Serialize, Deserialize)]
struct StateWire {
    state: AppState,
    undo: Vec<Edits>,
}

#[derive(Serialize, Deserialize)]
struct ActionWire {
    action: Action,
    undo: Option<Vec<Edits>>,
}

/// The state without its pools.
pub fn encode_state(s: &AppState) -> String {
    let mut state = s.clone();
    state.pools = vec![];
    let undo = std::mem::take(&mut state.analyze.undo);
    serde_json::to_string(&StateWire { state, undo }).unwrap_or_default()
}

/// The state [`encode_state`] sent, with `pools` put back.
pub fn decode_state(json: &str, pools: &[PoolText]) -> Result<AppState, String> {
    let w: StateWire = serde_json::from_str(json).map_err(|e| format!("state: {e}"))?;
    let mut s = w.state;
    s.pools = pools.to_vec();
    s.analyze.undo = w.undo;
    Ok(s)
}

pub fn encode_action(a: Action) -> String {
    let mut action = a;
    let undo = match &mut action {
        Action::SetAnalyze(s) => Some(std::mem::take(&mut s.undo)),
        _ => None,
    };
    serde_json::to_string(&ActionWire { action, undo }).unwrap_or_default()
}

pub fn decode_action(json: &str) -> Result<Action, String> {
    let w: ActionWire = serde_json::from_str(json).map_err(|e| format!("action: {e}"))?;
    let mut action = w.action;
    if let (Action::SetAnalyze(s), Some(undo)) = (&mut action, w.undo) {
        s.undo = undo;
    }
    Ok(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::analyzer_settings::AnalyzeSettings;
    use crate::state::app_state::View;

    #[test]
    fn state_crosses_with_its_undo_and_without_its_pools() {
        let mut s = AppState {
            view: View::Analyze,
            ..Default::default()
        };
        s.analyze = AnalyzeSettings::default().with_override("Requirements", "TARGET.Memory > 1");
        assert!(!s.analyze.undo.is_empty());
        let json = encode_state(&s);
        assert!(json.contains(r#""pools":[]"#), "{json}");
        assert_eq!(decode_state(&json, &s.pools), Ok(s));
    }

    #[test]
    fn actions_cross_with_the_undo() {
        let settings = AnalyzeSettings::default().with_override("Rank", "1");
        let back = decode_action(&encode_action(Action::SetAnalyze(settings.clone()))).unwrap();
        assert!(matches!(back, Action::SetAnalyze(s) if s == settings));
        let back = decode_action(&encode_action(Action::SetPoolText(1, "[a=1]".into()))).unwrap();
        assert!(matches!(back, Action::SetPoolText(1, t) if &*t == "[a=1]"));
    }
}
