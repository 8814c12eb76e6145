// End-to-end tests of the matchmaking views (match matrix, pair detail,
// negotiation, classroom, auto-clusters) on the release build (dist/) in
// headless Chromium, checked against the `classad` CLI where it is built.
// Run: node --test tests/e2e/matchmaking.test.mjs   (after `trunk build --release`)
// Screenshots: tests/e2e/screenshots/mm-*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { screenshot, ROOT, browserScenarios, textOf, stateLink, cliBinary as cli } from './harness.mjs';

let scratch;
const T = { timeout: 300_000 };

const scenario = browserScenarios();

before(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'classad-mm-'));
});

after(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `s` as a literal inside a RegExp. */
function esc(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function write(name, text) {
  const f = path.join(scratch, name);
  writeFileSync(f, text);
  return f;
}

/** The top-level records of a pool in new syntax (skipping strings, quoted names and comments). */
function splitAds(text) {
  const ads = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (ch === "'") {
      for (i++; i < text.length && text[i] !== "'"; i++);
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (ch === '[') {
      if (depth++ === 0) start = i;
    } else if (ch === ']' && --depth === 0) {
      ads.push(text.slice(start, i + 1));
    }
  }
  return ads;
}

/** The pools of the open page's state (autosaved at once for small states). */
async function pools(page) {
  await page.waitForFunction(() => localStorage.getItem('classad-playground/autosave/v1'));
  return page.evaluate(() => JSON.parse(localStorage.getItem('classad-playground/autosave/v1')).pools);
}

/** Cell outcomes by the CLI: for each job × machine, do both Requirements accept? */
function cliMatrix(bin, jobs, machines) {
  const accepts = (my, target) => {
    // The papers' figures are in their notation (`31M`), as the gallery opens them.
    const out = execFileSync(bin, ['eval', '--dialect', 'seed', '--my', write('my.ad', my), '--target', write('target.ad', target), 'MY.Requirements'], { encoding: 'utf8' }).trim();
    return out === 'true' || (Number.isFinite(Number(out)) && Number(out) !== 0);
  };
  const names = ['both', 'job', 'machine', 'none'];
  return jobs.map((j) => machines.map((m) => names[(accepts(j, m) ? 0 : 1) | (accepts(m, j) ? 0 : 2)]));
}

/**
 * The outcome painted in matrix cells, by display position: 'both', 'job'
 * (only the job rejects), 'machine', 'none', 'pending', or the rgb() seen.
 */
async function cells(page, at) {
  return page.evaluate((at) => {
    const cv = document.querySelector('.matrix-canvas');
    const sc = document.querySelector('.matrix-scroll');
    if (!cv || !sc || !cv.width) return at.map(() => 'no canvas');
    const ctx = cv.getContext('2d');
    const ratio = cv.width / cv.clientWidth;
    const [left, top, cell] = ['left', 'top', 'cell'].map((k) => Number(cv.dataset[k]));
    const css = getComputedStyle(cv);
    const names = ['both', 'job', 'machine', 'none', 'pending'];
    const rgb = (hex) => {
      const h = hex.trim().replace('#', '');
      return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
    };
    const refs = names.map((n) => rgb(css.getPropertyValue(`--m-${n}`)));
    return at.map(([r, c]) => {
      const x = left + c * cell - sc.scrollLeft + cell / 2 - 1;
      const y = top + r * cell - sc.scrollTop + cell / 2 - 1;
      const d = ctx.getImageData(Math.floor(x * ratio), Math.floor(y * ratio), 1, 1).data;
      const k = refs.findIndex((ref) => ref.every((v, i) => Math.abs(v - d[i]) <= 3));
      return k >= 0 ? names[k] : `rgb(${d[0]},${d[1]},${d[2]})`;
    });
  }, at);
}

/** Wait until the cells of `grid`'s shape show `grid` (rows of outcomes). */
async function expectGrid(page, grid, timeout = 30_000) {
  const at = grid.flatMap((row, r) => row.map((_, c) => [r, c]));
  const want = grid.flat();
  const end = Date.now() + timeout;
  let got;
  while (Date.now() < end) {
    got = await cells(page, at);
    if (JSON.stringify(got) === JSON.stringify(want)) return;
    await page.waitForTimeout(150);
  }
  assert.deepEqual(got, want, 'matrix cells');
}

/** The centre of a matrix cell, in page coordinates. */
async function cellPoint(page, r, c) {
  const box = await page.locator('.matrix-scroll').boundingBox();
  const g = await page.evaluate(() => {
    const cv = document.querySelector('.matrix-canvas');
    const sc = document.querySelector('.matrix-scroll');
    return { left: +cv.dataset.left, top: +cv.dataset.top, cell: +cv.dataset.cell, sx: sc.scrollLeft, sy: sc.scrollTop };
  });
  return { x: box.x + g.left + c * g.cell - g.sx + g.cell / 2, y: box.y + g.top + r * g.cell - g.sy + g.cell / 2 };
}

async function clickCell(page, r, c) {
  const p = await cellPoint(page, r, c);
  await page.mouse.click(p.x, p.y);
}

// Figures 2 and 3 of seed 000 with variants (the gallery entry 000-matrix):
// jobs raman (Fig. 3), riffraff, solomon × machines foo (Fig. 2), busy, sun.
const MATRIX_000 = [
  ['both', 'machine', 'job'],
  ['machine', 'machine', 'none'],
  ['job', 'none', 'both'],
];

test('match matrix: colours agree with the CLI for a small known pool', T, async () => {
  await scenario('mm-matrix', async ({ page }) => {
    await textOf(page, '#matrix-summary', /^3 jobs × 3 machines = 9 pairs\. 2 of the jobs and 2 of the machines have a mutual match; 2 pairs match both ways\./);
    await expectGrid(page, MATRIX_000);
    assert.equal(await page.locator('.legend li').count(), 5, 'the legend names every colour');
    const bin = cli();
    const [machines, jobs] = (await pools(page)).map((p) => splitAds(p.text));
    assert.equal(jobs.length, 3);
    assert.deepEqual(cliMatrix(bin, jobs, machines), MATRIX_000, 'the CLI agrees cell by cell');
  }, { hash: '#example=000-matrix' });
});

test('match matrix: hover shows both ranks; a click opens both Requirements with their traces', T, async () => {
  await scenario('mm-pair', async ({ page }) => {
    await expectGrid(page, MATRIX_000);
    // The canvas has an accessible name that says what it draws.
    assert.equal(await page.getByRole('img', { name: /^Match matrix of 3 jobs × 3 machines, each cell coloured by outcome/ }).count(), 1);
    const p = await cellPoint(page, 0, 0);
    await page.mouse.move(p.x, p.y);
    const tip = await textOf(page, '.matrix-tip', /both accept/);
    assert.match(tip, /Job 1/);
    assert.match(tip, /foo\.cs\.wisc\.edu/);
    assert.match(tip, /The job's Rank of it: /);
    assert.match(tip, /Its Rank of the job: /);
    await screenshot(page, 'mm-matrix-hover');
    // riffraff's job × the Figure 2 workstation: the machine refuses riffraff.
    await clickCell(page, 1, 0);
    await textOf(page, '.pair-detail h2', /^Job 2 × machine foo\.cs\.wisc\.edu$/);
    await textOf(page, '#pair-job .value code', /^true$/);
    await textOf(page, '#pair-machine .value code', /^false$/);
    assert.match(await page.locator('#pair-machine .why').textContent(), /riffraff/);
    assert.match(await page.locator('.pair-outcome').textContent(), /only the machine rejects/);
    for (const side of ['#pair-job', '#pair-machine']) {
      assert.ok((await page.locator(`${side} .explain li.tnode`).count()) >= 3, `${side} has an explain tree`);
    }
    // A node of the tree shows its source text from the pool.
    await page.locator('#pair-machine .explain summary').first().click();
    assert.match(await textOf(page, '#pair-machine .picked-source', /other\.Type == "Job"/), /In machine foo\.cs\.wisc\.edu/);
    // The arrow keys move to the next pair.
    await page.focus('.matrix-scroll');
    await page.keyboard.press('ArrowRight');
    await textOf(page, '.pair-detail h2', /^Job 2 × machine busy\.cs\.wisc\.edu$/);
  }, { hash: '#example=000-matrix' });
});

test('match matrix: filters and sorting work on whole-matrix counts', T, async () => {
  await scenario('mm-matrix-filtered', async ({ page }) => {
    await expectGrid(page, MATRIX_000);
    await page.selectOption('#row-filter', { label: 'with a match' });
    await textOf(page, '#matrix-summary', /Showing 2 × 3\./);
    await expectGrid(page, [MATRIX_000[0], MATRIX_000[2]]);
    // Machines by matches, most first (stable): foo (1), sun (1), busy (0).
    await page.selectOption('#col-sort', { label: 'most matches first' });
    await expectGrid(page, [['both', 'job', 'machine'], ['job', 'both', 'none']]);
    await page.selectOption('#col-filter', { label: 'without a match' });
    await expectGrid(page, [['machine'], ['none']]);
    await page.selectOption('#col-filter', { label: 'all' });
    // Fading leaves mutual matches as they are and mutes the rest.
    await page.check('#dim');
    await page.waitForTimeout(300);
    const [both, other] = await cells(page, [[0, 0], [0, 1]]);
    assert.equal(both, 'both');
    assert.match(other, /^rgb/, 'a faded cell is no longer the full colour');
  }, { hash: '#example=000-matrix' });
});

test('match matrix: time-dependent policies follow the chosen clock (seed 001, Figures 4-6)', T, async () => {
  await scenario('mm-matrix-clock', async ({ page }) => {
    // Jobs: Fig. 5, Fig. 6, calvin, riffraff; machines: Fig. 4 workstation, the 768 MB machine.
    assert.equal(await page.locator('#match-time').inputValue(), '2024-03-12T21:00');
    const night = [['both', 'both'], ['job', 'both'], ['both', 'both'], ['both', 'both']];
    await expectGrid(page, night);
    await page.fill('#match-time', '2024-03-12T14:00');
    await expectGrid(page, [['both', 'both'], ['job', 'both'], ['both', 'both'], ['machine', 'both']]);
    await screenshot(page, 'mm-matrix-clock-day');
    await page.selectOption('#match-clock', 'now');
    assert.equal(await page.locator('#match-time').count(), 0, 'the real clock has no time to pick');
  }, { hash: '#example=001-matrix' });
});

/** The cycle table's rows as [job id, machine] ('—' when unmatched): the id the CLI prints. */
async function cycleRows(page) {
  await page.locator('#cycle-table tbody tr').first().waitFor();
  return page.$$eval('#cycle-table tbody tr', (trs) => trs.map((tr) => [tr.cells[1].dataset.jobId, tr.cells[2].textContent.trim()]));
}

/** The cycle table's jobs as shown: the label the matrix gives them too. */
async function cycleLabels(page) {
  await page.locator('#cycle-table tbody tr').first().waitFor();
  return page.$$eval('#cycle-table tbody tr', (trs) => trs.map((tr) => tr.cells[1].textContent.trim()));
}

/** `classad match` as [job, machine] pairs in cycle order ('-' → '—'), with
 * the thesis' policy the page's cycle follows. */
function cliCycle(bin, args) {
  const out = execFileSync(bin, ['match', '--policy', 'thesis', ...args], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => l.split(' ')).map(([job, machine]) => [job, machine === '-' ? '—' : machine]);
}

test('negotiation: the cycle as a table, as the CLI runs it, with $$() filled in', T, async () => {
  await scenario('mm-negotiation-grid', async ({ page }) => {
    const row = page.locator('#cycle-table tbody tr').first();
    await row.waitFor();
    const text = await row.textContent();
    assert.match(text, /7\.0/);
    assert.match(text, /cdf-toronto\.cdf\.prd/);
    assert.match(text, /GlobusResource = "gk\.toronto\.example:2119\/jobmanager"/);
    assert.match(text, /Stage = "\/tmp"/);
    assert.equal(await row.locator('td').nth(3).textContent(), '120', "the job's rank: 120 files cached");
    const bin = cli();
    const grid = path.join(ROOT, 'tests/corpora/grid');
    assert.deepEqual(await cycleRows(page), cliCycle(bin, ['--jobs', `${grid}/jobs.classad`, '--machines', `${grid}/sites.classad`, '--functions', `${grid}/functions.classad`]));
  }, { hash: '#example=003-negotiation' });
  await scenario('mm-negotiation', async ({ page }) => {
    // The matrix' jobs, read from its table of the cells in sight.
    await page.click('#matrix-table-toggle');
    await page.locator('#matrix-table tbody th').first().waitFor();
    const matrixJobs = await page.$$eval('#matrix-table tbody th', (ths) => ths.map((t) => t.textContent.trim()));
    await page.click('nav .tab:has-text("Negotiation")');
    await textOf(page, '#cycle-summary', /^3 jobs considered: 2 matched, 1 not\./);
    const rows = await cycleRows(page);
    assert.deepEqual((await cycleLabels(page)).sort(), matrixJobs.sort(), 'a job has one name in the matrix and the cycle');
    const bin = cli();
    const [machines, jobs] = (await pools(page)).map((p) => write(`${p.name}.classad`, p.text));
    // The papers' figures (`31M`): the seed papers' notation, as the page reads them.
    assert.deepEqual(rows, cliCycle(bin, ['--dialect', 'seed', '--jobs', jobs, '--machines', machines, '--autocluster']), 'the CLI agrees');
    assert.deepEqual(rows, cliCycle(bin, ['--dialect', 'seed', '--jobs', jobs, '--machines', machines]), 'the naive cycle too');
    assert.deepEqual(rows.filter(([, m]) => m !== '—').sort(), [['1', 'foo.cs.wisc.edu'], ['3', 'sun.cs.wisc.edu']]);
    // Without auto-clustering: the same assignment.
    await page.uncheck('#autocluster');
    await textOf(page, '#cycle-summary', /without auto-clustering/);
    assert.deepEqual(await cycleRows(page), rows);
    await page.selectOption('#cycle-show', 'unmatched');
    assert.deepEqual(await cycleRows(page), [['2', '—']]);
    const reason = await page.locator('#cycle-table tbody tr td.reason').textContent();
    assert.match(reason, /^No machine's requirements accept the job/, "a sentence, not the CLI's slug");
    assert.doesNotMatch(reason, /machines-reject-job/);
  }, { hash: '#example=000-matrix' });
});

test('negotiation: the classroom steps one job at a time', T, async () => {
  await scenario('mm-classroom', async ({ page }) => {
    await page.click('nav .tab:has-text("Negotiation")');
    const order = await cycleRows(page);
    const labels = await cycleLabels(page);
    await page.click('#classroom');
    await textOf(page, '#class-step', new RegExp(`^Step 1 of 3: job ${esc(labels[0])}`));
    const chosen = page.locator('#class-cands tr.chosen');
    assert.match(await chosen.textContent(), new RegExp(`${order[0][1].replace(/\./g, '\\.')}.*★ chosen`));
    assert.match(await page.locator('.class-taken').textContent(), /Nothing yet/);
    await page.click('#class-next');
    await textOf(page, '#class-step', new RegExp(`^Step 2 of 3: job ${esc(labels[1])}`));
    assert.match(await page.locator('#class-result').textContent(), /^Gets no machine/);
    // The machine taken at step 1 is listed as consumed from now on.
    assert.match(await page.locator('#class-taken').textContent(), new RegExp(`${esc(order[0][1])} ← job ${esc(labels[0])}`));
    // From the keyboard: Next to the last step leaves the focus on Prev
    // (Next is disabled there), Prev back to the first on Next.
    await page.focus('#class-next');
    await page.keyboard.press('Enter');
    await textOf(page, '#class-step', /^Step 3 of 3/);
    await page.waitForFunction(() => document.activeElement?.id === 'class-prev', null, { timeout: 5_000 });
    await screenshot(page, 'mm-classroom-step3');
    await page.keyboard.press('Enter');
    await textOf(page, '#class-step', /^Step 2 of 3/);
    await page.keyboard.press('Enter');
    await textOf(page, '#class-step', /^Step 1 of 3/);
    await page.waitForFunction(() => document.activeElement?.id === 'class-next', null, { timeout: 5_000 });
    // Play walks on by itself and stops at the end.
    await page.click('#class-play');
    await textOf(page, '#class-step', /^Step 3 of 3/, 10_000);
    await textOf(page, '#class-play', /Play/, 5_000);
  }, { hash: '#example=000-matrix' });
});

test("negotiation: HTCondor's policy — a pasted priority table orders the submitters in the classroom, as the CLI", T, async () => {
  // Slots as condor_status -l prints them, no RemoteUserPrio: wn1 runs
  // bob's job and ranks alice's higher; wn2 is idle.
  const machines = ['Name = "slot1@wn1.lab"\nMyType = "Machine"\nCpus = 1\nMemory = 2048\nSlotID = 1\nState = "Claimed"\n'
    + 'RemoteUser = "bob@lab"\nRemoteOwner = "bob@lab"\nCurrentRank = 0.0\nRank = TARGET.Owner == "alice" ? 10 : 0\nRequirements = true\n',
  'Name = "slot1@wn2.lab"\nMyType = "Machine"\nCpus = 1\nMemory = 2048\nSlotID = 1\nState = "Unclaimed"\nRank = 0\nRequirements = true\n'].join('\n');
  const job = (c, who) => `ClusterId = ${c}\nProcId = 0\nMyType = "Job"\nOwner = "${who}"\nUser = "${who}@lab"\nQDate = 100\nJobPrio = 0\nRequirements = true\n`;
  const jobs = [job(1, 'alice'), job(2, 'carol')].join('\n');
  const link = stateLink({ pools: [{ name: 'machines', text: machines }, { name: 'jobs', text: jobs }], view: 'negotiation', matching: { htcondor: true } });
  const dir = mkdtempSync(path.join(tmpdir(), 'htcondor-policy-'));
  const m = path.join(dir, 'machines'), j = path.join(dir, 'jobs'), p = path.join(dir, 'prio');
  writeFileSync(m, machines);
  writeFileSync(j, jobs);
  const cliRows = (table, ...config) => {
    writeFileSync(p, table);
    return execFileSync(cli(), ['match', '--jobs', j, '--machines', m, '--userprio', p, ...config.flatMap((c) => ['--config', c])], { encoding: 'utf8' })
      .trim().split('\n').map((l) => l.split(' ')).map(([id, machine]) => [id, machine === '-' ? '—' : machine]);
  };
  await scenario('mm-htcondor-policy', async ({ page }) => {
    assert.equal(await page.locator('#policy').inputValue(), 'htcondor');
    // No table: both have a new user's priority (500), alice's name first;
    // alice's job takes wn1 by rank preemption, carol's the idle slot.
    await textOf(page, '#cycle-summary', /^2 jobs considered: 2 matched/);
    assert.deepEqual(await cycleRows(page), [['1.0', 'slot1@wn1.lab'], ['2.0', 'slot1@wn2.lab']]);
    assert.deepEqual(await cycleRows(page), cliRows(''), 'the CLI agrees');
    // The Rank column is the job's own Rank (none: 0), not the slot's 10.
    assert.equal(await page.locator('#cycle-table tbody tr').first().locator('td').nth(3).textContent(), '0');
    // carol's priority better than alice's: carol first. The idle slot
    // wins on NEGOTIATOR_PRE_JOB_RANK (unclaimed +1000000) over wn1, which
    // ranks carol 0 = CurrentRank: no preemption for her.
    const table = 'alice@lab 100\ncarol@lab 0.5\n';
    await page.locator('.userprio summary').click();
    await page.fill('#userprio', table);
    await page.locator('#userprio').dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('#cycle-table tbody tr td[data-job-id]')?.dataset.jobId === '2.0', null, { timeout: 20_000 });
    const rows = await cycleRows(page);
    assert.deepEqual(rows, [['2.0', 'slot1@wn2.lab'], ['1.0', 'slot1@wn1.lab']]);
    assert.deepEqual(rows, cliRows(table), 'the CLI agrees');
    await page.click('#classroom');
    await textOf(page, '#class-step', /^Step 1 of 2: job 2\.0/);
    await page.click('#class-next');
    await textOf(page, '#class-step', /^Step 2 of 2: job 1\.0/);
    await textOf(page, '.classroom', /rank preemption: slot1@wn1\.lab ranks this job 10 > CurrentRank 0 of bob@lab's job/);
    await screenshot(page, 'mm-htcondor-classroom');
    // A knob changed in the page: no preemption considered, alice's job
    // gets nothing (wn1 stays bob's), as the CLI with the same --config.
    await page.locator('.knobs summary').click();
    assert.equal(await page.locator('#knob-PREEMPTION_REQUIREMENTS').inputValue(), 'False', "HTCondor 25's default");
    await page.fill('#knob-NEGOTIATOR_CONSIDER_PREEMPTION', 'false');
    await page.locator('#knob-NEGOTIATOR_CONSIDER_PREEMPTION').dispatchEvent('change');
    await textOf(page, '#cycle-summary', /^2 jobs considered: 1 matched, 1 not/, 20_000);
    const off = await cycleRows(page);
    assert.deepEqual(off, [['2.0', 'slot1@wn2.lab'], ['1.0', '—']]);
    assert.deepEqual(off, cliRows(table, 'NEGOTIATOR_CONSIDER_PREEMPTION=false'), 'the CLI agrees');
    await textOf(page, '.knobs summary', /1 changed from HTCondor 25's defaults/);
    // A table that does not read is refused with its place.
    await page.fill('#userprio', 'alice@lab lots\n');
    await page.locator('#userprio').dispatchEvent('change');
    await textOf(page, '.status.v-error', /line 1, column 11: the priority `lots` is not a number/, 20_000);
  }, { hash: link });
});

test('auto-clusters: significant attributes, clusters and the reduction, as the CLI clusters', T, async () => {
  // Twelve jobs of three kinds (ImageSize drifting inside the 20% step).
  const kinds = [['alice', 'INTEL'], ['bob', 'INTEL'], ['carol', 'SUN4u']];
  let jobs = '';
  kinds.forEach(([owner, arch], k) => {
    for (let p = 0; p < 4; p++) {
      jobs += `[ MyType = "Job"; ClusterId = ${k + 1}; ProcId = ${p}; Owner = "${owner}"; ImageSize = ${100000 + p * 10};\n  Requirements = TARGET.Arch == "${arch}" && TARGET.Memory * 1024 > ImageSize ]\n`;
    }
  });
  const machines = '[ MyType = "Machine"; Name = "m1"; Arch = "INTEL"; Memory = 512; Requirements = TARGET.Owner != "bob" ]\n'
    + '[ MyType = "Machine"; Name = "m2"; Arch = "SUN4u"; Memory = 256; Requirements = TARGET.ImageSize < 200000 ]\n';
  const link = stateLink({ pools: [{ name: 'machines', text: machines }, { name: 'jobs', text: jobs }], view: 'clusters' });
  await scenario('mm-clusters', async ({ page }) => {
    const red = await textOf(page, '#reduction', /12\s*jobs.*3\s*auto-clusters/s);
    assert.match(red, /75\.0% of the work saved/);
    const chips = await page.locator('#significant .chip').allTextContents();
    // Spelled as the ads write them (the clustering itself folds case).
    assert.ok(chips.includes('Owner') && chips.includes('ImageSize'), `significant: ${chips}`);
    const rows = page.locator('#cluster-table tbody tr');
    assert.equal(await rows.count(), 3);
    assert.match(await rows.first().textContent(), /Owner = "alice"/);
    const bin = cli();
    const out = execFileSync(bin, ['autocluster', '--jobs', write('ac-jobs.classad', jobs), '--machines', write('ac-machines.classad', machines)], { encoding: 'utf8' });
    assert.match(out, /12 jobs in 3 clusters/, 'the CLI finds the same clusters');
    // The CLI says each signature with its values, named as the ads write them.
    assert.match(out, /^significant attributes: .*\bOwner\b/m);
    assert.match(out, /^cluster 0: 4 jobs: .*; signature: .*Owner = "alice"/m);
  }, { hash: link });
});

/** A pool of the thesis workload from bench/gen_pool.py (its generator functions). */
function genPool(kind, n) {
  const f = path.join(scratch, `${kind}_${n}.txt`);
  if (!existsSync(f)) {
    const seed = kind === 'machines' ? 20000301 : 20000302;
    const py = `import sys; sys.path.insert(0, ${JSON.stringify(path.join(ROOT, 'bench'))}); import gen_pool as g\n`
      + `open(${JSON.stringify(f)}, 'w').write(g.render(g.${kind}(${seed}, ${n})))`;
    execFileSync('python3', ['-c', py]);
  }
  return f;
}

/** Upload a file into pool tab `name` of the workbench and wait for it to be listed. */
async function upload(page, name, file, ads) {
  await page.click('nav .tab:has-text("Workbench")');
  await page.click(`.pool-tabs [role=tab]:has-text("${name}")`);
  await page.locator('.pool-tools input[type=file]').setInputFiles(file);
  await textOf(page, '.diagnostics .summary', new RegExp(`^${ads.toLocaleString('en-US')} ads`), 120_000);
}

/**
 * Start a run with `start` and press its Cancel from inside the page the
 * moment `.run-progress` reads `re` (a round trip from the test could land
 * after a fast run has ended); resolves once it was pressed.
 */
async function cancelOnProgress(page, re, start) {
  await page.evaluate((src) => {
    const want = new RegExp(src);
    window.__cancelledAt = null;
    const watch = new MutationObserver(() => {
      const bar = document.querySelector('.run-progress');
      const cancel = bar?.querySelector('button.cancel');
      if (cancel && want.test(bar.textContent)) {
        window.__cancelledAt = bar.textContent;
        watch.disconnect();
        cancel.click();
      }
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, re.source);
  await start();
  await page.waitForFunction(() => window.__cancelledAt !== null, null, { timeout: 60_000 });
}

test('long runs: progress and cancel on a 2,000 × 2,000 pool, and the worker restarts unseen', T, async () => {
  const machines = genPool('machines', 2000);
  const jobs = genPool('jobs', 2000);
  await scenario('mm-big', async ({ page }) => {
    await upload(page, 'machines', machines, 2000);
    await upload(page, 'jobs', jobs, 2000);
    // A naive cycle of 4,000,000 pairs: not run by itself; run, watch, cancel.
    await page.click('nav .tab:has-text("Negotiation")');
    await page.locator('#run-cycle').waitFor({ timeout: 120_000 });
    await page.uncheck('#autocluster');
    assert.equal(await page.locator('#cycle-table').count(), 0, 'a big cycle waits for Run');
    // The first progress message comes at once (0 of 2,000), then every
    // 50 ms at most. The cycle takes under a second, less than a round
    // trip from here may: Cancel is pressed from inside the page as soon
    // as the progress shows.
    await cancelOnProgress(page, /of 2,000 \(\d+%\)/, () => page.click('#run-cycle'));
    await screenshot(page, 'mm-big-progress');
    await page.locator('.run-progress').waitFor({ state: 'detached', timeout: 5_000 });
    assert.equal(await page.locator('#cycle-table').count(), 0, 'nothing shown for a cancelled cycle');
    // The next run needs a fresh worker with both pools again: unseen.
    await page.check('#autocluster');
    await page.click('#run-cycle');
    await textOf(page, '#cycle-summary', /^2,000 jobs considered: [\d,]+ matched/, 240_000);
    assert.equal(await page.locator('#cycle-table tbody tr').count(), 100, 'one page of the table');
    // Too big to keep every job's candidates: the classroom steps through the first 20.
    await textOf(page, '#classroom-first', /through the first 20 of the 2,000 jobs/);
    await page.click('#classroom');
    await textOf(page, '#class-step', /^Step 1 of 20: job /);
    // Naive, past 1,000,000 pairs: a matched job does not count the other
    // free compatible machines; a click asks the worker (its own machine is
    // one of them, so at least 1).
    await page.uncheck('#autocluster');
    await page.click('#run-cycle');
    await textOf(page, '#cycle-summary', /^2,000 jobs considered: [\d,]+ matched.*without auto-clustering/, 240_000);
    await textOf(page, '#cycle-uncounted', /does not say how many free compatible machines/);
    const n = await page.$$eval('#cycle-table tbody tr', (trs) => trs.findIndex((tr) => tr.querySelector('button.count-candidates')));
    assert.ok(n >= 20, `the first uncounted row comes after the 20 stepped jobs (row ${n})`);
    const reason = `#cycle-table tbody tr:nth-child(${n + 1}) td.reason`;
    assert.match(await page.locator(reason).textContent(), /^matched \(the best docking vector\)/);
    await page.click(`${reason} button.count-candidates`);
    const counted = await textOf(page, reason, /^matched \(best of [\d,]+ free compatible machines?\)$/, 60_000);
    const shown = Number(counted.match(/best of ([\d,]+)/)[1].replace(/,/g, ''));
    assert.ok(shown >= 1, counted);
    // These pools read no clock: the CLI's naive cycle, counted, is the same.
    const bin = cli();
    const jobId = await page.locator(`#cycle-table tbody tr:nth-child(${n + 1}) td[data-job-id]`).getAttribute('data-job-id');
    const out = JSON.parse(execFileSync(bin, ['match', '--policy', 'thesis', '--jobs', jobs, '--machines', machines, '--json', '--count-candidates'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    assert.equal(shown, out.cycle.outcomes.find((o) => o.job_id === jobId).candidates, `job ${jobId}: the CLI's count`);
    await screenshot(page, 'mm-big-counted');
    // Past 1,000,000 pairs an all-taken job is not counted either (these
    // pools end nine jobs so): "count them" asks the worker, and the count
    // is the CLI's counted cycle's.
    await page.selectOption('#cycle-show', 'unmatched');
    let taken = page.locator('#cycle-table tbody tr:has(button.count-taken)').first();
    for (let p = 0; p < 20 && !(await taken.count()); p++) {
      await page.click('button:has-text("Next")');
      taken = page.locator('#cycle-table tbody tr:has(button.count-taken)').first();
    }
    assert.ok(await taken.count(), 'an all-taken job with its count left out');
    const takenReason = taken.locator('td.reason');
    assert.match(await takenReason.textContent(), /^Every compatible machine was matched to an earlier job \(not counted\)/);
    const takenId = await taken.locator('td[data-job-id]').getAttribute('data-job-id');
    await takenReason.locator('button.count-taken').click();
    await page.waitForFunction((id) => /^(All [\d,]+ compatible machines were|Its 1 compatible machine was) matched to earlier jobs?$/
      .test(document.querySelector(`#cycle-table td[data-job-id="${id}"]`)?.parentElement.querySelector('td.reason')?.textContent ?? ''), takenId, { timeout: 60_000 });
    const takenText = await page.locator(`#cycle-table tr:has(td[data-job-id="${takenId}"]) td.reason`).textContent();
    const takenCount = Number(takenText.match(/([\d,]+) compatible/)[1].replace(/,/g, ''));
    {
      const out = JSON.parse(execFileSync(bin, ['match', '--policy', 'thesis', '--jobs', jobs, '--machines', machines, '--json', '--count-candidates'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
      const o = out.cycle.outcomes.find((x) => x.job_id === takenId);
      assert.deepEqual(o.reason, { kind: 'all-taken', compatible: takenCount }, `job ${takenId}: the CLI's count`);
    }
    await page.selectOption('#cycle-show', 'all');
    // The matrix: scrolled to the middle, the cells there come in.
    await page.click('nav .tab:has-text("Matrix")');
    await page.locator('.matrix-scroll').waitFor();
    await page.evaluate(() => {
      const s = document.querySelector('.matrix-scroll');
      s.scrollTop = 16 * 1000;
      s.scrollLeft = 16 * 1200;
    });
    await page.waitForFunction(() => {
      const sc = document.querySelector('.matrix-scroll');
      return sc.scrollTop > 15000;
    });
    const end = Date.now() + 60_000;
    let seen;
    while (Date.now() < end) {
      seen = await cells(page, [[1003, 1203], [1010, 1210]]);
      if (seen.every((c) => ['both', 'job', 'machine', 'none'].includes(c))) break;
      await page.waitForTimeout(200);
    }
    assert.ok(seen.every((c) => ['both', 'job', 'machine', 'none'].includes(c)), `cells in the middle are computed: ${seen}`);
    await screenshot(page, 'mm-big-matrix');
    // The same cells as a table (what assistive technology reads), in words.
    await page.click('#matrix-table-toggle');
    const range = await textOf(page, '#matrix-table-range', /^Jobs [\d,]+–[\d,]+ of 2,000 × machines/);
    const [r0, c0] = [...range.matchAll(/([\d,]+)–/g)].map((m) => Number(m[1].replace(/,/g, '')) - 1);
    const words = { both: 'both accept', job: 'only the job rejects', machine: 'only the machine rejects', none: 'both reject' };
    // Read both at the same moment (a pool with time-dependent policies
    // repaints as the clock moves): they must agree.
    let tabled;
    let painted;
    for (let i = 0; i < 20; i++) {
      tabled = await page.$$eval('#matrix-table tbody tr', (trs, at) => trs[at[0]].cells[at[1] + 1].textContent.trim(), [1003 - r0, 1203 - c0]);
      painted = words[(await cells(page, [[1003, 1203]]))[0]];
      if (tabled === painted) break;
      await page.waitForTimeout(250);
    }
    assert.equal(tabled, painted, 'the table says what the canvas paints');
    await page.click('#matrix-table-toggle');
    // Counting 4,000,000 pairs: progress, then cancel; the matrix goes on.
    await cancelOnProgress(page, /Counting.*of 2,000/, () => page.click('button:has-text("Count all 4,000,000 pairs")'));
    await page.locator('button:has-text("Count all 4,000,000 pairs")').waitFor({ timeout: 5_000 });
    await page.evaluate(() => { document.querySelector('.matrix-scroll').scrollTop += 16 * 300; });
    const end2 = Date.now() + 60_000;
    while (Date.now() < end2) {
      seen = await cells(page, [[1303, 1203]]);
      if (seen[0] !== 'pending') break;
      await page.waitForTimeout(200);
    }
    assert.ok(['both', 'job', 'machine', 'none'].includes(seen[0]), `cells come in after a cancel: ${seen}`);
  });
});

test('matchmaking views: no sideways scrolling on a phone, and a dark theme', T, async () => {
  const bad = [];
  for (const view of ['Matrix', 'Negotiation', 'Clusters']) {
    await scenario(`mm-narrow-${view.toLowerCase()}`, async ({ page }) => {
      await page.click(`nav .tab:has-text("${view}")`);
      await page.locator('.match-view').waitFor();
      await page.waitForTimeout(1_000);
      const px = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (px > 0) bad.push(`${view} at 390 px scrolls sideways by ${px} px`);
    }, { hash: '#example=000-matrix', viewport: { width: 390, height: 844 } });
  }
  assert.deepEqual(bad, []);
  await scenario('mm-matrix-dark', async ({ page }) => {
    await expectGrid(page, MATRIX_000);
    const bg = await page.evaluate(() => getComputedStyle(document.querySelector('.matrix-canvas')).getPropertyValue('--m-none').trim());
    assert.notEqual(bg, '#d3d6db', 'dark colours apply');
    await clickCell(page, 0, 0);
    await page.locator('#pair-machine .explain').waitFor();
  }, { hash: '#example=000-matrix', colorScheme: 'dark' });
});

test('ads that do not parse are reported in every matchmaking view, with the first error and a way to it', T, async () => {
  const state = {
    pools: [
      { name: 'jobs', text: '[ ClusterId = 1; ProcId = 0; Owner = "a"; Requirements = TARGET.Memory > 1 ]\n[ ClusterId = 1; ProcId = 1; Owner = "b"; Requirements = TARGET.Memory > ]\n' },
      { name: 'machines', text: '[ Name = "m1"; Memory = 10; Requirements = true ]\n' },
    ],
    view: 'matrix',
    matching: { jobs: 0, machines: 1 },
  };
  await scenario('mm-left-out', async ({ page }) => {
    for (const view of ['Matrix', 'Negotiation', 'Clusters', 'Analyze', 'Gangs']) {
      await page.click(`nav[aria-label=Views] button:text-is("${view}")`);
      const note = page.locator('.left-out');
      await note.waitFor({ state: 'visible', timeout: 30_000 });
      const text = await note.textContent();
      assert.match(text, /“jobs” does not parse everywhere \(1 error\): ads that do not parse are left out here, so 1 ad is counted\./, `${view}: ${text}`);
      assert.match(text, /2:\d+: /, `${view}: the first error's place`);
    }
    await page.click('.left-out button');
    await page.locator('#pool-text').waitFor({ state: 'visible' });
    assert.match(await page.locator('#pool-text').inputValue(), /Requirements = TARGET\.Memory > \]/);
  }, { hash: stateLink(state) });
});

test('a pool holding a 100,000-deep expression does not crash the engine worker', T, async () => {
  const deep = `[ ClusterId = 1; ProcId = 0; x = ${'('.repeat(100_000)}1${')'.repeat(100_000)} ]\n[ ClusterId = 1; ProcId = 1; Requirements = TARGET.Memory > 1 ]\n`;
  const state = {
    pools: [
      { name: 'jobs', text: deep },
      { name: 'machines', text: '[ Name = "m1"; Memory = 10; Requirements = true ]\n' },
    ],
    view: 'matrix',
    matching: { jobs: 0, machines: 1 },
  };
  await scenario('mm-deep-pool', async ({ page, problems }) => {
    await textOf(page, '#matrix-summary', /^1 job × 1 machine/);
    const note = await page.locator('.left-out').textContent();
    assert.match(note, /nested more than/, note);
    assert.equal(await page.locator('text=Loading the pools was stopped').count(), 0);
    assert.deepEqual(problems.filter((p) => /engine worker/.test(p)), [], 'the worker did not fail');
  }, { hash: stateLink(state) });
});

test('the engine worker starts quietly (no warnings, no errors)', T, async () => {
  await scenario('mm-worker-starts', async ({ page, problems }) => {
    await page.waitForSelector('#matrix-summary', { timeout: 60_000 });
    await page.waitForTimeout(500);
    assert.deepEqual(problems.filter((p) => /^worker /.test(p)), [], 'nothing from the worker');
  }, { hash: '#example=000-matrix' });
});

test('accessibility: controls have their own names, and the classroom keeps the focus', T, async () => {
  await scenario('mm-a11y', async ({ page }) => {
    await page.waitForSelector('#matrix-summary', { timeout: 60_000 });
    assert.equal(await page.getAttribute('#row-sort', 'aria-label'), 'Sort jobs by');
    assert.equal(await page.getAttribute('#col-sort', 'aria-label'), 'Sort machines by');
    await page.click('nav[aria-label=Views] button:text-is("Negotiation")');
    await page.waitForSelector('#cycle-table tbody tr', { timeout: 60_000 });
    const name = await page.locator('#cycle-table tbody tr td.num button').first().getAttribute('aria-label');
    assert.match(name, /^Step through the cycle from job \S+ \(number 1\)$/);
    await page.focus('#classroom');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.classroom', { timeout: 10_000 });
    const focused = await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
    assert.equal(focused, 'classroom', 'the focus stays on the button');
  }, { hash: '#example=000-matrix' });
});

// Hand-written lists as real pools hold them: a job that runs on 80 named
// machines, a machine that takes 80 named owners, and a 100-clause query.
const LIST_JOB = `[ Owner = "u79"; RequestMemory = 1; Requirements = ${Array.from({ length: 80 }, (_, i) => `TARGET.Machine == "node${i}.example.org"`).join(' || ')} ]\n`;
const LIST_MACHINES = `[ Name = "slot1@node79"; Machine = "node79.example.org"; Memory = 4096; Requirements = ${Array.from({ length: 80 }, (_, i) => `TARGET.Owner == "u${i}"`).join(' || ')} ]
[ Name = "slot1@far"; Machine = "far.example.org"; Memory = 4096; Requirements = true ]
`;
const LIST_QUERY = Array.from({ length: 99 }, (_, i) => `Name == "slot${i}@elsewhere"`).join(' || ') + ' || Name == "slot1@node79"';

test('80-clause lists in the pair detail, a 100-clause query\'s why, and the analyzer on them: values and explain trees', T, async () => {
  const state = {
    pools: [{ name: 'jobs', text: LIST_JOB }, { name: 'machines', text: LIST_MACHINES }],
    view: 'matrix',
    query: { pool: 1, spec: { constraint: LIST_QUERY } },
  };
  await scenario('mm-long-lists', async ({ page, problems }) => {
    await expectGrid(page, [['both', 'job']]);
    await clickCell(page, 0, 0);
    await textOf(page, '#pair-job .value code', /^true$/);
    await textOf(page, '#pair-machine .value code', /^true$/);
    for (const side of ['#pair-job', '#pair-machine']) {
      assert.match(await page.locator(`${side} .explain .t-label`).first().textContent(), /operator \|\| · 80 clauses evaluated/);
    }
    // The far machine: the job's 80 clauses are all false, and the why says which node it wanted.
    await clickCell(page, 0, 1);
    await textOf(page, '#pair-job .value code', /^false$/);
    assert.equal(await page.locator('#pair-job .explain > li > details > ul > li.tnode').count(), 80);

    // The Query view's why for the one row a 100-clause constraint selects.
    await page.click('nav button:has-text("Query")');
    await textOf(page, '#query-summary', /^1 of 2 ads match/);
    await page.locator('#query-table tbody tr').first().locator('button').click();
    await textOf(page, '#query-explain h3', /^slot1@node79: the constraint is true — it matches/);
    assert.match(await page.locator('#query-explain .explain .t-label').first().textContent(), /100 clauses evaluated/);

    // The analyzer on the job and its 80-clause Requirements.
    await page.click('nav button:has-text("Analyze")');
    await page.waitForSelector('#analysis-summary[data-current=true]', { timeout: 30_000 });
    const summary = (await page.locator('#analysis-summary').textContent()).replace(/\s+/g, ' ');
    assert.match(summary, /of 2 machines/);
    assert.match(summary, /1 ?rejected by the job's requirements/);
    assert.match(summary, /1 ?match and are willing/);
    const text = await page.locator('main').textContent();
    assert.doesNotMatch(text, /unreadable answer|recursion limit|call stack/i);
    assert.deepEqual(problems.filter((p) => /recursion|unreadable|call stack/i.test(p)), []);
  }, { hash: stateLink(state) });
});
