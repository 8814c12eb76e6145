// End-to-end tests of the gang view (issue 9) on the release build: every
// gang shown is the one `classad gang` makes for the same files and
// algorithm; a gang opens to its tree and its dockings explained (every
// constraint true); the classroom steps through the search; the comparison
// runs generated workloads in the worker and draws them; the index
// inspector lists the offers' rectangles.
//
// Screenshots: tests/e2e/screenshots/gang-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, browserScenarios, cliBinary } from './harness.mjs';

const T = { timeout: 300_000 };
const scenario = browserScenarios();

const CLI = cliBinary();
const FILES = {
  '001-fig8-gang': ['crate/tests/gang/fig8_requests.ads', 'crate/tests/gang/fig8_offers.ads'],
  '001-fig10-gang': ['crate/tests/gang/fig10_requests.ads', 'crate/tests/gang/fig10_offers.ads'],
  '001-fig11-gang': ['crate/tests/gang/fig11_requests.ads', 'crate/tests/gang/fig11_offers.ads'],
  '001-base-workload': ['www/examples/ads/gang_base/requests.ads', 'www/examples/ads/gang_base/offers.ads'],
};

/** `classad gang` lines for a gallery entry: [request, gang line or '-'] and the counters. */
function cli(entry, algorithm, seed = 1, extra = []) {
  const [req, off] = FILES[entry].map((f) => path.join(ROOT, f));
  // The gallery's gang figures are in the seed papers' notation (`64M`), as the page reads them.
  const out = execFileSync(CLI, ['gang', '--dialect', 'seed', '--algorithm', algorithm, '--seed', String(seed), ...extra, '--requests', req, '--offers', off], { encoding: 'utf8' });
  const lines = out.trim().split('\n');
  const counters = Object.fromEntries([...lines.pop().matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  return { rows: lines.map((l) => { const i = l.indexOf(' '); return [l.slice(0, i), l.slice(i + 1)]; }), counters };
}

/** The gang table as [request, gang line or '-']. */
async function shownRows(page) {
  await page.waitForSelector('#gang-table tbody tr', { timeout: 60_000 });
  return page.$$eval('#gang-table tbody tr', (trs) => trs.map((tr) => {
    const td = tr.querySelectorAll('td');
    const line = td[2].querySelector('.gang-line');
    return [td[1].textContent.trim(), line ? line.textContent.trim() : '-'];
  }));
}

async function chooseAlgorithm(page, name) {
  await page.selectOption('#gang-algorithm', name);
  await page.waitForFunction((n) => document.querySelector('#gang-summary')?.textContent.startsWith(n + ':'), name, { timeout: 60_000 });
}

for (const entry of Object.keys(FILES)) {
  test(`${entry}: every algorithm shows the CLI's gangs`, T, async () => {
    await scenario(`gang-${entry}`, async ({ page }) => {
      await page.waitForSelector('#gang-summary', { timeout: 60_000 });
      for (const [alg, label] of [['naive', 'naive'], ['lr', 'LR'], ['rl', 'RL'], ['lrc', 'LRC'], ['rlc', 'RLC'], ['dyn', 'DYN'], ['dyns', 'DYNS'], ['dynsr', 'DYNSR']]) {
        await chooseAlgorithm(page, label);
        const want = cli(entry, alg);
        assert.deepEqual(await shownRows(page), want.rows, `${entry} ${alg}`);
        const summary = await page.textContent('#gang-summary');
        const fmt = (n) => Number(n).toLocaleString('en-US');
        assert.match(summary, new RegExp(`${fmt(want.counters.evaluations)} evaluations?`), `${alg}: ${summary}`);
        assert.match(summary, new RegExp(`${fmt(want.counters.probes)} index probes?`), `${alg}: ${summary}`);
      }
    }, { hash: `#example=${entry}` });
  });
}

test('a gang opens to its tree and every docking explained, in Figure 32\'s environment', T, async () => {
  await scenario('gang-detail', async ({ page }) => {
    await page.waitForSelector('.gang-line', { timeout: 60_000 });
    await page.click('.gang-line');
    await page.waitForSelector('.docking', { timeout: 30_000 });
    assert.equal(await page.$$eval('.gang-tree .gang-node', (n) => n.length), 4);
    const edges = await page.$$eval('.gang-tree .gang-edge text', (t) => t.map((x) => x.textContent));
    assert.deepEqual(edges.sort(), ['cpu ⇄ other', 'license ⇄ other', 'other ⇄ request'].sort());
    const heads = await page.$$eval('.docking h4', (h) => h.map((x) => x.textContent));
    assert.equal(heads.length, 3);
    const values = await page.$$eval('.dock-side h5 span', (s) => s.map((x) => x.textContent));
    assert.deepEqual(values, Array(6).fill('true'));
    assert.ok(await page.$$eval('.docking .explain', (e) => e.length) >= 6, 'explain trees');
    await page.click('.gang-env summary');
    assert.match(await page.textContent('.gang-env pre'), /_ctx_0[\s\S]*_ad/);
  }, { hash: '#example=001-fig10-gang' });
});

test('the classroom steps through the search', T, async () => {
  await scenario('gang-steps', async ({ page }) => {
    await page.waitForSelector('#gang-summary', { timeout: 60_000 });
    await chooseAlgorithm(page, 'DYN');
    await page.click('button[title^="The search one step"]');
    await page.waitForSelector('#gang-steps li', { timeout: 30_000 });
    const total = Number((await page.textContent('#gang-step-at')).match(/of (\d+)/)[1]);
    assert.ok(total > 20, `steps: ${total}`);
    for (let i = 0; i < 8; i++) await page.click('#gang-next');
    assert.match(await page.textContent('#gang-step-at'), /^step 9 of/);
    const text = await page.textContent('#gang-steps');
    assert.match(text, /Request job0/);
    assert.match(text, /ports are filled in the order|initial probe found no candidate/);
    assert.match(text, /Probe the index for/);
  }, { hash: '#example=001-base-workload' });
});

test('the comparison runs generated workloads in the worker and draws them', T, async () => {
  await scenario('gang-compare', async ({ page }) => {
    await page.waitForSelector('#gang-summary', { timeout: 60_000 });
    await page.click('button[title^="Generated workloads"]');
    await page.fill('#gang-sizes', '60, 120');
    await page.click('#run-compare');
    await page.waitForSelector('#gang-compare-table tbody tr', { timeout: 120_000 });
    const rows = await page.$$eval('#gang-compare-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((t) => t.textContent)));
    assert.equal(rows.length, 10, '2 sizes × 5 algorithms');
    // The same workloads through the CLI (file order, as the thesis'
    // experiments): every counter agrees.
    for (const [jobs, alg, gangs, evaluations, probes, backtracks] of rows) {
      const dir = path.join(ROOT, 'target', `e2e-gang-${jobs}`);
      execFileSync(CLI, ['workload', 'gang', '--jobs', jobs, '--licenses-percent', '50', '--selectivity', '4', '--seed', '1', '--out', dir]);
      const out = execFileSync(CLI, ['gang', '--file-order', '--algorithm', alg.toLowerCase(), '--seed', '1', '--requests', path.join(dir, 'requests.ads'), '--offers', path.join(dir, 'offers.ads')], { encoding: 'utf8' });
      const c = Object.fromEntries([...out.trim().split('\n').pop().matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
      const n = (s) => s.replace(/,/g, '');
      assert.deepEqual([n(gangs), n(evaluations), n(probes), n(backtracks)], [c.gangs, c.evaluations, c.probes, c.backtracks], `${jobs} ${alg}`);
    }
    assert.equal(await page.$$eval('.gang-chart polyline', (p) => p.length), 5);
    await page.selectOption('#gang-metric', 'gangs');
    assert.equal(await page.$$eval('.gang-chart polyline', (p) => p.length), 5);
  }, { hash: '#example=001-base-workload' });
});

test('the index inspector lists the offers\' rectangles', T, async () => {
  await scenario('gang-index', async ({ page }) => {
    await page.waitForSelector('#gang-summary', { timeout: 60_000 });
    await page.click('button[title^="The offers\' constraints"]');
    await page.waitForSelector('#gang-index-table tbody tr', { timeout: 30_000 });
    const rows = await page.$$eval('#gang-index-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((t) => t.textContent)));
    assert.equal(rows.length, 18);
    assert.deepEqual(rows[0].slice(0, 2), ['m0', 'Job']);
    assert.match(rows[0][2], /MemoryReqs < 1\.?\d*/);
    assert.ok(rows.some((r) => /HostId in \[0, 6\)/.test(r[2])), rows.map((r) => r[2]).join('\n'));
  }, { hash: '#example=001-base-workload' });
});

test('the gang view at 420 px in the dark', T, async () => {
  await scenario('gang-narrow-dark', async ({ page }) => {
    await page.waitForSelector('.gang-line', { timeout: 60_000 });
    await page.click('.gang-line');
    await page.waitForSelector('.docking', { timeout: 30_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scroll of the page (${overflow} px)`);
  }, { hash: '#example=001-fig8-gang', colorScheme: 'dark', viewport: { width: 420, height: 900 } });
});

test('policy: a docking vector and a root ordering expression, as the CLI applies them', T, async () => {
  await scenario('gang-policy', async ({ page }) => {
    await page.waitForSelector('.gang-line', { timeout: 60_000 });
    const [req, off] = FILES['001-fig8-gang'].map((f) => path.join(ROOT, f));
    const want = execFileSync(CLI, ['gang', '--dialect', 'seed', '--docking-vector', '-label.MIPS', '--requests', req, '--offers', off], { encoding: 'utf8' }).split('\n')[0];
    assert.equal(want, 'raman Host1=m3 Host2=m2');
    await page.fill('#gang-docking-vector', '-label.MIPS');
    await page.press('#gang-docking-vector', 'Enter');
    await page.waitForFunction(() => document.querySelector('.gang-line')?.textContent === 'Host1=m3 Host2=m2', null, { timeout: 30_000 });
    // A vector whose component errs for every pair leaves no eligible candidate.
    await page.fill('#gang-docking-vector', 'label.MIPS > 150 ? 1 : error');
    await page.press('#gang-docking-vector', 'Enter');
    await page.waitForFunction(() => /no gang among the free offers/.test(document.querySelector('#gang-table tbody')?.textContent ?? ''), null, { timeout: 30_000 });
    // A vector that does not parse: said where.
    await page.fill('#gang-docking-vector', 'label.MIPS +');
    await page.press('#gang-docking-vector', 'Enter');
    await page.waitForFunction(() => /The run failed: docking vector: column \d+/.test(document.body.textContent), null, { timeout: 30_000 });
    // Root order on the base workload: the CLI's order.
    await page.fill('#gang-docking-vector', '');
    await page.press('#gang-docking-vector', 'Enter');
  }, { hash: '#example=001-fig8-gang' });
  await scenario('gang-root-order', async ({ page }) => {
    await page.waitForSelector('.gang-line', { timeout: 60_000 });
    await page.fill('#gang-root-order', '-size(Name)');
    await page.press('#gang-root-order', 'Enter');
    const want = cli('001-base-workload', 'naive', 1, ['--root-order', '-size(Name)']);
    await page.waitForFunction((first) => document.querySelector('#gang-table tbody tr td:nth-child(2)')?.textContent === first, want.rows[0][0], { timeout: 30_000 });
    assert.deepEqual(await shownRows(page), want.rows);
  }, { hash: '#example=001-base-workload' });
});
