#!/usr/bin/env node
// Measurements of a production-size pool in the release build (dist/),
// printed as one JSON object on stdout (progress on stderr): a
// bench/gen_production.py pool (generated when missing) uploaded through the
// file input; the time until its ads are listed and the longest main-thread
// task meanwhile; the parse worker's wasm memory after the parse (its peak);
// then a query, an analysis and a negotiation cycle on it (one job), each
// timed, with the matchmaking worker's wasm memory after each, the views
// module's memory, and the longest main-thread task while they ran.
// Usage: node tests/e2e/measure_production.mjs [--slots 10000] [--screenshot]
//        [--jobs FILE (the jobs pool, e.g. bench/data/glidein_jobs_300.txt; default one job)]
//        [--htcondor (the cycle by HTCondor's negotiator)] [--cycle-only (no query, no analysis)]

import { existsSync, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import { serve, launch, openPage, ready, PROBE, ROOT, screenshot } from './harness.mjs';

const args = process.argv.slice(2);
const arg = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const SLOTS = Number(arg('--slots', 10000));
const POOL = path.join(ROOT, 'bench', 'data', `production_${SLOTS}.txt`);
const JOB = '[ MyType = "Job"; ClusterId = 1; ProcId = 0; Owner = "alice"; JobUniverse = 5; RequestCpus = 4; '
  + 'RequestMemory = 48000; RequestDisk = 1000000; Requirements = TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX" '
  + '&& TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus && TARGET.GLIDEIN_Site =!= "FNAL" ]\n';
const log = (...a) => console.error('[measure-production]', ...a);
const MB = (b) => (b == null ? null : Math.round(b / 1048576));
const th = (n) => n.toLocaleString('en-US');

if (!existsSync(POOL)) {
  log('generating', POOL);
  execFileSync('python3', [path.join(ROOT, 'bench', 'gen_production.py'), '--slots', String(SLOTS)], { stdio: 'inherit' });
}
const bytes = statSync(POOL).size;

/**
 * The browser's renderer processes (the tab: page, views module and its
 * workers all live in one): resident memory now and at its peak, in MB
 * (Linux /proc). The workers' own wasm memories are read from what the
 * page shows (the parse's `data-engine-memory`, the cycle's "The engine's
 * memory").
 */
function rendererMemory() {
  const out = [];
  for (const line of execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n')) {
    const m = line.trim().match(/^(\d+)\s+(.*)$/);
    if (!m || !/chrom/.test(m[2]) || !/--type=renderer/.test(m[2])) continue;
    try {
      const st = readFileSync(`/proc/${m[1]}/status`, 'utf8');
      const kb = (k) => Number((st.match(new RegExp(`${k}:\\s+(\\d+)`)) ?? [])[1] ?? 0);
      out.push({ rss_mb: Math.round(kb('VmRSS') / 1024), peak_mb: Math.round(kb('VmHWM') / 1024) });
    } catch { /* gone */ }
  }
  return out.sort((a, b) => b.peak_mb - a.peak_mb)[0] ?? null;
}

const longest = (page, from) => page.evaluate((f) => {
  const ts = window.__probe.longtasks.filter((t) => t.start + t.duration >= f);
  return { longest_ms: Math.round(Math.max(0, ...ts.map((t) => t.duration))), over_50: ts.filter((t) => t.duration > 50).map((t) => ({ at_ms: Math.round(t.start - f), ms: Math.round(t.duration) })) };
}, from);

async function timed(page, what, act, sel, re, timeout = 600_000) {
  const t0 = await page.evaluate(() => performance.now());
  await act();
  await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source], { timeout, polling: 100 });
  const ms = (await page.evaluate(() => performance.now())) - t0;
  const text = (await page.locator(sel).first().textContent()).trim().slice(0, 160);
  log(`${what}: ${Math.round(ms)} ms — ${text}`);
  return { ms: Math.round(ms), text, t0 };
}

const server = await serve();
const chrome = await launch();
const ctx = await chrome.newContext({ viewport: { width: 1400, height: 1000 } });
await ctx.addInitScript(PROBE);
const { page, problems } = await openPage(ctx);
const result = { slots: SLOTS, pool_bytes: bytes, loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100) };
try {
  await page.goto(server.url);
  await ready(page, 60_000);
  log(`uploading ${POOL} (${MB(bytes)} MiB)`);
  const load = await timed(page, 'upload → listed', () => page.locator('.pool-tools input[type=file]').setInputFiles(POOL),
    '.diagnostics .summary', new RegExp(`^${th(SLOTS)} ads`));
  await page.waitForTimeout(1500);
  result.load = { listed_ms: load.ms, summary: load.text, ...(await longest(page, load.t0)) };
  result.load.renderer = rendererMemory();
  result.parse_worker_memory_mb = MB(Number(await page.getAttribute('#pool-summary', 'data-engine-memory')));
  result.viewer = await page.locator('.viewer .viewer-window').count() === 1;
  if (args.includes('--screenshot')) await screenshot(page, `production-${SLOTS}-pool-editor`);

  await page.click('.pool-tabs .tab:has-text("jobs")');
  const jobsFile = arg('--jobs', null);
  const jobsText = jobsFile ? readFileSync(jobsFile, 'utf8') : JOB;
  const nJobs = jobsFile ? jobsText.split(/\n\s*\n/).filter((a) => a.trim()).length : 1;
  result.jobs = nJobs;
  if (jobsFile) {
    // A file of jobs is uploaded as a pool of its own, picked in the views.
    await page.locator('.pool-tools input[type=file]').setInputFiles(jobsFile);
    await page.waitForFunction((n) => new RegExp(`^${n.toLocaleString('en-US')} ads?, 0 errors`).test(document.querySelector('.diagnostics .summary')?.textContent ?? ''), nJobs, { timeout: 60_000 });
  } else {
    await page.fill('#pool-text', jobsText);
    await page.waitForFunction(() => /^1 ad, 0 errors/.test(document.querySelector('.diagnostics .summary')?.textContent ?? ''));
  }
  const cycleOnly = args.includes('--cycle-only');

  if (!cycleOnly) {
  await page.click('nav .tab:has-text("Query")');
  await page.waitForSelector('#query-pool');
  await page.selectOption('#query-pool', { label: 'machines' });
  await page.fill('#query-constraint', 'Memory >= 32768 && State == "Unclaimed"');
  const q1 = await timed(page, 'first query (loads the pool into the matchmaking worker)', () => page.click('#query-run'), '#query-summary', /ads match/);
  result.first_query = { ...q1, ...(await longest(page, q1.t0)), renderer: rendererMemory() };
  await page.fill('#query-constraint', 'Cpus >= 16');
  const before = await page.locator('#query-summary').textContent();
  const q2 = await timed(page, 'second query', () => page.click('#query-run'), '#query-summary', new RegExp(`^(?!${before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$)[\\d,]+ of [\\d,]+ ads match`));
  result.second_query = { ...q2, ...(await longest(page, q2.t0)) };

  await page.click('nav .tab:has-text("Analyze")');
  await page.waitForSelector('main[aria-label="Analyzer"]');
  const an = await timed(page, 'analysis', () => page.selectOption('#match-machines', { label: 'machines' }), '#analysis-summary[data-current=true]', /./);
  result.analysis = { ...an, ...(await longest(page, an.t0)), renderer: rendererMemory() };
  }

  await page.click('nav .tab:has-text("Negotiation")');
  await page.waitForSelector('#run-cycle:not([disabled])', { timeout: 600_000 });
  if (jobsFile) {
    const stem = path.basename(jobsFile).replace(/\.[^.]*$/, '');
    const opts = await page.$eval('#match-jobs', (s) => [...s.options].map((o) => [o.value, o.textContent]));
    log('jobs pools', JSON.stringify(opts));
    const value = (opts.find(([, t]) => t.includes(stem)) ?? opts.find(([, t]) => !/machines|production/.test(t)) ?? [])[0];
    await page.selectOption('#match-jobs', value);
  }
  if (args.includes('--htcondor')) await page.selectOption('#policy', 'htcondor');
  result.policy = args.includes('--htcondor') ? 'htcondor' : 'thesis';
  // What the progress row says while the cycle runs (sampled).
  const seen = [];
  const sampler = setInterval(async () => {
    try { const t = await page.locator('.run-progress').first().textContent({ timeout: 200 }); if (t) seen.push(t.trim()); } catch { /* none */ }
  }, 250);
  const cy = await timed(page, 'negotiation cycle', async () => {
    if (await page.locator('#cycle-summary').count() === 0) await page.click('#run-cycle');
  }, '#cycle-summary', /considered/);
  clearInterval(sampler);
  result.cycle = { ...cy, ...(await longest(page, cy.t0)), renderer: rendererMemory(), progress_seen: [...new Set(seen)].slice(0, 12) };

  await page.click('nav .tab:has-text("Clusters")');
  const cl = await timed(page, 'clusters', async () => {}, '#cluster-table', /./);
  result.clusters = { ms: cl.ms };
  result.problems = problems;
  if (args.includes('--screenshot')) {
    await page.click('nav .tab:has-text("Workbench")');
    await page.click('.pool-tabs .tab:has-text("machines")');
    await page.waitForSelector('.viewer .viewer-window');
    await screenshot(page, `production-${SLOTS}-pool-editor`);
  }
} finally {
  console.log(JSON.stringify(result, null, 2));
  await ctx.close();
  await chrome.close();
  await server.close();
}
