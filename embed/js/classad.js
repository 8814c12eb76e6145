// The ClassAd engine for any web page: the playground's engine compiled to
// WebAssembly (classad_embed_bg.wasm, next to this file), loaded once when
// this module is imported.
//
//   import { evaluate, match, parse, version } from "./classad.js";
//
//   evaluate({ expr, my, target, mode })
//     expr    the expression (a string)
//     my      the text of the MY ad (optional; an empty ad when absent)
//     target  the text of the TARGET ad (optional; none when absent)
//     mode    "htcondor" (default) or "strict"
//     → { ok, value, type, trace, which, diagnostics }
//       value  the value as text ("true", "3", "\"a\"", "undefined", …)
//       type   "boolean", "integer", "real", "string", "undefined", "error", …
//       trace  the explain tree: { label, text, value, attribute?, span, children }
//
//   match({ job, machine, mode })
//     → { ok, job_accepts, machine_accepts, matched, job_rank, machine_rank,
//         explain: { job, machine }, which, diagnostics }
//       explain.job / explain.machine  each side's Requirements traced
//       (null for an ad that states no Requirements)
//
//   parse(text)
//     → { ok, ads: [{ label, line, start, end, attributes }], format, diagnostics }
//
// Nothing throws: a failure is { ok: false, which, diagnostics }, where
// `which` names the input at fault ("expr", "my", "target", "job",
// "machine", "request") and each diagnostic is
// { severity, line, column, message, expected?, help?, span }
// (line and column 1-based; 0 when a problem has no place in the text).
// Ads may be written in any format the engine reads: new ClassAd syntax
// ([ a = 1; b = 2 ]), the old one-attribute-a-line format, JSON, or XML.

import init, * as engine from "./classad_embed.js";

await init({ module_or_path: new URL("./classad_embed_bg.wasm", import.meta.url) });

function guard(op, answer, call) {
  try {
    return call();
  } catch (e) {
    // Only an engine bug gets here; the page keeps working.
    return {
      ...answer,
      ok: false,
      which: "internal",
      diagnostics: [
        { severity: "error", line: 0, column: 0, message: `internal error in ${op}: ${e}` },
      ],
    };
  }
}

export function evaluate(input) {
  return guard("evaluate", { value: null, type: null, trace: null }, () =>
    engine.evaluate(input ?? {}),
  );
}

export function match(input) {
  return guard(
    "match",
    { job_accepts: false, machine_accepts: false, matched: false, explain: null },
    () => engine.match(input ?? {}),
  );
}

export function parse(text) {
  return guard("parse", { ads: [], format: null }, () => engine.parse(text));
}

export const version = engine.version();
