// End-to-end tests of the Query view (condor_status -constraint in the
// playground) on the release build (dist/) in headless Chromium, checked
// against `classad query` where the CLI is built.
// Run: node --test tests/e2e/query.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/query-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, browserScenarios, textOf, stateLink, cliBinary as cli } from './harness.mjs';

const T = { timeout: 300_000 };
const scenario = browserScenarios();

/** The table's rows as arrays of cell texts (without the # column). */
async function tableRows(page) {
  return page.$$eval('#query-table tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(1).map((c) => c.textContent.trim())));
}

const POOL = path.join(ROOT, 'www/examples/ads/004_status_pool.classad');

test("the manual's query: the machines it selects, its summary table, and why one matched", T, async () => {
  await scenario('query-manual', async ({ page }) => {
    await textOf(page, '#query-summary', /^29 of 40 ads match/);
    const total = await page.locator('#query-summary-table tr.total').textContent();
    assert.match(total.replace(/\s+/g, ' '), /Total\s*29\s*0\s*28\s*1\s*0\s*0\s*0\s*0/);
    const rows = await tableRows(page);
    assert.equal(rows.length, 29);
    const bin = cli();
    const out = execFileSync(bin, ['query', POOL, '--constraint', 'KeyboardIdle > 20*60 && Memory > 100',
      '--af', 'Name', 'Arch', 'OpSys', 'State', 'Memory', 'KeyboardIdle'], { encoding: 'utf8' });
    assert.deepEqual(rows.map((r) => r.slice(1).join(' ')), out.trim().split('\n'), 'the CLI lists the same rows');
    // Why the third row matched: its explain tree, then open it as MY.
    const name = rows[2][0];
    await page.locator('#query-table tbody tr').nth(2).locator('button').click();
    await textOf(page, '#query-explain h3', new RegExp(`^${name.replace(/\./g, '\\.')}: the constraint is true — it matches`));
    assert.ok(await page.locator('#query-explain .explain li').count() > 3);
    await page.click('#query-open-my');
    await page.waitForSelector('#value');
    const my = await page.$eval('#my-ad', (s) => s.options[s.selectedIndex].textContent);
    assert.match(my, new RegExp(name.replace(/\./g, '\\.')));
  }, { hash: '#example=004-query-idle' });
});

test('Download JSON gives typed values, as classad query --json does', T, async () => {
  await scenario('query-download-json', async ({ page }) => {
    await textOf(page, '#query-summary', /^29 of 40 ads match/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download JSON")')]);
    const got = JSON.parse(await streamText(await download.createReadStream()));
    assert.equal(got.length, 29);
    const first = got[0];
    assert.equal(typeof first.Memory, 'number', JSON.stringify(first));
    assert.equal(typeof first.KeyboardIdle, 'number');
    assert.equal(typeof first.Name, 'string');
    const bin = cli();
    const columns = ['Name', 'Arch', 'OpSys', 'State', 'Memory', 'KeyboardIdle'];
    const out = JSON.parse(execFileSync(bin, ['query', POOL, '--constraint', 'KeyboardIdle > 20*60 && Memory > 100',
      '--json', '--af', ...columns], { encoding: 'utf8' }));
    assert.deepEqual(got.map((row) => columns.map((c) => row[c])), out.rows, 'the CLI gives the same typed rows');
  }, { hash: '#example=004-query-idle' });
});

async function streamText(stream) {
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

test('sorting, columns, errors in place, and the generic ad found with regexp', T, async () => {
  await scenario('query-edit', async ({ page }) => {
    await textOf(page, '#query-summary', /^29 of 40 ads match/);
    // Sort by Memory: ascending, then descending.
    const memoryHead = page.locator('#query-table thead th', { hasText: 'Memory' }).locator('button');
    await memoryHead.click();
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort="ascending"]'));
    let mem = (await tableRows(page)).map((r) => Number(r[5]));
    assert.deepEqual(mem, [...mem].sort((a, b) => a - b));
    await page.locator('#query-table thead th', { hasText: 'Memory' }).locator('button').click();
    await page.waitForFunction(() => document.querySelector('#query-table thead th[aria-sort="descending"]'));
    mem = (await tableRows(page)).map((r) => Number(r[5]));
    assert.deepEqual(mem, [...mem].sort((a, b) => b - a));
    // A new column, typed.
    await page.fill('#query-new-column', 'Memory * 2');
    await page.press('#query-new-column', 'Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('#query-table thead th')].some((th) => th.textContent.includes('Memory * 2')));
    const r0 = (await tableRows(page))[0];
    assert.equal(Number(r0[r0.length - 1]), 2 * Number(r0[5]));
    // A constraint that does not parse: said where, and the last result stays.
    await page.fill('#query-constraint', 'Memory > ');
    await textOf(page, '#query-error', /^The constraint does not parse: 1:\d+: /);
    assert.ok(await page.locator('.editor:has(#query-constraint) .mk-error').count() > 0, 'underlined in place');
    // The rows still shown say they are from the last question that parsed.
    await textOf(page, '#query-stale', /does not parse: these rows are from the last question that did/);
    assert.equal(await page.locator('.query-results.stale').count(), 1, 'dimmed');
    await page.fill('#query-constraint', 'Memory <= 100');
    await page.locator('#query-error').waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('#query-stale').waitFor({ state: 'detached', timeout: 20_000 });
    const small = execFileSync(cli() ?? 'true', cli() ? ['query', POOL, '--constraint', 'Memory <= 100', '--af', 'Name'] : [], { encoding: 'utf8' });
    if (cli()) await textOf(page, '#query-summary', new RegExp(`^${small.trim().split('\n').length} of 40 ads match`));
  }, { hash: '#example=004-query-idle' });
  await scenario('query-any', async ({ page }) => {
    await textOf(page, '#query-summary', /^1 of 41 ads match/);
    assert.deepEqual(await tableRows(page), [['random-test', 'Generic', 'undefined', 'random-test']]);
  }, { hash: '#example=004-query-any', colorScheme: 'dark' });
});

test('a share link carries the query; big results are paged', T, async () => {
  let text = '';
  for (let i = 0; i < 2500; i++) text += `[ Name = "m${i}"; MyType = "Machine"; Arch = "${i % 3 ? 'X86_64' : 'ARM'}"; OpSys = "LINUX"; State = "Unclaimed"; Memory = ${i} ]\n`;
  const link = stateLink({
    pools: [{ name: 'big', text }],
    view: 'query',
    query: { pool: 0, spec: { constraint: 'Memory % 2 == 0', columns: ['Name', 'Memory'], sort: 1, descending: true } },
  });
  await scenario('query-paged', async ({ page }) => {
    await textOf(page, '#query-summary', /^1,250 of 2,500 ads match/);
    assert.equal(await page.$eval('#query-constraint', (t) => t.value), 'Memory % 2 == 0');
    let rows = await tableRows(page);
    assert.equal(rows.length, 100);
    assert.deepEqual(rows[0], ['m2498', 'm2498', '2498']);
    // The last page comes from the worker when it is shown.
    await page.click('.pager button:has-text("Next")');
    await textOf(page, '.pager span', /^page 2 of 13/);
    await page.waitForFunction(() => document.querySelector('#query-table tbody tr td:nth-child(2)')?.textContent === 'm2298');
    for (let i = 0; i < 11; i++) await page.click('.pager button:has-text("Next")');
    await page.waitForFunction(() => document.querySelectorAll('#query-table tbody tr').length === 50
      && document.querySelector('#query-table tbody tr:last-child td:nth-child(2)')?.textContent === 'm0');
    const sum = await page.locator('#query-summary-table tr.total').textContent();
    assert.match(sum.replace(/\s+/g, ' '), /Total\s*1,250/);
  }, { hash: link });
});
