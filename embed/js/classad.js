// The ClassAd engine for any web page: the playground's engine compiled to
// WebAssembly (classad_embed_bg.wasm, next to this file), loaded once when
// this module is imported.
//
//   import { evaluate, match, parse, version } from "./classad.js";
//
//   evaluate({ expr, my, target, mode, dialect })
//     expr    the expression (a string)
//     my      the text of the MY ad (optional; an empty ad when absent)
//     target  the text of the TARGET ad (optional; none when absent)
//     mode    "htcondor" (default) or "strict"
//     dialect the syntax: "htcondor" (default: exactly what libclassad
//             accepts), "seed" (the seed papers' notation: 2K, 0x1f, 017,
//             time literals) or "auto"
//     → { ok, value, type, trace, which, diagnostics }
//       value  the value as text ("true", "3", "\"a\"", "undefined", …)
//       type   "boolean", "integer", "real", "string", "undefined", "error", …
//       trace  the explain tree: { label, text, value, attribute?, span, children }
//       diagnostics  with a value: warnings about the expression as written
//              (severity "warning": '3:00' is a name in HTCondor's syntax,
//              a time in the seed papers'), which "expr"; else []
//
//   match({ job, machine, mode, dialect })
//     → { ok, job_accepts, machine_accepts, matched, job_rank, machine_rank,
//         explain: { job, machine }, which, diagnostics }
//       explain.job / explain.machine  each side's Requirements traced
//       (null for an ad that states no Requirements)
//
//   prefillLink({ expr, my, target, mode, dialect }, playground?)
//     → the readable link that opens the playground on this expression, MY,
//       TARGET, mode and syntax: <playground>#expr=…&my=…&target=…&mode=…&dialect=…, each part
//       encodeURIComponent text (the playground also reads URLSearchParams'
//       `+` for a space); playground defaults to ../index.html from here.
//       Given anything else (null, a number, a field that is not a string,
//       an unknown mode, an address that is not a URL) it answers the
//       failure below, `which` naming the argument, instead of a link.
//
//   parse(text)
//     → { ok, ads: [{ label, line, start, end, attributes }], format, diagnostics }
//
// Nothing throws: a failure is { ok: false, which, diagnostics }, where
// `which` names the input at fault ("expr", "my", "target", "job",
// "machine", "request", or the field of the input that could not be read:
// a getter that throws, a field that is not a string; "internal" when the
// engine itself failed) and each diagnostic is
// { severity, line, column, message, expected?, help?, span }
// (line and column 1-based; 0 when a problem has no place in the text).
// Ads may be written in any format the engine reads: new ClassAd syntax
// ([ a = 1; b = 2 ]), the old one-attribute-a-line format, JSON, or XML.

import init, * as first from "./classad_embed.js";

// The module is compiled once; each engine is an instance of it. An input
// that still runs the engine out of stack (V8 gives wasm about 1 MB) traps
// the instance and leaves its memory unusable, so a trapped instance is
// never called again: the call answers with a clear failure and a fresh
// instance — of a second copy of the glue, imported ahead so the swap is
// synchronous — takes over.
const wasmUrl = new URL("./classad_embed_bg.wasm", import.meta.url);
const wasmModule = await WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
await init({ module_or_path: wasmModule });
let engine = first;
let made = 1; // engine instances made: 1 until one traps
let imported = 1;
let spare = null;
let spareLoading = null; // the import of the next spare, while it loads
function prepareSpare() {
  imported += 1;
  spareLoading = import(`./classad_embed.js?instance=${imported}`).then(
    (glue) => { spare = glue; spareLoading = null; },
    () => { spare = null; spareLoading = null; },
  );
  return spareLoading;
}
// The first spare is in hand before the module is ready: a page that traps
// the engine in its first synchronous burst of calls still gets a fresh one.
await prepareSpare();

function replaceEngine() {
  if (spare === null) return false;
  spare.initSync({ module: wasmModule });
  engine = spare;
  made += 1;
  spare = null;
  prepareSpare();
  return true;
}

// Set when a call trapped: the next call replaces the engine first (not the
// failing call itself, which may have no stack left to instantiate one).
let trapped = false;

function failure(answer, message, which = "internal") {
  return {
    ...answer,
    ok: false,
    which,
    diagnostics: [{ severity: "error", line: 0, column: 0, message }],
  };
}

// A value's kind in words, and a thrown value's message, without running
// more of the caller's code unguarded.
function kind(v) {
  return v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}
function thrown(e) {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } catch {
    return "a value that cannot be shown";
  }
}

function guard(op, answer, call) {
  if (trapped) {
    try {
      trapped = !replaceEngine();
    } catch (e) {
      trapped = true;
    }
    if (trapped) {
      return failure(
        answer,
        spareLoading !== null
          ? "the engine ran out of stack and a fresh one is still loading: try again in a moment"
          : "the engine stopped after running out of stack and could not be restarted: reload the page",
      );
    }
  }
  try {
    return call();
  } catch (e) {
    // The engine trapped (in practice: out of stack). The caller's own code
    // (getters, proxies) never runs inside a call (the engine copies its
    // input through bindings that catch), so this is the engine's failure:
    // never reuse that instance.
    trapped = true;
    return failure(answer, `the engine failed in ${op} (${e}); a fresh engine takes over from the next call`);
  }
}

// The engine hands a trace over flat (its nodes in preorder, children by
// index: no reader recurses as deep as the tree); pages get the nested tree
// this file documents, built without recursion.
function nestTrace(flat) {
  if (!Array.isArray(flat) || flat.length === 0) return flat ?? null;
  const nodes = flat.map(({ children, ...node }) => ({ ...node, children: [] }));
  flat.forEach((f, i) => {
    for (const c of f.children) nodes[i].children.push(nodes[c]);
  });
  return nodes[0];
}

export function evaluate(input) {
  const r = guard("evaluate", { value: null, type: null, trace: null }, () =>
    engine.evaluate(input ?? {}),
  );
  return { ...r, trace: nestTrace(r.trace) };
}

export function match(input) {
  const r = guard(
    "match",
    { job_accepts: false, machine_accepts: false, matched: false, explain: null },
    () => engine.match(input ?? {}),
  );
  if (r.explain) {
    r.explain = { job: nestTrace(r.explain.job), machine: nestTrace(r.explain.machine) };
  }
  return r;
}

export function parse(text) {
  return guard("parse", { ads: [], format: null }, () => engine.parse(text));
}

/** How many engine instances this page has made (1 until one trapped). */
export function engineInstances() {
  return made;
}

/** The readable prefill link the playground opens (see the top of this file). */
export function prefillLink(input = {}, playground = new URL("../index.html", import.meta.url).href) {
  // The caller's mistakes (a wrong type, a getter that throws, a bad URL)
  // come back as a failure saying which argument, like every other call.
  const bad = (which, message) => failure({ link: null }, message, which);
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return bad("request", `prefillLink takes {expr, my, target, mode, dialect}, not ${kind(input)}`);
  }
  const fields = {};
  for (const k of ["expr", "my", "target", "mode", "dialect"]) {
    try {
      fields[k] = input[k];
    } catch (e) {
      return bad(k, `reading \`${k}\` threw: ${thrown(e)}`);
    }
    if (fields[k] != null && typeof fields[k] !== "string") {
      return bad(k, `\`${k}\` must be a string, not ${kind(fields[k])}`);
    }
  }
  const { expr, my, target, mode, dialect } = fields;
  if (mode && mode !== "htcondor" && mode !== "strict") {
    return bad("mode", `unknown mode ${JSON.stringify(mode)} (the modes are "htcondor" and "strict")`);
  }
  if (dialect && !["htcondor", "seed", "auto"].includes(dialect)) {
    return bad("dialect", `unknown dialect ${JSON.stringify(dialect)} (the dialects are "htcondor", "seed" and "auto")`);
  }
  if (typeof playground !== "string" && !(playground instanceof URL)) {
    return bad("playground", `the playground's address must be a string or a URL, not ${kind(playground)}`);
  }
  let base;
  try {
    base = new URL(playground, document.baseURI).href.split("#")[0];
  } catch (e) {
    return bad("playground", `the playground's address does not read as a URL: ${thrown(e)}`);
  }
  const parts = [["expr", expr ?? ""]];
  if (my) parts.push(["my", my]);
  if (target) parts.push(["target", target]);
  if (mode && mode !== "htcondor") parts.push(["mode", mode]);
  if (dialect && dialect !== "htcondor") parts.push(["dialect", dialect]);
  return base + "#" + parts.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
}

export const version = first.version();
