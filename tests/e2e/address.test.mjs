// End-to-end tests of places in a lesson (issue 32, items 3 and 5): the
// address shows the view, the unchanged gallery example and the
// classroom's step, and back and forward move between them; a share link
// opens the view and step it was made from; a view embeds in a course page
// read-only (an iframe that touches nothing of the reader's own work); the
// presenting layout; Escape closes the introduction, menus and messages;
// the skip link; at 390 px the cycle, the classroom and the analyzer's
// tables scroll inside themselves with their names unbroken; a quoted name
// the seed papers read as a time is warned about.
// Run: node --test tests/e2e/address.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/address-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserEnv, openPage, scenarios, screenshot, textOf } from './harness.mjs';

const browser = browserEnv({ embed: true }); // a test opens dist/embed/, which may still be building (scripts/test.sh)
const scenario = scenarios(() => browser);
const T = { timeout: 180_000 };

const hash = (page) => page.evaluate(() => decodeURIComponent(location.hash));

/** Wait until the address's fragment is `want`. */
async function address(page, want) {
  try {
    await page.waitForFunction((w) => location.hash === w, want, { timeout: 10_000 });
  } catch {
    assert.fail(`the address should be ${want}, is ${await hash(page)}`);
  }
}

test('the address follows the view, the example and the step; back and forward move between them', T, async () => {
  await scenario('address-history', async ({ page }) => {
    await address(page, '#example=lesson-idle&view=negotiation');
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    await page.click('#classroom');
    await address(page, '#example=lesson-idle&view=negotiation&step=1');
    await page.click('#class-next');
    await textOf(page, '#class-step', /^Step 2 of/);
    await address(page, '#example=lesson-idle&view=negotiation&step=2');
    await page.click('nav button:has-text("Matrix")');
    await address(page, '#example=lesson-idle&view=matrix');
    await page.goBack();
    await textOf(page, '#class-step', /^Step 2 of/);
    await page.goBack();
    await textOf(page, '#class-step', /^Step 1 of/);
    await page.goBack();
    await page.waitForFunction(() => !document.querySelector('#class-step'));
    await page.goForward();
    await textOf(page, '#class-step', /^Step 1 of/);
    // A change to the lesson's pools makes it the user's own work: the
    // address no longer names the example (a reload must not undo it).
    await page.click('nav button:has-text("Workbench")');
    await address(page, '#example=lesson-idle&view=evaluate');
    await page.fill('#expr', '1 + 1');
    await address(page, '#view=evaluate');
    await page.reload();
    await textOf(page, '#value', /^2/);
    assert.equal(await hash(page), '#view=evaluate');
  }, { hash: '#example=lesson-idle' });
});

test('a share link opens the view and the step it was made from; reload keeps the work', T, async () => {
  let link;
  await scenario('address-share-step', async ({ page }) => {
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    await page.click('#classroom');
    await page.click('#class-next');
    await address(page, '#example=lesson-rank-preemption&view=negotiation&step=2');
    await page.click('#share-menu > summary');
    await page.click('#share');
    await page.locator('.share-msg input.share-link').waitFor({ timeout: 10_000 });
    link = await page.locator('.share-msg input.share-link').inputValue();
    assert.match(link, /#s=2\.[^&]+&example=lesson-rank-preemption&view=negotiation&step=2$/);
  }, { hash: '#example=lesson-rank-preemption' });
  const ctx = await browser.chrome.newContext();
  const { page } = await openPage(ctx);
  try {
    await page.goto(link);
    await textOf(page, '#class-step', /^Step 2 of 2/, 60_000);
    await textOf(page, '#class-result', /^Gets small@lab/);
    // The link was consumed: the address shows the place, not the link.
    await address(page, '#example=lesson-rank-preemption&view=negotiation&step=2');
  } finally {
    await screenshot(page, 'address-share-opened').catch(() => {});
    await ctx.close();
  }
});

test('a view embeds in a course page read-only, leaving the reader\'s own work alone', T, async () => {
  let snippet;
  await scenario('address-embed-snippet', async ({ page }) => {
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    await page.click('#classroom');
    await page.click('#share-menu > summary');
    await page.click('#embed-snippet');
    await page.locator('.share-msg textarea.share-link, .share-msg input.share-link').first().waitFor({ timeout: 10_000 });
    snippet = await page.locator('.share-msg .share-link').first().inputValue();
    assert.match(snippet, /^<iframe src="http:\/\/[^"]+#example=lesson-idle&amp;view=negotiation&amp;step=1&amp;embed=1" title="ClassAd Playground: the negotiation view of lesson-idle"/);
    // Escape closes the message.
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.share-msg'));
  }, { hash: '#example=lesson-idle' });
  const ctx = await browser.chrome.newContext();
  const { page, problems } = await openPage(ctx);
  try {
    // The reader's own work in the playground, before the course page.
    await page.goto(browser.server.url);
    await page.waitForSelector('#value', { timeout: 30_000 });
    await page.fill('#expr', 'MY.Memory * 2');
    await page.waitForFunction(() => (localStorage.getItem('classad-playground/autosave/v1') ?? '').includes('MY.Memory * 2'));
    const own = await page.evaluate(() => localStorage.getItem('classad-playground/autosave/v1'));
    assert.ok(own, 'the reader has an autosave');
    // A course page with the snippet in it, on the playground's own
    // origin: the embedded view shares the reader's storage.
    await page.goto(browser.server.url + 'help.html');
    await page.evaluate((html) => {
      document.body.innerHTML = `<h1>Week 3: matchmaking</h1>${html}`;
    }, snippet);
    const frame = page.frameLocator('iframe');
    await frame.locator('header.embed-bar').waitFor({ timeout: 60_000 });
    await frame.locator('#class-step').waitFor({ timeout: 60_000 });
    assert.match(await frame.locator('#class-step').textContent(), /^Step 1 of/);
    assert.equal(await frame.locator('#share-menu').count(), 0, 'no header: no menus');
    assert.equal(await frame.locator('nav').count(), 0, 'one view, no tabs');
    const open = await frame.locator('header.embed-bar a').getAttribute('href');
    assert.match(open, /#example=lesson-idle&view=negotiation&step=1$/, 'the way to the playground drops embed=1');
    assert.equal(await frame.locator('header.embed-bar a').getAttribute('target'), '_blank');
    await frame.locator('#class-next').click();
    await frame.locator('#class-step', { hasText: 'Step 2 of' }).waitFor();
    await screenshot(page, 'address-embedded-view');
    const after = await page.evaluate(() => localStorage.getItem('classad-playground/autosave/v1'));
    assert.equal(after, own, 'the embedded view saved nothing over the reader\'s work');
    assert.deepEqual(problems.filter((p) => /^(uncaught|page crashed)/.test(p)), []);
  } finally {
    await ctx.close();
  }
});

test('presenting: larger type, the header folded to the tabs and the way out', T, async () => {
  await scenario('address-presenting', async ({ page }) => {
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    const before = await page.locator('#cycle-table').evaluate((t) => t.getBoundingClientRect().height);
    await page.click('#present');
    assert.equal(await page.locator('#present').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('#present').textContent(), 'Stop presenting');
    for (const sel of ['#help', 'header .mode', '#dialect', '#share-menu', '#file-menu', '#theme']) {
      assert.equal(await page.locator(sel).isVisible(), false, `${sel} is folded away`);
    }
    const rows = await page.evaluate(() => {
      const tops = [...document.querySelectorAll('header.top > *')].filter((e) => e.checkVisibility())
        .map((e) => Math.round(e.getBoundingClientRect().top / 20));
      return new Set(tops).size;
    });
    assert.equal(rows, 1, 'Stop presenting and the tabs on one row');
    const larger = await page.locator('#cycle-table').evaluate((t) => t.getBoundingClientRect().height);
    assert.ok(larger > before * 1.15, `the type is larger (${before} → ${larger})`);
    await screenshot(page, 'address-presenting-on');
    await page.click('#present');
    assert.equal(await page.locator('#help').isVisible(), true);
  }, { hash: '#example=lesson-rank-preemption', viewport: { width: 1280, height: 720 } });
});

test('Escape closes the introduction, menus and messages; the skip link goes to the view', T, async () => {
  await scenario('address-keyboard', async ({ page }) => {
    await page.locator('#intro').waitFor({ timeout: 10_000 });
    // The skip link is the first stop of Tab.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link');
    assert.ok(await page.locator('.skip-link').isVisible(), 'shown when focused');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'MAIN');
    // A menu first, then the introduction: one thing per Escape.
    await page.click('#file-menu > summary');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#file-menu').getAttribute('open'), null);
    assert.equal(await page.locator('#intro').count(), 1, 'one Escape, one thing closed');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#intro').count(), 0);
    // A page message (a damaged link).
    await page.evaluate(() => { location.hash = 's=2.0.1.0.AAAA'; });
    await page.locator('.notice').waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.notice').count(), 0);
  }, { intro: true });
});

test('the focus order is the order on screen: the tabs after the header\'s controls', T, async () => {
  await scenario('address-focus-order', async ({ page }) => {
    const order = await page.evaluate(() => {
      const all = [...document.querySelectorAll('header.top button, header.top select, header.top summary')]
        .filter((e) => e.checkVisibility());
      return all.map((e) => { const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.left)]; });
    });
    for (let i = 1; i < order.length; i++) {
      const [t0, l0] = order[i - 1];
      const [t1, l1] = order[i];
      assert.ok(t1 > t0 + 5 || (Math.abs(t1 - t0) <= 5 && l1 > l0), `control ${i} at ${order[i]} comes after ${order[i - 1]} on screen`);
    }
  });
});

test('at 390 px the cycle, the classroom and the analyzer scroll in their boxes, names whole', T, async () => {
  const check = async (page, what) => {
    const r = await page.evaluate(() => {
      const doc = document.scrollingElement;
      const broken = [...document.querySelectorAll('main table code')]
        .filter((c) => c.getClientRects().length > 1 && !c.closest('td.pred-text'))
        .map((c) => c.textContent);
      const tables = [...document.querySelectorAll('main table')].map((t) => {
        const box = t.parentElement;
        return { fits: box.getBoundingClientRect().right <= innerWidth + 1, scrolls: getComputedStyle(box).overflowX };
      });
      return { pageWidth: doc.scrollWidth, inner: innerWidth, broken, tables };
    });
    assert.ok(r.pageWidth <= r.inner, `${what}: the page does not scroll sideways (${r.pageWidth} > ${r.inner})`);
    assert.deepEqual(r.broken, [], `${what}: no name breaks across lines`);
    assert.ok(r.tables.length > 0, `${what}: has tables`);
    for (const t of r.tables) assert.ok(t.fits && /auto|scroll/.test(t.scrolls), `${what}: a table scrolls inside its box (${JSON.stringify(t)})`);
  };
  await scenario('address-390-classroom', async ({ page }) => {
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    await check(page, 'the cycle');
    await page.click('#classroom');
    await textOf(page, '#class-step', /^Step 1 of/);
    await check(page, 'the classroom');
  }, { hash: '#example=lesson-rank-preemption', viewport: { width: 390, height: 844 } });
  await scenario('address-390-analyzer', async ({ page }) => {
    await page.locator('table.preds').first().waitFor({ timeout: 60_000 });
    await check(page, 'the analyzer');
  }, { hash: '#example=000-eight', viewport: { width: 390, height: 844 } });
});

test('a quoted name the seed papers read as a time is warned about where it is', T, async () => {
  await scenario('address-time-name', async ({ page }) => {
    await page.waitForSelector('#value', { timeout: 30_000 });
    await page.fill('#expr', "'3:00' + 1");
    const note = await textOf(page, '.value-note', /warning 1:1: '3:00' is an attribute's name in HTCondor/);
    assert.match(note, /in the seed papers' notation it is a time/);
    assert.match(note, /for the text write "3:00"; for the time in seconds write 10800/);
    assert.equal(await page.locator('#value code').textContent(), 'undefined');
    assert.equal(await page.locator('.mk-warn').first().textContent(), "'3:00'");
  });
});

test('the embed module warns of a quoted name the seed papers read as a time', T, async () => {
  const ctx = await browser.chrome.newContext();
  const { page } = await openPage(ctx);
  try {
    await page.goto(browser.server.url + 'embed/index.html');
    const r = await page.evaluate(async () => {
      const m = await import('./classad.js');
      await m.ready?.();
      return [m.evaluate({ expr: "'3:00'" }), m.evaluate({ expr: "'3:00'", dialect: 'seed' }), m.evaluate({ expr: '1' })];
    });
    assert.equal(r[0].ok, true);
    assert.equal(r[0].value, 'undefined');
    assert.equal(r[0].diagnostics[0].severity, 'warning');
    assert.match(r[0].diagnostics[0].message, /'3:00' is an attribute's name in HTCondor/);
    assert.deepEqual(r[1].diagnostics, [], 'the seed notation reads a time, no warning');
    assert.deepEqual(r[2].diagnostics, []);
  } finally {
    await ctx.close();
  }
});
