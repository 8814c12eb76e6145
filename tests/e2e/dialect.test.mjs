// End-to-end tests of the syntax the page reads in (issue 32, item 1): in
// HTCondor's syntax (the default) every entry point refuses what
// libclassad refuses — the expression, a pool line, the Query view's
// constraint, the embed module — and says what the seed papers' notation
// would read; the header's Syntax menu, a gallery figure and a prefill link
// pick the seed papers' notation, which reads `010` as 8.
// Run: node --test tests/e2e/dialect.test.mjs   (after `trunk build --release` and scripts/build-embed.sh)
// Screenshots: tests/e2e/screenshots/dialect-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { browserEnv, openPage, ready, scenarios, screenshot, textOf, cliBinary } from './harness.mjs';

const browser = browserEnv({ embed: true }); // a test opens dist/embed/, which may still be building (scripts/test.sh)
const T = { timeout: 180_000 };

const scenario = scenarios(() => browser);

/** What the page shows for `expr`: the value, or the failure's text. */
async function shown(page, expr) {
  await page.fill('#expr', expr);
  await page.waitForFunction((e) => {
    const v = document.querySelector('#value');
    return v && document.querySelector('#expr')?.value === e && !v.classList.contains('empty-prompt')
      && (v.querySelector('code') || v.classList.contains('v-error'));
  }, expr, { timeout: 20_000 });
  await page.waitForTimeout(300); // the answer for this text, not the one before
  // Read at once (a locator would wait for a <code> an error has not).
  return page.evaluate(() => {
    const v = document.querySelector('#value');
    const code = v.querySelector('code');
    return v.classList.contains('v-error') && !code ? v.textContent : code?.textContent ?? null;
  });
}

const CLI = cliBinary();
const cliEval = (expr, dialect = 'htcondor') =>
  spawnSync(CLI, ['eval', '--dialect', dialect, expr], { encoding: 'utf8' }).stdout.trim();

test('HTCondor syntax by default: 012, 0100, 1K, 0x10 are errors saying what the seed papers read, as the CLI says', T, async () => {
  await scenario('dialect-htcondor', async ({ page }) => {
    for (const [expr, seed] of [['012', 'octal, 10'], ['1K', '1024.0'], ['2G', '2147483648.0'], ['0x10', '16'], ['1 + 010', 'octal, 8']]) {
      const got = await shown(page, expr);
      assert.match(got, /is not a number in HTCondor/, `${expr}: ${got}`);
      assert.match(got, new RegExp(`in the seed papers' notation it is ${seed.replace('.', '\\.')}`), `${expr}: ${got}`);
      assert.match(cliEval(expr), /^PARSE_ERROR .*is not a number in HTCondor/, `the CLI refuses ${expr} too`);
    }
    assert.equal(await shown(page, '-012'), '-12', 'libclassad reads a negated padded integer');
    assert.equal(await page.locator('#dialect').inputValue(), 'htcondor');
    // A pool line HTCondor refuses is an error in the pool, not 64.
    await page.fill('#pool-text', '[ Name = "slot1"; RequestMemory = 0100; Memory = 512 ]\n');
    await textOf(page, '.diagnostics .summary', /1 error/);
    assert.match(await page.locator('.diagnostics li.diag-error').first().textContent(), /`0100` is not a number in HTCondor.*octal, 64/);
  });
});

test('the Syntax menu picks the seed papers\' notation: 010 is 8, 1K is 1024.0, and the pool reads again', T, async () => {
  await scenario('dialect-seed-menu', async ({ page }) => {
    await page.fill('#pool-text', '[ Name = "slot1"; RequestMemory = 0100; Memory = 512 ]\n');
    await textOf(page, '.diagnostics .summary', /1 error/);
    await page.selectOption('#dialect', 'seed');
    await textOf(page, '.diagnostics .summary', /^1 ads?, 0 errors/);
    assert.equal(await shown(page, '010'), '8');
    assert.equal(await shown(page, '1K'), '1.024000000000000E+03', 'a real, unparsed as libclassad writes it');
    assert.equal(await shown(page, '0x1f'), '31');
    assert.equal(cliEval('010', 'seed'), '8', 'the CLI agrees');
    // The choice is part of the work: kept across a reload.
    await page.reload();
    await ready(page);
    assert.equal(await page.locator('#dialect').inputValue(), 'seed');
    await page.selectOption('#dialect', 'htcondor');
    assert.match(await shown(page, '010'), /is not a number in HTCondor/);
  });
});

test('a gallery figure in the seed papers\' notation picks it and the menu says so', T, async () => {
  await scenario('dialect-gallery-seed', async ({ page }) => {
    await textOf(page, '.diagnostics .summary', /^1 ads?, 0 errors/, 30_000); // 31M reads
    assert.equal(await page.locator('#dialect').inputValue(), 'seed');
    assert.equal(await page.locator('label.syntax.syntax-other').count(), 1, 'the menu is marked');
  }, { hash: '#example=000-fig2-3' });
  await scenario('dialect-gallery-htcondor', async ({ page }) => {
    assert.equal(await page.locator('#dialect').inputValue(), 'htcondor');
  }, { hash: '#example=modern-pool' });
});

test('a prefill link with dialect=seed opens in the seed notation; without it, HTCondor\'s', T, async () => {
  const q = new URLSearchParams({ expr: 'MY.Memory / 1K', my: '[ Memory = 2G ]', dialect: 'seed' });
  await scenario('dialect-prefill', async ({ page }) => {
    await page.waitForFunction(() => document.querySelector('#value code')?.textContent === '2.097152000000000E+06', null, { timeout: 20_000 });
    assert.equal(await page.locator('#dialect').inputValue(), 'seed');
  }, { hash: `#${q}` });
  q.delete('dialect');
  await scenario('dialect-prefill-htcondor', async ({ page }) => {
    await page.waitForFunction(() => /is not a number in HTCondor/.test(document.querySelector('#value')?.textContent ?? ''), null, { timeout: 20_000 });
  }, { hash: `#${q}` });
});

test('the embed module reads HTCondor\'s syntax unless told the seed papers\'', T, async () => {
  const ctx = await browser.chrome.newContext();
  const { page } = await openPage(ctx);
  try {
    await page.goto(`${browser.server.url}embed/index.html`);
    const got = await page.evaluate(async () => {
      const m = await import('./classad.js');
      return {
        htcondor: m.evaluate({ expr: '010' }),
        seed: m.evaluate({ expr: '010', dialect: 'seed' }),
        match: m.match({ job: '[ Requirements = TARGET.Memory >= 1K ]', machine: '[ Memory = 2048; Requirements = true ]' }),
        matchSeed: m.match({ job: '[ Requirements = TARGET.Memory >= 1K ]', machine: '[ Memory = 2048; Requirements = true ]', dialect: 'seed' }),
        bad: m.evaluate({ expr: '1', dialect: 'papers' }),
        link: m.prefillLink({ expr: '1K', dialect: 'seed' }, 'https://example.org/play/'),
      };
    });
    assert.equal(got.htcondor.ok, false);
    assert.match(got.htcondor.diagnostics[0].message, /`010` is not a number in HTCondor.*octal, 8/);
    assert.equal(got.seed.value, '8');
    assert.equal(got.match.ok, false);
    assert.equal(got.match.which, 'job');
    assert.equal(got.matchSeed.matched, true);
    assert.equal(got.bad.ok, false);
    assert.equal(got.link, 'https://example.org/play/#expr=1K&dialect=seed');
  } finally {
    await screenshot(page, 'dialect-embed').catch(() => {});
    await ctx.close();
  }
});
