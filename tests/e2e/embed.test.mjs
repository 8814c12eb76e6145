// End-to-end tests of the embeddable engine (dist/embed/, built by
// scripts/build-embed.sh after trunk) in headless Chromium: the example
// page, the JS API against the CLI, the widget, its link to the playground
// and the readable prefill link.
// Run: node --test tests/e2e/embed.test.mjs   (after scripts/dist.sh)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPage, ready, screenshot, ROOT, DIST, browserEnv, cliBinary, embedBuilt } from './harness.mjs';

const browser = browserEnv({ embed: true }); // dist/embed/ may still be building (scripts/test.sh)
let scratch;
const T = { timeout: 180_000 };
const CLI = cliBinary();

before(async () => {
  await embedBuilt(); // browserEnv's hook waits too, but node runs them side by side
  if (!existsSync(path.join(DIST, 'embed', 'index.html'))) {
    throw new Error('dist/embed/ is missing: run scripts/build-embed.sh after trunk build');
  }
  scratch = mkdtempSync(path.join(tmpdir(), 'classad-embed-e2e-'));
});

after(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// ---- the CLI, as the reference --------------------------------------------

let files = 0;
function file(text) {
  const f = path.join(scratch, `ad${files++}.classad`);
  writeFileSync(f, text);
  return f;
}

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { out: r.stdout.trim(), err: r.stderr, status: r.status };
}

/** `classad eval` of one expression: its output line (a value, or `PARSE_ERROR l:c: …`). */
function cliEval({ expr, my, target, mode = 'htcondor' }) {
  const args = ['eval', '--mode', mode, '--now', '1700000000', '--tz-offset', '0'];
  if (my) args.push('--my', file(my));
  if (target) args.push('--target', file(target));
  return cli([...args, expr]).out;
}

// ---- the page --------------------------------------------------------------

/** Open the example page; wait for its widgets and API demos. */
async function embedPage(context, hash = '') {
  const { page, problems } = await openPage(context);
  await page.goto(`${browser.server.url}embed/index.html${hash}`);
  await page.waitForFunction(() =>
    document.querySelectorAll('.classad-widget .cw-result code').length === 3
      && document.querySelectorAll('#api-demos .demo').length === 5, null, { timeout: 30_000 });
  return { page, problems };
}

async function scenario(name, body) {
  const context = await browser.chrome.newContext();
  let page;
  try {
    const opened = await embedPage(context);
    page = opened.page;
    await body({ ...opened, context });
  } finally {
    if (page) await screenshot(page, name).catch(() => {});
    await context.close();
  }
}

const widget = (page, i) => page.locator('.classad-widget').nth(i);
const widgetValue = (page, i) => widget(page, i).locator('.cw-result').textContent();

async function expectWidget(page, i, want, timeout = 5_000) {
  try {
    await page.waitForFunction(
      ([i, want]) => document.querySelectorAll('.classad-widget')[i]?.querySelector('.cw-result')?.textContent === want,
      [i, want], { timeout },
    );
  } catch {
    assert.fail(`widget ${i} should show ${want}, shows ${JSON.stringify(await widgetValue(page, i))}`);
  }
}

/** Wait until the playground shows `want` in `#value code`. */
async function expectAppValue(page, want, timeout = 15_000) {
  try {
    await page.waitForFunction((w) => document.querySelector('#value code')?.textContent === w, want, { timeout });
  } catch {
    assert.fail(`the playground should show ${want}, shows ${JSON.stringify(await page.locator('#value').textContent().catch(() => null))}`);
  }
}

// ---- tests -----------------------------------------------------------------

test('the embed page loads with no console errors, its widgets and API demos filled in', T, async () => {
  await scenario('embed-page', async ({ page, problems }) => {
    await expectWidget(page, 0, 'true');
    await expectWidget(page, 1, 'true'); // HTCondor mode: Memory is the machine's
    await expectWidget(page, 2, 'undefined'); // strict mode: MY has no Memory
    assert.match(await widget(page, 2).locator('.cw-mode').textContent(), /strict/);
    const answers = await page.locator('#api-demos .demo pre.out').allTextContents();
    assert.equal(answers.length, 5);
    assert.match(answers[0], /^\{\n  ok: true,\n  value: "true",\n  type: "boolean",/);
    assert.match(answers[4], /^\{\n  ok: false,[^]*which: "expr",[^]*line: 1,\s+column: 11/, 'the failing call is shown failing');
    assert.match(await page.locator('#api-demos').getAttribute('data-version'), /^\d+\.\d+\.\d+/);
    // Nothing went wrong: no console error, no failed request, no exception.
    assert.deepEqual(problems, []);
  });
});

test('the JS API gives what the CLI gives: evaluate, match and parse', T, async () => {
  await scenario('embed-api', async ({ page, problems }) => {
    const cases = [
      { expr: 'MY.Memory > 1024', my: '[ Memory = 2048 ]' },
      { expr: 'Arch == "X86_64" && Memory >= 64', my: '[ Owner = "alice" ]', target: '[ Arch = "X86_64"; Memory = 512 ]' },
      { expr: 'Arch == "X86_64" && Memory >= 64', my: '[ Owner = "alice" ]', target: '[ Arch = "X86_64"; Memory = 512 ]', mode: 'strict' },
      { expr: 'strcat(Owner, "@", TARGET.Name)', my: '[ Owner = "alice" ]', target: '[ Name = "slot1" ]' },
      { expr: 'TARGET.Memory * 1.5 / 1024', target: '[ Memory = 3000 ]' },
      { expr: 'regexp("^sl.t[0-9]+$", TARGET.Name) && size({1, 2, 3}) == 3', target: '[ Name = "slot12" ]' },
      { expr: '1 / 0' },
      { expr: 'undefined_thing =?= undefined' },
      { expr: 'formatTime(0, "%Y-%m-%d")' },
      { expr: 'MY.x', my: 'x = 7\ny = "old format"\n' },
    ];
    const got = await page.evaluate(async (cases) => {
      const m = await import('./classad.js');
      return cases.map((c) => m.evaluate({ ...c, now: 1700000000, tz_offset: 0 }));
    }, cases);
    for (const [i, c] of cases.entries()) {
      const r = got[i];
      assert.equal(r.ok, true, `${c.expr}: ${JSON.stringify(r.diagnostics)}`);
      assert.equal(r.value, cliEval(c), `${c.expr} (${c.mode ?? 'htcondor'}) as the CLI has it`);
      assert.equal(r.trace?.value, r.value, 'the explain tree ends in the value');
      assert.equal(typeof r.type, 'string');
    }
    assert.equal(got[0].type, 'boolean');
    assert.equal(got[2].value, 'undefined');

    // A parse error: a value with the CLI's line and column, not a throw.
    const bad = await page.evaluate(async () => (await import('./classad.js')).evaluate({ expr: '(MY.a +\n  * 2)' }));
    const [, line, col] = cliEval({ expr: '(MY.a +\n  * 2)' }).match(/^PARSE_ERROR (\d+):(\d+)/);
    assert.equal(bad.ok, false);
    assert.equal(bad.which, 'expr');
    assert.deepEqual([bad.diagnostics[0].line, bad.diagnostics[0].column], [Number(line), Number(col)]);
    const badAd = await page.evaluate(async () => (await import('./classad.js')).evaluate({ expr: 'a', my: '[ a = 1;\n  b = ]' }));
    assert.equal(badAd.which, 'my');
    assert.equal(badAd.diagnostics[0].line, 2);

    // match: each side's Requirements as the CLI evaluates them, and
    // matched as the CLI's negotiation cycle has it.
    const job = '[ Owner = "alice"; RequestMemory = 1024; Requirements = TARGET.Memory >= RequestMemory; Rank = TARGET.Memory ]';
    const machines = [
      '[ Name = "small"; Memory = 512; Requirements = TARGET.RequestMemory <= 2048 ]',
      '[ Name = "picky"; Memory = 4096; Requirements = TARGET.Owner != "alice" ]',
      '[ Name = "fits"; Memory = 4096; Requirements = TARGET.RequestMemory <= MY.Memory ]',
      '[ Name = "neither"; Memory = 1; Requirements = false ]',
    ];
    for (const mode of ['htcondor', 'strict']) {
      const answers = await page.evaluate(async ([job, machines, mode]) => {
        const m = await import('./classad.js');
        return machines.map((machine) => m.match({ job, machine, mode }));
      }, [job, machines, mode]);
      for (const [i, machine] of machines.entries()) {
        const a = answers[i];
        assert.equal(a.ok, true, JSON.stringify(a.diagnostics));
        const jobReq = cliEval({ expr: 'MY.Requirements', my: job, target: machine, mode });
        const machineReq = cliEval({ expr: 'MY.Requirements', my: machine, target: job, mode });
        assert.equal(a.job_accepts, jobReq === 'true', `${machine}: the job's Requirements are ${jobReq}`);
        assert.equal(a.machine_accepts, machineReq === 'true', `${machine}: the machine's are ${machineReq}`);
        assert.equal(a.explain.job.value, jobReq, 'the job side traced');
        assert.equal(a.explain.machine.value, machineReq, 'the machine side traced');
        assert.equal(a.job_rank, cliEval({ expr: 'MY.Rank', my: job, target: machine, mode }));
        const cycle = cli(['match', '--policy', 'thesis', '--mode', mode, '--jobs', file(job), '--machines', file(machine)]).out;
        assert.equal(a.matched, / matched\b/.test(cycle), `matched as the CLI's cycle: ${cycle}`);
      }
      assert.deepEqual(answers.map((a) => a.matched), [false, false, true, false]);
    }

    // parse: the ads and the error the CLI reads and reports.
    const pool = '[ Name = "slot1"; Memory = 2048 ]\n[ Name = "slot2"; Memory = ]\n[ a = 1; B = "x" ]\n';
    const parsed = await page.evaluate(async (t) => (await import('./classad.js')).parse(t), pool);
    const f = file(pool);
    const fmt = cli(['fmt', '--to', 'json', f]);
    const cliAds = JSON.parse(fmt.out);
    assert.deepEqual(parsed.ads.map((a) => a.attributes), cliAds.map((a) => Object.keys(a)));
    const [, l, c] = fmt.err.match(/--> .*:(\d+):(\d+)/);
    assert.equal(parsed.ok, false);
    assert.deepEqual([parsed.diagnostics[0].line, parsed.diagnostics[0].column], [Number(l), Number(c)]);

    // Nothing throws, whatever it is given; the engine still works after.
    const odd = await page.evaluate(async () => {
      const m = await import('./classad.js');
      const deep = '('.repeat(20000) + '1' + ')'.repeat(20000);
      return [m.evaluate(42), m.evaluate(), m.evaluate({ expr: '1', mood: 'strict' }), m.match({ job: '[' }),
        m.parse(null), m.evaluate({ expr: deep }),
        m.evaluate({ expr: '1 + 2', my: undefined, target: null, mode: undefined })];
    });
    for (const r of odd.slice(0, 5)) {
      assert.equal(r.ok, false);
      assert.equal(r.which === 'request' || r.which === 'job' || r.which === undefined, true, JSON.stringify(r));
      assert.ok(r.diagnostics[0].message.length > 0);
    }
    assert.equal(typeof odd[5].ok, 'boolean', 'a deeply nested expression gives an answer');
    assert.equal(odd[6].value, '3', 'and the engine still works after');
    assert.deepEqual(problems, []);
  });
});

test('deep evaluation in the page: a 3,000-long chain is a located failure, and a trapped engine is replaced', T, async () => {
  await scenario('embed-deep', async ({ page }) => {
    const got = await page.evaluate(async () => {
      const m = await import('./classad.js');
      const chain = (n, body) => '[' + Array.from({ length: n }, (_, i) => `a${i} = ${body(i + 1)}`).join('; ') + `; a${n} = 0]`;
      // What the test reads of an answer (a deep explain tree need not cross back to Node).
      const brief = (r) => r && { ok: r.ok, which: r.which, value: r.value, message: r.diagnostics?.[0]?.message };
      const evaluate = (input) => brief(m.evaluate(input));
      const out = {};
      // The input: six times in a row, then a plain call.
      out.deep = Array.from({ length: 6 }, () => evaluate({ expr: 'a0', my: chain(3000, (j) => `a${j} + 1`) }));
      out.calls = evaluate({ expr: 'a0', my: chain(3000, (j) => `size(strcat("x", a${j}))`) });
      out.ok250 = evaluate({ expr: 'a0', my: chain(250, (j) => `a${j} + 1`) });
      out.after = evaluate({ expr: '1 + 1' });
      // A page that calls the engine from deep in its own code can still run
      // wasm out of stack: find how deep this page's JS can go, then call the
      // engine nearer and nearer to there until one call fails.
      let room = 0;
      const probe = (n) => { room = n; probe(n + 1); };
      try { probe(0); } catch (e) { /* found the limit */ }
      const near = (n, f) => (n === 0 ? f() : near(n - 1, f));
      out.trapped = null;
      out.tries = [];
      const input = { expr: 'a0', my: chain(250, (j) => `a${j} + 1`), trace: false };
      for (let k = 20000; k >= 0 && out.trapped === null; k -= 100) {
        let r;
        try { r = near(Math.max(room - k, 0), () => m.evaluate(input)); } catch (e) { out.tries.push('threw'); continue; }
        out.tries.push(r.ok ? 'ok' : r.which);
        if (r && r.ok === false && r.which === 'internal') out.trapped = brief(r);
      }
      out.room = room;
      out.afterTrap = [evaluate({ expr: '1 + 1' }), evaluate({ expr: 'a0', my: chain(250, (j) => `a${j} + 1`) })];
      out.instances = m.engineInstances();
      return out;
    });
    for (const r of got.deep) {
      assert.equal(r.ok, false);
      assert.equal(r.which, 'expr');
      assert.match(r.message, /evaluation went deeper than \d+ levels at attribute `a\d+`/);
    }
    assert.equal(got.calls.ok, false);
    assert.match(got.calls.message, /deeper than/);
    assert.equal(got.ok250.value, '250');
    assert.equal(got.after.value, '2');
    assert.ok(got.trapped, `calling from deep in the page's own code ran the engine out of stack once (room ${got.room}: ${got.tries.join(' ')})`);
    assert.match(got.trapped.message, /a fresh engine takes over from the next call/);
    assert.equal(got.instances, 2, 'one new engine instance was made');
    assert.equal(got.afterTrap[0].value, '2', 'the engine answers after a trap');
    assert.equal(got.afterTrap[1].value, '250');
  });
});

test('the module builds the playground\'s readable prefill link: prefillLink({expr, my, target, mode})', T, async () => {
  await scenario('embed-prefill-link-api', async ({ page }) => {
    const got = await page.evaluate(async () => {
      const m = await import('./classad.js');
      return [
        m.prefillLink({ expr: 'MY.Memory > 1024 + 2', my: '[ Memory = 2048 ]', mode: 'strict' }, 'https://example.org/play/index.html'),
        m.prefillLink({ expr: 'a && b' }, 'https://example.org/play/'),
      ];
    });
    assert.deepEqual(got, [
      'https://example.org/play/index.html#expr=MY.Memory%20%3E%201024%20%2B%202&my=%5B%20Memory%20%3D%202048%20%5D&mode=strict',
      'https://example.org/play/#expr=a%20%26%26%20b',
    ]);
  });
});

test('the caller\'s errors are told from the engine\'s: a getter that throws is named and the engine kept; prefillLink answers wrong types', T, async () => {
  await scenario('embed-caller-errors', async ({ page, problems }) => {
    const got = await page.evaluate(async () => {
      const m = await import('./classad.js');
      const brief = (r) => ({ ok: r.ok, which: r.which, value: r.value, message: r.diagnostics?.[0]?.message });
      const throwing = (input, field, error = new Error('boom')) =>
        Object.defineProperty(input, field, { enumerable: true, get() { throw error; } });
      const out = {};
      // All in one synchronous burst: no call waits for a fresh engine.
      out.getters = ['expr', 'my', 'target', 'mode', 'now'].map((f) => brief(m.evaluate(throwing({ expr: '1 + 1' }, f))));
      out.match = brief(m.match(throwing({ machine: '[]' }, 'job', new TypeError('no job'))));
      out.proxy = brief(m.evaluate(new Proxy({ expr: '1' }, { ownKeys() { throw new Error('no keys'); } })));
      out.objectField = brief(m.evaluate({ expr: { toString() { throw new Error('never called'); } } }));
      out.after = brief(m.evaluate({ expr: '1 + 1' }));
      out.instances = m.engineInstances();
      const link = (...a) => {
        try {
          const r = m.prefillLink(...a);
          return typeof r === 'string' ? r : brief(r);
        } catch (e) {
          return `threw ${e}`;
        }
      };
      const site = 'https://example.org/play/';
      out.links = [null, 42, 'MY.x', [], { expr: 7 }, { expr: 'a', mode: 'lax' }, throwing({}, 'my')].map((x) => link(x, site));
      out.badPlaces = [link({ expr: '1' }, 42), link({ expr: '1' }, 'http://[nope')];
      out.fine = [link(undefined, site), link({ expr: 'a', my: null }, new URL(site))];
      return out;
    });
    assert.deepEqual(got.getters.map((r) => [r.ok, r.which]), [['expr', 'my', 'target', 'mode', 'now'].map((f) => [false, f])].flat());
    for (const r of got.getters) assert.match(r.message, /^reading `\w+` threw: Error: boom \(the engine was not called\)$/);
    assert.deepEqual([got.match.which, got.match.message], ['job', 'reading `job` threw: TypeError: no job (the engine was not called)']);
    assert.deepEqual([got.proxy.which, got.proxy.message], ['request', 'listing the input\'s fields threw: Error: no keys']);
    assert.deepEqual([got.objectField.which, got.objectField.message], ['expr', '`expr` must be a string, a number or a boolean, not object']);
    assert.equal(got.after.value, '2', 'the engine answers at once, in the same burst');
    assert.equal(got.instances, 1, 'the healthy engine was kept');
    const [nul, num, str, arr, notString, lax, getter] = got.links;
    for (const [r, what] of [[nul, 'null'], [num, 'a number'], [str, 'a string'], [arr, 'an array']]) {
      assert.deepEqual([r.ok, r.which, r.message], [false, 'request', `prefillLink takes {expr, my, target, mode, dialect}, not ${what}`]);
    }
    assert.deepEqual([notString.which, notString.message], ['expr', '`expr` must be a string, not a number']);
    assert.deepEqual([lax.which, lax.message], ['mode', 'unknown mode "lax" (the modes are "htcondor" and "strict")']);
    assert.deepEqual([getter.which, getter.message], ['my', 'reading `my` threw: Error: boom']);
    assert.equal(got.badPlaces[0].which, 'playground');
    assert.match(got.badPlaces[0].message, /must be a string or a URL, not a number/);
    assert.match(got.badPlaces[1].message, /does not read as a URL/);
    assert.deepEqual(got.fine, ['https://example.org/play/#expr=', 'https://example.org/play/#expr=a']);
    assert.deepEqual(problems, []);
  });
});

test('a widget re-evaluates as its expression is edited, and its explain tree opens', T, async () => {
  await scenario('embed-widget', async ({ page }) => {
    const w = widget(page, 0);
    const expr = w.locator('textarea.cw-expr');
    assert.equal(await expr.inputValue(), 'MY.Memory > 1024');
    await expectWidget(page, 0, 'true');
    await expr.fill('MY.Memory > 4096');
    await expectWidget(page, 0, 'false');
    assert.equal(await w.locator('.cw-type').textContent(), 'boolean');
    await expr.fill('MY.Memory * 2');
    await expectWidget(page, 0, '4096');
    // Typed key by key too (input events), through an error and out of it.
    await expr.fill('');
    await expr.pressSequentially('MY.Memory >');
    assert.match(await widgetValue(page, 0), /Error in the expression at line 1, column 12/);
    assert.equal(await w.locator('details.cw-explain').isHidden(), true, 'no tree for an error');
    await expr.pressSequentially(' 2000');
    await expectWidget(page, 0, 'true');
    // The explain tree: closed, then open; the root node is the expression
    // and its first level is open, deeper levels open on a click.
    const tree = w.locator('.cw-tree');
    assert.equal(await tree.isVisible(), false);
    await w.locator('details.cw-explain > summary').click();
    await tree.waitFor({ state: 'visible' });
    const root = tree.locator(':scope > details');
    assert.match(await root.locator(':scope > summary').textContent(), /^MY\.Memory > 2000→true/);
    const selection = root.locator(':scope > details').first();
    assert.match(await selection.locator(':scope > summary').textContent(), /^MY\.Memory→2048/);
    const definition = selection.locator(':scope > details').first();
    assert.equal(await definition.isVisible(), true);
    assert.equal(await definition.evaluate((d) => d.open), false);
    await definition.locator(':scope > summary').click();
    assert.equal(await definition.evaluate((d) => d.open), true);
    assert.match(await definition.textContent(), /2048/);
    // Text stays text: markup typed in is not parsed.
    await expr.fill('"<b>bold</b>"');
    await expectWidget(page, 0, '"<b>bold</b>"');
    assert.equal(await w.locator('b').count(), 0);
  });
});

test('traces at the engine\'s limits reach the page: a 300-attribute chain nests 900 deep in evaluate(), a widget lists a 1,999-clause && 100 at a time', T, async () => {
  await scenario('embed-limits', async ({ page }) => {
    const got = await page.evaluate(async () => {
      const m = await import('./classad.js');
      const chain = (n) => '[' + Array.from({ length: n - 1 }, (_, i) => `a${i} = a${i + 1} + 1`).join('; ') + `; a${n - 1} = 0]`;
      const r = m.evaluate({ expr: 'a0', my: chain(300) });
      let depth = 0;
      for (let n = r.trace; n; n = n.children.find((c) => c.children.length > 0) ?? null) depth += 1;
      const paren = m.evaluate({ expr: '('.repeat(300) + '1' + ')'.repeat(300) });
      const job = `[ Owner = "u"; Requirements = ${Array.from({ length: 80 }, (_, i) => `TARGET.Machine == "n${i}"`).join(' || ')} ]`;
      const both = m.match({ job, machine: '[ Machine = "n79"; Requirements = true ]' });
      return {
        value: r.value, depth, root: r.trace.label,
        paren: [paren.ok, paren.value],
        match: [both.matched, both.explain.job.label, both.explain.job.children.length],
      };
    });
    assert.equal(got.value, '299');
    assert.ok(got.depth >= 895, `nested ${got.depth} deep`);
    assert.equal(got.root, 'attribute reference');
    assert.deepEqual(got.paren, [true, '1']);
    assert.deepEqual(got.match, [true, 'operator ||', 80]);

    const w = widget(page, 0);
    await w.locator('textarea.cw-expr').fill(Array.from({ length: 1999 }, (_, i) => `x${i} > 0`).join(' && '));
    await expectWidget(page, 0, 'undefined');
    await w.locator('details.cw-explain > summary').click();
    const root = w.locator('.cw-tree > details');
    assert.match(await root.locator(':scope > summary').textContent(), /operator && · 1,999 clauses evaluated$/);
    assert.equal(await root.locator(':scope > details').count(), 100);
    await root.locator(':scope > button.cw-more').click();
    assert.equal(await root.locator(':scope > details').count(), 200);
    assert.equal(await root.locator(':scope > button.cw-more').textContent(), 'Show 100 more of 1,999');
  });
});

test('"Open in playground" opens the app with the widget\'s expression, ads, mode and value', T, async () => {
  await scenario('embed-open-in-playground', async ({ page, context }) => {
    // The strict widget, edited: the mode and both ads must travel.
    const w = widget(page, 2);
    const expr = 'TARGET.Memory >= 256 && TARGET.Arch == "X86_64" && MY.Owner == "alice"';
    await w.locator('textarea.cw-expr').fill(expr);
    await expectWidget(page, 2, 'true');
    const href = await w.locator('a.cw-open').getAttribute('href');
    assert.ok(href.startsWith(`${browser.server.url}index.html#expr=`), href);
    assert.match(href, /&my=.*&target=.*&mode=strict$/);
    const [app] = await Promise.all([context.waitForEvent('page'), w.locator('a.cw-open').click()]);
    await ready(app);
    await expectAppValue(app, 'true');
    assert.equal(await app.locator('#expr').inputValue(), expr);
    assert.deepEqual(await app.locator('.pool-tabs [role=tab]').allTextContents(), ['my', 'target']);
    assert.equal(await app.locator('.notice').count(), 0, 'no error notice');
    // The mode came along: in HTCondor mode an unscoped name would reach
    // TARGET, in strict mode it is undefined.
    await app.fill('#expr', 'Memory');
    await expectAppValue(app, 'undefined');
    await screenshot(app, 'embed-opened-in-playground');
    await app.close();
  });
});

test('a prefill link typed by hand opens in the app, setting the previous work aside', T, async () => {
  const context = await browser.chrome.newContext();
  const { page, problems } = await openPage(context);
  try {
    // Some work of one's own first (autosaved).
    await page.goto(browser.server.url);
    await ready(page);
    await page.fill('#expr', 'MY.Cpus * 100');
    await page.waitForTimeout(400);
    // Typed as a teacher would: spaces, quotes, && and brackets unencoded.
    const my = '[ Memory = 2048; Owner = "alice" ]';
    const target = '[ Cpus = 4 ]';
    const expr = 'MY.Memory > 1024 && TARGET.Cpus >= 2 && Owner == "alice"';
    await page.goto('about:blank');
    await page.goto(`${browser.server.url}#expr=${expr}&my=${my}&target=${target}`);
    await ready(page);
    const want = cliEval({ expr, my, target });
    assert.equal(want, 'true');
    await expectAppValue(page, want);
    assert.equal(await page.locator('#expr').inputValue(), expr);
    assert.deepEqual(await page.locator('.pool-tabs [role=tab]').allTextContents(), ['my', 'target']);
    await page.locator('.restore').waitFor({ state: 'visible', timeout: 10_000 });
    // An encoded one followed in the open app, strict mode: the value the
    // CLI gives.
    const e2 = 'strcat(Owner, "+", TARGET.Cpus)';
    await page.goto(`${browser.server.url}#expr=${encodeURIComponent(e2)}&my=${encodeURIComponent(my)}&target=${encodeURIComponent(target)}&mode=strict`);
    await expectAppValue(page, cliEval({ expr: e2, my, target, mode: 'strict' }));
    // A bad one says so and leaves the work alone.
    await page.goto(`${browser.server.url}#my=${encodeURIComponent(my)}`);
    await page.locator('.notice').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await page.locator('.notice').textContent(), /no expr=/);
    assert.equal(await page.locator('#expr').inputValue(), e2);
    const fatal = problems.filter((p) => /^(uncaught|page crashed)/.test(p));
    assert.deepEqual(fatal, []);
  } finally {
    await screenshot(page, 'embed-prefill-link').catch(() => {});
    await context.close();
  }
});
