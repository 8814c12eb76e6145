use yew::prelude::*;

#[component]
pub fn App() -> Html {
    let out = classad::api::handle_json(r#"{"op":"version"}"#);
    html! { <main><h1>{ "ClassAd Playground" }</h1><p>{ out }</p></main> }
}
