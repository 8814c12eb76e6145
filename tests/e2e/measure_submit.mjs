#!/usr/bin/env node
// Measurements of submit files in the release build (dist/), as JSON on
// stdout (progress on stderr):
// - the engine worker's `submit` (the page's own code path, in the
//   browser's wasm) on one `queue name, n from items.txt` of N procs, the
//   job ads written with their origins, best of 3;
// - the page end to end: a submit file of that shape opened from a link,
//   until the submit bar says how many job ads it makes (the page makes at
//   most PAGE_MAX_PROCS), with the longest main-thread task meanwhile.
// Usage: node tests/e2e/measure_submit.mjs [--procs 10000]

import { serve, launch, openPage, ready, stateLink } from './harness.mjs';

const args = process.argv.slice(2);
const PROCS = Number(args.includes('--procs') ? args[args.indexOf('--procs') + 1] : 10_000);
const log = (...a) => console.error('[measure-submit]', ...a);

const SUB = 'executable = analyze.sh\narguments = $(name) $(n)\nrequest_memory = $(n)MB\nrequest_disk = 1GB\n+Project = "bench"\nqueue name, n from items.txt\n';
const items = (n) => Array.from({ length: n }, (_, i) => `item${i}, ${(i % 64) + 1}`).join('\n') + '\n';

const server = await serve();
const chrome = await launch();
try {
  const ctx = await chrome.newContext();
  const { page } = await openPage(ctx);
  await page.goto(server.url);
  await ready(page);
  // The worker alone: N procs, best of 3.
  const worker = await page.evaluate(async ({ sub, items, procs }) => {
    const w = new Worker('./engine-worker_loader.js');
    await new Promise((ok) => { w.onmessage = (e) => { if (e.data === 'ready') ok(); }; });
    const req = JSON.stringify({ name: 'big.sub', text: sub, files: [['items.txt', items]], config: '', htcondor: 25, cluster: 1, clock: '2026-01-01T00:00', now: 0, max_procs: procs });
    const runs = [];
    let answer = null;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      answer = await new Promise((ok) => {
        // A long answer comes as its UTF-8 bytes.
        w.onmessage = (e) => {
          const text = typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data);
          if (text.startsWith(`${i + 1}\n`)) ok(text);
        };
        w.postMessage(`${i + 1}\nsubmit\n${req}`);
      });
      runs.push(performance.now() - t0);
    }
    w.terminate();
    // `<id>\n<JSON>\n<the job ads>`
    const rest = answer.slice(answer.indexOf('\n') + 1);
    const a = JSON.parse(rest.slice(0, rest.indexOf('\n')));
    const ads = rest.slice(rest.indexOf('\n') + 1);
    return { procs: a.procs, ads_mb: ads.length / 1048576, best_ms: Math.min(...runs), runs_ms: runs };
  }, { sub: SUB, items: items(PROCS), procs: PROCS });
  log('worker', worker);
  // The page: a link with the file; until the bar's headline.
  const ctx2 = await chrome.newContext();
  const { page: p2 } = await openPage(ctx2);
  await p2.goto(server.url + stateLink({ pools: [{ name: 'big.sub', text: SUB }, { name: 'items.txt', text: items(PROCS) }], active_pool: 0, expr: 'true' }));
  await ready(p2);
  await p2.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ entryTypes: ['longtask'] });
    window.__t0 = performance.now();
  });
  await p2.waitForFunction(() => /makes [\d,]+ job ads/.test(document.querySelector('#submit-summary')?.textContent ?? ''), null, { timeout: 120_000 });
  const pageRun = await p2.evaluate(() => ({ headline: document.querySelector('#submit-summary').textContent, ms: performance.now() - window.__t0, longest_task_ms: window.__longest }));
  log('page', pageRun);
  console.log(JSON.stringify({ procs: PROCS, worker, page: pageRun }, null, 1));
  await ctx.close();
  await ctx2.close();
} finally {
  await chrome.close();
  server.close();
}
