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
import { browserEnv, cliBinary, openPage, scenarios, screenshot, textOf } from './harness.mjs';

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
    // Its job ads as a pool, each attribute under its origin.
    await page.click('#submit-make-pool');
    await page.locator('.pool-tabs button, [role=tab]', { hasText: 'job.sub jobs' }).first().waitFor({ timeout: 10_000 }).catch(() => {});
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
