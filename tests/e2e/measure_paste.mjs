#!/usr/bin/env node
// Measurements of big pastes (issue 36, item 4) in the release build (dist/),
// one JSON object per case on stdout (progress on stderr): a production-shaped
// pool of --mb megabytes pasted (Ctrl+V) into the pool editor, and an
// expression of the same size pasted into the expression editor; the longest
// main-thread task from the paste until the page settles, how long that took,
// the renderer's peak resident memory, and whether `1+1` still evaluates.
// Usage: node tests/e2e/measure_paste.mjs [--mb 20] [--only pool|expr]

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, ready, PROBE, rendererPeakMb } from './harness.mjs';

const args = process.argv.slice(2);
const arg = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const MBYTES = Number(arg('--mb', 20));
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const log = (...a) => console.error('[measure-paste]', ...a);


/** `mb` megabytes of production-shaped slots (whole ads), and an expression as long. */
function texts(mb) {
  const pool = readFileSync(path.join(ROOT, 'bench', 'data', 'production_2000.txt'), 'utf8');
  let text = '';
  while (text.length < mb * 1e6) text += pool;
  const cut = text.lastIndexOf('\n\n', mb * 1e6);
  const poolText = text.slice(0, cut + 1);
  const terms = [];
  for (let n = 0; n * 24 < mb * 1e6; n++) terms.push(`(Memory > ${n % 9973} && Cpus >= 1)`);
  return { pool: poolText, expr: terms.join(' || ') };
}

const server = await serve();
const chrome = await launch();
const all = texts(MBYTES);
try {
  for (const [name, selector] of [['pool', '#pool-text'], ['expr', '#expr']]) {
    if (args.includes('--only') && arg('--only') !== name) continue;
    const ctx = await chrome.newContext();
    await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await ctx.addInitScript(PROBE);
    const { page, problems } = await openPage(ctx);
    await page.goto(server.url);
    await ready(page, 60_000);
    await page.evaluate((t) => navigator.clipboard.writeText(t), all[name]);
    const start = await page.evaluate(() => performance.now());
    log(`pasting ${(all[name].length / 1e6).toFixed(1)} MB into ${selector}`);
    await page.focus(selector);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Control+V');
    // Settled: no long task for two seconds, or three minutes passed.
    const t0 = Date.now();
    let last = 0;
    while (Date.now() - t0 < 180_000) {
      await page.waitForTimeout(1_000);
      const n = await page.evaluate(() => window.__probe.longtasks.length);
      if (n === last && Date.now() - t0 > 5_000) break;
      last = n;
    }
    const tasks = await page.evaluate((s) => window.__probe.longtasks
      .filter((t) => t.start + t.duration >= s).map((t) => Math.round(t.duration)), start);
    await page.fill('#expr', '1+1', { timeout: 10_000 }).catch(() => {});
    const two = await page.waitForFunction(() => document.querySelector('#value code')?.textContent === '2', null, { timeout: 20_000 })
      .then(() => true, () => false);
    const out = {
      case: name,
      megabytes: Number((all[name].length / 1e6).toFixed(1)),
      longest_task_ms: Math.max(0, ...tasks),
      long_tasks: tasks.length,
      settled_s: Math.round((Date.now() - t0) / 100) / 10,
      renderer_peak_mb: rendererPeakMb(),
      one_plus_one: two,
      problems,
    };
    console.log(JSON.stringify(out));
    await ctx.close();
  }
} finally {
  await chrome.close();
  await server.close();
}
