// Shared end-to-end harness: a tiny static server for the release build in
// dist/ and a headless Chromium driven by playwright-core. Used by the tests
// (playground.test.mjs) and by the measurements (measure.mjs).

import { createServer } from 'node:http';
import { readFile, stat, mkdir, mkdtemp, cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { spawnSync, execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = path.join(ROOT, 'dist');
export const SCREENSHOTS = path.join(ROOT, 'tests', 'e2e', 'screenshots');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Copy the build to a temporary directory, so a rebuild of dist/ while the
 * tests run cannot mix two builds. Retries until every file index.html
 * names is there.
 */
async function snapshot(dir) {
  if (!existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: run \`trunk build --release\` first`);
  }
  for (let attempt = 0; ; attempt++) {
    const to = await mkdtemp(path.join(tmpdir(), 'classad-dist-'));
    await cp(dir, to, { recursive: true, filter: (src) => !src.includes(`${path.sep}.stage`) });
    const html = await readFile(path.join(to, 'index.html'), 'utf8');
    const refs = [...html.matchAll(/(?:href|src|module_or_path:)\s*=?\s*["']\.\/([^"']+)["']/g)].map((m) => m[1]);
    if (refs.every((r) => existsSync(path.join(to, r)))) return to;
    await rm(to, { recursive: true, force: true });
    if (attempt >= 20) throw new Error(`${dir} is incomplete (a build in progress?): missing ${refs.filter((r) => !existsSync(path.join(to, r)))}`);
    await new Promise((ok) => setTimeout(ok, 3_000));
  }
}

/**
 * A page of the test server only (not in dist/): it empties the origin's
 * storage, so a reused tab (see `lanePage`) opens the playground as a fresh
 * context would. `?intro` leaves the first-visit introduction to show.
 */
const RESET_PATH = '__e2e_reset';
const RESET_PAGE = `<!doctype html><meta charset="utf-8"><title>reset</title><link rel="icon" href="data:,"><script>
localStorage.clear();
sessionStorage.clear();
sessionStorage.setItem('e2e:intro', new URLSearchParams(location.search).has('intro') ? 'show' : 'seen');
</script>`;

/** Serve a snapshot of `dir` on 127.0.0.1 on a free port. Resolves to { url, close }. */
export async function serve(dir = DIST) {
  const root = await snapshot(path.resolve(dir));
  const server = createServer(async (req, res) => {
    try {
      const u = new URL(req.url, 'http://127.0.0.1');
      if (u.pathname === `/${RESET_PATH}`) {
        res.writeHead(200, { 'content-type': MIME['.html'], 'cache-control': 'no-store' });
        res.end(RESET_PAGE);
        return;
      }
      let file = path.resolve(root, '.' + decodeURIComponent(u.pathname));
      if (file !== root && !file.startsWith(root + path.sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(file).catch(() => null))?.isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    root,
    close: async () => {
      await new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); });
      await rm(root, { recursive: true, force: true });
    },
  };
}

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Every page's viewport unless a test asks for another. */
const VIEWPORT = { width: 1280, height: 900 };

/**
 * Launch headless Chromium. Playwright gives every launch a fresh, empty
 * temporary user-data-dir (it refuses an explicit --user-data-dir outside
 * launchPersistentContext) and deletes it on close. Every `newContext()` is
 * a fresh incognito-like context: no storage, no cache.
 */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // A reused tab (lanePage) keeps no frozen earlier pages alive.
      '--disable-back-forward-cache',
    ],
  });
  return {
    browser,
    newContext: (opts = {}) => browser.newContext({ viewport: VIEWPORT, ...opts }),
    close: () => browser.close(),
  };
}

/**
 * Open a page and collect what would be a problem: console errors, uncaught
 * exceptions (page and workers), failed requests and HTTP errors.
 */
export async function openPage(context, { intro = false } = {}) {
  // The first-visit introduction is tested on its own; elsewhere it is
  // dismissed already, so the views sit where the tests expect them.
  if (!intro) {
    await context.addInitScript(() => {
      try { localStorage.setItem('classad-playground/intro-seen', '1'); } catch { /* no storage */ }
    });
  }
  const page = await context.newPage();
  const problems = [];
  watch(page, () => problems);
  return { page, problems };
}

/** Collect `page`'s problems into the array `sink()` gives (see `openPage`). */
function watch(page, sink) {
  const problems = { push: (p) => sink().push(p) };
  page.on('console', (m) => {
    if (m.type() === 'error') {
      const at = m.location()?.url;
      problems.push(`console.error: ${m.text()}${at ? ` (at ${at})` : ''}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('worker', (w) => {
    // A worker warns only of its own start-up (wasm-bindgen's deprecated
    // parameters, once): count it.
    w.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`worker console.${m.type()}: ${m.text()}`);
    });
  });
  page.on('crash', () => problems.push('page crashed'));
}

/**
 * A test file's tab, reused from scenario to scenario. A fresh context per
 * scenario cost 1.4-1.6 CPU-s a page load (a renderer process started, the
 * 3 MB engine compiled again); navigating one tab costs about 0.7 (the
 * renderer keeps the compiled wasm). Between scenarios the origin's storage
 * is emptied (the reset page) and what a test changed is taken back: its
 * listeners, other pages it opened, permissions, viewport, colour scheme. A
 * scenario that failed or crashed leaves a fresh tab to the next.
 * Resolves to `{ page, problems, ctx }` on the playground at `hash`.
 */
export async function lanePage(env, { hash = '', colorScheme, viewport, intro = false, permissions = [] } = {}) {
  let lane = env.lane;
  if (!lane || lane.page.isClosed() || lane.crashed) {
    const ctx = await env.chrome.newContext();
    const page = await ctx.newPage();
    lane = env.lane = { ctx, page, problems: [], crashed: false, baseline: new Map() };
    watch(page, () => lane.problems);
    page.on('crash', () => { lane.crashed = true; });
    // As openPage: the introduction counts as seen unless the reset page
    // was asked to show it (a reload in the test keeps the choice).
    await page.addInitScript(() => {
      try {
        if (sessionStorage.getItem('e2e:intro') !== 'show') localStorage.setItem('classad-playground/intro-seen', '1');
      } catch { /* no storage */ }
    });
    for (const ev of page.eventNames()) lane.baseline.set(ev, [...page.rawListeners(ev)]);
  }
  const { ctx, page } = lane;
  // What the previous page says as it goes (a request cut short) is not
  // this scenario's: its problems start once the reset page is up.
  lane.problems = [];
  await page.goto(env.server.url + RESET_PATH + (intro ? '?intro' : ''));
  const problems = (lane.problems = []);
  if (permissions.length) await ctx.grantPermissions(permissions, { origin: env.server.url });
  await page.setViewportSize(viewport ?? VIEWPORT);
  await page.emulateMedia({ colorScheme: colorScheme ?? 'light' }); // a context's default
  await page.goto(env.server.url + hash);
  return { page, problems, ctx };
}

/** After a scenario on the lane (`lanePage`): take back what it changed, or drop the tab when it `failed`. */
export async function leaveLane(env, failed) {
  const lane = env.lane;
  if (!lane) return;
  if (failed || lane.crashed || lane.page.isClosed()) {
    env.lane = null;
    await lane.ctx.close().catch(() => {});
    return;
  }
  const { ctx, page, baseline } = lane;
  for (const p of ctx.pages()) if (p !== page) await p.close().catch(() => {});
  for (const ev of page.eventNames()) {
    const keep = baseline.get(ev) ?? [];
    for (const l of page.rawListeners(ev)) if (!keep.includes(l)) page.removeListener(ev, l);
  }
  await ctx.clearPermissions();
}

/**
 * One scenario in `env`'s tab (`lanePage`, opened with `open`: hash, colour
 * scheme, viewport, intro, permissions): `body({ page, problems, ctx })` runs
 * once `until(page)` has; the page is screenshot as `name`; an uncaught
 * exception or a page crash fails it; the tab is handed back (`leaveLane`).
 */
export async function onLane(env, name, body, { until, ...open } = {}) {
  let failed = true;
  const { page, problems, ctx } = await lanePage(env, open);
  try {
    if (until) await until(page);
    await body({ page, problems, ctx });
    const fatal = problems.filter((p) => /^(uncaught|page crashed)/.test(p));
    assert.deepEqual(fatal, [], 'no uncaught exceptions');
    failed = false;
  } finally {
    await screenshot(page, name).catch(() => {});
    await leaveLane(env, failed);
  }
}

/** Wait until the app is up: the evaluator has shown a value. */
export async function ready(page, timeout = 30_000) {
  await page.waitForSelector('#value', { timeout });
}

export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Installed before any page script runs: records when `#value` first
 * appears (ms since navigation start), every long main-thread task, and
 * what ran in each long animation frame (`frames`: the scripts' invokers,
 * such as `Worker.onmessage` or `TimerHandler:setTimeout`, to say which of
 * the page's tasks a long one was: `longTaskCauses`).
 */
export const PROBE = () => {
  window.__probe = { valueAt: null, longtasks: [], frames: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__probe.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* longtask unsupported */ }
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        window.__probe.frames.push({
          start: e.startTime,
          duration: e.duration,
          scripts: e.scripts.map((s) => ({ start: s.startTime, duration: s.duration, invoker: s.invoker })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch { /* long animation frames unsupported */ }
  const check = () => {
    if (window.__probe.valueAt === null && document.getElementById('value')) {
      window.__probe.valueAt = performance.now();
      return true;
    }
    return false;
  };
  new MutationObserver((_, obs) => { if (check()) obs.disconnect(); })
    .observe(document, { childList: true, subtree: true });
};

/**
 * The long tasks (over 50 ms) from `from` (performance.now() ms) on, each
 * with the scripts that ran in it, as the probe saw them: `[{ ms, at,
 * scripts: ['Worker.onmessage 31 ms', …] }]`, for a failure to say which
 * of the page's tasks was long.
 */
export async function longTaskCauses(page, from) {
  return page.evaluate((from) => window.__probe.longtasks
    .filter((t) => t.start + t.duration >= from && t.duration > 50)
    .map((t) => ({
      ms: Math.round(t.duration),
      at: Math.round(t.start - from),
      scripts: window.__probe.frames
        .flatMap((f) => f.scripts)
        .filter((s) => s.start >= t.start - 1 && s.start < t.start + t.duration)
        .map((s) => `${s.invoker} ${Math.round(s.duration)} ms`),
    })), from);
}

/**
 * A `scenario(name, body, { hash, colorScheme, viewport })` for a test
 * file: `body({ page, problems })` runs on the playground opened at `hash`
 * in the file's tab, its storage emptied (`lanePage`); the page is screenshot as `name`; any uncaught
 * exception or page crash fails it. `env()` gives the file's browser and
 * server (made in its `before`).
 */
export function scenarios(env) {
  return (name, body, { hash = '', colorScheme, viewport, intro = false } = {}) =>
    onLane(env(), name, ({ page, problems }) => body({ page, problems }), {
      hash, colorScheme, viewport, intro,
      until: async (page) => {
        await page.waitForSelector('main', { timeout: 30_000 });
        // An example in the link comes from the worker and replaces what
        // shows: the test starts once it has.
        await page.waitForFunction(() => !document.querySelector('.opening-example'), null, { timeout: 30_000 });
      },
    });
}

/**
 * A test file's browser and server, made once before its tests and closed
 * after them: `{ chrome, server }`, read when a test runs. Call at the top
 * of the file.
 */
export function browserEnv({ embed = false } = {}) {
  const env = {};
  before(async () => {
    if (embed) await embedBuilt();
    env.server = await serve();
    env.chrome = await launch();
  });
  after(async () => {
    await env.chrome?.close();
    await env.server?.close();
  });
  return env;
}

/**
 * scripts/test.sh starts the end-to-end suites once the page is built and
 * builds the embed module (dist/embed/) meanwhile: it names in
 * $CLASSAD_E2E_EMBED_PENDING a file that appears when that build has ended
 * (passed or not). The suites that open dist/embed/ wait for it (up to 10
 * minutes) before their server copies dist/ (`browserEnv({ embed: true })`);
 * a file's own `before` must wait too: node runs a file's hooks at once.
 */
export async function embedBuilt() {
  const pending = process.env.CLASSAD_E2E_EMBED_PENDING;
  if (!pending) return;
  for (let waited = 0; !existsSync(pending) && waited < 600; waited++) {
    await new Promise((ok) => setTimeout(ok, 1_000));
  }
}

/** [`browserEnv`]'s browser with its `scenario` (see `scenarios`). */
export function browserScenarios() {
  const env = browserEnv();
  return scenarios(() => env);
}

/** Wait until `sel`'s text matches `re`; its text (a clear failure if it never does). */
export async function textOf(page, sel, re, timeout = 20_000) {
  try {
    await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source], { timeout });
  } catch {
    assert.fail(`${sel} should match ${re}, is ${JSON.stringify(await page.locator(sel).first().textContent().catch(() => null))}`);
  }
  return page.locator(sel).first().textContent();
}

/** A share link (`#s=…`) opening `state` (missing fields take their defaults). */
export function stateLink(state) {
  const json = JSON.stringify({ engine: '0.1.0', state });
  return `#s=1.0.1.0.${deflateRawSync(Buffer.from(json)).toString('base64url')}`;
}

/**
 * The `classad` CLI every suite compares the page with: $CLASSAD_BIN when
 * set, else target/debug/classad (scripts/test.sh builds it just before the
 * suites), built here when it is missing. One way for every suite, and a
 * failure, never a skipped check, when there is none.
 */
let cli = null;
export function cliBinary() {
  if (cli) return cli;
  const given = process.env.CLASSAD_BIN;
  if (given) {
    if (!existsSync(given)) throw new Error(`CLASSAD_BIN=${given} does not exist`);
    return (cli = given);
  }
  const built = path.join(ROOT, 'target', 'debug', process.platform === 'win32' ? 'classad.exe' : 'classad');
  if (!existsSync(built)) {
    const b = spawnSync('cargo', ['build', '--locked', '-p', 'classad', '--bin', 'classad'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the classad CLI does not build (cargo build -p classad --bin classad)');
  }
  return (cli = built);
}

/** The renderer processes' largest peak resident memory, in MB (Linux /proc). */
export function rendererPeakMb() {
  let peak = 0;
  for (const line of execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n')) {
    const m = line.trim().match(/^(\d+)\s+(.*)$/);
    if (!m || !/chrom/.test(m[2]) || !/--type=renderer/.test(m[2])) continue;
    try {
      const st = readFileSync(`/proc/${m[1]}/status`, 'utf8');
      peak = Math.max(peak, Number((st.match(/VmHWM:\s+(\d+)/) ?? [])[1] ?? 0) / 1024);
    } catch { /* gone */ }
  }
  return Math.round(peak);
}
