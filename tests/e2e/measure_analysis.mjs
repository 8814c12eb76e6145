#!/usr/bin/env node
// In-browser measurement of the analyzer on the release build (dist/), as
// one JSON object on stdout (progress on stderr): one job against N machines
// of the thesis base workload (written here in the new syntax, one ad per
// line, so 100,000 machines stay under the playground's 64 MB pool limit),
// for a job no machine accepts and for a workload job its machines reject.
// For each: wall time from the click on "Analyze again" to the summary on
// screen, the time the view reports, and the longest main-thread task
// meanwhile (PerformanceObserver 'longtask').
// Usage: node tests/e2e/measure_analysis.mjs [--n 100000] [--runs 3]

import { existsSync, mkdirSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { serve, launch, openPage, PROBE, ROOT } from './harness.mjs';

const args = process.argv.slice(2);
const N = Number(args[args.indexOf('--n') + 1]) || 100_000;
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 3;
const DATA = path.join(ROOT, 'bench', 'data');
const log = (...a) => console.error('[measure-an]', ...a);
const round = (x, d = 1) => (x == null ? null : Math.round(x * 10 ** d) / 10 ** d);

/** xorshift64*, as classad::workload's generator. */
function rng(seed) {
  let s = (BigInt(seed) * 0x9E3779B97F4A7C15n | 1n) & 0xFFFFFFFFFFFFFFFFn;
  return () => {
    s ^= s >> 12n; s ^= (s << 25n) & 0xFFFFFFFFFFFFFFFFn; s ^= s >> 27n;
    return Number(((s * 0x2545F4914F6CDD1Dn) & 0xFFFFFFFFFFFFFFFFn) >> 11n) / 2 ** 53;
  };
}

function pick(r, table) {
  let x = r(), acc = 0;
  for (const [v, p] of table) { acc += p; if (x < acc) return v; }
  return table[table.length - 1][0];
}

/** The base workload's machine model (Figures 26-27), compact. */
function machines(n) {
  const f = path.join(DATA, `an_machines_${n}.classad`);
  if (existsSync(f)) return f;
  log('writing', f);
  mkdirSync(DATA, { recursive: true });
  const platforms = [[['INTEL', 'LINUX'], 0.3191], [['INTEL', 'SOLARIS26'], 0.2127], [['INTEL', 'WINNT40'], 0.2411], [['SGI', 'IRIX6'], 0.0212],
    [['SUN4u', 'SOLARIS26'], 0.039], [['SUN4u', 'SOLARIS27'], 0.039], [['SUN4x', 'SOLARIS26'], 0.0766], [['SUN4x', 'SOLARIS27'], 0.0524]];
  const memory = [[32, 0.07], [64, 0.4], [128, 0.2], [256, 0.2], [800, 0.13]];
  const r = rng(1);
  const lines = [];
  for (let i = 0; i < n; i++) {
    const [arch, opsys] = pick(r, platforms);
    const mem = pick(r, memory);
    const claimed = r() < 0.3;
    const vm = Math.floor(mem * 2048 * (0.2 + 0.7 * r()));
    const id = String(i).padStart(6, '0');
    lines.push(`[ Name = "slot1@node${id}"; Machine = "node${id}"; Arch = "${arch}"; OpSys = "${opsys}"; Memory = ${mem}; `
      + `Cpus = ${[1, 2, 4, 8][Math.floor(r() * 4)]}; VirtualMemory = ${vm}; Disk = ${1_000_000 + Math.floor(r() * 5e7)}; `
      + `LoadAvg = ${(r() * (claimed ? 1 : 0.4)).toFixed(3)}; KeyboardIdle = ${Math.floor(r() * 7200)}; `
      + `State = "${claimed ? 'Claimed' : 'Unclaimed'}"; Start = KeyboardIdle > 15 * 60 && LoadAvg < 0.3 && TARGET.Owner != "riffraff"; `
      + `Requirements = START && TARGET.RequestMemory < Memory - 15 ]`);
  }
  writeFileSync(f + '.tmp', lines.join('\n') + '\n');
  renameSync(f + '.tmp', f);
  return f;
}

const JOBS = {
  // I Don't Like Anyone: no machine is SGI with LINUX.
  stuck: '[ ClusterId = 1; ProcId = 0; Owner = "raman"; ImageSize = 20000; RequestMemory = 100; '
    + 'Requirements = TARGET.Arch == "SGI" && TARGET.OpSys == "LINUX" && TARGET.Memory >= 128 && TARGET.Cpus > 4 ]',
  // Nobody Likes Me: the small machines refuse its memory request.
  workload: '[ ClusterId = 2; ProcId = 0; Owner = "raman"; ImageSize = 55044; RequestMemory = 40; '
    + 'Requirements = TARGET.Arch == "INTEL" && TARGET.OpSys == "LINUX" && TARGET.VirtualMemory > ImageSize ]',
};

async function upload(page, tab, file, n) {
  await page.click('nav .tab:has-text("Workbench")');
  await page.click(`.pool-tabs [role=tab]:has-text("${tab}")`);
  await page.locator('.pool-tools input[type=file]').setInputFiles(file);
  await page.waitForFunction((n) => new RegExp(`^${n} ads?`).test(document.querySelector('.diagnostics .summary')?.textContent ?? ''), n, { timeout: 900_000, polling: 250 });
}

async function longTasks(page, from, to) {
  return page.evaluate(([from, to]) => {
    const l = window.__probe.longtasks.filter((t) => t.start + t.duration >= from && t.start <= to);
    return { longest_ms: Math.max(0, ...l.map((t) => t.duration)), count: l.length };
  }, [from, to]);
}

const server = await serve();
const chrome = await launch();
const out = { n: N, runs: RUNS, jobs: {} };
try {
  const ctx = await chrome.newContext();
  await ctx.addInitScript(PROBE);
  const { page } = await openPage(ctx);
  await page.goto(server.url + '#example=000-analyze1');
  await page.waitForSelector('main');
  const mfile = machines(N);
  log(`uploading ${N} machines…`);
  const t = Date.now();
  await upload(page, 'machines', mfile, N);
  out.upload_and_parse_s = round((Date.now() - t) / 1000, 2);
  for (const [name, text] of Object.entries(JOBS)) {
    const jfile = path.join(DATA, `an_job_${name}.classad`);
    writeFileSync(jfile, text + '\n');
    await upload(page, 'job', jfile, 1);
    await page.click('nav .tab:has-text("Analyze")');
    await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 900_000 });
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      await page.waitForTimeout(2_000);
      const t0 = await page.evaluate(() => performance.now());
      await page.click('#analyze-again');
      await page.waitForSelector('#analysis-summary[data-current=false]', { timeout: 60_000 }).catch(() => {});
      await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 900_000 });
      const t1 = await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(() => ok(performance.now()), 0))));
      const reported = await page.locator('#analysis-summary').textContent();
      const lt = await longTasks(page, t0, t1);
      runs.push({ click_to_summary_ms: round(t1 - t0), view_says: (reported.match(/analyzed in [^)]*/) || [null])[0], longest_main_thread_task_ms: round(lt.longest_ms), long_tasks: lt.count });
      log(name, runs[runs.length - 1]);
    }
    out.jobs[name] = runs;
  }
  await ctx.close();
} finally {
  await chrome.close();
  await server.close();
}
console.log(JSON.stringify(out, null, 2));
