// A ClassAd expression you can edit, on any page. Put
//
//   <div data-classad-expr="MY.Memory > 1024" data-my="[ Memory = 2048 ]"
//        data-target="[ Owner = &quot;alice&quot; ]" data-mode="htcondor"></div>
//   <script type="module" src="embed/classad-widget.js"></script>
//
// in the page: each element with data-classad-expr becomes an editable
// expression, its value (re-evaluated as you type), its explain tree and an
// "Open in playground" link carrying the same expression and ads.
// data-my, data-target, data-mode ("htcondor" or "strict") and data-dialect
// ("htcondor", the default, or "seed" for the seed papers' notation) are
// optional; data-playground is the playground's address (default: the
// one this file was served with, ../index.html). Elements added later can
// be set up with mount(element) or mountAll(root).
//
// Everything the user or the page writes is shown as text: nothing is
// parsed as HTML.

import { evaluate, prefillLink } from "./classad.js";

export { prefillLink };

const PLAYGROUND = new URL("../index.html", import.meta.url).href;

const CSS = `
.classad-widget {
  --cw-bg: #ffffff; --cw-fg: #1d2330; --cw-muted: #5d6677; --cw-line: #d3d9e4;
  --cw-code: #f3f5f9; --cw-accent: #2456c9; --cw-true: #17733a; --cw-false: #b42318;
  --cw-other: #9a5b00;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--cw-fg); background: var(--cw-bg);
  border: 1px solid var(--cw-line); border-radius: 8px;
  padding: 0.7rem 0.85rem; margin: 1rem 0; max-width: 52rem; box-sizing: border-box;
}
@media (prefers-color-scheme: dark) {
  .classad-widget {
    --cw-bg: #161a22; --cw-fg: #e3e7ef; --cw-muted: #9aa3b5; --cw-line: #343b4a;
    --cw-code: #1f2430; --cw-accent: #7ea6ff; --cw-true: #5fd08a; --cw-false: #ff8a80;
    --cw-other: #f2b35a;
  }
}
.classad-widget code, .classad-widget pre, .classad-widget textarea {
  font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
.classad-widget code { background: var(--cw-code); color: inherit; padding: 0 0.2rem; border: 0; border-radius: 3px; }
.classad-widget .cw-expr {
  display: block; width: 100%; box-sizing: border-box; resize: none; overflow: hidden;
  padding: 0.35rem 0.5rem; border: 1px solid var(--cw-line); border-radius: 6px;
  background: var(--cw-code); color: var(--cw-fg);
}
.classad-widget .cw-expr:focus { outline: 2px solid var(--cw-accent); outline-offset: 1px; }
.classad-widget .cw-ads { display: grid; grid-template-columns: max-content minmax(0, 1fr);
  gap: 0.2rem 0.6rem; margin: 0.5rem 0 0; }
.classad-widget .cw-ads dt { color: var(--cw-muted); font-size: 12px; font-weight: 600; padding-top: 0.1rem; }
.classad-widget .cw-ads dd { margin: 0; }
.classad-widget .cw-ads pre { margin: 0; padding: 0.1rem 0.45rem; border: 0; border-radius: 4px;
  background: var(--cw-code); color: var(--cw-fg); white-space: pre-wrap; overflow-wrap: anywhere; }
.classad-widget .cw-value { margin: 0.55rem 0 0.2rem; display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: baseline; }
.classad-widget .cw-value output code { font-size: 15px; font-weight: 600; }
.classad-widget .cw-type, .classad-widget .cw-label { color: var(--cw-muted); font-size: 12px; }
.classad-widget .cw-true { color: var(--cw-true); }
.classad-widget .cw-false { color: var(--cw-false); }
.classad-widget .cw-other { color: var(--cw-other); }
.classad-widget .cw-error { color: var(--cw-false); white-space: pre-wrap; }
.classad-widget .cw-warning { display: block; color: var(--cw-other); white-space: pre-wrap; font-size: 0.85em; }
.classad-widget details.cw-explain > summary { color: var(--cw-accent); cursor: pointer; font-size: 13px; }
.classad-widget .cw-tree { margin: 0.3rem 0 0; padding-left: 0.2rem; overflow-x: auto; }
.classad-widget .cw-tree details, .classad-widget .cw-tree .cw-leaf { margin-left: 1.1rem; }
.classad-widget .cw-tree > details, .classad-widget .cw-tree > .cw-leaf { margin-left: 0; }
.classad-widget .cw-tree summary { cursor: pointer; }
.classad-widget .cw-tree .cw-leaf { padding-left: 1.05rem; }
.classad-widget .cw-more { margin: 2px 0 2px 1.1rem; font-size: 12px; }
.classad-widget .cw-arrow { color: var(--cw-muted); margin: 0 0.3rem; }
.classad-widget .cw-footer { display: flex; justify-content: space-between; gap: 1rem;
  margin-top: 0.5rem; font-size: 12px; color: var(--cw-muted); }
.classad-widget .cw-footer a { color: var(--cw-accent); }
`;

function injectStyle() {
  if (document.getElementById("classad-widget-style")) return;
  const style = document.createElement("style");
  style.id = "classad-widget-style";
  style.textContent = CSS;
  document.head.append(style);
}

/// An element with text (never HTML).
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  e.append(...children.filter((c) => c != null));
  return e;
}

function valueClass(type, value) {
  if (type === "boolean") return value === "true" ? "cw-true" : "cw-false";
  return type === "undefined" || type === "error" ? "cw-other" : "";
}

// Children listed at first under one node (a 2,000-clause `&&`).
const CHILDREN_SHOWN = 100;

/// One trace node: a <details> when it has children, a line otherwise. A
/// node's children are made when it is first opened, so a trace as deep as
/// evaluation goes costs only what is looked at.
function node(n, depth) {
  const label = (n.label === "operator &&" || n.label === "operator ||") && n.children.length > 2
    ? `${n.label} · ${n.children.length.toLocaleString("en-US")} clauses evaluated`
    : n.label;
  const line = [
    el("code", {}, n.text),
    el("span", { class: "cw-arrow", "aria-label": "gives" }, "→"),
    el("code", { class: "cw-node-value" }, n.value),
    " ",
    el("span", { class: "cw-label" }, label),
  ];
  if (!n.children || n.children.length === 0) return el("div", { class: "cw-leaf" }, ...line);
  const d = el("details", {}, el("summary", {}, ...line));
  let listed = 0;
  const more = el("button", { type: "button", class: "cw-more" });
  const listMore = () => {
    more.remove();
    const next = n.children.slice(listed, listed + CHILDREN_SHOWN);
    d.append(...next.map((c) => node(c, depth + 1)));
    listed += next.length;
    if (listed < n.children.length) {
      more.textContent = `Show ${Math.min(CHILDREN_SHOWN, n.children.length - listed)} more of ${n.children.length.toLocaleString("en-US")}`;
      d.append(more);
    }
  };
  more.addEventListener("click", listMore);
  d.addEventListener("toggle", () => {
    if (d.open && listed === 0) listMore();
  });
  if (depth < 2) {
    listMore();
    d.open = true;
  }
  return d;
}

function describe(diagnostics, which) {
  const where = { expr: "the expression", my: "the MY ad", target: "the TARGET ad" }[which] ?? which;
  return diagnostics
    .map((d) => {
      const at = d.line ? ` at line ${d.line}, column ${d.column}` : "";
      const exp = d.expected ? ` (expected ${d.expected})` : "";
      const help = d.help ? ` — ${d.help}` : "";
      const what = d.severity === "warning" ? "Warning" : "Error";
      return `${what} in ${where}${at}: ${d.message}${exp}${help}`;
    })
    .join("\n");
}

/// Turn one element into a widget (once).
export function mount(host) {
  if (host.classList.contains("classad-widget")) return;
  injectStyle();
  const state = {
    expr: host.dataset.classadExpr ?? "",
    my: host.dataset.my || undefined,
    target: host.dataset.target || undefined,
    mode: host.dataset.mode || undefined,
    dialect: host.dataset.dialect || undefined,
  };
  const playground = host.dataset.playground || PLAYGROUND;
  host.classList.add("classad-widget");
  host.replaceChildren();

  const expr = el("textarea", {
    class: "cw-expr",
    rows: "1",
    spellcheck: "false",
    autocapitalize: "off",
    autocomplete: "off",
    "aria-label": "ClassAd expression",
  });
  expr.value = state.expr;
  const ads = el("dl", { class: "cw-ads" });
  for (const [name, text] of [["MY", state.my], ["TARGET", state.target]]) {
    if (text) ads.append(el("dt", {}, name), el("dd", {}, el("pre", {}, text)));
  }
  const value = el("output", { class: "cw-result", "aria-live": "polite" });
  const type = el("span", { class: "cw-type" });
  const tree = el("div", { class: "cw-tree" });
  const explain = el("details", { class: "cw-explain" }, el("summary", {}, "Explain"), tree);
  const link = el("a", { class: "cw-open", target: "_blank", rel: "noopener" }, "Open in playground");
  const mode = el("span", { class: "cw-mode" }, `${state.mode ?? "htcondor"} mode`);
  host.append(
    expr,
    ads.childElementCount ? ads : null,
    el("div", { class: "cw-value" }, el("span", { class: "cw-label" }, "Value"), value, type),
    explain,
    el("div", { class: "cw-footer" }, mode, link),
  );

  const update = () => {
    state.expr = expr.value;
    const r = evaluate({ expr: state.expr, my: state.my, target: state.target, mode: state.mode, dialect: state.dialect });
    if (r.ok) {
      value.replaceChildren(el("code", { class: valueClass(r.type, r.value) }, r.value));
      // Warnings about the expression as written ('3:00' is a name here).
      if (r.diagnostics.length) value.append(el("span", { class: "cw-warning" }, describe(r.diagnostics, r.which)));
      type.textContent = r.type;
      tree.replaceChildren(r.trace ? node(r.trace, 0) : "");
      explain.hidden = !r.trace;
    } else {
      value.replaceChildren(el("span", { class: "cw-error" }, describe(r.diagnostics, r.which)));
      type.textContent = "";
      tree.replaceChildren();
      explain.hidden = true;
    }
    link.href = prefillLink(state, playground);
  };
  // As tall as its text, wrapped lines included.
  const fit = () => {
    expr.style.height = "auto";
    expr.style.height = `${expr.scrollHeight + expr.offsetHeight - expr.clientHeight}px`;
  };
  expr.addEventListener("input", () => {
    fit();
    update();
  });
  // Re-fit when the width changes (wrapping changes), not on the height
  // changes fitting makes.
  let width = 0;
  new ResizeObserver(() => {
    if (expr.clientWidth !== width) {
      width = expr.clientWidth;
      fit();
    }
  }).observe(host);
  update();
  fit();
}

/// Set up every [data-classad-expr] element under root.
export function mountAll(root = document) {
  root.querySelectorAll("[data-classad-expr]").forEach(mount);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountAll());
} else {
  mountAll();
}
