// End-to-end test of a production-size pool (issue 24): real-shaped
// condor_status -l slots (bench/gen_production.py: ~24 KB and ~600
// attributes a slot) uploaded into the playground as a user would, shown in
// the virtualized viewer, then queried and analyzed — every number checked
// against the `classad` CLI on the same file — and a negotiation cycle and
// the clusters run on it. The main thread must have no task over 50 ms
// while the file is read, sent to the workers and listed.
// Run: node --test tests/e2e/production_pool.test.mjs   (after `trunk build --release`
// and `cargo build -p classad --bin classad`). PRODUCTION_SLOTS=N changes the size.
// Screenshots: tests/e2e/screenshots/production-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, PROBE, serve, launch, openPage, ready, screenshot, cliBinary } from './harness.mjs';

const SLOTS = Number(process.env.PRODUCTION_SLOTS) || 1500;
const POOL = path.join(ROOT, 'bench', 'data', `production_${SLOTS}.txt`);
const T = { timeout: 300_000 };
const CONSTRAINT = 'Memory >= 32768 && State == "Unclaimed"';
const JOB = '[ MyType = "Job"; ClusterId = 1; ProcId = 0; Owner = "alice"; JobUniverse = 5; RequestCpus = 4; '
  + 'RequestMemory = 48000; RequestDisk = 1000000; Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" '
  + '&& TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus && TARGET.GLIDEIN_Site =!= "FNAL" ]\n';

/** `n` with the page's thousands separators. */
const th = (n) => n.toLocaleString('en-US');

/** Wait until `sel`'s text matches `re`; its text (a clear failure if it never does). */
async function waitText(page, sel, re, timeout = 120_000) {
  try {
    await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source], { timeout, polling: 250 });
  } catch {
    assert.fail(`${sel} should match ${re}, is ${JSON.stringify(await page.locator(sel).first().textContent().catch(() => null))}`);
  }
  return page.locator(sel).first().textContent();
}

test(`a ${SLOTS}-slot production pool: uploaded, shown, queried, analyzed, negotiated and clustered`, T, async () => {
  if (!existsSync(POOL)) {
    execFileSync('python3', [path.join(ROOT, 'bench', 'gen_production.py'), '--slots', String(SLOTS), '--out', POOL], { stdio: 'inherit' });
  }
  const bytes = statSync(POOL).size;
  const cli = cliBinary();
  const scratch = mkdtempSync(path.join(tmpdir(), 'classad-prod-'));
  const jobFile = path.join(scratch, 'job.classad');
  writeFileSync(jobFile, JOB);
  const wantRows = execFileSync(cli, ['query', POOL, '--constraint', CONSTRAINT, '--af', 'Name'], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n').filter((l) => l.trim() !== '').length;
  const wantAnalysis = JSON.parse(execFileSync(cli, ['analyze', '--json', '--job', jobFile, '--machines', POOL], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  assert.equal(wantAnalysis.machines, SLOTS);

  const server = await serve();
  const chrome = await launch();
  const ctx = await chrome.newContext();
  await ctx.addInitScript(PROBE);
  const { page, problems } = await openPage(ctx);
  try {
    await page.goto(server.url);
    await ready(page, 60_000);
    // Reading shows its progress with a Cancel, which leaves the pool as it was.
    const before = await page.locator('.diagnostics .summary').textContent();
    await page.evaluate(() => {
      window.__cancelled = new Promise((resolve) => {
        const obs = new MutationObserver(() => {
          const row = document.querySelector('.busy.reading');
          if (!row) return;
          obs.disconnect();
          const label = row.textContent;
          row.querySelector('button').click();
          resolve(label);
        });
        obs.observe(document.body, { childList: true, subtree: true });
      });
    });
    await page.locator('.pool-tools input[type=file]').setInputFiles(POOL);
    assert.match(await page.evaluate(() => window.__cancelled), /^Reading production_\d+\.txt: .* of [\d.]+ MB…Cancel$/);
    await waitText(page, '.pool-editor .status, .pools .status', /Reading production_\d+\.txt stopped; the pool is as it was\./, 20_000);
    assert.equal(await page.locator('.diagnostics .summary').textContent(), before, 'the pool is as it was');
    assert.equal(await page.locator('#pool-text').count(), 1, 'still the text box');

    // Upload into the first pool ("machines"), watching the main thread.
    const measuredLoad = async () => {
      const start = await page.evaluate(() => performance.now());
      await page.locator('.pool-tools input[type=file]').setInputFiles(POOL);
      const summary = await waitText(page, '.diagnostics .summary', new RegExp(`^${th(SLOTS)} ads, 0 errors`));
      const loadedMs = (await page.evaluate(() => performance.now())) - start;
      // Shown in the virtualized viewer, not the text box, with the ads listed.
      assert.equal(await page.locator('#pool-text').count(), 0, 'no text box for a pool this big');
      await page.waitForSelector('.viewer .viewer-window');
      assert.match(await page.locator('.viewer .viewer-window').textContent(), /Name = "slot1_0@glidein_0_0@node00000/);
      assert.match(await page.locator('.big-note').textContent(), new RegExp(`This pool is ${(bytes / 1048576).toFixed(1)} MB`));
      await page.waitForTimeout(1_000); // trailing work (autosave, effects) shows up as long tasks too
      const long = await page.evaluate((from) => window.__probe.longtasks.filter((t) => t.start + t.duration >= from), start);
      console.error(`[production] ${SLOTS} slots, ${(bytes / 1048576).toFixed(1)} MB: listed after ${Math.round(loadedMs)} ms (${summary.trim()}); long tasks: ${JSON.stringify(long.map((t) => Math.round(t.duration)))}`);
      return long.filter((t) => t.duration > 50).map((t) => Math.round(t.duration));
    };
    let long = await measuredLoad();
    if (long.length > 0) {
      // One long task on a shared 2-core machine can be its noise (another
      // process, a collection): measured again from a fresh page, a
      // regression shows twice.
      console.error(`[production] long tasks ${JSON.stringify(long)} on the first load: measuring once more after a reload`);
      await page.reload();
      await ready(page, 60_000);
      long = await measuredLoad();
    }
    assert.deepEqual(long, [], 'no main-thread task over 50 ms while loading');
    await screenshot(page, 'production-pool-editor');

    // The jobs pool: one job, typed.
    await page.click('.pool-tabs .tab:has-text("jobs")');
    await page.fill('#pool-text', JOB);
    await waitText(page, '.diagnostics .summary', /^1 ad, 0 errors/);

    // Query: the same rows as the CLI.
    await page.click('nav .tab:has-text("Query")');
    await page.waitForSelector('#query-pool');
    await page.selectOption('#query-pool', { label: 'machines' });
    await page.fill('#query-constraint', CONSTRAINT);
    await page.click('#query-run');
    await waitText(page, '#query-summary', new RegExp(`^${th(wantRows)} of ${th(SLOTS)} ads match`));
    assert.ok(await page.locator('#query-table tbody tr').count() > 0, 'the matching rows are listed');
    // Sorting a big pool (asked at Run, not as you type): one click sorts,
    // a second one at once reverses — no Run in between (issue 35, case 5).
    await page.fill('#query-new-column', 'Memory');
    await page.press('#query-new-column', 'Enter');
    await page.click('#query-run');
    await page.waitForSelector('#query-table thead th:has-text("Memory")');
    const memoryHead = page.locator('#query-table thead th', { hasText: 'Memory' }).locator('button');
    const memories = () => page.$$eval('#query-table tbody tr', (trs) => trs.map((tr) => Number(tr.cells[tr.cells.length - 1].textContent.trim())));
    await memoryHead.click();
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort="ascending"]'), null, { timeout: 60_000 });
    let mem = await memories();
    assert.deepEqual(mem, [...mem].sort((a, b) => a - b), 'ascending after one click');
    await memoryHead.click();
    await page.locator('#query-table thead th', { hasText: 'Memory' }).locator('button').click();
    // Two clicks more: descending, then the pool's order.
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort]') && !document.querySelector('#query-table thead th[aria-sort="ascending"], #query-table thead th[aria-sort="descending"]'), null, { timeout: 60_000 });
    await memoryHead.click();
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort="ascending"]'), null, { timeout: 60_000 });
    await memoryHead.click();
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort="descending"]'), null, { timeout: 60_000 });
    mem = await memories();
    assert.deepEqual(mem, [...mem].sort((a, b) => b - a), 'descending after the next click');

    // Analyze: the job against the pool, as `classad analyze --json` counts.
    await page.click('nav .tab:has-text("Analyze")');
    await page.waitForSelector('main[aria-label="Analyzer"]');
    await page.selectOption('#match-machines', { label: 'machines' });
    await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 120_000 });
    const got = await page.evaluate(() => {
      const n = (id) => Number(document.querySelector(`#${id} .n`).textContent.replace(/,/g, ''));
      return {
        of: Number((document.querySelector('.an-of strong').textContent.match(/of ([\d,]+)/) ?? [])[1]?.replace(/,/g, '')),
        rejected_by_job: n('sum-rejected-by-job'),
        reject_job: n('sum-reject-job'),
        match_but_busy: n('sum-busy'),
        match: n('sum-match'),
      };
    });
    assert.deepEqual(got, { of: SLOTS, ...wantAnalysis.summary }, 'the analysis summary is the CLI\'s');
    await screenshot(page, 'production-analyze');

    // The match matrix: one job × the slots, painted.
    await page.click('nav .tab:has-text("Matrix")');
    await page.waitForSelector('.matrix-canvas[data-cell]', { timeout: 120_000 });
    await page.waitForFunction(() => document.querySelector('.matrix-canvas')?.width > 0);
    await waitText(page, 'main', new RegExp(`${th(SLOTS)} machines`));

    // A negotiation cycle: the job's outcome, as the analysis says (it
    // matches only if some slot matches and is willing).
    await page.click('nav .tab:has-text("Negotiation")');
    await page.waitForSelector('#run-cycle:not([disabled])', { timeout: 120_000 });
    if (await page.locator('#cycle-summary').count() === 0) await page.click('#run-cycle');
    const matched = wantAnalysis.summary.match > 0 ? 1 : 0;
    await waitText(page, '#cycle-summary', new RegExp(`^1 job considered: ${matched} matched`));
    assert.equal(await page.locator('#cycle-table tbody tr').count(), 1);
    // The clusters of the jobs: one job, one cluster.
    await page.click('nav .tab:has-text("Clusters")');
    await page.waitForSelector('#cluster-table tbody tr', { timeout: 120_000 });
    assert.equal(await page.locator('#cluster-table tbody tr').count(), 1);

    const fatal = problems.filter((p) => /^(uncaught|page crashed)|failed/i.test(p));
    assert.deepEqual(fatal, [], 'no uncaught exceptions or failed workers');
  } finally {
    await screenshot(page, 'production-last').catch(() => {});
    await ctx.close();
    await chrome.close();
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
});
