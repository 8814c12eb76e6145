// End-to-end tests of the analyzer view ("Why doesn't it match?", seed 000
// §3) on the release build (dist/) in headless Chromium: the paper's gallery
// entries show what `classad analyze --json` says for the same files; one-click
// suggestions and job changes, Undo, pinned predicates, Copy, Figure 4's
// lattice, Figure 5's plane, bad input, the ways in, and persistence.
// Run: node --test tests/e2e/analyzer.test.mjs   (after `trunk build --release`;
// the numbers are checked against target/debug/classad, which scripts/test.sh
// builds before this step).
// Screenshots: tests/e2e/screenshots/an-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { screenshot, ROOT, browserEnv, cliBinary, onLane } from './harness.mjs';

const browser = browserEnv();
let scratch;
const T = { timeout: 300_000 };
const AUTOSAVE = 'classad-playground/autosave/v1';

before(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'classad-an-'));
});

after(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Run `body` on the playground opened at `hash` (the file's tab, its storage emptied: harness `onLane`); screenshot as `name`; fail on uncaught errors. */
function scenario(name, body, { hash = '', colorScheme, clipboard = false } = {}) {
  const permissions = clipboard ? ['clipboard-read', 'clipboard-write'] : [];
  return onLane(browser, name, body, {
    hash, colorScheme, permissions, until: (page) => page.waitForSelector('main', { timeout: 30_000 }),
  });
}

/** A share link (`#s=…`) opening `state` (missing fields take their defaults). */
function stateLink(state) {
  const json = JSON.stringify({ engine: '0.1.0', state });
  return `#s=1.0.1.0.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;
}

// ---------------------------------------------------------------------------
// The CLI: what `classad analyze --json` says for the same files.

const CLI = cliBinary();
const POOLS = path.join(ROOT, 'tests', 'analysis');
/** Gallery entry → the pools' base name in tests/analysis. */
const ENTRIES = {
  '000-eight': 'eight',
  '000-fig4': 'figure4',
  '000-fig5': 'figure5',
  '000-analyze1': 'analyze1',
  '000-analyze2': 'analyze2',
  '000-analyze3': 'analyze3',
};

function file(name) {
  return path.join(POOLS, name);
}

function write(name, text) {
  const f = path.join(scratch, name);
  writeFileSync(f, text);
  return f;
}

/** `classad analyze --json` on a job file and a machines file. */
function cli(job, machines, extra = []) {
  // The papers' figures are in their notation (`512M`), as the gallery opens them.
  return JSON.parse(execFileSync(CLI, ['analyze', '--dialect', 'seed', '--json', '--job', job, '--machines', machines, ...extra], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

/** The paper example `base` with the job's attribute `name` set to `text` (the job files are one line). */
function jobWith(base, name, text) {
  const src = readFileSync(file(`${base}_job.classad`), 'utf8');
  const re = new RegExp(`(\\[|;)\\s*${name}\\s*=[^;\\]]*(?=;|\\s*\\])`, 'i');
  const out = re.test(src) ? src.replace(re, `$1 ${name} = ${text}`) : src.replace(/\[\s*/, `[ ${name} = ${text}; `);
  return write(`${base}_${name}.classad`, out);
}

// ---------------------------------------------------------------------------
// Reading the view.

const num = (s) => Number(String(s).replace(/[^0-9.-]/g, ''));

async function waitText(page, sel, re, timeout = 30_000) {
  try {
    await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source], { timeout });
  } catch {
    assert.fail(`${sel} should match ${re}, is ${JSON.stringify(await page.locator(sel).first().textContent().catch(() => null))}`);
  }
  return page.locator(sel).first().textContent();
}

/** The four numbers of the run summary, once an analysis is shown. */
async function summary(page) {
  await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 30_000 });
  return page.evaluate(() => {
    const n = (id) => Number(document.querySelector(`#${id} .n`).textContent.replace(/,/g, ''));
    return {
      rejected_by_job: n('sum-rejected-by-job'),
      reject_job: n('sum-reject-job'),
      match_but_busy: n('sum-busy'),
      match: n('sum-match'),
      of: Number((document.querySelector('.an-of strong').textContent.match(/of ([\d,]+)/) ?? [])[1]?.replace(/,/g, '')),
    };
  });
}

/** Wait until the summary's `key` is `want` (an analysis re-runs in the worker). */
async function summaryIs(page, key, want, timeout = 30_000) {
  const id = { rejected_by_job: 'sum-rejected-by-job', reject_job: 'sum-reject-job', match: 'sum-match' }[key];
  await waitText(page, `#${id} .n`, new RegExp(`^${want.toLocaleString('en-US')}$`), timeout);
}

/** Everything the view shows that the CLI's JSON also says. */
async function shown(page) {
  return page.evaluate(() => {
    // Rows are shown as the report's table orders them; read them back in
    // the order written (the JSON's).
    const clauses = [...document.querySelectorAll('.an-clause')].map((c) =>
      [...c.querySelectorAll('tr.pred')].sort((x, y) => x.dataset.predicate - y.dataset.predicate).map((r) => {
        const cells = r.querySelectorAll('td');
        return {
          display: cells[2].textContent.trim(),
          matches: Number(cells[4].textContent.split('/')[0].replace(/,/g, '')),
          only_failing: Number(cells[5].textContent.replace(/,/g, '')),
        };
      }));
    const sugg = [...document.querySelectorAll('.suggestion')].map((s) => ({
      metric: s.dataset.metric, matches: Number(s.dataset.matches), predicates: s.dataset.predicates,
      requirements: s.querySelector('.sugg-req').textContent,
    }));
    return {
      clauses,
      suggestions: sugg,
      conflicts: document.querySelectorAll('ul.conflicts li').length,
      jobChanges: [...document.querySelectorAll('.job-change')].map((j) => Number(j.dataset.matches)),
    };
  });
}

function expected(a) {
  return {
    clauses: a.clauses.map((c) => c.predicates.map((p) => ({ display: p.display, matches: p.matches, only_failing: p.only_failing }))),
    // The view's paper tables: M1 then M2, each in the paper's order (the
    // JSON list is ranked by what lets the job run).
    suggestions: ['M1', 'M2'].flatMap((m) => a.suggestions.filter((s) => s.metric === m).sort((x, y) => x.metric_rank - y.metric_rank)).map((s) => ({
      metric: s.metric, matches: s.matches, predicates: s.changes.map((c) => c.predicate).join(','), requirements: s.requirements,
    })),
    conflicts: a.conflicts.length,
    jobChanges: a.job_changes.map((j) => j.matches),
  };
}

async function openEntry(page, id) {
  await page.goto('about:blank');
  await page.goto(browser.server.url + `#example=${id}`);
  await page.waitForSelector('main[aria-label="Analyzer"]', { timeout: 30_000 });
  return summary(page);
}

// ---------------------------------------------------------------------------

test('every paper entry of the gallery shows what the CLI says for the same files', T, async () => {
  for (const [id, base] of Object.entries(ENTRIES)) {
    await scenario(`an-${id}`, async ({ page }) => {
      const want = cli(file(`${base}_job.classad`), file(`${base}_machines.classad`));
      await page.waitForSelector('main[aria-label="Analyzer"]', { timeout: 30_000 });
      const got = await summary(page);
      assert.deepEqual(got, { ...want.summary, of: want.machines }, `${id}: the run summary`);
      assert.deepEqual(await shown(page), expected(want), `${id}: predicates, suggestions, conflicts, job changes`);
      const report = await page.locator('pre.report').first().textContent();
      assert.match(report, new RegExp(`Run analysis summary ignoring user priority\\.  Of ${want.machines} slots on \\d+ machines,`), `${id}: the report`);
    }, { hash: `#example=${id}` });
  }
});

test('the paper\'s numbers: §3.1.1, §3.3', T, async () => {
  await scenario('an-paper-numbers', async ({ page }) => {
    await openEntry(page, '000-eight');
    let s = await shown(page);
    assert.deepEqual(s.clauses[0].map((p) => p.matches), [2, 3, 4], 'per-predicate 2 / 3 / 4');
    const m1 = s.suggestions.filter((x) => x.metric === 'M1');
    assert.deepEqual([m1[0].predicates, m1[0].matches], ['0', 2], 'M1: REMOVE Arch gains 2');
    assert.match(await page.locator('.suggestion[data-metric=M1] .sugg-what').first().textContent(), /^REMOVE Arch == "ALPHA"$/);
    await openEntry(page, '000-analyze1');
    assert.match(await page.locator('.an-notes').textContent(), /No machine defines Foo/);
    assert.ok((await page.locator('.suggestion[data-metric=M2] .sugg-what').allTextContents()).some((t) => /MODIFY Memory > 2096 TO 1911/.test(t)), 'MODIFY TO 1911');
    // One numbering: the view's table numbers its predicates as the report's does.
    const rows = await page.$$eval('#clause-0 tr.pred', (trs) => trs.map((tr) => `${tr.cells[1].textContent} ${tr.cells[2].textContent}`));
    const report = await page.locator('pre.report').first().textContent();
    assert.deepEqual(rows, [...report.matchAll(/^(\d) (.+?)\t/gm)].map((m) => `${m[1]} ${m[2]}`));
    assert.equal(rows[2], '3 OpSys == "LINUX"', 'the paper\'s "3 OpSys"');
    await openEntry(page, '000-analyze2');
    assert.match(await page.locator('ul.conflicts li').first().textContent(), /predicates \{1, 2\}/);
    const got = await openEntry(page, '000-analyze3');
    assert.deepEqual([got.of, got.rejected_by_job, got.reject_job], [837, 807, 30]);
    assert.match(await page.locator('.job-change').first().textContent(), /ImageSize: use a value <= 1220608/);
  }, { hash: '#example=000-eight' });
});

test('an M1 suggestion applied: the job rejects what it promised; Undo restores', T, async () => {
  await scenario('an-apply-undo', async ({ page }) => {
    const before = await summary(page);
    assert.equal(before.rejected_by_job, 8);
    const first = page.locator('.suggestion[data-metric=M1]').first();
    const promised = num(await first.getAttribute('data-matches'));
    const requirements = await first.locator('.sugg-req').textContent();
    // Applied from the keyboard: the focus moves on to Undo, not to <body>.
    await first.locator('button.apply').focus();
    await page.keyboard.press('Enter');
    await summaryIs(page, 'rejected_by_job', before.of - promised);
    await page.waitForFunction(() => document.activeElement?.id === 'undo', null, { timeout: 5_000 });
    assert.match(await page.locator('#edits').textContent(), /Requirements = \(other\.OpSys == "SOLARIS"\) && \(other\.Memory >= 536870912\.0\)/);
    assert.equal(await page.locator('#requirements-edit').inputValue(), requirements, 'the box shows the requirements in effect');
    // The CLI agrees on the rewritten job.
    const want = cli(jobWith('eight', 'Requirements', requirements), file('eight_machines.classad'));
    assert.deepEqual(await summary(page), { ...want.summary, of: 8 });
    assert.equal(await page.locator('#undo').textContent(), 'Undo (1)');
    await page.click('#undo');
    await summaryIs(page, 'rejected_by_job', 8);
    assert.equal(await page.locator('#edits').count(), 0, 'no edits in effect');
    assert.ok(await page.locator('#undo').isDisabled(), 'nothing more to undo');
    assert.match(await page.locator('#requirements-edit').inputValue(), /other\.Arch == "ALPHA"/);
  }, { hash: '#example=000-eight' });
});

test('an idle job\'s best fix (its RequestMemory) applied: the summary then shows willing slots, as the CLI counts them', T, async () => {
  const idle = readFileSync(file('idle_job.classad'), 'utf8');
  const slots = readFileSync(file('idle_slots.classad'), 'utf8');
  await scenario('an-idle-fix', async ({ page }) => {
    const before = await summary(page);
    assert.deepEqual([before.match, before.match_but_busy], [0, 0]);
    const want = cli(file('idle_job.classad'), file('idle_slots.classad'));
    const best = want.suggestions[0];
    assert.ok(best.willing > 0 && Object.keys(best.job_attributes).includes('RequestMemory'), JSON.stringify(best));
    // The view's first fix is the CLI's, with its counts and submit lines.
    const fix = page.locator('#fixes li.fix').first();
    assert.equal(await fix.getAttribute('data-willing'), String(best.willing));
    assert.equal(await fix.getAttribute('data-both-ways'), String(best.both_ways));
    assert.match(await fix.locator('.fix-what').textContent(), new RegExp(`^Set RequestMemory = ${best.job_attributes.RequestMemory} \\(for MODIFY Memory >= 2000 TO `));
    assert.equal(await fix.locator('.fix-submit pre').textContent(), best.submit.join('\n'));
    assert.match(await fix.locator('.fix-gain').textContent(), new RegExp(`^${best.willing} slots willing of ${best.both_ways} slots matching both ways`));
    await fix.locator('button.apply').click();
    await summaryIs(page, 'match', best.willing);
    const after = await summary(page);
    assert.equal(after.match + after.match_but_busy, best.both_ways, 'both ways, as the fix said');
    // The CLI on the job with the fix agrees.
    const fixed = cli(jobWith('idle', 'RequestMemory', best.job_attributes.RequestMemory), file('idle_slots.classad'));
    assert.deepEqual(after, { ...fixed.summary, of: 40 });
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: idle }, { name: 'machines', text: slots }])) });
});

test('a job change (Nobody Likes Me) applied: the machines accept the job', T, async () => {
  await scenario('an-job-change', async ({ page }) => {
    await summary(page);
    const change = page.locator('.job-change').first();
    assert.match(await change.locator('.sugg-what').textContent(), /^ImageSize = 1220608$/);
    await change.locator('button.apply').click();
    const want = cli(jobWith('analyze3', 'ImageSize', '1220608'), file('analyze3_machines.classad'));
    assert.equal(want.summary.reject_job, 0);
    await summaryIs(page, 'reject_job', 0);
    assert.deepEqual(await summary(page), { ...want.summary, of: 837 });
    assert.equal(want.summary.match, 30);
    assert.match(await page.locator('#edits').textContent(), /ImageSize = 1220608/);
  }, { hash: '#example=000-analyze3' });
});

test('a pinned predicate: suggestions leave it alone, as the CLI\'s --fixed', T, async () => {
  await scenario('an-pin', async ({ page }) => {
    await summary(page);
    assert.ok((await shown(page)).suggestions.some((s) => s.predicates.split(',').includes('0')), 'unpinned, Arch is among the suggestions');
    const pin = page.locator('#clause-0 tr.pred[data-predicate="0"] button.pin');
    await pin.click();
    assert.equal(await pin.getAttribute('aria-pressed'), 'true');
    assert.equal(await pin.textContent(), 'Pinned');
    const want = cli(file('eight_job.classad'), file('eight_machines.classad'), ['--fixed', '0:0']);
    assert.ok(want.suggestions.length > 0 && want.suggestions.every((s) => s.changes.every((c) => c.predicate !== 0)));
    await page.waitForFunction((n) => {
      const s = [...document.querySelectorAll('.suggestion')];
      return s.length === n && s.every((x) => !x.dataset.predicates.split(',').includes('0'));
    }, want.suggestions.filter((s) => s.metric === 'M1' || s.metric === 'M2').length, { timeout: 30_000 });
    assert.deepEqual((await shown(page)).suggestions, expected(want).suggestions);
    // Unpinned: back to every suggestion.
    await pin.click();
    await page.waitForFunction(() => [...document.querySelectorAll('.suggestion')].some((x) => x.dataset.predicates.split(',').includes('0')), null, { timeout: 30_000 });
  }, { hash: '#example=000-eight' });
});

test('Copy puts the report on the clipboard', T, async () => {
  await scenario('an-copy', async ({ page }) => {
    await summary(page);
    await page.click('#copy-report');
    await waitText(page, '#copied', /^Copied$/);
    const report = await page.locator('.an-report pre.report').textContent();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), report);
    assert.match(report, /Run analysis summary ignoring user priority\.  Of 3 slots on 3 machines,/);
  }, { hash: '#example=000-fig4', clipboard: true });
});

test('Figure 4: the subset lattice marks 5 minimal failing and 3 maximal succeeding sets', T, async () => {
  for (const colorScheme of ['light', 'dark']) {
    await scenario(`an-lattice-${colorScheme}`, async ({ page }) => {
      await summary(page);
      const lattice = page.locator('svg.lattice');
      await lattice.waitFor();
      assert.equal(await lattice.locator('g.node').count(), 16, 'every subset of 4 predicates');
      assert.equal(await lattice.locator('line.edge').count(), 32, 'each set to its subsets one smaller');
      const sets = (cls) => lattice.locator(`g.node.${cls}`).evaluateAll((ns) => ns.map((n) => n.dataset.set).sort());
      assert.deepEqual(await sets('mfs'), ['{1, 3}', '{1, 4}', '{2, 3}', '{2, 4}', '{3, 4}'], 'MFS, dashed');
      assert.deepEqual(await sets('mss'), ['{1, 2}', '{3}', '{4}'], 'MSS, solid');
      const dash = await lattice.locator('g.node.mfs ellipse').first().evaluate((e) => getComputedStyle(e).strokeDasharray);
      assert.notEqual(dash, 'none', 'MFS are dashed');
      assert.equal(await lattice.locator('g.node.mss ellipse').first().evaluate((e) => getComputedStyle(e).strokeDasharray), 'none', 'MSS are solid');
      assert.equal(await lattice.locator('g.node.t').count(), 1 + 4 + 1, 'T: the empty set, the singletons, {1, 2}');
      // Full clause on top, empty at the bottom.
      const y = (set) => lattice.locator(`g.node[data-set="${set}"] ellipse`).getAttribute('cy').then(Number);
      assert.ok(await y('{1, 2, 3, 4}') < await y('{1, 2}') && await y('{1, 2}') < await y('{}'));
      assert.ok(await lattice.locator('title').count() > 16, 'every node says what it is');
      assert.equal(await page.locator('ul.conflicts li').count(), 5);
    }, { hash: '#example=000-fig4', colorScheme });
  }
});

test('Figure 5: the plane draws the cells the machines accept, and the job', T, async () => {
  await scenario('an-plane', async ({ page }) => {
    await summary(page);
    const plane = page.locator('svg.plane');
    await plane.waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('#plane-x').inputValue(), 'ImageSize');
    assert.equal(await page.locator('#plane-y').inputValue(), 'MemoryRequirements');
    const counts = await plane.locator('g.cell').evaluateAll((cs) => cs.map((c) => Number(c.dataset.machines)));
    assert.ok(counts.length >= 3, `cells: ${counts}`);
    assert.equal(Math.max(...counts), 2, 'where both machines accept');
    assert.equal(counts.filter((c) => c === 1).length >= 2, true, 'c1 alone and c2 alone');
    assert.deepEqual(await plane.locator('text.cell-n').allTextContents().then((t) => t.map(Number).sort()), [...counts].filter((c) => c > 0).sort(), 'each cell labelled');
    assert.equal(await plane.locator('.job-point circle').count(), 1, 'the job is drawn');
    // c2's cell [64M, 128M) × [1024M, ∞) lies above the job, c1's [128M, ∞) × [512M, 1024M) to its right.
    const jobBox = await plane.locator('.job-point circle').boundingBox();
    const boxes = await plane.locator('g.cell[data-machines="1"] rect').evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().toJSON()));
    assert.ok(boxes.some((b) => b.bottom <= jobBox.y && b.left <= jobBox.x + jobBox.width / 2), 'a cell above the job');
    assert.ok(boxes.some((b) => b.left >= jobBox.x + jobBox.width && b.top > jobBox.y - 200), 'a cell to its right');
    // Swapping the axes redraws.
    await page.selectOption('#plane-x', 'MemoryRequirements');
    await page.waitForFunction(() => document.querySelector('#plane-x')?.value === 'MemoryRequirements' && document.querySelector('#plane-y')?.value === 'ImageSize'
      && /^MemoryRequirements$/.test(document.querySelector('svg.plane .axis-name')?.textContent ?? ''), null, { timeout: 30_000 });
    assert.ok(await plane.locator('g.cell').count() >= 3);
  }, { hash: '#example=000-fig5' });
  await scenario('an-plane-dark', async ({ page }) => {
    await summary(page);
    await page.locator('svg.plane').waitFor({ timeout: 30_000 });
  }, { hash: '#example=000-fig5', colorScheme: 'dark' });
});

// ---------------------------------------------------------------------------
// Bad input: a message in place, and what the user typed is kept.

const MACHINES = '[ Name = "a"; Memory = 100; Requirements = true ]\n[ Name = "b"; Memory = 10; Requirements = true ]\n';
const analyzerState = (pools, analyze = {}) => ({ pools, active_pool: 0, expr: 'true', view: 'analyze', analyze });

test('bad input: no Requirements, a parse error, empty pools, a job that is not there', T, async () => {
  // A job with no Requirements: say so; typing some in analyzes them.
  await scenario('an-bad-no-requirements', async ({ page }) => {
    await waitText(page, '#analysis-error', /no Requirements/);
    await page.fill('#requirements-edit', 'TARGET.Memory > 50');
    await page.click('#apply-requirements');
    await summaryIs(page, 'rejected_by_job', 1);
    // A parse error: the message, the text kept, Undo back.
    await page.fill('#requirements-edit', 'TARGET.Memory >');
    await page.click('#apply-requirements');
    await waitText(page, '#analysis-error', /^The analysis failed: Requirements:/);
    assert.equal(await page.locator('#requirements-edit').inputValue(), 'TARGET.Memory >', 'the text typed is kept');
    assert.match(await page.locator('.an-summary').textContent(), /of 2 machines/, 'the last analysis stays on screen');
    await page.click('#undo');
    await page.waitForFunction(() => !document.querySelector('#analysis-error'), null, { timeout: 30_000 });
    assert.equal(await page.locator('#requirements-edit').inputValue(), 'TARGET.Memory > 50');
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: '[ Owner = "x"; ImageSize = 5 ]' }, { name: 'machines', text: MACHINES }])) });

  await scenario('an-bad-empty-machines', async ({ page }) => {
    await waitText(page, '.analysis-problem', /The machines pool “machines” has no ads/);
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: '[ Requirements = TARGET.Memory > 1 ]' }, { name: 'machines', text: '' }])) });

  await scenario('an-bad-empty-jobs', async ({ page }) => {
    await waitText(page, '.analysis-problem', /The jobs pool “jobs” has no ads/);
    assert.equal(await page.locator('#analysis-summary').count(), 0);
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: '// nothing yet\n' }, { name: 'machines', text: MACHINES }])) });

  await scenario('an-bad-job-index', async ({ page }) => {
    await waitText(page, '.analysis-problem', /Job 6 is not in “jobs” any more \(it has 1 ad\)/);
    await page.selectOption('#analyze-job', '0');
    await summaryIs(page, 'rejected_by_job', 1);
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: '[ Requirements = TARGET.Memory > 50 ]' }, { name: 'machines', text: MACHINES }], { job: 5 })) });

  await scenario('an-bad-parse-error', async ({ page }) => {
    await waitText(page, '.left-out', /“machines” does not parse everywhere \(\d+ errors?\): ads that do not parse are left out here, so 2 ads are counted/);
    const s = await summary(page);
    assert.equal(s.of, 2, 'the ads that parse are analyzed');
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: '[ Requirements = TARGET.Memory > 50 ]' }, { name: 'machines', text: MACHINES + '[ Name = "c"; Memory = ; ]\n' }])) });
});

test('Cancel stops an analysis in the worker; Analyze again starts afresh', T, async () => {
  await scenario('an-cancel', async ({ page }) => {
    await summary(page);
    // Cancel as soon as the progress row is drawn: the worker's answer
    // (a message, a later task) cannot have come yet.
    const seen = await page.evaluate(() => new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        const cancel = document.querySelector('.run-progress button.cancel');
        if (!cancel) return;
        obs.disconnect();
        const label = document.querySelector('.run-progress').textContent;
        cancel.click();
        resolve({ label, had: true });
      });
      obs.observe(document.body, { childList: true, subtree: true });
      document.querySelector('#analyze-again').click();
      setTimeout(() => { obs.disconnect(); resolve({ label: '', had: false }); }, 5_000);
    }));
    assert.ok(seen.had, 'a progress row with Cancel while the worker analyzes');
    assert.match(seen.label, /Analyzing…/);
    await page.waitForFunction(() => !document.querySelector('.run-progress'), null, { timeout: 10_000 });
    assert.equal(await page.locator('#analysis-error').count(), 0, 'a cancel is no error');
    assert.ok(await page.locator('#analyze-again').isEnabled());
    // The worker restarts, gets the pools again, and answers.
    await page.click('#analyze-again');
    await page.waitForSelector('.run-progress', { state: 'detached', timeout: 30_000 });
    assert.deepEqual(await summary(page), { rejected_by_job: 8, reject_job: 0, match_but_busy: 0, match: 0, of: 8 });
  }, { hash: '#example=000-eight' });
});

test('requirements typed in the box (Ctrl+Enter), and the reverse analysis of a machine', T, async () => {
  await scenario('an-typed-reverse', async ({ page }) => {
    await summary(page);
    await page.fill('#requirements-edit', 'other.OpSys == "SOLARIS" || other.Arch == "ALPHA"');
    await page.press('#requirements-edit', 'Control+Enter');
    const want = cli(jobWith('eight', 'Requirements', 'other.OpSys == "SOLARIS" || other.Arch == "ALPHA"'), file('eight_machines.classad'));
    await summaryIs(page, 'rejected_by_job', want.summary.rejected_by_job);
    assert.deepEqual(await shown(page), expected(want), 'two clauses, as the CLI');
    assert.equal(await page.locator('.an-clause').count(), 2);
    // The reverse analysis of machine3.
    await page.selectOption('#reverse-machine', '2');
    await page.click('#reverse-run');
    await waitText(page, '#reverse-report', /Slot: machine3 : Analyzing matches for 1 Jobs/);
    const cliReverse = execFileSync(CLI, ['analyze', '--dialect', 'seed', '--reverse', '--job', file('eight_job.classad'), '--machines', file('eight_machines.classad'), '--which', '3'], { encoding: 'utf8' });
    assert.equal((await page.locator('#reverse-report').textContent()).trim(), cliReverse.trim(), 'the CLI\'s reverse report');
  }, { hash: '#example=000-eight' });
});

// ---------------------------------------------------------------------------
// The ways in, and what persists.

test('ways in: the header, the evaluator\'s "Why doesn\'t it match?", a job of the match matrix', T, async () => {
  await scenario('an-from-evaluator', async ({ page }) => {
    // The default workbench: MY is a machine, TARGET the job.
    await page.click('#why-no-match');
    await page.waitForSelector('main[aria-label="Analyzer"]');
    const s = await summary(page);
    assert.equal(s.of, 2);
    assert.equal(await page.locator('#match-jobs option:checked').textContent(), 'jobs');
    await page.click('nav .tab:has-text("Workbench")');
    await page.click('nav .tab:has-text("Analyze")');
    await summary(page);
  });
  await scenario('an-from-evaluator-job-vs-job', async ({ page }) => {
    // A pool of one job as MY, TARGET left on the jobs pool's job: the
    // analyzer takes the pool of machines, not the TARGET's pool of jobs.
    await page.click('button[aria-label="Add a pool"]');
    await page.fill('#pool-text', '[ MyType = "Job"; ClusterId = 7; ProcId = 0; Owner = "me"; RequestMemory = 100; Requirements = TARGET.Memory >= RequestMemory ]\n');
    await page.waitForFunction(() => /^1 ad, 0 errors/.test(document.querySelector('.diagnostics .summary')?.textContent ?? ''));
    await page.selectOption('#my-ad', { label: 'pool 3 / 7.0' }).catch(async () => {
      const labels = await page.locator('#my-ad option').allTextContents();
      await page.selectOption('#my-ad', { label: labels.find((l) => l.endsWith('/ 7.0')) });
    });
    await page.click('#why-no-match');
    await page.waitForSelector('main[aria-label="Analyzer"]');
    await summary(page);
    assert.equal(await page.locator('#match-machines option:checked').textContent(), 'machines');
    // Asked against the jobs pool by hand, the analyzer says what it holds.
    await page.selectOption('#match-machines', { label: 'jobs' });
    await page.waitForFunction(() => /holds jobs \(MyType = "Job"\), not machines/.test(document.querySelector('main[aria-label="Analyzer"]')?.textContent ?? ''), null, { timeout: 20_000 });
  });
  await scenario('an-from-matrix', async ({ page }) => {
    await page.waitForSelector('.matrix-canvas[data-cell]');
    await page.waitForFunction(() => document.querySelector('.matrix-canvas')?.width > 0);
    // Click the label of the third job (left of the cells).
    const box = await page.locator('.matrix-scroll').boundingBox();
    const g = await page.evaluate(() => {
      const cv = document.querySelector('.matrix-canvas');
      return { top: +cv.dataset.top, cell: +cv.dataset.cell };
    });
    await page.mouse.click(box.x + 30, box.y + g.top + 2 * g.cell + g.cell / 2);
    await page.waitForSelector('main[aria-label="Analyzer"]');
    await summary(page);
    assert.equal(await page.locator('#analyze-job').inputValue(), '2');
    const label = await page.locator('#analyze-job option:checked').textContent();
    assert.match(await page.locator('.an-of strong').textContent(), new RegExp(`^Job ${label}: of 3 machines`), 'the job\'s own label');
    // From an opened pair.
    await page.click('nav .tab:has-text("Matrix")');
    await page.waitForFunction(() => document.querySelector('.matrix-canvas')?.width > 0);
    const b2 = await page.locator('.matrix-scroll').boundingBox();
    const g2 = await page.evaluate(() => {
      const cv = document.querySelector('.matrix-canvas');
      return { left: +cv.dataset.left, top: +cv.dataset.top, cell: +cv.dataset.cell };
    });
    await page.mouse.click(b2.x + g2.left + g2.cell / 2, b2.y + g2.top + g2.cell + g2.cell / 2);
    await page.click('#analyze-job-row');
    await page.waitForSelector('main[aria-label="Analyzer"]');
    await summary(page);
    assert.equal(await page.locator('#analyze-job').inputValue(), '1');
  }, { hash: '#example=000-matrix' });
});

test('the analyzer\'s choices autosave and travel in share links', T, async () => {
  let link;
  await scenario('an-persist', async ({ page }) => {
    await summary(page);
    await page.locator('#clause-0 tr.pred[data-predicate="2"] button.pin').click();
    await page.locator('.suggestion[data-metric=M1] button.apply').first().click();
    await page.waitForSelector('#edits');
    await page.waitForFunction((k) => JSON.parse(localStorage.getItem(k) ?? '{}').analyze?.overrides?.length === 1, AUTOSAVE);
    const saved = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), AUTOSAVE);
    assert.equal(saved.view, 'analyze');
    assert.deepEqual(saved.analyze.fixed, [[0, 1]], 'Memory, pinned as predicate 3, is predicate 2 once Arch is removed');
    assert.equal(saved.analyze.overrides[0][0], 'Requirements');
    // A reload opens the same analysis.
    await page.reload();
    await page.waitForSelector('#edits', { timeout: 30_000 });
    await summaryIs(page, 'rejected_by_job', 6);
    assert.equal(await page.locator('#clause-0 tr.pred[data-predicate="1"] button.pin').getAttribute('aria-pressed'), 'true', 'the pin moved with its predicate');
    await page.click('#share-menu > summary');
    await page.click('#share');
    // The engine worker packs the link: it is copied once that is done.
    await waitText(page, '.share-msg', /Link copied to the clipboard/);
    link = await page.evaluate(() => navigator.clipboard.readText());
  }, { hash: '#example=000-eight', clipboard: true });
  await scenario('an-persist-link', async ({ page }) => {
    await page.goto(link);
    await page.waitForSelector('#edits', { timeout: 30_000 });
    await summaryIs(page, 'rejected_by_job', 6);
    assert.match(await page.locator('#edits').textContent(), /Requirements = \(other\.OpSys == "SOLARIS"\) && \(other\.Memory >= 536870912\.0\)/);
  });
});

test('a held job: its state first, in condor_q\'s words, in the summary and the report', T, async () => {
  const held = '[ ClusterId = 1; ProcId = 0; JobStatus = 5; HoldReason = "Job has gone over memory limit of 2048 megabytes."; RequestMemory = 2048; Requirements = TARGET.Memory >= RequestMemory ]';
  await scenario('an-held', async ({ page }) => {
    await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 30_000 });
    assert.match(await page.locator('#job-state').textContent(), /^Job is held\. Hold reason: Job has gone over memory limit of 2048 megabytes\./);
    assert.match(await page.locator('pre.report').first().textContent(), /^001\.000: {2}Job is held\.\n\nHold reason: Job has gone over memory limit of 2048 megabytes\.\n\n/);
    assert.match(await page.locator('pre.report').first().textContent(), / {4}RequestMemory = 2048 \(mb\)\n/);
    // A fix that lowers the request the job was held for says so.
    const lowers = await page.locator('.fix .fix-lowers').allTextContents();
    assert.ok(lowers.length > 0 && lowers.every((l) => /^Asks for less than the job requested: (RequestMemory 2048 → \d+|drops TARGET\.Memory >= RequestMemory) — the job may not run in less\.$/.test(l)), lowers.join(' | '));
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: held }, { name: 'machines', text: MACHINES }])) });
});

// Glidein slots as a factory hands them out: one START on every slot, six
// sites, a quarter claimed (issue 34, case 5).
const GLIDEIN_START = '(isUndefined(TARGET.SingularityImage) || MY.HAS_SINGULARITY) && (TARGET.RequestCpus <= MY.Cpus) && '
  + '(TARGET.RequestMemory <= MY.Memory) && (TARGET.RequestDisk <= MY.Disk) && '
  + '(MY.GLIDEIN_ToRetire is undefined || time() < MY.GLIDEIN_ToRetire) && '
  + '((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, ",")) && '
  + '(TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7)';

function glideins(n) {
  const sites = ['UCSD', 'Nebraska', 'Wisconsin', 'FNAL', 'Purdue', 'MWT2'];
  const retire = Math.floor(Date.now() / 1000) + 30 * 86400;
  let out = '';
  for (let i = 0; i < n; i++) {
    const site = sites[i % sites.length];
    const cpus = [1, 2, 4, 8][i % 4];
    const claimed = i % 4 === 3;
    out += `[ Name = "slot1@glidein${i}.${site.toLowerCase()}.example.org"; Cpus = ${cpus}; Memory = ${cpus * 2048}; `
      + `Disk = ${cpus * 4000000}; HAS_SINGULARITY = true; GLIDEIN_Site = "${site}"; GLIDEIN_ToRetire = ${retire + i}; `
      + `State = "${claimed ? 'Claimed' : 'Unclaimed'}"; ${claimed ? 'RemoteUser = "other@osg"; ' : ''}`
      + `START = ${GLIDEIN_START}; Requirements = START ]\n`;
  }
  return out;
}

test('Nobody Likes Me on 600 glidein slots: the START clause, DESIRED_Sites, the sites, and each value Applied', T, async () => {
  const slots = glideins(600);
  const job = '[ ClusterId = 42; ProcId = 0; Owner = "cmsuser"; JobUniverse = 5; RequestCpus = 1; RequestMemory = 2000; '
    + 'RequestDisk = 1000000; DESIRED_Sites = "T2_CH_CERN,T2_US_MIT"; '
    + 'Requirements = (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) ]';
  const want = JSON.parse(execFileSync(CLI, ['analyze', '--json', '--job', write('cms_job.classad', job), '--machines', write('glideins.classad', slots)],
    { encoding: 'utf8', maxBuffer: 64 << 20 }));
  assert.equal(want.rejections.length, 1);
  assert.deepEqual(want.rejections[0].reads, ['DESIRED_Sites']);
  await scenario('an-glideins', async ({ page }) => {
    await page.waitForSelector('#rejections .rejection', { timeout: 60_000 });
    const seen = await page.evaluate(() => [...document.querySelectorAll('#rejections .rejection')].map((r) => ({
      slots: Number(r.dataset.slots),
      clause: r.querySelector('code.expr').textContent,
      offered: r.querySelectorAll('.chip.offered').length,
      options: [...r.querySelectorAll('.value-option')].map((o) => ({
        what: o.querySelector('.sugg-what').textContent, willing: Number(o.dataset.willing),
        least: o.dataset.least === 'true', most: o.dataset.most === 'true',
      })),
    })));
    // The page shows what the CLI says: one rule on 600 slots, its sites,
    // each value with its willing slots.
    assert.equal(seen.length, 1);
    const r = want.rejections[0];
    assert.equal(seen[0].slots, r.slots);
    assert.equal(seen[0].clause, r.clause);
    assert.equal(seen[0].offered, 6);
    assert.deepEqual(seen[0].options, r.options.map((o) => ({ what: `${o.attribute} = ${o.value}`, willing: o.willing, least: o.least, most: o.most })));
    assert.match(await page.locator('#rejections .reads').textContent(), /Reads the job's DESIRED_Sites = "T2_CH_CERN,T2_US_MIT"/);
    await page.locator('#rejections').screenshot({ path: path.join(ROOT, 'tests', 'e2e', 'screenshots', 'an-glideins-rejections.png') });
    // Apply the least change: the job is analyzed anew with it and runs on
    // the slots it said.
    const least = r.options.find((o) => o.least);
    await page.locator('#rejections .value-option[data-least=true] button.apply').click();
    await summaryIs(page, 'match', least.willing);
    await page.waitForSelector('#undo');
  }, { hash: stateLink(analyzerState([{ name: 'jobs', text: job }, { name: 'glideins', text: slots }])) });
});
