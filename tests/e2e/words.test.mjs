// End-to-end tests of numbers and errors in people's words (issue 32,
// item 4): a "Why" sentence gives reals as people read them (0.5, not
// 5.000000000000000E-01) while the value line keeps libclassad's exact
// form; every error explanation names its cause — division by zero, an
// index out of range, a misspelt function and the one meant, a call with
// the wrong arguments — and the meta operators keep the spelling typed.
// Run: node --test tests/e2e/words.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/words-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserScenarios } from './harness.mjs';

const scenario = browserScenarios();
const T = { timeout: 180_000 };

/** The "Why" sentence under the value of `expr` (with MY `my`). */
async function why(page, expr, my) {
  if (my !== undefined) {
    await page.fill('#pool-text', my);
    await page.waitForFunction(() => /^1 ad/.test(document.querySelector('.diagnostics .summary')?.textContent ?? ''), null, { timeout: 20_000 });
    await page.selectOption('#my-ad', { index: 1 });
  }
  await page.fill('#expr', expr);
  await page.waitForFunction(() => /Why:/.test(document.querySelector('.why')?.textContent ?? ''), null, { timeout: 20_000 });
  await page.waitForTimeout(300);
  return (await page.locator('.why').first().textContent()).replace(/^Why:\s*/, '');
}

test('a false comparison of reals reads 0.5 < 0.3; the value line keeps the exact unparse', T, async () => {
  await scenario('words-reals', async ({ page }) => {
    const w = await why(page, 'Cpus > 0 && LoadAvg < 0.3', '[ LoadAvg = 0.5; Cpus = 2 ]\n');
    assert.match(w, /LoadAvg < 0\.3 is false: 0\.5 < 0\.3\./);
    assert.doesNotMatch(w, /E-01/);
    await page.fill('#expr', 'LoadAvg');
    await page.waitForFunction(() => document.querySelector('#value code')?.textContent === '5.000000000000000E-01', null, { timeout: 20_000 });
  });
});

test('each error says its cause', T, async () => {
  await scenario('words-errors', async ({ page }) => {
    const cases = [
      ['1 / 0', /1 \/ 0 is error: division by zero\./],
      ['{1, 2, 3}[5]', /index 5 is out of range: the list has 3 items \(0 to 2\)/],
      ['memeber(1, {1})', /memeber is not a function; did you mean member\?/],
      ['substr("abc")', /substr\(string, integer offset \[, integer length\]\) takes 2 or 3 arguments, given 1: "abc"/],
      ['"a" + 1', /operator \+ cannot combine a string \("a"\) and an integer \(1\)/],
    ];
    for (const [expr, re] of cases) {
      const w = await why(page, expr);
      assert.match(w, re, `${expr}: ${w}`);
    }
    // The tree says it at the node where the error starts.
    await page.fill('#expr', '2 * (1 / 0)');
    await page.locator('.explain .t-cause').first().waitFor({ timeout: 20_000 });
    assert.equal(await page.locator('.explain .t-cause').count(), 1);
    assert.match(await page.locator('.explain .t-cause').textContent(), /division by zero/);
  });
});

test('=?= stays =?= in the explain tree', T, async () => {
  await scenario('words-meta', async ({ page }) => {
    await page.fill('#expr', 'x =?= undefined');
    await page.waitForFunction(() => document.querySelector('#value code')?.textContent === 'true', null, { timeout: 20_000 });
    const texts = await page.locator('.explain .t-text').allTextContents();
    assert.ok(texts.some((t) => t.includes('x =?= undefined')), JSON.stringify(texts));
    assert.ok(!texts.some((t) => / is undefined/.test(t)), JSON.stringify(texts));
  });
});
