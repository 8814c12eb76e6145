// Every view, light and dark, at 1400 px and 420 px wide: it opens (the
// views but the workbench and the gallery come from the second wasm
// module), the page never scrolls sideways, and nothing is reported on
// the console. Screenshots: tests/e2e/screenshots/views-<view>-<width>-<scheme>.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserScenarios } from './harness.mjs';

const T = { timeout: 600_000 };
const scenario = browserScenarios();

// (view, the example it opens with, a tab to click once the example is
// open — the worker sends it, and it replaces what shows — and what shows
// the view drew its answer, not only its frame)
const VIEWS = [
  ['workbench', '000-fig2-3', null, '#value'],
  ['gallery', '000-fig2-3', ['#value', 'Examples'], 'main.gallery .card'],
  ['matrix', '000-matrix', null, '.views-root main canvas'],
  ['negotiation', '003-negotiation', null, '.views-root main #run-cycle'],
  ['clusters', '003-negotiation', ['.views-root main #run-cycle', 'Clusters'], '#cluster-table tbody tr'],
  ['analyzer', '000-eight', null, '#analysis-summary'],
  ['gangs', '001-fig8-gang', null, '#gang-table tbody tr'],
  ['query', '004-query-idle', null, '#query-table tbody tr'],
];

for (const [view, example, tab, drawn] of VIEWS) {
  test(`the ${view} view, light and dark, at 1400 and 420 px`, T, async () => {
    for (const width of [1400, 420]) {
      for (const colorScheme of ['light', 'dark']) {
        await scenario(`views-${view}-${width}-${colorScheme}`, async ({ page, problems }) => {
          if (tab) {
            await page.waitForSelector(tab[0], { timeout: 30_000 });
            await page.click(`nav .tab:has-text("${tab[1]}")`);
          }
          await page.waitForSelector(drawn, { timeout: 30_000 });
          await page.waitForTimeout(300);
          const over = await page.evaluate(() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth);
          assert.ok(over <= 0, `${view} at ${width} px (${colorScheme}) scrolls sideways by ${over} px`);
          assert.deepEqual(problems, [], `${view} at ${width} px (${colorScheme}): nothing on the console`);
        }, { hash: `#example=${example}`, colorScheme, viewport: { width, height: 900 } });
      }
    }
  });
}
