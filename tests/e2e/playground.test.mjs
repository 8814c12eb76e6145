// End-to-end tests of the release build (dist/) in real headless Chromium.
// Run: node --test tests/e2e/*.test.mjs    (after `trunk build --release`)
// Every test gets a fresh browser context and leaves a screenshot in
// tests/e2e/screenshots/<name>.png (also when it fails).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openPage, ready, screenshot, ROOT, browserEnv, onLane } from './harness.mjs';

const browser = browserEnv();
/** Per test: generous for a loaded CI machine, but a hang fails instead of blocking. */
const T = { timeout: 180_000 };

/**
 * Run `body({ page, problems, context, url })` on the playground (opened at
 * `hash`) in the file's tab, its storage emptied (harness `onLane`), or
 * in `context` when given (a test that keeps storage from one scenario to
 * the next); screenshot it as `name`, and fail on any uncaught exception or
 * page crash.
 */
async function scenario(name, body, { hash = '', context } = {}) {
  const run = ({ page, problems, ctx }) => body({ page, problems, context: ctx, url: browser.server.url });
  if (!context) return onLane(browser, name, run, { hash, until: (page) => ready(page) });
  const { page, problems } = await openPage(context);
  try {
    await page.goto(browser.server.url + hash);
    await ready(page);
    await run({ page, problems, ctx: context });
    const fatal = problems.filter((p) => /^(uncaught|page crashed)/.test(p));
    assert.deepEqual(fatal, [], 'no uncaught exceptions');
  } finally {
    await screenshot(page, name).catch(() => {});
  }
}

/** Wait until the evaluator shows `expected` (text of `#value code`). */
async function expectValue(page, expected, timeout = 10_000) {
  try {
    await page.waitForFunction(
      (want) => document.querySelector('#value code')?.textContent === want,
      expected,
      { timeout },
    );
  } catch {
    const got = await page.locator('#value').textContent().catch(() => null);
    assert.fail(`#value should be ${expected}, is ${JSON.stringify(got)}`);
  }
}

/** Scope inside MY: a <select> of MY's nested records, or a text input of a path. */
async function setScope(page, path) {
  const scope = page.locator('#scope');
  if ((await scope.evaluate((e) => e.tagName)) === 'SELECT') {
    await scope.selectOption(path);
  } else {
    await scope.fill(path);
    await scope.press('Tab'); // a text scope applies on change
  }
}

async function setExpr(page, text) {
  await page.fill('#expr', text);
}

const summary = (page) => page.locator('.diagnostics .summary');

async function expectSummary(page, re, timeout = 10_000) {
  try {
    await page.waitForFunction(
      (src) => new RegExp(src).test(document.querySelector('.diagnostics .summary')?.textContent ?? ''),
      re.source,
      { timeout },
    );
  } catch {
    assert.fail(`pool summary should match ${re}, is ${JSON.stringify(await summary(page).textContent().catch(() => null))}`);
  }
}

const TWO_ADS = `[
  Name = "alpha@e2e";
  Memory = 1024;
  Cpus = 2;
  Requirements = TARGET.RequestMemory <= Memory
]
[
  Name = "beta@e2e";
  Memory = 4096;
  Cpus = 8;
  Requirements = true
]
`;

test('page loads with its title and no console errors', T, async () => {
  await scenario('page-loads', async ({ page, problems }) => {
    assert.equal(await page.title(), 'ClassAd Playground');
    await expectValue(page, 'true');
    await page.waitForTimeout(500); // late errors (favicon, worker start-up)
    assert.deepEqual(problems, [], 'no console errors, worker warnings, failed requests or exceptions');
  });
});

test('layout: no horizontal scrolling (wide, narrow, long ad names) and a dark theme', T, async () => {
  const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const bad = [];
  await scenario('layout-wide-long-names', async ({ page }) => {
    await page.fill('#pool-text', `[ Name = "${'slot1_17@an-extremely-long-host-name.with.many.sub.domains.'.repeat(3)}example.org"; Memory = 1 ]\n`);
    await expectSummary(page, /^1 ads?, 0 errors/);
    await page.selectOption('#my-ad', { index: 1 });
    const px = await overflow(page);
    if (px > 0) bad.push(`1280 px wide with a long ad name: page scrolls sideways by ${px} px`);
  });
  const narrow = await browser.chrome.newContext({ viewport: { width: 390, height: 844 } });
  await scenario('layout-narrow', async ({ page }) => {
    const px = await overflow(page);
    if (px > 0) bad.push(`390 px wide (phone): page scrolls sideways by ${px} px`);
  }, { context: narrow });
  await narrow.close();
  const dark = await browser.chrome.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  await scenario('layout-dark', async ({ page }) => {
    await tree(page);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(bg, 'rgb(251, 251, 250)', 'dark scheme applies');
  }, { context: dark });
  await dark.close();
  assert.deepEqual(bad, [], 'no horizontal overflow');
});

async function tree(page) {
  await page.locator('.explain').waitFor({ state: 'visible' });
}

test('paste a pool', T, async () => {
  await scenario('paste-pool', async ({ page }) => {
    await page.fill('#pool-text', TWO_ADS);
    await expectSummary(page, /^2 ads, 0 errors/);
    const labels = await page.locator('.ad-list li .ad-label').allTextContents();
    assert.deepEqual(labels.map((l) => l.replace(/ \((MY|TARGET)\)$/, '')), ['alpha@e2e', 'beta@e2e']);
    // The pasted ads are offered as MY and can be evaluated against.
    await page.selectOption('#my-ad', { label: 'machines / beta@e2e' });
    await setExpr(page, 'MY.Cpus * 2');
    await expectValue(page, '16');
    // A broken ad is reported with its line and column.
    await page.fill('#pool-text', TWO_ADS + '[ Name = "gamma"; Memory = ]\n');
    await expectSummary(page, /^2 ads, [1-9]\d* errors?/);
    assert.match(await page.locator('.diagnostics li.diag-error').first().textContent(), /^13:\d+: /);
  });
});

test('an unclosed quote is drawn inside its own ad, and expression errors are underlined', T, async () => {
  await scenario('highlight-unclosed', async ({ page }) => {
    await page.fill('#pool-text', '[ Name = "a"; Arch = "INTEL ]\n[ Name = "b"; Memory = 2 ]\n');
    await expectSummary(page, /^1 ad, 1 error/);
    // The second ad is drawn as tokens, as the reader reads it, not as one string.
    const names = await page.$$eval('.editor:has(#pool-text) pre .tk-name', (xs) => xs.map((x) => x.textContent));
    assert.deepEqual(names, ['Name', 'Arch', 'Name', 'Memory']);
    const bad = await page.$$eval('.editor:has(#pool-text) pre .tk-invalid', (xs) => xs.map((x) => x.textContent).join(''));
    assert.equal(bad.trim(), '"INTEL ]', 'only the unclosed string is marked');
    // An expression error is marked where it is.
    await setExpr(page, 'MY.Memory > (1 +');
    await page.waitForSelector('#value.v-error');
    await page.waitForSelector('.editor:has(#expr) pre .mk-error');
  });
});

test('a 3,000-long chain of references is cut off with a message naming where, and the engine worker keeps working', T, async () => {
  await scenario('deep-chain', async ({ page, problems }) => {
    const chain = (n) => '[ Name = "deep"; ' + Array.from({ length: n }, (_, i) => `a${i} = a${i + 1} + 1`).join('; ') + `; a${n} = 0 ]\n`;
    await page.fill('#pool-text', chain(3000));
    await expectSummary(page, /^1 ad, 0 errors/);
    await page.selectOption('#my-ad', { label: 'machines / deep' });
    await setExpr(page, 'a0');
    await page.waitForSelector('#value.v-error');
    assert.match(await page.locator('#value').textContent(), /evaluation went deeper than 1200 levels at attribute `a\d+`/);
    await setExpr(page, 'a2990');
    await expectValue(page, '10');
    await setExpr(page, '6 * 7');
    await expectValue(page, '42');
    assert.deepEqual(problems, []);
  });
});

test('expressions at the engine\'s limits evaluate in the page with their explain tree: 300 nesting, a 1,999-clause && (2,000 deep), an 80-clause machine list, a 300-attribute chain', T, async () => {
  await scenario('explain-at-limits', async ({ page, problems }) => {
    const machines = Array.from({ length: 80 }, (_, i) => `TARGET.Machine == "node${i}.example.org"`).join(' || ');
    const chain = (n, last) => '[ Name = "deep"; ' + Array.from({ length: n - 1 }, (_, i) => `a${i} = a${i + 1} + 1`).join('; ') + `; a${n - 1} = ${last} ]\n`;
    await page.fill('#pool-text', chain(300, 'Missing') + '[ Name = "node"; Machine = "node79.example.org" ]\n');
    await expectSummary(page, /^2 ads, 0 errors/);
    await page.selectOption('#my-ad', { label: 'machines / deep' });
    await page.selectOption('#target-ad', { label: 'machines / node' });
    const tree = page.locator('.explain');
    const rootLabel = () => tree.locator('.t-label').first().textContent();

    // 300 brackets inside one another: the value, and a tree shown 32
    // levels at a time — the rest a click away, and back.
    await setExpr(page, '('.repeat(300) + '7' + ')'.repeat(300));
    await expectValue(page, '7');
    await tree.waitFor({ state: 'visible' });
    const deeper = tree.locator('button.trace-deeper');
    await deeper.waitFor({ state: 'visible' });
    assert.match(await deeper.textContent(), /^⋯ 268 levels below: show from here$/);
    await deeper.click();
    await page.locator('.trace-window').waitFor({ state: 'visible' });
    assert.match(await page.locator('.trace-window').textContent(), /Showing from .*, 32 levels down\./);
    await tree.locator('button.trace-deeper').click();
    await page.waitForFunction(() => /64 levels down/.test(document.querySelector('.trace-window')?.textContent ?? ''));
    await page.locator('.trace-window button.trace-top').click();
    await page.locator('.trace-window').waitFor({ state: 'detached' });

    // The longest chain the parser takes (2,000 deep): one node of clauses,
    // listed 100 at a time.
    await setExpr(page, Array.from({ length: 1999 }, (_, i) => `x${i} > 0`).join(' && '));
    await expectValue(page, 'undefined');
    await page.waitForFunction(() => /1,999 clauses evaluated/.test(document.querySelector('.explain .t-label')?.textContent ?? ''));
    const more = tree.locator('button.trace-more');
    assert.equal(await more.textContent(), 'Show 100 more of 1,999');
    const rows = await tree.locator(':scope > li > details > ul > li.tnode').count();
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('.explain > li > details > ul > li.tnode').length > n + 90, rows);

    // An 80-clause machine list, the TARGET the last machine.
    await setExpr(page, machines);
    await expectValue(page, 'true');
    assert.match(await rootLabel(), /operator \|\| · 80 clauses evaluated/);
    assert.equal(await tree.locator(':scope > li > details > ul > li.tnode').count(), 80);

    // 300 attributes deep (900 trace levels), undefined at the bottom: the
    // window opens where the why line points, marked.
    await setExpr(page, 'a0');
    await expectValue(page, 'undefined');
    await page.locator('.trace-window').waitFor({ state: 'visible' });
    assert.match(await page.locator('.why').textContent(), /Missing/);
    await tree.locator('li.culprit').first().waitFor({ state: 'visible' });
    assert.match(await tree.locator('li.culprit .t-text').first().textContent(), /Missing/);
    await page.locator('.trace-window button.trace-up').click();
    await page.waitForFunction(() => /levels down/.test(document.querySelector('.trace-window')?.textContent ?? ''));

    // A sum 1,990 terms long is a tree 1,990 deep; it shows all the same.
    await setExpr(page, Array.from({ length: 1990 }, (_, i) => String(i)).join(' + '));
    await expectValue(page, '1979055');
    await page.waitForFunction(() => document.querySelector('.explain .t-value')?.textContent === '1979055');
    assert.deepEqual(problems.filter((p) => /recursion|unreadable|call stack/i.test(p)), []);
    assert.doesNotMatch(await page.locator('main').textContent(), /unreadable answer|recursion limit/);
  });
});

test('evaluate with self, other and parent (nested scope)', T, async () => {
  await scenario('evaluate-scopes', async ({ page }) => {
    // Default state: MY = machines / slot1@node1, TARGET = jobs / 42.0.
    await setExpr(page, 'other.Owner');
    await expectValue(page, '"alice"');
    await setExpr(page, 'self.Memory - TARGET.RequestMemory');
    await expectValue(page, '4096');
    // Pick another MY ad with the select.
    await page.selectOption('#my-ad', { label: 'machines / slot1@node2.example.org' });
    await setExpr(page, 'MY.Memory');
    await expectValue(page, '2048');
    // No TARGET: other.* is undefined.
    await page.selectOption('#target-ad', { label: '(none)' });
    await setExpr(page, 'other.Owner');
    await expectValue(page, 'undefined');
    // Back to node1, scope into its nested Gpu record.
    await page.selectOption('#my-ad', { label: 'machines / slot1@node1.example.org' });
    await page.selectOption('#target-ad', { label: 'jobs / 42.0' });
    await setScope(page, 'Gpu');
    await setExpr(page, 'parent.Name');
    await expectValue(page, '"slot1@node1.example.org"');
    await setExpr(page, 'self.Memory');
    await expectValue(page, '40960');
    await setExpr(page, 'Model');
    await expectValue(page, '"A100"');
    await setExpr(page, 'other.Owner');
    await expectValue(page, '"alice"');
  });
});

test('explain tree is shown and clicking a node marks its source', T, async () => {
  await scenario('explain-tree', async ({ page }) => {
    const tree = page.locator('.explain');
    await tree.waitFor({ state: 'visible' });
    assert.ok((await tree.locator('li.tnode').count()) > 5, 'the tree has the subexpressions');
    assert.equal(await page.locator('.tk-mark').count(), 0, 'nothing marked before a click');
    // A subexpression of the typed expression: its span is marked in #expr's highlight.
    await tree.locator('summary', { has: page.locator('code.t-text', { hasText: /^TARGET\.RequestMemory <= Memory$/ }) }).click();
    const mark = page.locator('.evaluator .editor .tk-mark');
    await mark.first().waitFor({ state: 'visible', timeout: 5_000 });
    const marked = (await mark.allTextContents()).join(' ');
    assert.match(marked, /RequestMemory/);
    assert.match(marked, /<=/);
    assert.doesNotMatch(marked, /Requirements/, 'only the clicked subexpression is marked');
    // A node inside an attribute's definition: the definition's source is shown marked.
    await tree.locator('summary', { has: page.locator('code.t-text', { hasText: /^Start && TARGET\.Owner != "riffraff"$/ }) }).first().click();
    const src = page.locator('.picked-source .tk-mark');
    await src.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await src.textContent(), /Start && TARGET\.Owner != "riffraff"/);
  });
});

test('the explain tree opens and closes with the mouse (its disclosure triangle)', T, async () => {
  await scenario('explain-toggle-mouse', async ({ page }) => {
    const tree = page.locator('.explain');
    await tree.waitFor({ state: 'visible' });
    const node = tree.locator('details').first();
    const summary = node.locator(':scope > summary');
    assert.notEqual(await node.getAttribute('open'), null, 'the root starts open');
    const kids = await tree.locator('li.tnode').count();
    // A click on the triangle (the summary's first few pixels) closes it…
    await summary.click({ position: { x: 5, y: 8 } });
    // The browser closes the <details> at once; the app then drops its children.
    await page.waitForFunction((n) => !document.querySelector('.explain details').hasAttribute('open')
      && document.querySelectorAll('.explain li.tnode').length < n, kids, { timeout: 5_000 })
      .catch(() => assert.fail('children are gone'));
    // … and another opens it again.
    await summary.click({ position: { x: 5, y: 8 } });
    await page.waitForFunction((n) => document.querySelector('.explain details').hasAttribute('open')
      && document.querySelectorAll('.explain li.tnode').length === n, kids, { timeout: 5_000 });
    // A click on the row's text marks the source and leaves it open.
    await summary.locator('code.t-text').first().click();
    await page.waitForTimeout(200);
    assert.notEqual(await node.getAttribute('open'), null, 'a click on the text does not close it');
  });
});

test('MY follows its ad by name when an ad before it breaks, and says so when it breaks itself', T, async () => {
  await scenario('my-by-identity', async ({ page }) => {
    const three = '[ Name = "a"; x = 1 ]\n[ Name = "b"; x = 2 ]\n[ Name = "c"; x = 3 ]\n';
    await page.fill('#pool-text', three);
    await expectSummary(page, /^3 ads, 0 errors/);
    await page.selectOption('#my-ad', { label: 'machines / c' });
    await setExpr(page, 'MY.x');
    await expectValue(page, '3');
    // A typo breaks "a": "c" moves up to the second place; MY is still "c".
    await page.fill('#pool-text', three.replace('x = 1', 'x = '));
    await expectSummary(page, /^2 ads, [1-9]\d* errors?/);
    await expectValue(page, '3');
    assert.equal(await page.locator('#my-missing').count(), 0);
    // Now "c" itself breaks: MY is not silently another ad.
    await page.fill('#pool-text', three.replace('x = 3', 'x = '));
    await expectSummary(page, /^2 ads, [1-9]\d* errors?/);
    await page.locator('#my-missing').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await page.locator('#my-missing').textContent(), /The chosen MY ad “c” no longer parses/);
    await expectValue(page, 'undefined');
    // Fixed again: "c" is back as MY.
    await page.fill('#pool-text', three);
    await expectValue(page, '3');
  });
});

test('work set aside by opening examples survives a reload and a second example, and comes back', T, async () => {
  await scenario('set-aside-history', async ({ page }) => {
    const mine = '[ Name = "mine"; x = 41 ]\n';
    await page.fill('#pool-text', mine);
    await expectSummary(page, /^1 ad/);
    await setExpr(page, 'MY.x + 1');
    await page.waitForTimeout(300); // autosave
    // Open an example: my work is set aside, and still listed after a reload.
    await page.evaluate(() => { location.hash = '#example=000-fig2-3'; });
    await page.locator('.restore').waitFor({ state: 'visible', timeout: 10_000 });
    await page.reload();
    await page.locator('#set-aside').waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await page.locator('#set-aside summary').textContent(), /Set aside \(1\)/);
    // Change the example, then open another: both pieces of work are kept.
    await page.locator('button.tab', { hasText: 'Workbench' }).click();
    await page.fill('#pool-text', '[ Name = "changed example"; y = 1 ]\n');
    await page.waitForTimeout(300);
    await page.evaluate(() => { location.hash = '#example=001-fig5'; });
    await page.locator('.restore').waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForFunction(() => /Set aside \(2\)/.test(document.querySelector('#set-aside summary')?.textContent ?? ''));
    // Bring my own work back (the older entry).
    await page.click('#set-aside summary');
    const items = page.locator('#set-aside li');
    assert.match(await items.nth(1).textContent(), /MY\.x \+ 1/);
    await items.nth(1).locator('button', { hasText: 'Bring back' }).click();
    await page.waitForFunction((t) => document.querySelector('#pool-text')?.value === t, mine);
    await expectValue(page, '42');
  });
});

test('a newcomer is guided: an empty expression prompts, the theme button says what it does next', T, async () => {
  await scenario('newcomer-prompts', async ({ page }) => {
    await setExpr(page, '');
    await page.locator('.empty-prompt').waitFor({ state: 'visible', timeout: 5_000 });
    assert.doesNotMatch(await page.locator('.result').textContent(), /unexpected end of input/);
    assert.match(await page.locator('label[for=expr]').textContent(), /evaluated as you type/);
    assert.equal((await page.locator('#evaluate').textContent()).trim(), 'Evaluate again');
    const theme = page.locator('#theme');
    assert.equal(await theme.getAttribute('aria-label'), 'Theme: system (next: dark)');
    await theme.click();
    assert.equal(await theme.getAttribute('aria-label'), 'Theme: dark (next: light)');
    await theme.click();
    assert.equal(await theme.getAttribute('aria-label'), 'Theme: light (next: system)');
    await theme.click();
    assert.equal(await theme.getAttribute('aria-label'), 'Theme: system (next: dark)');
  });
});

test('a first visit opens the introduction; it guides through the gallery, closes for good and comes back from "?"', T, async () => {
  const ctx = await browser.chrome.newContext({ viewport: { width: 1400, height: 900 } });
  const { page, problems } = await openPage(ctx, { intro: true });
  try {
    await page.goto(browser.server.url);
    const intro = page.locator('#intro');
    await intro.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await intro.textContent();
    for (const want of [/A ClassAd/, /MY and TARGET/, /Matchmaking/, /Evaluate a policy\./, /Match a pool\./, /Ask why a job does not match\./]) {
      assert.match(text, want);
    }
    await screenshot(page, 'intro-1400');
    // The help page is there, offline, with live examples.
    const help = await (await fetch(browser.server.url + 'help.html')).text();
    assert.match(help, /#example=000-eight/);
    assert.match(help, /selection/);
    // Step 3 opens the analyzer's example.
    await intro.locator('li', { hasText: 'Ask why a job does not match' }).locator('button').click();
    await page.waitForSelector('main[aria-label]', { timeout: 30_000 });
    assert.equal(await page.locator('#intro').count(), 0, 'the introduction closes');
    // It stays closed after a reload…
    await page.reload();
    await page.waitForSelector('main', { timeout: 30_000 });
    assert.equal(await page.locator('#intro').count(), 0);
    // … and comes back from the header's "?".
    await page.click('#help');
    await intro.waitFor({ state: 'visible' });
    // Closed from the keyboard, focus goes back to the "?" that opened it.
    await page.focus('#intro-done');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.id === 'help', null, { timeout: 5_000 })
      .catch(async () => assert.fail(`focus is on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80))}`));
    assert.equal(await page.locator('#intro').count(), 0);
    assert.deepEqual(problems.filter((p) => /^(uncaught|page crashed)/.test(p)), []);
  } finally {
    await ctx.close();
  }
  const narrow = await browser.chrome.newContext({ viewport: { width: 420, height: 900 }, colorScheme: 'dark' });
  const p2 = await openPage(narrow, { intro: true });
  try {
    await p2.page.goto(browser.server.url);
    await p2.page.locator('#intro').waitFor({ state: 'visible', timeout: 30_000 });
    const px = await p2.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(px <= 0, `no sideways scroll at 420 px (${px})`);
    await screenshot(p2.page, 'intro-420-dark');
  } finally {
    await narrow.close();
  }
});

test('the Why line shows code as code, not backticks', T, async () => {
  await scenario('why-code', async ({ page }) => {
    await setExpr(page, 'MY.NoSuchAttribute');
    await expectValue(page, 'undefined');
    const why = page.locator('.why');
    await why.waitFor({ state: 'visible' });
    assert.doesNotMatch(await why.textContent(), /`/);
    assert.match(await why.locator('code').first().textContent(), /MY\.NoSuchAttribute/);
  });
});

test('upload a condor_status -l file and list its ads', T, async () => {
  await scenario('upload-long-format', async ({ page }) => {
    const input = page.locator('.pool-tools input[type=file]');
    await input.setInputFiles(path.join(ROOT, 'tests/corpora/condor_status_l.txt'));
    await expectSummary(page, /^4 ads, 0 errors/);
    const labels = await page.locator('.ad-list li .ad-label').allTextContents();
    assert.deepEqual(labels.map((l) => l.replace(/ \((MY|TARGET)\)$/, '')), [
      'slot1@node01.cluster.example.edu',
      'slot1_1@node01.cluster.example.edu',
      'slot1_2@node01.cluster.example.edu',
      'slot1@gpu07.cluster.example.edu',
    ]);
    assert.match(await page.locator('#pool-text').inputValue(), /^Activity = "Idle"/);
    // The uploaded ads evaluate.
    await page.selectOption('#my-ad', { label: 'machines / slot1@gpu07.cluster.example.edu' });
    await setExpr(page, 'MY.Arch');
    await expectValue(page, '"X86_64"');
  });
});

test('evaluation answers at once while a big pool is parsed in the background', T, async () => {
  await scenario('eval-while-parsing', async ({ page }) => {
    // 6,000 ads, about 600 KB: parsed in a worker of its own, after a pause.
    const ads = Array.from({ length: 6000 }, (_, i) =>
      `[ Name = "m${i}.example.org"; Memory = ${1024 + i}; Cpus = 4; Arch = "X86_64"; Requirements = TARGET.RequestMemory <= Memory ]`).join('\n');
    await page.click('button[aria-label="Add a pool"]');
    await page.locator('.pool-tools input[type=file]').setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.from(ads) });
    await page.locator('.busy').waitFor({ timeout: 10_000 });
    // The evaluator has a worker of its own: its answer does not wait for the parse.
    await setExpr(page, '6 * 7');
    const parsing = await page.waitForFunction(
      () => document.querySelector('#value code')?.textContent === '42' && { busy: !!document.querySelector('.busy') },
      null, { timeout: 10_000 },
    ).then((h) => h.jsonValue());
    assert.ok(parsing.busy, 'the value came while the big pool was still being parsed');
    await expectSummary(page, /^6,000 ads, 0 errors/, 60_000);
  });
});

test('Format, To long format, To JSON and To XML rewrite the pool (in the engine worker)', T, async () => {
  await scenario('format-buttons', async ({ page }) => {
    await page.fill('#pool-text', '[ Name = "a"; Memory = 1024 ] [ Name = "b"; Memory = 2048 ]');
    await expectSummary(page, /^2 ads, 0 errors/);
    const textIs = async (re) => page.waitForFunction(
      (src) => new RegExp(src).test(document.querySelector('#pool-text')?.value ?? ''), re.source, { timeout: 10_000 },
    ).catch(async () => assert.fail(`pool text should match ${re}, is ${JSON.stringify(await page.locator('#pool-text').inputValue())}`));
    await page.click('.pool-tools button:has-text("To long format")');
    await textIs(/^Name = "a"\nMemory = 1024\n\nName = "b"\nMemory = 2048\n/);
    await page.click('.pool-tools button:has-text("To JSON")');
    await textIs(/^\[\n\{\n\s+"Name": "a",/);
    // XML as condor_status -xml prints it, read back as the same two ads.
    await page.click('.pool-tools button:has-text("To XML")');
    await textIs(/^<\?xml version="1\.0"\?>\n<!DOCTYPE classads SYSTEM "classads\.dtd">\n<classads>\n<c>\n\s+<a n="Name"><s>a<\/s><\/a>\n\s+<a n="Memory"><i>1024<\/i><\/a>/);
    await expectSummary(page, /^2 ads, 0 errors/);
    await page.click('.pool-tools button:has-text("Format")');
    await textIs(/^\[\n\s+Name = "a";\n\s+Memory = 1024\n\]\n\[\n\s+Name = "b";/);
    await expectSummary(page, /^2 ads, 0 errors/);
    // Errors first: the text is left alone and the status says why.
    await page.fill('#pool-text', '[ Name = "a"; Memory = ]');
    await expectSummary(page, /^\d+ ads?, 1 error/);
    await page.click('.pool-tools button:has-text("To JSON")');
    await page.locator('.pools .status', { hasText: 'Fix the errors first' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('#pool-text').inputValue(), '[ Name = "a"; Memory = ]');
  });
});

test('an XML pool (condor_status -xml) uploads and is read like any other, errors located', T, async () => {
  await scenario('xml-pool', async ({ page }) => {
    await page.locator('.pool-tools input[type=file]').setInputFiles(path.join(ROOT, 'tests/corpora/condor_status.xml'));
    await expectSummary(page, /^4 ads, 0 errors/);
    // A bad value in one ad: the other ads are kept and the problem has a line.
    const bad = '<?xml version="1.0"?>\n<classads>\n<c>\n    <a n="Name"><s>ok</s></a>\n</c>\n'
      + '<c>\n    <a n="Memory"><i>12x</i></a>\n</c>\n</classads>\n';
    await page.fill('#pool-text', bad);
    await expectSummary(page, /^\d+ ads?, 1 error/);
    assert.match(await page.locator('.diagnostics li.diag-error').first().textContent(), /^7:\d+: /);
  });
});

test('a pool name typed but not yet left is kept when a file is uploaded first', T, async () => {
  await scenario('upload-keeps-typed-name', async ({ page }) => {
    await page.click('button[aria-label="Add a pool"]');
    // Typed, the field not left: its change event has not fired.
    await page.locator('.pool-name').fill('my slots');
    await page.locator('.pool-tools input[type=file]').setInputFiles(path.join(ROOT, 'tests/corpora/condor_status_l.txt'));
    await expectSummary(page, /^4 ads, 0 errors/);
    assert.deepEqual(
      (await page.locator('.pool-tabs [role=tab]').allTextContents()).slice(-1),
      ['my slots'],
    );
  });
});

test('a pool too big to autosave: the rest is kept, and a reload names the pool to upload again', T, async () => {
  await scenario('autosave-too-big', async ({ page }) => {
    await page.click('button[aria-label="Add a pool"]');
    await page.locator('.pool-name').fill('big slots');
    // 6 MB of ads: over what Chromium keeps for a page (5 M characters).
    const ad = (i) => `[ Name = "slot${i}@big"; Memory = ${i % 64 * 1024}; Pad = "${'x'.repeat(240)}" ]\n`;
    const text = Array.from({ length: 20_000 }, (_, i) => ad(i)).join('');
    await page.locator('.pool-tools input[type=file]').setInputFiles({ name: 'big.ad', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await expectSummary(page, /^20,000 ads, 0 errors/, 60_000);
    // Then the view and its question: these must survive.
    await page.click('nav .tab:has-text("Query")');
    await page.locator('#query-constraint').fill('Memory >= 32768');
    await page.locator('#query-constraint').press('Tab');
    await page.waitForFunction(() => /Partly autosaved: the pool “big slots” \(\d+\.\d MB\) is left out/.test(document.querySelector('.save-warning')?.textContent ?? ''), null, { timeout: 20_000 });
    await page.waitForTimeout(1_500); // the save of a big state waits for a pause
    await page.reload();
    await page.waitForSelector('main', { timeout: 30_000 });
    const notice = await page.locator('.notice').textContent();
    assert.match(notice, /the pool “big slots” \(\d+\.\d MB\) is left out: it was too big for the browser to keep, so its tab is empty — upload it again/);
    assert.equal(await page.locator('nav .tab.active').textContent(), 'Query', 'the view is kept');
    assert.equal(await page.locator('#query-constraint').inputValue(), 'Memory >= 32768', 'the constraint is kept');
    await page.click('nav .tab:has-text("Workbench")');
    await page.locator('.pool-tabs [role=tab]', { hasText: 'big slots' }).click();
    assert.equal(await page.locator('#pool-text').inputValue(), '', 'the pool keeps its name, its text is not kept');
  });
});

test('a big pool replaced by one as big (the two past the browser\'s quota) is autosaved, and a reload brings the new one back', T, async () => {
  await scenario('autosave-big-replaced', async ({ page }) => {
    // 3 MB each: a pool's text of this size is kept under a key of its own.
    const pool = (tag) => Array.from({ length: 11_000 }, (_, i) => `[ Name = "${tag}${i}@big"; Pad = "${'y'.repeat(240)}" ]\n`).join('');
    for (const tag of ['first', 'second']) {
      await page.locator('.pool-tools input[type=file]').setInputFiles({ name: `${tag}.ad`, mimeType: 'text/plain', buffer: Buffer.from(pool(tag)) });
      await expectSummary(page, /^11,000 ads, 0 errors/, 60_000);
      await page.waitForFunction((t) => {
        const keys = Object.keys(localStorage).filter((k) => k.startsWith('classad-playground/autosave/text/'));
        return keys.length === 1 && localStorage.getItem(keys[0]).startsWith(`[ Name = "${t}0@big"`);
      }, tag, { timeout: 20_000 });
    }
    assert.equal(await page.locator('.save-warning').count(), 0, 'nothing said left out');
    await page.reload();
    await page.waitForSelector('main', { timeout: 30_000 });
    await expectSummary(page, /^11,000 ads, 0 errors/, 60_000);
    assert.match(await page.locator('.pools .viewer .viewer-window').textContent(), /^\[ Name = "second0@big"/);
    assert.equal(await page.locator('.notice').count(), 0, 'nothing said left out after the reload');
  });
});

test('Upload… replacing a pool can be undone', T, async () => {
  await scenario('upload-undo', async ({ page }) => {
    const mine = '[ Name = "typed by hand"; x = 1 ]\n';
    await page.fill('#pool-text', mine);
    await expectSummary(page, /^1 ad, 0 errors/);
    await page.locator('.pool-tools input[type=file]').setInputFiles(path.join(ROOT, 'tests/corpora/condor_status_l.txt'));
    await expectSummary(page, /^4 ads, 0 errors/);
    const status = page.locator('.pool-editor .status, .status').filter({ hasText: "replaced the pool's text" });
    await status.waitFor({ state: 'visible', timeout: 10_000 });
    await page.click('#undo-upload');
    await page.waitForFunction((t) => document.querySelector('#pool-text')?.value === t, mine);
    await expectSummary(page, /^1 ad, 0 errors/);
  });
});

test('the explain tree shows reals as written (0.3, not 3.000000000000000E-01)', T, async () => {
  await scenario('explain-reals', async ({ page }) => {
    await setExpr(page, 'MY.LoadAvg < 0.3');
    await expectValue(page, 'true');
    // The value was `true` before too: wait for the tree of this expression.
    await page.waitForFunction(() => [...document.querySelectorAll('.explain code.t-text')]
      .some((e) => e.textContent.startsWith('MY.LoadAvg')), null, { timeout: 10_000 }).catch(() => {});
    const texts = await page.locator('.explain code.t-text').allTextContents();
    assert.ok(texts.includes('MY.LoadAvg < 0.3'), texts.join(' | '));
    assert.ok(!texts.some((t) => /E-01/.test(t)), texts.join(' | '));
  });
});

test('help in place: terms explain themselves on focus and hover, with a link to the help page', T, async () => {
  await scenario('term-help', async ({ page }) => {
    const mode = page.locator('header label.mode .term-help');
    assert.equal(await mode.getAttribute('aria-label'), 'What is the mode?');
    assert.equal(await mode.locator('.term-tip').isVisible(), false);
    await mode.focus();
    await mode.locator('.term-tip').waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await mode.locator('.term-tip').textContent(), /strict: plain libclassad/);
    assert.equal(await mode.locator('a').getAttribute('href'), 'help.html#modes');
    // The explain tree's and the scope's, by hover.
    const explain = page.locator('.evaluator h2 .term-help');
    await explain.hover();
    await explain.locator('.term-tip').waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await explain.locator('.term-tip').textContent(), /selection/);
    const help = await (await fetch(browser.server.url + 'help.html')).text();
    for (const id of ['modes', 'scope', 'explain', 'autocluster', 'gangs']) assert.match(help, new RegExp(`id="${id}"`));
  });
});

test('share link round trip into a fresh browser', T, async () => {
  const expr = 'strcat(MY.Name, " shares ", "<b>&amp;</b>")';
  let link;
  const context = await browser.chrome.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.server.url });
  await scenario('share-link-make', async ({ page }) => {
    await page.fill('#pool-text', TWO_ADS);
    await expectSummary(page, /^2 ads, 0 errors/);
    await page.selectOption('#my-ad', { label: 'machines / beta@e2e' });
    await setExpr(page, expr);
    await expectValue(page, '"beta@e2e shares <b>&amp;</b>"');
    await page.click('#share-menu > summary');
    await page.click('#share');
    const input = page.locator('.share-link');
    await input.waitFor({ state: 'visible', timeout: 5_000 });
    link = await input.inputValue();
    assert.match(await page.locator('.share-msg').textContent(), /copied/i);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link, 'the link is on the clipboard');
  }, { context });
  await context.close();
  assert.match(link, new RegExp(`^${browser.server.url.replace(/[.]/g, '\\.')}#s=2\\.`), 'the link points at this page');
  assert.ok(link.startsWith(browser.server.url));
  // A fresh context (no autosave) opening the link as its first page.
  await scenario('share-link-open', async ({ page }) => {
    assert.equal(await page.locator('#expr').inputValue(), expr);
    assert.equal(await page.locator('#pool-text').inputValue(), TWO_ADS);
    const tabs = await page.locator('.pool-tabs [role=tab]').allTextContents();
    assert.deepEqual(tabs, ['machines', 'jobs']);
    await expectValue(page, '"beta@e2e shares <b>&amp;</b>"');
    assert.equal(await page.locator('.notice').count(), 0, 'no error notice');
  }, { hash: link.slice(browser.server.url.length) });
});

test('prefill links built by URLSearchParams and encodeURIComponent open as written; Copy link and Embed snippet give them back', T, async () => {
  const expr = 'regexp("^slot1@", Name) && MY.Memory > 1024 + 2';
  const my = '[ Name = "slot1@node"; Memory = 2048 ]';
  const target = '[ Owner = "alice" ]';
  // What course authors write: URLSearchParams (a space as +, a plus as %2B) …
  const form = new URLSearchParams({ expr, my, target }).toString();
  assert.match(form, /\+%3E\+1024\+%2B\+2/);
  await scenario('prefill-urlsearchparams', async ({ page }) => {
    assert.equal(await page.locator('#expr').inputValue(), expr);
    await expectValue(page, 'true');
  }, { hash: '#' + form });
  // … or encodeURIComponent (a space as %20, a plus as %2B).
  const encoded = `expr=${encodeURIComponent(expr)}&my=${encodeURIComponent(my)}&target=${encodeURIComponent(target)}`;
  const context = await browser.chrome.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: browser.server.url });
  let link;
  let snippet;
  await scenario('prefill-copy-link', async ({ page }) => {
    assert.equal(await page.locator('#expr').inputValue(), expr);
    await expectValue(page, 'true');
    // Copy link: the readable link of what shows, on the clipboard.
    await page.click('#share-menu > summary');
    await page.click('#copy-prefill');
    await page.locator('.share-msg').waitFor({ timeout: 5_000 });
    link = await page.locator('.share-link').inputValue();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    assert.ok(link.startsWith(browser.server.url + '#expr='), link);
    await page.setViewportSize({ width: 1400, height: 900 });
    await screenshot(page, 'prefill-copy-link-1400');
    await page.click('#share-menu > summary');
    await page.click('#embed-snippet');
    await page.locator('textarea.share-link').waitFor({ timeout: 5_000 });
    snippet = await page.locator('textarea.share-link').inputValue();
    await page.setViewportSize({ width: 420, height: 900 });
    await screenshot(page, 'prefill-embed-snippet-420');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling at 420 px (${overflow} px)`);
  }, { hash: '#' + encoded, context });
  await context.close();
  assert.match(snippet, /^<div data-classad-expr="regexp\(&quot;\^slot1@&quot;, Name\) &amp;&amp; MY\.Memory &gt; 1024 \+ 2" data-my="\[ Name = &quot;slot1@node&quot;; Memory = 2048 \]" data-target="\[ Owner = &quot;alice&quot; \]" data-playground="[^"]+"><\/div>\n<script type="module" src="embed\/classad-widget\.js"><\/script>$/);
  // Its "Open in playground" leads to the playground, not back to the course page.
  assert.equal(snippet.match(/data-playground="([^"]+)"/)[1], browser.server.url);
  // The copied link opens the same expression and ads in a fresh browser.
  await scenario('prefill-copied-link-opens', async ({ page }) => {
    assert.equal(await page.locator('#expr').inputValue(), expr);
    assert.deepEqual(await page.locator('.pool-tabs [role=tab]').allTextContents(), ['my', 'target']);
    await expectValue(page, 'true');
  }, { hash: link.slice(browser.server.url.length) });
});

test('a corrupt link says so and keeps the autosaved work', T, async () => {
  const context = await browser.chrome.newContext();
  try {
    const mine = TWO_ADS + '// my unsaved-looking work\n';
    await scenario('corrupt-link-before', async ({ page }) => {
      await page.fill('#pool-text', mine);
      await expectSummary(page, /^2 ads/);
      await page.waitForTimeout(300); // let autosave run
    }, { context });
    await scenario('corrupt-link', async ({ page }) => {
      const notice = page.locator('.notice');
      await notice.waitFor({ state: 'visible', timeout: 5_000 });
      assert.match(await notice.textContent(), /damaged or incomplete/);
      assert.match(await notice.textContent(), /Your own work is untouched/);
      assert.equal(await page.locator('#pool-text').inputValue(), mine, 'the autosaved pool text is back');
    }, { context, hash: '#s=1.0.1.0.garbage' });
    // And it stays: the next visit still has the work.
    await scenario('corrupt-link-after', async ({ page }) => {
      assert.equal(await page.locator('#pool-text').inputValue(), mine);
      assert.equal(await page.locator('.notice').count(), 0);
    }, { context });
  } finally {
    await context.close();
  }
});

test('a share link changed in transit is refused by its checksum, and opens nothing else', T, async () => {
  const { deflateSync } = await import('node:zlib');
  const json = JSON.stringify({ engine: '0.1.0', state: { pools: [{ name: 'm', text: '[ Name = "sent"; x = 1 ]' }], expr: 'MY.x + 41' } });
  const payload = deflateSync(Buffer.from(json)).toString('base64url');
  // The good link opens.
  await scenario('link-checksum-good', async ({ page }) => {
    await expectValue(page, '42');
  }, { hash: `#s=2.0.1.0.${payload}` });
  // One character changed in the middle: refused, with why.
  const i = Math.floor(payload.length / 2);
  const bad = payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1);
  await scenario('link-checksum-bad', async ({ page }) => {
    const notice = page.locator('.notice');
    await notice.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await notice.textContent(), /damaged or incomplete/);
    assert.notEqual(await page.locator('#expr').inputValue(), 'MY.x + 41', 'the changed link opened nothing');
  }, { hash: `#s=2.0.1.0.${bad}` });
});

test('a link from a newer version says so', T, async () => {
  await scenario('future-link', async ({ page }) => {
    const notice = page.locator('.notice');
    await notice.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await notice.textContent(), /newer version of the playground/);
    // The default workbench is still usable.
    await expectValue(page, 'true');
  }, { hash: '#s=99.1.0.0.AAAA' });
});

test('autosave restores the work after a reload', T, async () => {
  await scenario('autosave-reload', async ({ page }) => {
    await page.fill('#pool-text', TWO_ADS);
    await expectSummary(page, /^2 ads/);
    await page.selectOption('#my-ad', { label: 'machines / alpha@e2e' });
    await setExpr(page, 'MY.Memory + 1');
    await expectValue(page, '1025');
    await page.waitForTimeout(300);
    await page.reload();
    await ready(page);
    assert.equal(await page.locator('#pool-text').inputValue(), TWO_ADS);
    assert.equal(await page.locator('#expr').inputValue(), 'MY.Memory + 1');
    await expectValue(page, '1025');
  });
});

test('HTML inside an ad is shown as text, never run', T, async () => {
  const name = '<img src=x onerror=window.__pwned=1><script>window.__pwned=2</script>';
  await scenario('html-as-text', async ({ page, problems }) => {
    await page.fill('#pool-text', `[ Name = "${name}"; Memory = 1 ]\n`);
    await expectSummary(page, /^1 ads?, 0 errors/);
    const label = page.locator('.ad-list li .ad-label').first();
    assert.ok((await label.textContent()).includes('<script>'), 'the label shows the markup as text');
    await page.selectOption('#my-ad', { index: 1 });
    await setExpr(page, 'MY.Name');
    await expectValue(page, JSON.stringify(name));
    await page.waitForTimeout(500); // an injected <img> would have fired onerror by now
    assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined');
    assert.equal(await page.locator('img, body script:not([src])').count(), 0, 'no element was injected');
    assert.deepEqual(problems.filter((p) => /\/x\b/.test(p)), [], 'nothing requested src=x');
  });
});

test('gallery entry loads into the workbench', T, async () => {
  await scenario('gallery', async ({ page }) => {
    await page.click('nav .tab:has-text("Examples")');
    const card = page.locator('#ex-000-fig2-3');
    await card.waitFor({ state: 'visible' });
    await screenshot(page, 'gallery-view');
    await card.locator('button:has-text("Open")').click();
    await page.locator('#expr').waitFor({ state: 'visible' });
    await expectValue(page, 'true');
    assert.equal(await page.locator('#expr').inputValue(), 'MY.Requirements && TARGET.Requirements');
    assert.deepEqual(await page.locator('.pool-tabs [role=tab]').allTextContents(), ['machine', 'job']);
  });
});

test('deep link #example=000-fig2-3 opens the example', T, async () => {
  await scenario('deep-link-example', async ({ page }) => {
    await expectValue(page, 'true');
    assert.equal(await page.locator('#expr').inputValue(), 'MY.Requirements && TARGET.Requirements');
    assert.deepEqual(await page.locator('.pool-tabs [role=tab]').allTextContents(), ['machine', 'job']);
    assert.equal(await page.locator('.notice').count(), 0);
  }, { hash: '#example=000-fig2-3' });
});

test('a link followed in an already open playground is applied', T, async () => {
  // Clicking a gallery deep link, or pasting a link into the address bar
  // of an open playground tab, only changes the fragment (no reload).
  await scenario('link-in-open-tab', async ({ page }) => {
    await page.click('nav .tab:has-text("Examples")');
    await page.locator('#ex-000-fig2-3 a.deep-link').click();
    await page.locator('#expr').waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => assert.fail('following #example=000-fig2-3 in the open tab did not open the example'));
    assert.equal(await page.locator('#expr').inputValue(), 'MY.Requirements && TARGET.Requirements');
    await expectValue(page, 'true');
  });
});

test('Ctrl+Enter in the expression evaluates', T, async () => {
  await scenario('ctrl-enter', async ({ page }) => {
    // time() changes every second, so only a new evaluation changes the value.
    await setExpr(page, 'time()');
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('#value code')?.textContent ?? ''));
    const first = Number(await page.locator('#value code').textContent());
    await page.waitForTimeout(1_200);
    assert.equal(Number(await page.locator('#value code').textContent()), first, 'no evaluation without a key');
    await page.focus('#expr');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(
      (f) => Number(document.querySelector('#value code')?.textContent) > f, first, { timeout: 5_000 },
    ).catch(() => assert.fail('Ctrl+Enter did not re-evaluate'));
    assert.equal(await page.locator('#expr').inputValue(), 'time()', 'Ctrl+Enter inserts no newline');
  });
});
