#!/usr/bin/env node
// In-browser measurements of matchmaking on the release build (dist/), as
// one JSON object on stdout (progress on stderr):
//   * the thesis workload from bench/gen_pool.py: N machines (its
//     machines_N.txt) and N jobs (its job generator, seed + 1, written to
//     bench/data/jobs_N.txt when missing), uploaded with the file inputs;
//   * loading both pools into the matchmaking worker;
//   * one negotiation cycle with and without auto-clustering: wall time
//     from the click to the table, the engine's pair evaluations, and the
//     longest main-thread task meanwhile (PerformanceObserver 'longtask'),
//     and the engine worker's wasm memory after it (its peak);
//   * scrolling the N × N match matrix: long tasks and frame gaps while
//     scrolling, and how long until the cells in sight are all computed.
// Usage: node tests/e2e/measure_matchmaking.mjs [--n 10000] [--skip-naive] [--skip-matrix]
//          [--jobs FILE --machines FILE]   (other pools of N ads each, e.g. classad::workload's)

import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import { mkdirSync } from 'node:fs';
import { serve, launch, openPage, PROBE, ROOT, SCREENSHOTS } from './harness.mjs';

const args = process.argv.slice(2);
const N = Number(args[args.indexOf('--n') + 1]) || 10_000;
const SKIP_NAIVE = args.includes('--skip-naive');
const SKIP_MATRIX = args.includes('--skip-matrix');
const opt = (name) => (args.includes(name) ? path.resolve(args[args.indexOf(name) + 1]) : null);
const DATA = path.join(ROOT, 'bench', 'data');
const SEED = 20000301; // gen_pool.py's default
const log = (...a) => console.error('[measure-mm]', ...a);
const round = (x, d = 1) => (x == null ? null : Math.round(x * 10 ** d) / 10 ** d);

/** bench/data/<kind>_N.txt from gen_pool.py's generators (machines: seed, jobs: seed + 1, as it does). */
function pool(kind) {
  const f = path.join(DATA, `${kind}_${N}.txt`);
  if (!existsSync(f)) {
    log('generating', f);
    const seed = kind === 'machines' ? SEED : SEED + 1;
    const py = `import os, sys; sys.path.insert(0, ${JSON.stringify(path.join(ROOT, 'bench'))}); import gen_pool as g\n`
      + `os.makedirs(${JSON.stringify(DATA)}, exist_ok=True)\n`
      + `open(${JSON.stringify(f + '.tmp')}, 'w').write(g.render(g.${kind}(${seed}, ${N})))\n`
      + `os.replace(${JSON.stringify(f + '.tmp')}, ${JSON.stringify(f)})`;
    execFileSync('python3', ['-c', py], { stdio: 'inherit' });
  }
  return f;
}

async function upload(page, tab, file) {
  await page.click('nav .tab:has-text("Workbench")');
  await page.click(`.pool-tabs [role=tab]:has-text("${tab}")`);
  await page.locator('.pool-tools input[type=file]').setInputFiles(file);
  // The summary counts with thousands separators (2,000 ads).
  await page.waitForFunction((n) => new RegExp(`^${n} ads`).test(document.querySelector('.diagnostics .summary')?.textContent ?? ''), N.toLocaleString('en-US'), { timeout: 600_000, polling: 250 });
}

/** Long tasks that overlap [from, to] (page time, ms). */
async function longTasks(page, from, to) {
  return page.evaluate(([from, to]) => {
    const l = window.__probe.longtasks.filter((t) => t.start + t.duration >= from && t.start <= to);
    return { longest_ms: Math.max(0, ...l.map((t) => t.duration)), count: l.length, total_ms: l.reduce((a, t) => a + t.duration, 0), list: l.map((t) => ({ at_ms: Math.round(t.start - from), ms: Math.round(t.duration) })) };
  }, [from, to]);
}

/** Sample the page's own JavaScript heap (Chrome's JSHeapUsedSize) every
 * 100 ms until `stop()`, which gives the peak in MB. (The engine's heap is
 * the worker's wasm memory, which the view reports.) */
async function heapPeak(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  let peak = 0;
  let on = true;
  const sample = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    peak = Math.max(peak, used);
  };
  const loop = (async () => {
    while (on) {
      await sample().catch(() => {});
      await new Promise((ok) => setTimeout(ok, 100));
    }
  })();
  return async () => {
    on = false;
    await loop;
    await sample().catch(() => {});
    await cdp.detach().catch(() => {});
    return round(peak / (1 << 20), 1);
  };
}

async function cycle(page, autocluster) {
  const box = page.locator('#autocluster');
  if ((await box.isChecked()) !== autocluster) await box.click();
  // Let the page settle first: after an upload or a click the app's autosave
  // runs (a debounce of 1 s), and its work is not the cycle's.
  await page.waitForTimeout(2_500);
  log(`negotiating ${N} × ${N}, ${autocluster ? 'auto-clustered' : 'naive'}…`);
  const stopHeap = await heapPeak(page);
  const t0 = await page.evaluate(() => performance.now());
  await page.click('#run-cycle');
  await page.locator('.run-progress').waitFor({ state: 'attached', timeout: 60_000 }).catch(() => {});
  await page.locator('.run-progress').waitFor({ state: 'detached', timeout: 3_600_000 });
  await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
  const t1 = await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(() => ok(performance.now()), 0))));
  await page.waitForTimeout(1_000);
  const pageHeapMb = await stopHeap();
  const summary = await page.locator('#cycle-summary').textContent();
  const lt = await longTasks(page, t0, t1 + 1_000);
  log(`${autocluster ? 'auto-clustered' : 'naive'}: ${round((t1 - t0) / 1000, 2)} s; ${summary}; longest task ${round(lt.longest_ms)} ms; page JS heap peak ${pageHeapMb} MB`);
  // The worker's wasm memory after the cycle (it only grows: its peak).
  const mem = /The engine's memory: ([\d,]+) MB/.exec(summary);
  return { autocluster, click_to_table_ms: round(t1 - t0), summary, engine_memory_mb: mem ? Number(mem[1].replace(/,/g, '')) : null, page_js_heap_peak_mb: pageHeapMb, longest_main_thread_task_ms: round(lt.longest_ms), long_tasks: lt.count, total_long_task_ms: round(lt.total_ms), long_task_list: lt.list };
}

async function matrix(page) {
  await page.click('nav .tab:has-text("Matrix")');
  await page.locator('.matrix-scroll').waitFor({ timeout: 600_000 });
  const pendingInSight = () => page.evaluate(() => {
    const cv = document.querySelector('.matrix-canvas');
    const ctx = cv.getContext('2d');
    const css = getComputedStyle(cv);
    const h = css.getPropertyValue('--m-pending').trim().replace('#', '');
    const ref = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    const [left, top] = [+cv.dataset.left, +cv.dataset.top];
    const r = cv.width / cv.clientWidth;
    const img = ctx.getImageData(left * r, top * r, cv.width - left * r, cv.height - top * r).data;
    let n = 0;
    for (let i = 0; i < img.length; i += 4 * 7) if (Math.abs(img[i] - ref[0]) < 3 && Math.abs(img[i + 1] - ref[1]) < 3 && Math.abs(img[i + 2] - ref[2]) < 3) n++;
    return n;
  });
  // Scroll diagonally through the matrix for 3 s, a step per frame.
  const t0 = await page.evaluate(() => performance.now());
  const frames = await page.evaluate(() => new Promise((ok) => {
    const s = document.querySelector('.matrix-scroll');
    const gaps = [];
    let last = performance.now();
    const start = last;
    const step = () => {
      const now = performance.now();
      gaps.push(now - last);
      last = now;
      s.scrollTop += 240;
      s.scrollLeft += 160;
      if (now - start < 3000) requestAnimationFrame(step);
      else ok(gaps);
    };
    requestAnimationFrame(step);
  }));
  const t1 = await page.evaluate(() => performance.now());
  let filled = null;
  const stop = Date.now() + 120_000;
  while (Date.now() < stop) {
    if ((await pendingInSight()) === 0) {
      filled = (await page.evaluate(() => performance.now())) - t1;
      break;
    }
    await page.waitForTimeout(100);
  }
  const lt = await longTasks(page, t0, t1);
  const sorted = [...frames].sort((a, b) => a - b);
  await page.screenshot({ path: path.join(SCREENSHOTS, `measure-matrix-${N}.png`) }).catch(() => {});
  const r = {
    scroll_frames: frames.length,
    frame_gap_median_ms: round(sorted[sorted.length >> 1]),
    frame_gap_max_ms: round(sorted[sorted.length - 1]),
    longest_main_thread_task_while_scrolling_ms: round(lt.longest_ms),
    long_tasks_while_scrolling: lt.count,
    sight_filled_after_scroll_stopped_ms: round(filled),
  };
  log('matrix:', JSON.stringify(r));
  return r;
}

mkdirSync(SCREENSHOTS, { recursive: true });
const machines = opt('--machines') ?? pool('machines');
const jobs = opt('--jobs') ?? pool('jobs');
const server = await serve();
const chrome = await launch();
try {
  const ctx = await chrome.newContext();
  await ctx.addInitScript(PROBE);
  const { page, problems } = await openPage(ctx);
  await page.goto(server.url);
  await page.waitForSelector('#value', { timeout: 60_000 });
  log(`uploading ${machines} and ${jobs}`);
  await upload(page, 'machines', machines);
  await upload(page, 'jobs', jobs);
  await page.waitForTimeout(2_500); // the uploads' autosave debounce
  const t = Date.now();
  const from = await page.evaluate(() => performance.now());
  await page.click('nav .tab:has-text("Negotiation")');
  await page.locator('#run-cycle').waitFor({ timeout: 600_000 });
  const loadMs = Date.now() - t;
  // Opening the view: the pools cross to the views module and go to the
  // matchmaking worker.
  const openTasks = await longTasks(page, from, await page.evaluate(() => performance.now()));
  log(`pools loaded into the matchmaking worker in ${loadMs} ms`);
  const result = {
    when: new Date().toISOString(),
    chromium: chrome.browser.version(),
    cpus: os.cpus().length,
    load_average_1m_at_start: round(os.loadavg()[0], 2),
    n: N,
    jobs: path.relative(ROOT, jobs),
    machines: path.relative(ROOT, machines),
    pools_into_worker_ms: loadMs,
    opening_the_view_long_tasks: openTasks,
    auto_clustered: await cycle(page, true),
    naive: SKIP_NAIVE ? null : await cycle(page, false),
  };
  await page.screenshot({ path: path.join(SCREENSHOTS, `measure-negotiation-${N}.png`) }).catch(() => {});
  result.matrix = SKIP_MATRIX ? null : await matrix(page);
  result.load_average_1m_at_end = round(os.loadavg()[0], 2);
  result.page_problems = problems;
  console.log(JSON.stringify(result, null, 2));
  await ctx.close();
} finally {
  await chrome.close();
  await server.close();
}
