#!/usr/bin/env node
// In-browser measurement of gangmatching on the release build (dist/), as
// one JSON object on stdout (progress on stderr): the gang view's
// comparison runs the thesis' base workload of N jobs (generated in the
// worker) with one algorithm at a time; for each, the worker's own time
// (the table's Seconds), the wall time from the click to the table, and the
// longest main-thread task meanwhile (PerformanceObserver 'longtask').
// Usage: node tests/e2e/measure_gangs.mjs [--n 4000] [--percent 50] [--selectivity 4] [--algs DYN,LR]

import { serve, launch, openPage, PROBE } from './harness.mjs';

const args = process.argv.slice(2);
const arg = (name, d) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : d);
const N = arg('--n', 4000);
const PERCENT = arg('--percent', 50);
const SELECTIVITY = arg('--selectivity', 4);
const log = (...a) => console.error('[measure-gang]', ...a);
const ALGS = args.includes('--algs') ? args[args.indexOf('--algs') + 1].split(',') : ['LR', 'RL', 'LRC', 'RLC', 'DYN', 'DYNS', 'DYNSR'];

const server = await serve();
const chrome = await launch();
const out = { jobs: N, licenses_percent: PERCENT, selectivity: SELECTIVITY, runs: [] };
try {
  const ctx = await chrome.newContext();
  await ctx.addInitScript(PROBE);
  const { page, problems } = await openPage(ctx);
  await page.goto(server.url + '#example=001-base-workload');
  await page.waitForSelector('#gang-summary', { timeout: 60_000 });
  await page.click('button[title^="Generated workloads"]');
  await page.fill('#gang-sizes', String(N));
  await page.selectOption('#gang-percent', String(PERCENT));
  await page.selectOption('#gang-selectivity', String(SELECTIVITY));
  const boxes = await page.$$('.gang-compare [role=group] input[type=checkbox]');
  for (const alg of ALGS) {
    // Only this algorithm checked.
    for (const b of boxes) {
      const name = (await b.evaluate((e) => e.parentElement.textContent)).trim();
      const want = name === alg;
      if ((await b.isChecked()) !== want && !(await b.isDisabled())) await b.click();
    }
    await page.evaluate(() => { window.__probe.longtasks = []; });
    const t0 = Date.now();
    await page.click('#run-compare');
    await page.waitForFunction((a) => {
      const row = document.querySelector('#gang-compare-table tbody tr');
      return row && row.children[1].textContent === a && !document.querySelector('.run-progress');
    }, alg, { timeout: 600_000 });
    const wall = Date.now() - t0;
    const cells = await page.$$eval('#gang-compare-table tbody tr td', (t) => t.map((x) => x.textContent));
    const longest = await page.evaluate(() => Math.max(0, ...window.__probe.longtasks.map((t) => t.duration)));
    const run = { algorithm: alg, gangs: cells[2], evaluations: cells[3], probes: cells[4], worker_seconds: Number(cells[6]), click_to_table_ms: wall, longest_task_ms: Math.round(longest) };
    log(JSON.stringify(run));
    out.runs.push(run);
  }
  out.problems = problems;
} finally {
  await chrome.close();
  await server.close();
}
console.log(JSON.stringify(out, null, 2));
