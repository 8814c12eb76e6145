#!/usr/bin/env node
// Measurements of hostile uploads (issue 31) in the release build (dist/),
// one JSON object per file on stdout (progress on stderr): a file of NUL
// bytes and condor_status -json minified to one line (`jq -c`), each
// uploaded through the pool editor's file input; how long until the pool
// summary settles, the longest main-thread task meanwhile, the renderer's
// peak resident memory, and whether `1+1` still evaluates afterwards.
// Usage: node tests/e2e/measure_upload.mjs [--mb 3] [--only nul|json] [--screenshot]

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, launch, openPage, ready, PROBE, rendererPeakMb, screenshot } from './harness.mjs';
import { nulFile, minifiedJson } from './hostile_files.mjs';

const args = process.argv.slice(2);
const arg = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
const MBYTES = Number(arg('--mb', 3));
const log = (...a) => console.error('[measure-upload]', ...a);


const scratch = mkdtempSync(path.join(tmpdir(), 'classad-upload-'));
const files = {
  nul: nulFile(path.join(scratch, 'nul.bin'), MBYTES),
  json: minifiedJson(path.join(scratch, 'pool.json'), MBYTES),
};
const server = await serve();
const chrome = await launch();
try {
  for (const [name, file] of Object.entries(files).filter(([n]) => !args.includes('--only') || arg('--only') === n)) {
    const ctx = await chrome.newContext();
    await ctx.addInitScript(PROBE);
    const { page, problems } = await openPage(ctx);
    await page.goto(server.url);
    await ready(page, 60_000);
    const start = await page.evaluate(() => performance.now());
    await page.locator('.pool-tools input[type=file]').setInputFiles(file);
    let settled = null;
    try {
      await page.waitForFunction(() => /Loaded/.test(document.querySelector('.pools .status')?.textContent ?? '')
        && !document.querySelector('.pools .busy'), null, { timeout: 180_000, polling: 250 });
      settled = Math.round((await page.evaluate(() => performance.now())) - start);
    } catch { /* reported as null */ }
    await page.waitForTimeout(1_000);
    const summary = await page.locator('.diagnostics .summary').textContent({ timeout: 5_000 }).catch(() => null);
    const tasks = await page.evaluate((f) => window.__probe.longtasks.filter((t) => t.start + t.duration >= f).map((t) => Math.round(t.duration)), start).catch(() => null);
    await page.fill('#expr', '1+1', { timeout: 10_000 }).catch(() => {});
    const two = await page.waitForFunction(() => document.querySelector('#value code')?.textContent === '2', null, { timeout: 20_000 })
      .then(() => true, () => false);
    if (args.includes('--screenshot')) await screenshot(page, `upload-${name}`).catch(() => {});
    const out = {
      file: name, mb: MBYTES, settled_ms: settled, summary,
      longest_task_ms: tasks ? Math.max(0, ...tasks) : null, tasks_over_50ms: tasks?.filter((t) => t > 50),
      renderer_peak_mb: rendererPeakMb(), one_plus_one: two, problems,
    };
    console.log(JSON.stringify(out));
    log(name, 'done');
    await ctx.close();
  }
} finally {
  await chrome.close();
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}
