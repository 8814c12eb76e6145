// End-to-end tests of the keyboard and the header (issue 32, item 5): a
// skip link to the view; Escape closes the introduction, the header's
// menus and its messages; the header's controls fit one row at 1280 px;
// one Share menu spells out its three choices.
// Run: node --test tests/e2e/header.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/header-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserEnv, openPage, scenarios, screenshot } from './harness.mjs';

const browser = browserEnv();
const T = { timeout: 120_000 };

const scenario = scenarios(() => browser);

test('one Share menu spells out its three choices; a choice closes it', T, async () => {
  await scenario('header-share-menu', async ({ page }) => {
    await page.click('#share-menu > summary');
    assert.equal(await page.locator('#share-menu').getAttribute('open'), '');
    const choices = await page.locator('#share-menu .menu-items button').allTextContents();
    assert.match(choices.join(' | '), /^Link to the whole work \| Readable prefill link \| Embed snippet$/);
    await page.click('#copy-prefill');
    assert.equal(await page.locator('#share-menu').getAttribute('open'), null, 'a choice closes the menu');
    await page.locator('.share-msg').waitFor({ timeout: 5_000 });
  });
});

test('the header fits one row at 1280 px', T, async () => {
  await scenario('header-header-1280', async ({ page }) => {
    const rows = await page.evaluate(() => {
      const tops = [...document.querySelectorAll('header.top > *:not(nav):not(.share-msg):not(.save-warning)')]
        .filter((e) => e.getClientRects().length).map((e) => Math.round(e.getBoundingClientRect().top));
      return new Set(tops.map((t) => Math.round(t / 20))).size;
    });
    assert.equal(rows, 1, 'the title, menus and buttons are on one row');
  }, { viewport: { width: 1280, height: 800 } });
});

test('a fresh browser shows the introduction, but not over a shared lesson', T, async () => {
  await scenario('header-intro-fresh', async ({ page }) => {
    await page.locator('#intro').waitFor({ timeout: 10_000 });
  }, { intro: true });
  const ctx = await browser.chrome.newContext();
  const { page } = await openPage(ctx, { intro: true });
  try {
    await page.goto(browser.server.url + '#example=lesson-idle&step=2');
    await page.waitForSelector('#class-step', { timeout: 60_000 });
    assert.equal(await page.locator('#intro').count(), 0, 'the lesson is not under the introduction');
    await page.click('#help');
    await page.locator('#intro').waitFor({ timeout: 5_000 });
  } finally {
    await screenshot(page, 'header-intro-shared-lesson').catch(() => {});
    await ctx.close();
  }
});
