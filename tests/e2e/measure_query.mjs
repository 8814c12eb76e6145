#!/usr/bin/env node
// In-browser measurement of the Query view on the release build (dist/), as
// one JSON object on stdout: a pool file is uploaded into the workbench
// (parsed in the worker), then the Query view asks the manual's constraint
// with three columns; the time from the query's start (the constraint typed)
// to the summary shown, and the longest main-thread task meanwhile.
// Usage: node tests/e2e/measure_query.mjs [POOL] [ADS]
//   (default bench/data/wl_machines_100000.txt, 100000 ads; make it with
//    `cargo run --release -p classad --example workload 100000`)

import path from 'node:path';
import { serve, launch, openPage, PROBE, ROOT } from './harness.mjs';

const file = process.argv[2] ?? path.join(ROOT, 'bench/data/wl_machines_100000.txt');
const ads = Number(process.argv[3] ?? 100000);
const log = (...a) => console.error('[measure-query]', ...a);
const server = await serve();
const chrome = await launch();
const out = { pool: file, ads };
try {
  const ctx = await chrome.newContext();
  await ctx.addInitScript(PROBE);
  const { page, problems } = await openPage(ctx);
  await page.goto(server.url + '#example=004-query-idle');
  await page.waitForSelector('#query-summary', { timeout: 60_000 });
  // Upload the pool into the (only) pool tab, in the workbench.
  await page.click('nav .tab:has-text("Workbench")');
  const t0 = Date.now();
  await page.locator('.pool-tools input[type=file]').setInputFiles(file);
  await page.waitForFunction((n) => (document.querySelector('.diagnostics .summary')?.textContent ?? '').startsWith(`${n.toLocaleString('en-US')} ads`), ads, { timeout: 600_000 });
  out.upload_ms = Date.now() - t0;
  log('uploaded', out.upload_ms, 'ms');
  await page.waitForTimeout(2_500); // the upload's autosave debounce
  await page.evaluate(() => { window.__probe.longtasks = []; });
  await page.click('nav .tab:has-text("Query")');
  // The view shows once its pools have crossed to the views module (a
  // 54 MB pool takes a few tasks); a big pool is asked on Run.
  const run = page.locator('#query-run');
  await run.waitFor({ timeout: 60_000 });
  await run.click();
  await page.waitForFunction((n) => (document.querySelector('#query-summary')?.textContent ?? '').includes(`of ${n.toLocaleString('en-US')} ads`), ads, { timeout: 600_000 });
  out.first_query_with_load_ms = Date.now() - t0 - out.upload_ms - 2_500;
  // Opening the view (the pool crossing to the views module) and the first query.
  out.longest_task_opening_ms = Math.round(await page.evaluate(() => Math.max(0, ...window.__probe.longtasks.map((t) => t.duration))));
  const before = (await page.locator('#query-summary').textContent()).split(' · ')[0];
  await page.fill('#query-constraint', 'KeyboardIdle > 20*60 && Memory > 128');
  await page.evaluate(() => { window.__probe.longtasks = []; });
  const t1 = Date.now();
  if (await run.count()) await run.click();
  // Done when the counts change (the constraint selects fewer ads).
  await page.waitForFunction((b) => !document.querySelector('.run-progress')
    && (document.querySelector('#query-summary')?.textContent ?? '').split(' · ')[0] !== b, before, { timeout: 600_000, polling: 10 });
  out.query_ms = Date.now() - t1;
  out.summary = await page.locator('#query-summary').textContent();
  out.longest_task_ms = Math.round(await page.evaluate(() => Math.max(0, ...window.__probe.longtasks.map((t) => t.duration))));
  out.problems = problems;
} finally {
  await chrome.close();
  await server.close();
}
console.log(JSON.stringify(out, null, 2));
