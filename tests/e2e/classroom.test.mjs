// End-to-end tests of the classroom's lessons (issue 32, item 2): each
// step says which machines are idle and which claimed and by whom, when a
// job takes a claimed machine whose job it preempts and by which
// preemption, why a candidate is not eligible, and which earlier step took
// an idle job's machine; the docking vector has its legend; Play at the
// last step starts over; a job no machine accepts goes to the analyzer.
// The lessons' claims are checked against the engine in crate/tests/lessons.rs.
// Run: node --test tests/e2e/classroom.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/classroom-*.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserScenarios, textOf, screenshot } from './harness.mjs';

const scenario = browserScenarios();
const T = { timeout: 180_000 };

/** Open the negotiation view's classroom at its first step. */
async function classroom(page) {
  await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
  await page.click('#classroom');
  await textOf(page, '#class-step', /^Step 1 of/);
}

test('rank preemption: the step says whose job is preempted and why, and what was claimed', T, async () => {
  await scenario('classroom-rank', async ({ page }) => {
    await classroom(page);
    const result = await textOf(page, '#class-result', /preempting/);
    assert.equal(result, "Gets big@lab, preempting dave@lab's job (rank preemption: big@lab ranks this job 10, above the 0 of the job it runs): the best docking vector {0, 1, 49000.0} among 1 compatible machine (0 idle, 1 claimed).");
    assert.match(await page.locator('#class-claimed').textContent(), /big@lab runs dave@lab's job/);
    assert.match(await page.locator('#class-cands tr.chosen').textContent(), /★ chosen \(preempts dave@lab\)/);
    assert.match(await page.locator('#class-legend').textContent(), /2 = idle machine \/ 1 = rank preemption \/ 0 = priority preemption/);
    assert.equal(await page.locator('.class-cands .term-help').count(), 1, 'the vector has its "?"');
    await page.click('#class-next');
    await textOf(page, '#class-result', /^Gets small@lab, which is idle: the best docking vector \{0, 2, 0\} among 1 compatible machine\.$/);
    // Play at the last step starts over.
    await page.click('#class-play');
    await textOf(page, '#class-step', /^Step 1 of 2/, 5_000);
    await textOf(page, '#class-step', /^Step 2 of 2/, 10_000);
  }, { hash: '#example=lesson-rank-preemption' });
});

test('priority preemption, and a claimed machine neither preemption breaks, named with why', T, async () => {
  await scenario('classroom-priority', async ({ page }) => {
    await classroom(page);
    await textOf(page, '#class-result', /^Gets node1@lab, preempting dave@lab's job \(priority preemption: dave@lab's priority 50\.0 is worse than this job's user's 10\.0 by more than 10%\)/);
    const node2 = page.locator('#class-cands tr', { hasText: 'node2@lab' });
    assert.match(await node2.textContent(), /claimed by dave@lab; not eligible: the preemption policy is error: the machine is claimed and neither preemption applies/);
    await page.click('#class-next');
    await textOf(page, '#class-result', /^Gets no machine/);
  }, { hash: '#example=lesson-priority-preemption' });
});

test('an idle job: its one machine went to job 1.0 in step 1, in one sentence', T, async () => {
  await scenario('classroom-idle', async ({ page }) => {
    await classroom(page);
    assert.match(await page.locator('.class-taken').textContent(), /every machine is idle/);
    await page.click('#class-next');
    const result = await textOf(page, '#class-result', /^Gets no machine/);
    assert.equal(result, 'Gets no machine: its 1 compatible machine was taken earlier — big@lab went to job 1.0 in step 1.');
    await screenshot(page, 'classroom-idle-step2');
    const reason = await page.locator('#cycle-table tbody tr', { hasText: '2.0' }).locator('td.reason').textContent();
    assert.match(reason, /^Its 1 compatible machine was matched to an earlier job/);
  }, { hash: '#example=lesson-idle' });
});

test('a job no machine accepts: its row opens the analyzer on it', T, async () => {
  await scenario('classroom-no-machine', async ({ page }) => {
    await page.locator('#cycle-table tbody tr').first().waitFor({ timeout: 60_000 });
    const row = page.locator('#cycle-table tbody tr', { hasText: '2.0' });
    assert.match(await row.locator('td.reason').textContent(), /The job's requirements accept no machine/);
    await row.locator('button.why-analyze').click();
    await page.waitForFunction(() => document.querySelector('main[aria-label="Analyzer"]'), null, { timeout: 30_000 });
    await page.waitForFunction(() => /Memory/.test(document.querySelector('main[aria-label="Analyzer"]')?.textContent ?? ''), null, { timeout: 60_000 });
  }, { hash: '#example=lesson-no-machine' });
});

test('a link opens a lesson at a step; Escape closes the classroom', T, async () => {
  await scenario('classroom-link-step', async ({ page }) => {
    await textOf(page, '#class-step', /^Step 2 of 3: job 2\.0/, 60_000);
    await textOf(page, '#class-result', /^Gets no machine: its 1 compatible machine was taken earlier — big@lab went to job 1\.0 in step 1\.$/);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('#classroom-panel'), null, { timeout: 5_000 });
  }, { hash: '#example=lesson-idle&step=2' });
});

test('at 390 px the classroom scrolls inside itself, names unbroken', T, async () => {
  await scenario('classroom-390', async ({ page }) => {
    await textOf(page, '#class-step', /^Step 1 of 2/, 60_000);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page does not scroll sideways (${overflow} px)`);
    const broken = await page.$$eval('#class-cands td code', (cs) => cs.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent));
    assert.deepEqual(broken, [], 'no machine name breaks across lines');
  }, { hash: '#example=lesson-priority-preemption&step=1', viewport: { width: 390, height: 844 } });
});
