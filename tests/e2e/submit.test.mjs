// End-to-end tests of submit files in the page (issue 33): a pool that is a
// submit description file shows the job ads condor_submit makes from it —
// the CLI's ads, attribute for attribute — with condor_submit's messages at
// their lines; its job ads become a pool that follows the file as it is
// edited; a share link restores the file.
// Run: node --test tests/e2e/submit.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/submit-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { browserEnv, cliBinary, openPage, scenarios, screenshot, stateLink, textOf } from './harness.mjs';

const browser = browserEnv();
const scenario = scenarios(() => browser);
const T = { timeout: 180_000 };

const SUBMIT = `executable = /bin/sleep
arguments = $(Item) 60
request_memory = 2GB
request_cpus = 2
requirments = Memory > 1
+Project = "physics"
queue Item in (alpha, beta)
`;

/** Add a pool named `name` holding `text`. */
async function addPool(page, name, text) {
  await page.click('button[aria-label="Add a pool"]');
  const input = page.locator('.pool-name');
  await input.fill(name);
  await input.press('Enter');
  await input.evaluate((e) => e.dispatchEvent(new Event('change', { bubbles: true })));
  await page.fill('#pool-text', text);
}

/** The CLI's job ads for `text` as JSON (paths and times aside). */
function cliAds(text) {
  const dir = mkdtempSync(path.join(tmpdir(), 'classad-sub-'));
  try {
    writeFileSync(path.join(dir, 'job.sub'), text);
    const out = execFileSync(cliBinary(), ['submit', 'job.sub', '--to', 'json', '--qdate', '1700000000'], { cwd: dir });
    return JSON.parse(out.toString());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pool's text read as JSON ads by the CLI. */
function asJson(text) {
  return JSON.parse(execFileSync(cliBinary(), ['fmt', '--to', 'json'], { input: text }).toString());
}

const VARIES = new Set(['QDate', 'EnteredCurrentStatus', 'Iwd', 'Cmd', 'UserLog', 'Out', 'Err', 'In']);

test('a submit file pasted in a pool gives the CLI\'s job ads, with condor_submit\'s messages at their lines', T, async () => {
  let link;
  await scenario('submit-pool', async ({ page }) => {
    await page.waitForSelector('#value');
    await addPool(page, 'job.sub', SUBMIT);
    const summary = await textOf(page, '#submit-summary', /makes 2 job ads/, 30_000);
    assert.equal(summary, 'A submit description file. condor_submit 25 makes 2 job ads from this file.');
    const problems = await page.locator('.submit-problems li').allTextContents();
    assert.deepEqual(problems, ["line 5: the line 'requirments = Memory > 1' was unused by condor_submit. Is it a typo?"]);
    // What each line made: a line's row lists its attributes and the
    // clauses condor_submit added because of it; its button shows the line.
    await page.click('#submit-made > summary');
    const row = page.locator('#submit-made li[data-line="3"]');
    const made = await row.locator('code').allTextContents();
    assert.ok(made.includes('RequestMemory = 2048'), made.join(' | '));
    assert.ok(made.some((m) => m.startsWith('Requirements clause (TARGET.Memory >= RequestMemory): ')), made.join(' | '));
    await row.locator('button').click();
    await page.locator('.focus-mark').first().waitFor({ timeout: 5_000 });
    assert.equal((await page.locator('.focus-mark').allTextContents()).join(''), 'request_memory = 2GB');
    assert.match(await page.locator('#submit-made > ul > li').last().textContent(), /^condor_submit's defaults and the submit host.*RequestDisk = MAX/);
    // Its job ads as a pool, each attribute under its origin.
    await page.click('#submit-make-pool');
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.some((p) => p.name === 'job.sub jobs'), null, { timeout: 20_000 });
    const jobsText = await page.evaluate(() => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.find((p) => p.name === 'job.sub jobs')?.text ?? '');
    assert.match(jobsText, /\/\/ line 3: request_memory\n {2}RequestMemory = 2048;/);
    assert.match(jobsText, /\/\/ job 1\.1 \(queue statement on line 7 of job\.sub\)/);
    const page_ads = asJson(jobsText);
    const cli = cliAds(SUBMIT);
    assert.equal(page_ads.length, cli.length);
    for (let i = 0; i < cli.length; i++) {
      for (const k of new Set([...Object.keys(cli[i]), ...Object.keys(page_ads[i])])) {
        if (VARIES.has(k)) continue;
        assert.deepEqual(page_ads[i][k], cli[i][k], `proc ${i}: ${k}`);
      }
    }
    // The pool follows the file.
    await page.fill('#pool-text', SUBMIT.replace('2GB', '3GB'));
    await page.waitForFunction(() => /RequestMemory = 3072;/.test(JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.find((p) => p.name === 'job.sub jobs')?.text ?? ''), null, { timeout: 20_000 });
    await textOf(page, '#submit-pool-note', /kept up to date/);
    // A file condor_submit refuses: the error at its line, a click shows it.
    await page.fill('#pool-text', SUBMIT.replace('queue Item in (alpha, beta)', 'queue 2 x y z in'));
    await textOf(page, '#submit-summary', /would refuse this file/, 20_000);
    const err = page.locator('.submit-problems li.diag-error').first();
    assert.match(await err.textContent(), /^line 7: /);
    await err.locator('button').click();
    await page.locator('.focus-mark').first().waitFor({ timeout: 5_000 });
    // The mark spans the line (drawn in pieces, one per token).
    assert.equal((await page.locator('.focus-mark').allTextContents()).join(''), 'queue 2 x y z in');
    await page.fill('#pool-text', SUBMIT);
    await textOf(page, '#submit-summary', /makes 2 job ads/, 20_000);
    await page.click('#share-menu > summary');
    await page.click('#share');
    await page.locator('.share-msg input.share-link').waitFor({ timeout: 10_000 });
    link = await page.locator('.share-msg input.share-link').inputValue();
  });
  const ctx = await browser.chrome.newContext();
  const { page } = await openPage(ctx);
  try {
    await page.goto(link);
    await page.waitForSelector('#value', { timeout: 30_000 });
    const pools = await page.evaluate(() => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.map((p) => p.name));
    assert.ok(pools.includes('job.sub') && pools.includes('job.sub jobs'), pools.join(', '));
  } finally {
    await screenshot(page, 'submit-shared').catch(() => {});
    await ctx.close();
  }
});

const GPU_SUB = `executable = train.sh
request_memory = 16GB
requirements = HasGPU && (CUDACapability >= 8.6)
queue
`;
const SLOT = 'MyType = "Machine"; Arch = "X86_64"; OpSys = "LINUX"; Cpus = 4; Disk = 100000000; HasFileTransfer = true; HasGPU = true; Requirements = true; CondorVersion = "$CondorVersion: 25.0.0 2025-06-01 $"';
const GPU_SLOTS = `[ Name = "s1"; ${SLOT}; Memory = 8192; CUDACapability = 8.0 ]
[ Name = "s2"; ${SLOT}; Memory = 32768; CUDACapability = 7.5 ]
`;

/** The autosaved text of pool `name`. */
function savedPool(page, name) {
  return page.evaluate((n) => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.find((p) => p.name === n)?.text ?? '', name);
}

test('the analyzer gives its fixes as edits of the submit file; Apply edits it and the job matches', T, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'classad-subfix-'));
  try {
    writeFileSync(path.join(dir, 'gpu.sub'), GPU_SUB);
    writeFileSync(path.join(dir, 'slots.ads'), GPU_SLOTS);
    const args = ['--machines', 'slots.ads', '--qdate', '1700000000'];
    const cli = JSON.parse(execFileSync(cliBinary(), ['analyze', '--json', '--submit', 'gpu.sub', ...args], { cwd: dir }).toString());
    const want = cli.submit_fixes.fixes;
    assert.ok(want.length > 0, JSON.stringify(cli.submit_fixes));
    // The jobs pool starts as a stand-in: the page makes it from the file.
    const state = {
      pools: [{ name: 'gpu.sub', text: GPU_SUB }, { name: 'slots', text: GPU_SLOTS }, { name: 'gpu.sub jobs', text: '[ MyType = "Job"; Requirements = false ]' }],
      active_pool: 0, expr: 'true', view: 'analyze', analyze: {},
    };
    let edited;
    await scenario('submit-analyzer-fix', async ({ page }) => {
      await page.locator('#file-fixes .file-fix').first().waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('#file-fixes h3').textContent(), 'What to change in gpu.sub');
      // The page's fixes are the CLI's: edits and counts.
      const shown = await page.locator('#file-fixes .file-fix').evaluateAll((xs) => xs.map((x) => ({
        willing: Number(x.dataset.willing),
        lines: [...x.querySelectorAll('.file-edit')].map((e) => Number(e.dataset.line)),
        news: [...x.querySelectorAll('.file-edit ins code')].map((e) => e.textContent),
      })));
      assert.deepEqual(shown, want.slice(0, 8).map((f) => ({
        willing: f.willing,
        lines: f.edits.map((e) => e.line),
        news: f.edits.map((e) => e.new).filter((n) => n),
      })));
      const first = want[0];
      await page.locator('#file-fixes').screenshot({ path: 'tests/e2e/screenshots/submit-file-fixes.png' });
      await page.locator('#file-fixes .file-fix button.apply-file').first().click();
      // The file is edited, its job ads made again, the job analyzed anew: it matches.
      await page.waitForFunction(() => Number(document.querySelector('#sum-match .n')?.textContent.replace(/,/g, '')) > 0, null, { timeout: 30_000 });
      edited = await savedPool(page, 'gpu.sub');
      for (const e of first.edits) assert.ok(edited.includes(e.new), `${e.new} in\n${edited}`);
      assert.match(await savedPool(page, 'gpu.sub jobs'), /\/\/ line 3: requirements\n/);
      await page.locator('#file-undo').waitFor({ timeout: 10_000 });
      await page.screenshot({ path: 'tests/e2e/screenshots/submit-analyzer-fixed.png', fullPage: true });
      await page.click('#file-undo');
      await page.waitForFunction((t) => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools.find((p) => p.name === 'gpu.sub')?.text === t, GPU_SUB, { timeout: 10_000 });
    }, { hash: stateLink(state) });
    // The edited file, run by the CLI: the job matches where the page said.
    writeFileSync(path.join(dir, 'gpu.sub'), edited);
    const out = execFileSync(cliBinary(), ['match', '--submit', 'gpu.sub', ...args], { cwd: dir }).toString();
    assert.match(out, /^1\.0 s\d matched/, out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the lesson "an idle GPU job": the analyzer\'s first edit of train.sub, applied, makes the job match', T, async () => {
  await scenario('submit-lesson-idle', async ({ page }) => {
    await page.locator('#file-fixes .file-fix').first().waitFor({ timeout: 30_000 });
    assert.equal(await textOf(page, '#sum-match .n', /^0$/), '0');
    const first = page.locator('#file-fixes .file-fix').first();
    assert.equal(await first.getAttribute('data-willing'), '2');
    assert.match(await first.locator('.file-edit').first().textContent(), /^line 13: requirements {12}= \(CUDACapability >= 8\.6\) && \(CUDAGlobalMemoryMb >= 40000\)requirements = /);
    await first.locator('button.apply-file').click();
    await textOf(page, '#sum-match .n', /^2$/, 30_000);
    assert.match(await savedPool(page, 'train.sub'), /^requirements = /m);
  }, { hash: '#example=lesson-submit-idle' });
});
