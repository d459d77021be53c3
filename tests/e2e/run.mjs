// End to end: load every lesson of the release build in headless Chromium, step to the end,
// check the rendered DOM against the engine's own verdict, fail on any console error or panic,
// and save screenshots to test-output/screenshots/. `E2E_ONLY=words node tests/e2e/run.mjs` runs
// only the checks whose names contain the words (the count says how many it left out).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { serve, chromium, ROOT, CHROMIUM, CHROMIUM_ARGS } from '../../tools/serve.mjs';
import { mermaidKeywords } from '../../tools/mermaid-keywords.mjs';

const SHOTS = path.join(ROOT, 'test-output/screenshots');
fs.mkdirSync(SHOTS, { recursive: true });

const cli = (...args) => execFileSync(path.join(ROOT, 'target/debug/lockstep'), args, { encoding: 'utf8' });
const lessons = cli('list').trim().split('\n').map((line) => line.split(/\s+/)[0]);

const { url, close } = await serve(path.join(ROOT, 'dist'));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
let passed = 0;
let failed = 0;
let skipped = 0;
const ONLY = process.env.E2E_ONLY || '';

/** How long one Playwright action or wait may take, and one whole check, before it fails. */
const STEP_MS = 20000;
const CHECK_MS = 240000;

/**
 * Runs one check in a fresh page; `expected` matches console errors the check provokes. Every
 * action and wait has a time limit (STEP_MS), and the check as a whole one more (CHECK_MS): at
 * that limit its page is closed, which ends whatever it waits for, and it fails with its name.
 */
async function check(name, body, expected = null, limitMs = CHECK_MS) {
  if (!name.includes(ONLY)) {
    skipped += 1;
    return;
  }
  const started = Date.now();
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(STEP_MS);
  // Conditions are polled on a timer, not on animation frames, which a renderer that is not
  // painting can withhold.
  // A wait that times out says what it waited for.
  const waitFor = page.waitForFunction.bind(page);
  page.waitForFunction = (fn, arg, options = {}) => waitFor(fn, arg, { polling: 100, ...options }).catch((e) => {
    throw new Error(`${String(e.message).split('\n')[0]} waiting for ${String(fn).replace(/\s+/g, ' ').slice(0, 160)}`);
  });
  // A click waits for its element to hold still over two animation frames, which a renderer
  // that withholds frames never shows; after 8 s it clicks all the same if the element is the
  // one a pointer at its centre would hit (so a covered or hidden control still fails).
  const click = page.click.bind(page);
  page.click = async (selector, options = {}) => {
    try {
      return await click(selector, { timeout: 8000, ...options });
    } catch (e) {
      if (!/Timeout/.test(String(e.message))) throw e;
      const hit = await page.locator(selector).first().evaluate((el) => {
        el.scrollIntoView({ block: 'nearest' });
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.width > 0 && r.height > 0 && (el === at || el.contains(at));
      }, null, { timeout: STEP_MS });
      if (!hit) throw e;
      return click(selector, { ...options, force: true });
    }
  };
  // In the page, `twoFrames()` waits for two animation frames, or at most half a second (a
  // renderer that is not painting gives none, and a wait on one alone could last for ever).
  await page.addInitScript(() => {
    window.twoFrames = () => new Promise((done) => {
      const t = setTimeout(done, 500);
      requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(t); done(); }));
    });
    // `settled(test, ms)` polls `test` every 50 ms until it holds or `ms` have passed, and says
    // which: what a busy machine draws late is judged once it is drawn, not before.
    window.settled = async (test, ms = 3000) => {
      for (const end = performance.now() + ms; ; ) {
        if (test()) return true;
        if (performance.now() > end) return false;
        await new Promise((r) => setTimeout(r, 50));
      }
    };
  });
  // Predictions stop a run before each write is judged; only the checks of predictions keep them.
  if (!name.includes('predict')) await page.addInitScript(() => localStorage.setItem('lockstep-predict', 'off'));
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' && !(expected && expected.test(m.text()))) problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  let timer;
  const watchdog = new Promise((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`timed out after ${limitMs / 1000} s${page.progress ? `, at ${page.progress}` : ''}`));
      page.close().catch(() => {});
    }, limitMs);
  });
  try {
    await Promise.race([body(page), watchdog]);
    if (problems.length) throw new Error(problems.join('\n'));
    passed += 1;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${name}\n     ${String(e.message || e).split('\n').join('\n     ')}`);
    // Where the page was: its address and the step it showed.
    const where = await page.evaluate(() => `${location.hash || '(no hash)'}, ${document.querySelector('[data-testid=step-count]')?.innerText ?? 'no step count'}`, null, { timeout: 5000 }).catch(() => '');
    if (where) console.log(`     the page was at ${where}`);
    // What the page showed when the check failed, to look at afterwards.
    const file = `FAIL-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`;
    await page.screenshot({ path: path.join(SHOTS, file), timeout: 5000 }).then(() => console.log(`     screenshot: test-output/screenshots/${file}`), () => {});
  } finally {
    clearTimeout(timer);
    await page.close().catch(() => {});
  }
}


/**
 * Saves a screenshot to look at (test-output/screenshots/NAME). It is no assertion: a renderer
 * that withholds its frames on a busy machine (headless Chromium can, for seconds on end) leaves
 * the picture out, with a line saying so, rather than failing the check it illustrates.
 */
async function shot(page, name, fullPage = false) {
  await page.bringToFront().catch(() => {});
  await page.screenshot({ path: path.join(SHOTS, name), fullPage, timeout: 10000 }).catch((e) => console.log(`     (no screenshot ${name}: ${String(e.message).split('\n')[0]})`));
}

/** Opens the exports' menu and clicks one of its choices. */
async function exportVia(page, testid) {
  await page.click('[data-testid=exports-button]');
  await page.click(`[data-testid=${testid}]`);
}

const text = (page, id) => page.locator(`[data-testid=${id}]`).innerText();

/** Waits until lesson `id` is shown: its hash, and its title (the hash changes at once; the
 *  lesson's file may still be on its way, and keys pressed before it comes step the old one). */
function shown(page, id) {
  const { title } = JSON.parse(fs.readFileSync(path.join(ROOT, `src/scenario/lessons/${id}.json`), 'utf8'));
  return page.waitForFunction(([id, title]) => location.hash.startsWith(`#/${id}/`)
    && document.querySelector('[data-testid=lesson-title]')?.innerText === title, [id, title]);
}
function expect(cond, message) { if (!cond) throw new Error(message); }

for (const id of lessons) {
  await check(`lesson ${id}`, async (page) => {
    const trace = JSON.parse(cli('run', id, '--format', 'json'));
    const scenario = JSON.parse(fs.readFileSync(path.join(ROOT, `src/scenario/lessons/${id}.json`), 'utf8'));
    await page.goto(`${url}#/${id}/0`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
    expect((await text(page, 'lesson-title')) === scenario.title, 'title shown');
    expect((await text(page, 'narration')).includes(scenario.intro.slice(0, 40)), 'intro shown at step 0');
    const veil = await page.locator('svg.overlay .veil:not(.veil--patch)').boundingBox();
    const whole = await page.locator('[data-testid=diagram] svg[role=img]').boundingBox();
    expect(veil && veil.height > whole.height * 0.8, 'at step 0 the veil hides the run');
    const items = await page.locator('[data-testid=diagram] svg:not(.overlay) .item').count();
    expect(items >= 6, `diagram has ${items} items`);
    await page.keyboard.press('End');
    const n = trace.events.length;
    await page.waitForFunction((n) => document.querySelector('[data-testid=step-count]').innerText.startsWith(`Step ${n} of ${n}`), n);
    const verdict = await text(page, 'verdict');
    expect(trace.verdict.safe ? verdict.startsWith('Safe') : verdict.startsWith('Unsafe'), `verdict badge "${verdict}" matches the engine`);
    expect((await text(page, 'takeaway')).includes(scenario.takeaway), 'takeaway at the end');
    // A lesson states its guarantees, or the page shows its design's.
    const promises = await text(page, 'guarantees');
    expect(scenario.guarantees ? promises.includes(scenario.guarantees.safety) : /safety\s+\S.{40,}/is.test(promises), 'guarantees shown');
    expect((await text(page, 'metrics')).includes(`${trace.metrics.duplicate_work}\nduplicate work`), 'metrics shown');
    const diagram = await page.locator('[data-testid=diagram]').innerText();
    const rejections = trace.events.filter((e) => e.kind === 'write_rejected').length;
    expect((diagram.match(/rejected: /g) || []).length === rejections, `${rejections} rejections drawn with their reasons`);
    // The address follows the step once the stepping pauses.
    await page.waitForFunction(([id, n]) => location.hash === `#/${id}/${n}`, [id, n], { timeout: 5000 })
      .catch(() => { throw new Error(`hash follows the step (${page.url()})`); });
    await shot(page, `${id}.png`);
  });
}

await check('dark theme, mid-run, after a reload', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/14`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=theme]');
  await page.reload();
  await page.waitForSelector('[data-testid=diagram] svg');
  expect((await page.getAttribute('html', 'data-theme')) === 'dark', 'theme kept across reload');
  expect((await text(page, 'step-count')).startsWith('Step 14 of'), 'step kept across reload');
  await shot(page, 'dark-lease-race-fenced.png');
});

await check('playback advances on its own and stops at the end', async (page) => {
  await page.goto(`${url}#/short-pause/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.selectOption('[data-testid=speed]', { label: '10×' });
  await page.click('[data-testid=play]');
  await page.waitForFunction(() => /^Step (\d+) of \1 /.test(document.querySelector('[data-testid=step-count]').innerText), null, { timeout: 20000 });
  expect((await text(page, 'play')).includes('Play'), 'play button back to Play at the end');
});

await check('the picker marks the open lesson; the buttons, log rows and diagram items step the run', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  const current = () => page.evaluate(() => [...document.querySelectorAll('.lesson-link[aria-current=page]')].map((b) => b.dataset.testid));
  expect(JSON.stringify(await current()) === '["lesson-lease-race-fenced"]', `picker marks ${await current()}`);
  await page.click('[data-testid=lesson-redis-del-release]');
  await shown(page, 'redis-del-release');
  expect(JSON.stringify(await current()) === '["lesson-redis-del-release"]', `picker marks ${await current()} after a click`);
  const step = async () => (await text(page, 'step-count')).match(/Step (\d+)/)[1];
  await page.click('[data-testid=step-forward]');
  await page.click('[data-testid=step-forward]');
  await page.click('[data-testid=step-back]');
  expect((await step()) === '1', `step buttons: at step ${await step()}`);
  await page.click('.log-button[data-step="3"]');
  expect((await step()) === '3', `a log row opens its step: at step ${await step()}`);
  const item = page.locator('.diagram-body .item.msg:has(.label)').nth(2);
  const last = Number((await item.getAttribute('data-events')).split(' ')[1]);
  await item.locator('.label').click();
  expect((await step()) === String(last + 1), `a diagram item opens its last event: at step ${await step()}, expected ${last + 1}`);
  await page.click('[data-testid=to-end]');
  await page.click('[data-testid=to-start]');
  expect((await step()) === '0', 'to start');
});

// The editor's page (edit/): the player plus "What if…".
const field = (page, path) => page.locator(`[data-edit="${path}"]`);
async function setField(page, path, value) {
  const f = field(page, path);
  if ((await f.evaluate((el) => el.tagName)) === 'SELECT') await f.selectOption(value);
  else { await f.fill(String(value)); await f.press('Enter'); }
}
const atEnd = async (page) => {
  if (await page.locator('[data-testid=to-end]').isEnabled()) await page.click('[data-testid=to-end]');
  return { verdict: await text(page, 'verdict'), diagram: await page.locator('[data-testid=diagram]').innerText() };
};

await check("the player's What if… opens the editor's page at the same lesson and step", async (page) => {
  await page.goto(`${url}#/lease-race-unfenced/5`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=edit]');
  await page.waitForSelector('[data-testid=editor]');
  expect(new URL(page.url()).pathname.endsWith('/edit/'), `on the editor's page: ${page.url()}`);
  await page.waitForFunction(() => location.hash.startsWith('#/edit/1.') && location.hash.endsWith('/5'));
  expect((await text(page, 'step-count')).startsWith('Step 5 of'), 'same step');
  expect((await text(page, 'lesson-title')) === 'What if: The same race without fencing', 'titled as an edit');
});

await check('editing the unfenced race: a shorter pause is safe, a longer one unsafe, fencing rejects token 41; undo, reset, and the link restores it', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  expect((await atEnd(page)).verdict.startsWith('Unsafe'), 'the lesson as it is');
  await setField(page, 'faults[0].for_ms', 500);
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('now safe'));
  expect((await atEnd(page)).verdict.startsWith('Safe'), 'a 500 ms pause is shorter than the 1,000 ms lease');
  expect((await text(page, 'edit-outcome')) === 'Compared with the original: was unsafe → now safe.', await text(page, 'edit-outcome'));
  expect(await field(page, 'faults[0].for_ms').evaluate((el) => el === document.activeElement), 'the edited field keeps the focus');
  await setField(page, 'faults[0].for_ms', 1500);
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('the same scenario; unsafe'));
  await setField(page, 'participants[2].mode', 'fenced');
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('now safe'));
  const fenced = await atEnd(page);
  expect(fenced.verdict.startsWith('Safe') && fenced.diagram.includes('rejected: token 41 < 42'), `fenced: ${fenced.verdict}`);
  expect((await text(page, 'edit-outcome')).includes('the write (token 41) was rejected: token 41 < 42 at 1,555 ms'), await text(page, 'edit-outcome'));
  // The link holds the whole edited scenario: a fresh page shows the same run at the same step.
  await page.click('[data-testid=step-back]');
  const step = await text(page, 'step-count');
  // The address bar gets a long link once the edits pause.
  await page.waitForFunction((n) => location.hash.startsWith('#/edit/1.') && location.hash.endsWith(`/${n}`), step.match(/Step (\d+)/)[1]);
  const link = page.url();
  const fresh = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await fresh.goto(link);
  await fresh.waitForSelector('[data-testid=editor]');
  expect((await text(fresh, 'step-count')) === step, `same step in a fresh page: ${await text(fresh, 'step-count')} vs ${step}`);
  expect((await field(fresh, 'participants[2].mode').inputValue()) === 'fenced', 'same scenario in a fresh page');
  await fresh.close();
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => document.querySelector('[data-edit="participants[2].mode"]').value === 'unfenced');
  await page.click('[data-testid=redo]');
  await page.waitForFunction(() => document.querySelector('[data-edit="participants[2].mode"]').value === 'fenced');
  await page.click('[data-testid=reset]');
  await page.waitForFunction(() => document.querySelector('[data-edit="participants[2].mode"]').value === 'unfenced');
  expect((await text(page, 'edit-outcome')) === 'Compared with the original: the same scenario; unsafe: Client A\'s write (token 41) was applied after Client B\'s (token 42) and erased it at 1,555 ms.', await text(page, 'edit-outcome'));
});

await check('faults are dragged, resized and removed on the diagram and by keys; a clicked message is dropped, a dragged head delays it (a stale write let in, harming nothing)', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-fault="0"]');
  // Drag the end of A's pause up above the lease's expiry (1,005 ms): shorter than the lease, so safe.
  const grip = page.locator('[data-fault="0"] [data-grip=end]');
  await grip.scrollIntoViewIfNeeded();
  const end = await grip.boundingBox();
  const expiry = await page.locator('svg[role=img] .axis text', { hasText: /^1,005 ms$/ }).boundingBox();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, expiry.y - 16, { steps: 10 });
  expect(/^\d[\d,]* ms$/.test(await page.locator('.drag-time text').textContent()), 'the time under the pointer is shown while dragging');
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('now safe'));
  const shorter = Number(await field(page, 'faults[0].for_ms').inputValue());
  expect(shorter > 500 && shorter < 950 && shorter % 10 === 0, `the pause is ${shorter} ms, snapped to 10 ms`);
  expect(await page.locator('[data-testid=fault-0].edit-fault--selected').count() === 1, 'the dragged fault is picked in the form');
  // The keys do the same: Shift+Alt+↓ lengthens by 100 ms on a 100 ms grid, and the handle keeps the focus.
  await page.locator('[data-fault="0"]').focus();
  // One press at a time, each waited for: a busy machine may still be redrawing after the last.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Shift+Alt+ArrowDown');
    await page.waitForFunction((n) => document.querySelector('[data-edit="faults[0].for_ms"]').value === String(n), Math.round((shorter + 100) / 100) * 100 + 100 * i);
  }
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('unsafe'));
  expect(await page.evaluate(() => document.activeElement.getAttribute('data-fault')) === '0', 'the handle keeps the focus');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('[data-edit="faults[0].at_ms"]').value === '40');
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => !document.querySelector('[data-fault="0"]'));
  expect((await text(page, 'edit-outcome')).includes('now safe'), 'without the pause the race is gone');
  await page.click('[data-testid=undo]');
  await page.waitForSelector('[data-fault="0"]');
  // A pause placed by clicking Client B's lifeline.
  await setField(page, 'tool', 'pause');
  await page.waitForSelector('[data-testid=lane-hit-3]');
  const lane = await page.locator('[data-testid=lane-hit-3]').boundingBox();
  await page.mouse.click(lane.x + lane.width / 2, lane.y + 40);
  await page.waitForSelector('[data-testid=fault-1]');
  expect((await field(page, 'faults[1].node').inputValue()) === 'B', 'the new pause is on the lifeline clicked');
  expect(!(await page.locator('.lane-hit').count()), 'one click adds one fault');

  // On the fenced race, a click on B's write drops it: the resource never sees 42 and takes A's
  // stale 41, which erases nothing (the data is safe; exclusion was broken).
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=handles]');
  const trace = JSON.parse(cli('run', 'lease-race-fenced', '--format', 'json'));
  const send = trace.events.findIndex((e) => e.kind === 'send' && e.msg.type === 'write' && e.msg.token === 42);
  await page.locator(`[data-action="drop-message:${send}"]`).dispatchEvent('click');
  await page.waitForSelector('[data-testid=fault-1]');
  expect((await page.locator('[data-testid=fault-1] h3').innerText()) === 'dropped message', 'the drop is a fault in the schedule');
  expect((await text(page, 'edit-outcome')).startsWith('Compared with the original: still safe; a stale write is now let in, and harms nothing'), await text(page, 'edit-outcome'));
  expect((await page.locator('[data-testid=diagram]').innerText()).includes('stale, no harm'), 'the diagram says so');
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=fault-1]'));
  // Dragging the head of that write down delays it: A's stale 41 arrives first.
  const head = page.locator(`.msg-head[data-send="${send}"]`);
  await head.scrollIntoViewIfNeeded();
  const h = await head.boundingBox();
  await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
  await page.mouse.down();
  const later = await page.locator('svg[role=img] .axis text', { hasText: /^1,555 ms$/ }).boundingBox();
  await page.mouse.move(h.x + h.width / 2, later.y + 60, { steps: 10 });
  await page.mouse.up();
  await page.waitForSelector('[data-testid=fault-1]');
  expect((await page.locator('[data-testid=fault-1] h3').innerText()) === 'delayed message', 'the delay is a fault in the schedule');
  const extra = Number(await field(page, 'faults[1].extra_ms').inputValue());
  expect(extra >= 390, `delayed by ${extra} ms`);
  expect((await text(page, 'edit-outcome')).includes('a stale write is now let in, and harms nothing'), await text(page, 'edit-outcome'));
  // Without a pointer: at the step that sends the write, the editor offers the same.
  await page.goto(`${url}edit/#/lease-race-fenced/${send + 1}`);
  await page.waitForSelector('[data-testid=edit-message]');
  expect((await text(page, 'edit-message')).includes('B → R: write "B" with token 42'), await text(page, 'edit-message'));
  await page.click(`[data-testid="delay-message:${send}"]`);
  await page.waitForSelector('[data-testid=fault-1]');
  expect((await field(page, 'faults[1].extra_ms').inputValue()) === '500', 'delayed 500 ms from the keyboard path');
});

await check('two variants side by side share one time axis, each with its verdict, and step together', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await setField(page, 'beside', 'fenced');
  await page.waitForSelector('[data-testid=pair]');
  await page.click('[data-testid=lesson-title]');
  await page.keyboard.press('End');
  const verdicts = async () => [await page.locator('[data-testid=pair-beside] [data-testid=verdict]').innerText(), await page.locator('[data-testid=pair-edited] [data-testid=verdict]').innerText()];
  await page.waitForFunction(() => document.querySelector('[data-testid=step-count]').innerText.startsWith('Step 38 of 38'));
  let [left, right] = await verdicts();
  expect(left.startsWith('Safe') && right.startsWith('Unsafe'), `fenced beside unfenced: ${left} | ${right}`);
  expect((await page.locator('[data-testid=pair-beside]').innerText()).includes('rejected: token 41 < 42'), 'the fenced side rejects token 41');
  // Stepping moves both cursors to the same simulated time, at the same height.
  for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowLeft');
  // (A cursor line is drawn in pieces, leaving the labels it meets clear.)
  const cursors = await page.locator('[data-testid=pair] .pair-side').evaluateAll((sides) => sides.map((s) => [...new Set([...s.querySelectorAll('svg.overlay .cursor-line')].map((l) => l.getAttribute('y1')))].join()));
  expect(cursors.length === 2 && cursors[0] !== '' && cursors[0] === cursors[1], `both cursors at one height: ${cursors}`);
  // Beside the original, a shorter pause: the original is unsafe, the edit safe.
  await setField(page, 'beside', 'original');
  await setField(page, 'faults[0].for_ms', 500);
  await page.click('[data-testid=lesson-title]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=pair-beside] h2').innerText === 'The original');
  await page.waitForFunction(() => document.querySelector('[data-testid=pair-edited] [data-testid=verdict]').innerText.startsWith('Safe'));
  [left, right] = await verdicts();
  expect(left.startsWith('Unsafe') && right.startsWith('Safe'), `original beside the edit: ${left} | ${right}`);
  await page.click('[data-testid=stop-beside]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=pair]'));
  expect((await field(page, 'beside').inputValue()) === '', 'the choice is cleared');
});

await check('an edit the scenario cannot take is named by its field, and the page keeps working', async (page) => {
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await setField(page, 'faults[0].for_ms', -5);
  await page.waitForSelector('[data-testid=edit-problem]');
  expect((await text(page, 'edit-problem')) === 'Not changed: faults[0].for_ms: must be ≥ 0', await text(page, 'edit-problem'));
  const refused = await page.evaluate(() => {
    const f = document.querySelector('[data-edit="faults[0].for_ms"]');
    return { invalid: f.getAttribute('aria-invalid'), described: f.getAttribute('aria-describedby'), value: f.value, focused: document.activeElement === f };
  });
  expect(refused.invalid === 'true' && refused.described === 'edit-problem' && refused.value === '-5' && refused.focused,
    `the refused field is marked, keeps what was typed and keeps the focus: ${JSON.stringify(refused)}`);
  await page.evaluate(() => {
    const ttl = document.querySelector('[data-edit="lock.ttl_ms"]');
    ttl.type = 'text';
    ttl.value = 'soon';
    ttl.dispatchEvent(new Event('change', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-problem]').innerText.startsWith('Not changed: lock.ttl_ms: invalid type'));
  for (let i = 0; i < 4; i++) await page.click('[data-testid=step-forward]');
  const now = (await text(page, 'step-count')).match(/· ([\d,]+) ms/)[1].replace(/,/g, '');
  await page.click('[data-testid="add-fault:clock_jump"]');
  await page.waitForSelector('[data-testid=fault-1]');
  expect((await field(page, 'faults[1].at_ms').inputValue()) === now, `a new fault starts at the cursor's time (${now} ms)`);
  expect(!(await page.locator('[data-testid=edit-problem]').count()), 'a good edit clears the problem');
  expect(!(await page.locator('[aria-invalid]').count()) && (await field(page, 'lock.ttl_ms').inputValue()) !== 'soon', 'and the mark, and the refused text');
  await page.click('[data-testid="remove:faults[1]"]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=fault-1]'));
});

await check('clients and script steps are added, changed and removed', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await page.click('[data-testid=add-client]');
  await page.waitForSelector('[data-edit="participants[4].name"]');
  expect((await field(page, 'participants[4].name').inputValue()) === 'Client C', 'a third client');
  expect((await page.locator('[data-testid=diagram] .lane-name').allTextContents()).includes('Client C'), 'with its own lane');
  await setField(page, 'participants[4].script[1]', 'write');
  await page.waitForSelector('[data-edit="participants[4].script[1].value"]');
  await page.click('[data-testid="add-step:4"]');
  await page.waitForSelector('[data-edit="participants[4].script[4].ms"]');
  await page.click('[data-testid="remove:participants[4].script[4]"]');
  await page.waitForFunction(() => !document.querySelector('[data-edit="participants[4].script[4].ms"]'));
  // A long script starts folded, but the one being edited stays open.
  for (let n = 5; n <= 9; n++) {
    await page.click('[data-testid="add-step:4"]');
    await page.waitForSelector(`[data-edit="participants[4].script[${n - 1}]"]`, { state: 'attached' });
  }
  expect(await page.evaluate(() => document.querySelector('[data-edit="participants[4].script[8]"]').closest('details').open), 'the edited long script stays open');
  await setField(page, 'participants[0].start_ms', 5);
  await page.waitForFunction(() => !document.querySelector('[data-edit="participants[4].script[8]"]').closest('details').open);
  await page.click('[data-testid="remove-participant:0"]');
  await page.waitForFunction(() => document.querySelector('[data-edit="participants[0].name"]').value === 'Lock service');
  expect((await page.locator('[data-testid^=fault-]').count()) === 0, "Client A's pause went with it");
  expect((await atEnd(page)).verdict.startsWith('Safe'), 'with A gone nobody writes stale');
});

await check('switching the lock design keeps the clients and says what else changed', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await setField(page, 'lock.design', 'redlock');
  await page.waitForSelector('[data-testid=edit-notes]');
  const notes = await text(page, 'edit-notes');
  expect(notes.includes('Lock service 2 is added: Redlock runs on independent Redis masters.'), notes);
  expect((await page.locator('[data-testid=diagram] .lane-strip .lane-name').count()) === 8, 'five masters, two clients, the resource');
  await setField(page, 'lock.design', 'etcd');
  await page.waitForFunction(() => document.querySelector('[data-edit="lock.design"]').value === 'etcd');
  expect((await page.locator('[data-testid=diagram] .lane-name').allTextContents()).includes('Client B'), 'the clients stay');
  await page.click('[data-testid=undo]');
  await page.waitForFunction(() => document.querySelector('[data-edit="lock.design"]').value === 'redlock');
  await page.locator('[data-testid=new]').selectOption('zookeeper');
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]').innerText === 'What if: A new scenario');
  expect((await field(page, 'lock.design').inputValue()) === 'zookeeper', 'a blank ZooKeeper scenario');
  expect((await text(page, 'edit-outcome')) === 'Compared with the original: the same scenario; safe.', await text(page, 'edit-outcome'));
});

await check('a comparison cell opens in the editor: fencing its resource makes the pause safe', async (page) => {
  await page.goto(`${url}#/compare/pause/lease/0`);
  await page.waitForSelector('[data-testid=edit]');
  await page.click('[data-testid=edit]');
  await page.waitForSelector('[data-testid=editor]');
  const path = await page.evaluate(() => [...document.querySelectorAll('select[data-edit]')].map((s) => s.dataset.edit).find((p) => /^participants\[\d+\]\.mode$/.test(p)));
  await setField(page, path, 'fenced');
  await page.waitForFunction(() => document.querySelector('[data-testid=edit-outcome]').innerText.includes('was unsafe → now safe'));
  expect((await atEnd(page)).diagram.includes('rejected: token'), 'the stale write is rejected');
  const close = await page.getAttribute('[data-testid=stop-edit]', 'href');
  expect(/^\.\.\/#\/compare\/pause\/lease\/\d+$/.test(close), `Close goes back to the cell: ${close}`);
});

await check('names with markup from an edit or a link show as text everywhere', async (page) => {
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  const name = '<b>B</b><img src=x>';
  await setField(page, 'participants[0].name', name);
  await page.waitForFunction((name) => document.querySelector('[data-testid=diagram]').innerText.includes(name), name);
  await page.keyboard.press('Tab');
  await atEnd(page);
  for (const id of ['diagram', 'inspector', 'event-log', 'narration']) {
    expect((await page.locator(`[data-testid=${id}] img, [data-testid=${id}] b`).count()) === 0, `no element from a name in ${id}`);
  }
  expect((await text(page, 'event-log')).includes(name), 'the log shows the name as text');
  const steps = (await text(page, 'step-count')).match(/of (\d+)/)[1];
  await page.waitForFunction((n) => location.hash.endsWith(`/${n}`), steps);
  const fresh = await browser.newPage();
  await fresh.goto(page.url());
  await fresh.waitForSelector('[data-testid=editor]');
  expect((await fresh.locator('[data-testid=diagram]').innerText()).includes(name), 'the link carries the name');
  expect((await fresh.locator('img, b').count()) === 0, 'nor after following the link');
  await fresh.close();
});

await check('a link to an edited scenario opens on the editor page; a damaged one says what is wrong', async (page) => {
  await page.goto(`${url}edit/#/short-pause/0`);
  await page.waitForSelector('[data-testid=editor]');
  await page.waitForFunction(() => location.hash.startsWith('#/edit/1.'));
  const hash = new URL(page.url()).hash;
  await page.goto(`${url}${hash}`);
  await page.waitForSelector('[data-testid=editor]');
  expect(new URL(page.url()).pathname.endsWith('/edit/'), `the player hands the link to the editor: ${page.url()}`);
  await page.goto(`${url}edit/#/edit/1.AB$C/0`);
  await page.waitForSelector('[data-testid=notice]');
  const notice = await text(page, 'notice');
  expect(notice.includes('link: the link has a character base64 does not use at position 5'), notice);
  await page.waitForSelector('[data-testid=diagram] svg');
}, /.*/);

await check('an exported edited scenario opens back as the same scenario; a malformed file is named, and the page keeps working', async (page) => {
  await page.goto(`${url}edit/#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await setField(page, 'faults[0].for_ms', 700);
  await setField(page, 'participants[0].clock.drift_ppm', 200);
  await page.waitForFunction(() => document.querySelector('[data-edit="participants[0].clock.drift_ppm"]').value === '200');
  const [file] = await Promise.all([page.waitForEvent('download'), exportVia(page, 'export-json')]);
  const exported = fs.readFileSync(await file.path(), 'utf8');
  const before = { verdict: (await atEnd(page)).verdict, log: await text(page, 'event-log') };
  const fresh = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await fresh.goto(`${url}edit/#/short-pause/0`);
  await fresh.waitForSelector('[data-testid=editor]');
  await fresh.setInputFiles('[data-testid=open-file]', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await fresh.waitForFunction(() => document.querySelector('[data-edit="participants[0].clock.drift_ppm"]').value === '200');
  expect((await field(fresh, 'faults[0].for_ms').inputValue()) === '700', 'the pause as exported');
  const after = { verdict: (await atEnd(fresh)).verdict, log: await text(fresh, 'event-log') };
  expect(JSON.stringify(after) === JSON.stringify(before), 'the same run from the exported file');
  const bad = JSON.parse(exported);
  bad.faults[0].for_ms = 'long';
  await fresh.setInputFiles('[data-testid=open-file]', { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bad)) });
  await fresh.waitForSelector('[data-testid=notice]');
  const notice = await text(fresh, 'notice');
  expect(notice.includes('faults[0].for_ms: invalid type: string "long", expected a whole number'), notice);
  await fresh.setInputFiles('[data-testid=open-file]', { name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1,') });
  await fresh.waitForFunction(() => document.querySelector('[data-testid=notice]').innerText.includes('line 1'));
  await fresh.click('[data-testid=step-back]');
  expect((await field(fresh, 'faults[0].for_ms').inputValue()) === '700', 'the page still shows the scenario it had');
  await fresh.close();
});

await check('a scenario too big for a link says to export it, and the address bar keeps no broken link', async (page) => {
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  const big = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/scenario/lessons/lease-race-fenced.json'), 'utf8'));
  big.intro = Array.from({ length: 5000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');
  await page.setInputFiles('[data-testid=open-file]', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(big)) });
  await page.waitForFunction(() => document.querySelector('[data-testid=editor]').innerText.includes('export it as a file instead'));
  expect((await page.locator('[data-testid=copy-link]').isDisabled()), 'no link to copy');
  await page.waitForTimeout(400);
  expect(!page.url().includes('/edit//'), `no broken link in the address bar: ${page.url()}`);
});

await check('the keyboard: a skip link to playback, Space plays after a click, the slider moves by steps, Back and Forward go between lessons', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=play]');
  await page.keyboard.press('Tab');
  expect((await page.evaluate(() => document.activeElement.className)) === 'skip-link', 'the first Tab reaches the skip link');
  await page.keyboard.press('Enter');
  expect((await page.evaluate(() => document.activeElement.getAttribute('data-testid'))) === 'play', 'it leads to Play');
  // After clicking a lesson, Space plays it rather than opening it again.
  await page.click('.lesson-link[data-route="#/short-pause/0"]');
  await shown(page, 'short-pause');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'true');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]').getAttribute('aria-pressed') === 'false');
  const slider = page.locator('[data-testid=scrubber]');
  await slider.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect((await text(page, 'step-count')).startsWith('Step 2 of'), `two presses, two steps: ${await text(page, 'step-count')}`);
  // Another lesson is a history entry; another step is not: it is written to the address once
  // the stepping pauses.
  await page.waitForFunction(() => location.hash === '#/short-pause/2');
  await page.goBack();
  // The hash changes at once; the lesson's file may still be on its way.
  const shows = (hash, title) => page.waitForFunction(([hash, title]) => location.hash.startsWith(hash)
    && document.querySelector('[data-testid=lesson-title]')?.innerText === title, [hash, title]);
  await shows('#/lease-race-fenced/', 'The lease expiration race, fenced').catch(() => { throw new Error('Back returns to the first lesson'); });
  await page.goForward();
  await shows('#/short-pause/2', 'A pause shorter than the lease').catch(() => { throw new Error('Forward returns to the second, at its step'); });
});

await check('the site works under a sub-path of a static host: the player and the editor', async (page) => {
  const sub = await serve(path.join(ROOT, 'dist'), 0, '/courses/distributed-locks/');
  try {
    await page.goto(`${sub.url}#/lease-race-fenced/0`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
    expect((await text(page, 'lesson-title')) === 'The lease expiration race, fenced', 'the lesson opens');
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('[data-testid=verdict]').innerText.startsWith('Safe'));
    expect((await page.locator('[data-testid=diagram]').innerText()).includes('rejected: token 41 < 42'), 'the run is drawn');
    await page.click('[data-testid=edit]');
    await page.waitForSelector('[data-testid=editor]');
    expect(page.url().startsWith(`${sub.url}edit/`), `the editor opens under the same path: ${page.url()}`);
  } finally {
    sub.close();
  }
});

await check('story beats and predictions: PageDown goes beat to beat, the run stops to ask before each outcome, and the questions vary', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=beat-ticks]');
  expect((await page.locator('.beat-tick').count()) === 6, 'six beats marked on the timeline');
  expect((await text(page, 'predict-offer')).startsWith('Predictions are on'), 'predictions are on by default');
  // Nothing of the future can be read: the veil is opaque, and neither the log nor a tick's title tells it.
  const veil = await page.locator('svg.overlay .veil').first().evaluate((el) => getComputedStyle(el).opacity);
  expect(veil === '1', `the future is hidden, not faded: ${veil}`);
  expect(!(await page.locator('.beat-tick').last().getAttribute('title')).includes('reject'), 'a tick still to come is not named');
  expect(await page.locator('.log-row[data-future] .log-text').first().evaluate((el) => getComputedStyle(el).visibility) === 'hidden', 'the log hides what is to come');
  // The first beat: A takes the lock.
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('[data-testid=beat]'));
  expect((await text(page, 'beat')).startsWith('Client A takes the lock, token 41.'), await text(page, 'beat'));
  // Just after A pauses: whom will the lock service count when B's request arrives?
  await page.keyboard.press('PageDown');
  await page.waitForSelector('[data-testid=predict]');
  expect((await text(page, 'predict')).includes("When Client B's request for the lock reaches Lock service at 1,105 ms, whom will the lock service count as holding the lock?"), await text(page, 'predict'));
  expect((await page.locator('[data-testid=predict] [data-action^=answer]').count()) === 4, 'A, B, two at once, nobody');
  await page.click('[data-testid=answer-1]');
  await page.waitForSelector('[data-testid=predict-result].predict--right');
  // End stops before B's write is judged: whose write will the resource hold at the end? The
  // answer is noted, and told at the end.
  await page.keyboard.press('End');
  await page.waitForFunction(() => (document.querySelector('[data-testid=predict]') || {}).innerText?.includes('whose write will Protected resource hold'));
  expect(!(await page.locator('[data-testid=diagram] svg.overlay .current').innerHTML()).includes('accepted'), 'the outcome is not shown yet');
  await page.keyboard.press('1');
  await page.waitForSelector('[data-testid=predict-noted]');
  // The next question: A's write with 41. Press 1 (accepts, intact): wrong, and the reason says why.
  await page.keyboard.press('End');
  await page.waitForFunction(() => (document.querySelector('[data-testid=predict]') || {}).innerText?.includes('token 41'));
  await page.keyboard.press('1');
  await page.waitForSelector('[data-testid=predict-result].predict--wrong');
  const result = await text(page, 'predict-result');
  expect(result.includes('Rejects it') && result.includes('The resource itself stopped a stale writer.') && result.includes('1 of 2 right'), result);
  expect((await text(page, 'narration')).includes('rejects'), 'the outcome is shown once answered');
  expect((await page.locator('svg.overlay .evidence .item').count()) > 0, 'the diagram marks the answer\'s evidence');
  // At the end, the answer about the end: B's write stands.
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=predict-result]')?.innerText.includes("Right: Client B's") && document.querySelector('[data-testid=predict-result]')?.innerText.includes('2 of 3 right'));
  // Switched off, the run plays through.
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.click('[data-testid=predict-offer] [data-action=predict]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=step-count]').innerText.startsWith('Step 38 of 38'));
  expect(!(await page.locator('[data-testid=predict]').count()), 'no question once switched off');
});

await check('presenter mode hides the side panels, enlarges the type and is driven by the keys', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=beat-ticks]');
  await page.click('[data-testid=present]');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
  expect(!(await page.locator('.sidebar').isVisible()) && !(await page.locator('[data-testid=inspector]').isVisible()), 'the side panels are hidden');
  expect(await page.locator('[data-testid=narration]').isVisible(), 'the narration stays');
  const size = await page.locator('.narration .intro').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(size >= 20, `large type: ${size}px`);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  expect((await text(page, 'beat')).startsWith('Client A pauses'), await text(page, 'beat'));
  await page.keyboard.press('f');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present'));
  expect(await page.locator('.sidebar').isVisible(), 'F leaves presenter mode');
});

await check('a lesson embedded in an <iframe> on a plain page shows the run, its playback and narration, and keeps its text readable when narrow', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=exports-button]');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await exportVia(page, 'embed');
  await page.waitForSelector('[data-testid=notice]');
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(/^<!-- Lockstep works at any size from 640×480: change width and height to fit your slide. --><iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed#\/lease-race-fenced\/0" title="Lockstep: The lease expiration race, fenced" width="960" height="600"/.test(code), code);
  // The copied code, on a plain page, in a column narrower than any slide.
  await page.setContent(`<!doctype html><html><body style="margin:20px"><h1>Course notes</h1>${code.replace('width="960"', 'width="380"')}</body></html>`);
  const frame = page.frameLocator('iframe');
  await frame.locator('[data-testid=beat-ticks]').waitFor();
  expect(!(await frame.locator('.sidebar').isVisible()) && !(await frame.locator('[data-testid=event-log]').isVisible()), 'only the run');
  expect(await frame.locator('[data-testid=narration]').isVisible() && await frame.locator('[data-testid=open-full]').isVisible(), 'its narration and a way out');
  // In a narrow frame the diagram keeps its text readable and scrolls sideways, as on a phone.
  const label = await frame.locator('[data-testid=diagram] .diagram-body svg').evaluate((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return scale * parseFloat(getComputedStyle(svg.querySelector('text.label')).fontSize);
  });
  expect(label >= 13.95, `the diagram's labels are ${label.toFixed(1)} px in the narrow frame`);
  await frame.locator('[data-testid=step-forward]').click();
  await frame.locator('[data-testid=step-forward]').click();
  expect((await frame.locator('[data-testid=step-count]').innerText()).startsWith('Step 2 of'), 'it steps');
});

await check('the legend lists the kinds of mark the diagram draws, and no others', async (page) => {
  await page.goto(`${url}#/zk-session-expiry/0`);
  await page.waitForSelector('[data-testid=legend]');
  let legend = await text(page, 'legend');
  expect(legend.includes('partition') && legend.includes('write rejected') && !legend.includes('crash'), legend);
  await page.click('.lesson-link[data-route="#/redis-failover/0"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=legend]').innerText.includes('crash'));
  legend = await text(page, 'legend');
  expect(legend.includes('replica promoted to primary') && !legend.includes('partition'), legend);
});

await check('exports download SVG and Mermaid', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  const [svg] = await Promise.all([page.waitForEvent('download'), exportVia(page, 'export-svg')]);
  const svgText = fs.readFileSync(await svg.path(), 'utf8');
  expect(svg.suggestedFilename() === 'lockstep-lease-race-fenced.svg' && svgText.includes('<style>') && svgText.includes('rejected: token 41 &lt; 42'), 'standalone SVG');
  const [mmd] = await Promise.all([page.waitForEvent('download'), exportVia(page, 'export-mermaid')]);
  const mmdText = fs.readFileSync(await mmd.path(), 'utf8');
  expect(mmdText.startsWith('sequenceDiagram') && mmdText.includes('R--xA: rejected: token 41 < 42'), 'Mermaid text');
  // A large run's file is written in many pieces: they join into one whole document.
  await page.goto(`${url}#/stress/20000/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  const [big] = await Promise.all([page.waitForEvent('download'), exportVia(page, 'export-svg')]);
  const bigText = fs.readFileSync(await big.path(), 'utf8');
  const items = (bigText.match(/<g class="item /g) || []).length;
  expect(bigText.length > 1 << 20 && bigText.startsWith('<svg') && bigText.endsWith('</svg>') && !bigText.includes('</svg><'), `a whole SVG of ${bigText.length} characters`);
  expect(items > 10000, `${items} items`);
  const [bigMmd] = await Promise.all([page.waitForEvent('download'), exportVia(page, 'export-mermaid')]);
  const lines = fs.readFileSync(await bigMmd.path(), 'utf8').split('\n');
  expect(lines[0] === 'sequenceDiagram' && lines.length > 5000 && lines.every((l, i) => i === 0 || l === '' || l.startsWith('    ')), `${lines.length} whole Mermaid lines`);
});

await check('interview questions link to the lessons that answer them', async (page) => {
  await page.goto(`${url}#/short-pause/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=questions] summary:has-text("What is a fencing token?")');
  expect((await text(page, 'questions')).includes('remembers the highest token'), 'answer shown');
  // The links read as the lessons' titles, not their ids.
  await page.click('[data-testid=questions] button:has-text("A separate INCR counter as the fencing token")');
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]').innerText === 'A separate INCR counter as the fencing token');
  expect(page.url().endsWith('#/redis-incr-token/0'), 'the link opens the lesson at its start');
});

await check('the comparison table matches the command line and opens each cell', async (page) => {
  // The CLI's detail lines read "<schedule> · <design>: <outcome> — <detail>".
  const cells = cli('compare').split('\n').map((l) => l.match(/^(\S+) · (\S+): (safe|unsafe|stalls) — (.*)$/)).filter(Boolean);
  expect(cells.length >= 60 && cells.length % 4 === 0, `four cells per design row from the CLI, got ${cells.length}`);
  await page.goto(`${url}#/compare`);
  await page.waitForSelector('[data-testid=compare]');
  const shown = await page.locator('[data-testid^=cell-compare-]').count();
  expect(shown === cells.length, `the page shows the CLI's ${cells.length} cells, not ${shown}`);
  for (const [, schedule, design, outcome, why] of cells) {
    const cell = page.locator(`[data-testid=cell-compare-${schedule}-${design}]`);
    expect((await cell.getAttribute('class')).includes(`cell--${outcome}`), `${schedule}/${design} shows ${outcome}`);
    // Its reason is on screen, not only in a tooltip.
    const shown = await cell.locator('xpath=following-sibling::span[@class="cell-why"]').innerText();
    expect(why.startsWith(shown.slice(0, 40)), `${schedule}/${design} shows why: ${shown}`);
  }
  await shot(page, 'compare-table.png', true);
  await page.click('[data-testid=cell-compare-partition-pg-no-timeout]');
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  expect((await text(page, 'lesson-title')) === 'Holder cut off for 10 s, carries on · PostgreSQL, no idle_session_timeout (the default)', 'the cell opens its diagram');
  expect(page.url().endsWith('#/compare/partition/pg-no-timeout/0'), `hash names the cell (${page.url()})`);
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=takeaway]');
  expect((await text(page, 'takeaway')).includes('Stalls: Client B got the lock only at 10,060 ms'), 'takeaway gives the outcome');
  await page.click('[data-testid=back-to-table]');
  await page.waitForSelector('[data-testid=compare]');
  expect(page.url().endsWith('#/compare'), 'back to the table');
});

await check('a link to an unknown comparison cell says what is wrong', async (page) => {
  await page.goto(`${url}#/compare/pause/redlok/0`);
  await page.waitForSelector('[data-testid=notice]');
  const notice = await text(page, 'notice');
  expect(notice.startsWith('there is no design named “redlok”; did you mean redlock?'), `notice: ${notice}`);
  expect(page.url().endsWith('#/lease-race-unfenced/0'), 'falls back to the first lesson');
});

await check("Mermaid's own parser accepts every lesson's export and hostile names, with nothing injected", async (page) => {
  const mermaidJs = fs.readFileSync(path.join(ROOT, 'tools/node_modules/mermaid/dist/mermaid.min.js'), 'utf8');
  await page.setContent('<div id="out"></div>');
  await page.addScriptTag({ content: mermaidJs });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  const parse = (text) => page.evaluate((text) => window.mermaid.parse(text).then(() => 'ok', (e) => String(e.message || e)), text);
  // The check can fail: the keyword `end` as an alias is a syntax error.
  expect((await parse('sequenceDiagram\n    participant end as x\n    end->>end: y')) !== 'ok', 'Mermaid rejects a keyword alias');
  const hostile = fs.readdirSync(path.join(ROOT, 'tests/hostile')).map((f) => path.join(ROOT, 'tests/hostile', f));
  expect(hostile.length >= 2, 'hostile scenarios found');
  for (const source of [...lessons, ...hostile]) {
    const text = cli('run', source, '--format', 'mermaid');
    const verdict = await parse(text);
    expect(verdict === 'ok', `${path.basename(source)}: ${verdict}`);
  }
  for (const source of hostile) {
    const text = cli('run', source, '--format', 'mermaid');
    const found = await page.evaluate(async (text) => {
      const { svg } = await window.mermaid.render('hostile', text);
      const out = document.getElementById('out');
      out.innerHTML = svg;
      return { elements: out.querySelectorAll('img, script, b, br, foreignObject').length, text: out.textContent };
    }, text);
    expect(found.elements === 0, `${path.basename(source)}: a name became markup`);
    // A directive that took effect would vanish from the text; drawn as text, it did nothing.
    if (source.endsWith('names.json')) {
      expect(found.text.includes("%%{init: {'theme':'dark'}}%%"), 'the directive is drawn as text');
      expect(found.text.includes('名前 <名'), "a '<' before a non-ASCII letter is drawn as written");
    }
    if (source.endsWith('keywords.json')) expect(found.text.includes('participant X as Y') && found.text.includes('A->>B: +x'), 'names are drawn as written');
  }
  // Every word Mermaid's lexer reserves, in three letter cases, as a participant's id.
  const words = mermaidKeywords();
  expect(words.includes('off') && words.length > 30, `the grammar's words: ${words}`);
  const copy = fs.readFileSync(path.join(ROOT, 'tests/fuzz/mermaid-keywords.txt'), 'utf8').trim();
  expect(copy === words.join('\n'), 'the fuzzer checks Mermaid exports against the grammar\'s words: node tools/mermaid-keywords.mjs > tests/fuzz/mermaid-keywords.txt');
  const base = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/scenario/lessons/unique-constraint.json'), 'utf8'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-keywords-'));
  for (const word of words) {
    for (const id of new Set([word, word.toUpperCase(), word[0].toUpperCase() + word.slice(1)])) {
      const scenario = structuredClone(base);
      scenario.participants[0].id = id;
      const file = path.join(dir, 'scenario.json');
      fs.writeFileSync(file, JSON.stringify(scenario));
      const text = cli('run', file, '--format', 'mermaid');
      const verdict = await parse(text);
      expect(verdict === 'ok', `a participant with id ${id}: ${verdict}`);
      const declared = [...text.matchAll(/^ {4}participant (\S+) as (.*)$/gm)];
      const aliases = declared.map((m) => m[1]);
      expect(new Set(aliases).size === aliases.length && !aliases.some((a) => words.includes(a.toLowerCase())), `id ${id}: aliases ${aliases}`);
      expect(declared[0][2] === 'Worker A', `id ${id}: the name is shown as written (${declared[0][2]})`);
    }
  }
  fs.rmSync(dir, { recursive: true });
});

await check('the largest stress run opens, scrolls and steps, drawing only what is near the view', async (page) => {
  const t0 = Date.now();
  await page.goto(`${url}#/stress/200000/0`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  const opened = Date.now() - t0;
  expect(opened < 30000, `opened in ${opened} ms`);
  const total = +(await text(page, 'step-count')).match(/of ([\d,]+)/)[1].replace(/,/g, '');
  expect(total > 190000, `${total} events`);
  /** The drawn items' vertical range in the scroller's coordinates, and how many there are. */
  const drawn = () => page.evaluate(() => {
    const scroller = document.querySelector('[data-testid=diagram]');
    const box = scroller.getBoundingClientRect();
    const items = [...scroller.querySelectorAll('.diagram-body .item')].map((i) => i.getBoundingClientRect());
    return { n: items.length, top: Math.min(...items.map((r) => r.top - box.top)), bottom: Math.max(...items.map((r) => r.bottom - box.top)), height: scroller.clientHeight };
  });
  let d = await drawn();
  expect(d.n > 20 && d.n < 2000, `${d.n} items drawn at the top`);
  expect(d.top <= d.height && d.bottom >= 0, 'items fill the view');
  // Scroll to the middle: the items there are drawn, and still only a few.
  await page.evaluate(() => { const s = document.querySelector('[data-testid=diagram]'); s.scrollTop = s.scrollHeight / 2; });
  await page.waitForTimeout(200);
  d = await drawn();
  expect(d.n > 20 && d.n < 2000 && d.top <= 0 && d.bottom >= d.height, `middle: ${JSON.stringify(d)}`);
  // Step to the end: the view follows the cursor, and the last event's items are drawn.
  await page.keyboard.press('End');
  await page.waitForFunction((n) => document.querySelector('[data-testid=step-count]').innerText.startsWith(`Step ${n.toLocaleString('en-US')} of`), total);
  await page.waitForTimeout(200);
  d = await drawn();
  expect(d.n > 20 && d.top <= d.height / 2 && d.bottom >= d.height / 2, `end: ${JSON.stringify(d)}`);
  // The event log holds every event, with only the rows near its view in the page: the last
  // event's row is there, marked and in view.
  const log = await page.evaluate(() => {
    const list = document.querySelector('[data-testid=event-log] ol');
    const current = list.querySelector('.log-row[aria-current]');
    const [box, row] = [list.getBoundingClientRect(), current?.getBoundingClientRect()];
    return { rows: list.querySelectorAll('.log-row').length, step: current?.querySelector('[data-step]').dataset.step, inView: !!row && row.top >= box.top - 1 && row.bottom <= box.bottom + 1, tall: list.scrollHeight };
  });
  expect(log.rows < 400 && log.step === String(total) && log.inView && log.tall > total * 25, `the log at the end: ${JSON.stringify(log)}`);
  await shot(page, 'stress-200000-end.png');
});

await check('the event log lists every event of a lesson, marks the step and follows it', async (page) => {
  await page.goto(`${url}#/redlock-happy/0`);
  await page.waitForSelector('[data-testid=event-log] .log-row');
  const trace = JSON.parse(cli('run', 'redlock-happy', '--format', 'json'));
  expect((await page.locator('.log-row').count()) === trace.events.length, 'a row for every event');
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const list = document.querySelector('[data-testid=event-log] ol');
    const row = list.querySelector('.log-row[aria-current]');
    return row && row.getBoundingClientRect().bottom <= list.getBoundingClientRect().bottom + 1 && row.textContent.startsWith(`${list.querySelectorAll('.log-row').length}`);
  });
});

await check('lessons are fetched when opened, not built into the page, and a missing file gets a message', async (page) => {
  const wasm = fs.readdirSync(path.join(ROOT, 'dist')).find((f) => f.endsWith('.wasm'));
  const bytes = fs.readFileSync(path.join(ROOT, 'dist', wasm)).toString('latin1');
  const intro = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/scenario/lessons/short-pause.json'), 'utf8')).intro.slice(0, 40);
  expect(!bytes.includes(intro), 'the wasm holds no lesson text');
  // A slow file: the page says it is loading, then shows the lesson.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/lessons/short-pause.json', async (route) => { await held; await route.continue(); });
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('/lessons/')) fetched.push(r.url().split('/lessons/')[1]); });
  await page.goto(`${url}#/short-pause/3`);
  await page.waitForSelector('[data-testid=loading]');
  expect((await text(page, 'loading')) === 'Loading the lesson…', 'loading is said');
  release();
  await page.waitForSelector('[data-testid=lesson-title]');
  expect((await text(page, 'lesson-title')) === 'A pause shorter than the lease', 'the lesson arrives');
  expect((await text(page, 'step-count')).startsWith('Step 3 of'), 'at the linked step');
  expect(fetched.join() === 'short-pause.json', `fetched only the lesson opened: ${fetched}`);
  // A file that cannot be fetched: a message, and the first lesson instead.
  await page.route('**/lessons/clock-jump.json', (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(`${url}#/clock-jump/0`);
  await page.reload();
  await page.waitForSelector('[data-testid=notice]');
  const notice = await text(page, 'notice');
  expect(notice.startsWith('The lesson “The lock service\'s clock jumps” could not be loaded: the server answered 404'), `notice: ${notice}`);
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]')?.innerText === 'The same race without fencing');
}, /status of 404/);

// In the page: steps a lesson beat by beat and returns what does not fit: lanes cut off, text
// under 14 px, the current event's mark outside the diagram's box, the page wider than the window.
async function misfits(page, id, sideways) {
  page.progress = `${id}, opening it`;
  await page.evaluate((id) => { location.hash = `#/${id}/0`; }, id);
  await page.waitForFunction((id) => location.hash.startsWith(`#/${id}/`) && document.querySelector('[data-testid=lesson-title]')
    && document.querySelectorAll('.beat-tick').length > 0 && !document.querySelector('.stage[aria-busy]'), id);
  page.progress = `${id}, stepping its beats`;
  return page.evaluate(async ({ id, sideways }) => {
    const frame = window.twoFrames;
    await frame();
    const problems = [];
    const scroller = document.querySelector('[data-testid=diagram]');
    const box = scroller.getBoundingClientRect();
    const svg = scroller.querySelector('.diagram-body svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const label = parseFloat(getComputedStyle(svg.querySelector('text.label')).fontSize);
    if (scale * label < 13.95) problems.push(`${id}: labels drawn at ${(scale * label).toFixed(1)} px`);
    if (!sideways && scroller.scrollWidth > scroller.clientWidth + 1) problems.push(`${id}: the diagram is ${scroller.scrollWidth - scroller.clientWidth} px wider than its box`);
    if (document.documentElement.scrollWidth > innerWidth + 1) problems.push(`${id}: the page is wider than the window`);
    const beats = document.querySelectorAll('.beat-tick').length;
    // The box as it is now: the band under it is shorter after the setup.
    const inView = () => {
      const box = scroller.getBoundingClientRect();
      return [...document.querySelectorAll('svg.overlay .current .item')].map((m) => m.getBoundingClientRect())
        .some((r) => r.bottom > box.top + 40 && r.top < box.bottom && r.right > box.left && r.left < box.right);
    };
    for (let b = 0; b < beats; b += 1) {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'PageDown', bubbles: true }));
      await frame();
      if (!(await window.settled(inView))) problems.push(`${id}: beat ${b + 1}'s event is not in view`);
    }
    // At the last beat the verdict says the most: all of it within the window.
    for (const badge of document.querySelectorAll('.badge')) {
      const r = badge.getBoundingClientRect();
      if (r.right > innerWidth + 1) problems.push(`${id}: “${badge.innerText}” runs ${Math.round(r.right - innerWidth)} px past the window`);
    }
    return problems;
  }, { id, sideways });
}

for (const [width, height] of [[1024, 768], [1280, 720], [1366, 768], [1920, 1080]]) {
  await check(`fits the screen at ${width}×${height}: every lesson's lanes in the width, text at least 14 px, each beat's event in view`, async (page) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${url}#/${lessons[0]}/0`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
    const problems = [];
    for (const id of lessons) problems.push(...await misfits(page, id, false));
    expect(problems.length === 0, problems.join('\n'));
    await page.goto(`${url}#/lease-race-unfenced/31`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
    await shot(page, `fit-${width}x${height}.png`);
  }, null, 600000);
}

// In the page: steps a lesson from its setup to its end by PageDown (answering each prediction
// with 1) and returns every stop where the story is not on screen with the run: the narration
// cut off or overflowing its band, a prediction's question out of view, the diagram's box off
// the screen or too small to show anything (but at the setup, where nothing has happened); or
// the band much taller than the narration needs at its fullest, taking room from the diagram.
async function storyOffScreen(page, id) {
  page.progress = id;
  await page.evaluate((id) => { location.hash = `#/${id}/0`; }, id);
  await page.waitForFunction((id) => location.hash.startsWith(`#/${id}/`) && document.querySelector('[data-testid=lesson-title]')
    && !document.querySelector('.stage[aria-busy]') && document.querySelector('[data-testid=step-count]')?.innerText.startsWith('Step 0 '), id);
  return page.evaluate(async (id) => {
    const problems = [];
    const inView = (r) => r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
    const shown = () => document.querySelector('[data-testid=step-count]').innerText.split(' · ')[0]
      + (document.querySelector('[data-testid=predict]') ? '?' : '');
    let last = '';
    // The band is sized to the lesson's tallest narration: little of it is left empty at the
    // setup, and at the fullest step walked (a prediction answered the other way, not walked
    // here, may need up to three lines more).
    let setupSpare = 0, leastSpare = Infinity;
    for (let stop = 0; stop < 400; stop += 1) {
      // Judged once the page shows the new step (or question), and the diagram has scrolled to it.
      await window.settled(() => shown() !== last);
      last = shown();
      await window.twoFrames();
      const step = document.querySelector('[data-testid=step-count]').innerText.split(' · ')[0];
      const at = `${id} ${step}`;
      const n = document.querySelector('[data-testid=narration]');
      if (!inView(n.getBoundingClientRect())) problems.push(`${at}: the narration is not all on screen`);
      if (n.scrollHeight > n.clientHeight + 1) problems.push(`${at}: the narration needs ${n.scrollHeight} px in ${n.clientHeight}`);
      // How much of its band the narration's text fills.
      const used = Math.max(...[...n.children].map((c) => c.getBoundingClientRect().bottom)) - n.getBoundingClientRect().top
        + parseFloat(getComputedStyle(n).paddingBottom);
      const spare = n.clientHeight - used;
      if (step.startsWith('Step 0 ') && !document.querySelector('[data-testid=predict]')) setupSpare = spare;
      else if (!step.startsWith('Step 0 ')) leastSpare = Math.min(leastSpare, spare);
      const q = document.querySelector('[data-testid=predict]');
      if (q && !inView(q.getBoundingClientRect())) problems.push(`${at}: the question is off screen`);
      const box = document.querySelector('[data-testid=diagram]').getBoundingClientRect();
      if (!inView(box)) problems.push(`${at}: the diagram's box is off screen`);
      if (!step.startsWith('Step 0 ') && box.height < 150) problems.push(`${at}: the diagram is ${box.height} px tall`);
      const marks = () => [...document.querySelectorAll('svg.overlay .current .item')].map((m) => m.getBoundingClientRect());
      const eventInView = () => !marks().length || marks().some((r) => r.bottom > box.top + 40 && r.top < box.bottom);
      if (!(await window.settled(eventInView))) problems.push(`${at}: its event is not in view`);
      const [, now, all] = step.match(/Step (\d+) of (\d+)/) || [];
      if (now === all && !q) break;
      document.dispatchEvent(new KeyboardEvent('keydown', { key: q ? '1' : 'PageDown', bubbles: true }));
    }
    if (setupSpare > 30) problems.push(`${id}: the setup's band leaves ${Math.round(setupSpare)} px empty`);
    if (leastSpare > 80) problems.push(`${id}: the band leaves ${Math.round(leastSpare)} px empty at its fullest step`);
    return problems;
  }, id);
}

await check('at 1024×768 (a projector) every lesson\'s diagram, narration and prediction question are on screen together at every beat, predictions on', async (page) => {
  await page.addInitScript(() => localStorage.setItem('lockstep-predict', 'on'));
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`${url}#/${lessons[0]}/0`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  const problems = [];
  for (const id of lessons) problems.push(...await storyOffScreen(page, id));
  expect(problems.length === 0, problems.join('\n'));
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.waitForFunction(() => location.hash.startsWith('#/lease-race-unfenced/') && document.querySelector('[data-testid=step-count]')?.innerText.startsWith('Step 0 '));
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=predict]');
  await shot(page, 'story-1024x768-predict.png');
}, null, 600000);

await check('Present fits at 1024×768 and 1920×1080: nothing cut off, the story on screen at every beat, large type', async (page) => {
  for (const [width, height] of [[1024, 768], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await page.goto(`${url}#/lease-race-fenced/0`);
    await page.waitForFunction(() => document.querySelector('[data-testid=step-count]')?.innerText.startsWith('Step 0 '));
    await page.keyboard.press('f');
    await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
    await page.evaluate(() => window.twoFrames());
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(wide <= width, `Present at ${width}×${height} is ${wide} px wide`);
    const size = await page.locator('.narration .intro').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size >= 19, `large type at ${width}×${height}: ${size} px`);
    const problems = [];
    for (const id of ['lease-race-fenced', 'k8s-fenced', 'redlock-clock-jump']) problems.push(...await storyOffScreen(page, id));
    expect(problems.length === 0, `at ${width}×${height}:\n${problems.join('\n')}`);
    await page.evaluate(() => { location.hash = '#/lease-race-fenced/20'; });
    await page.waitForFunction(() => document.querySelector('[data-testid=step-count]')?.innerText.startsWith('Step 20 '));
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-present')), 'still presenting');
    await shot(page, `present-${width}x${height}.png`);
    await page.keyboard.press('f');
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present'));
  }
});

await check('an embed works at every size a slide gives it: the diagram the frame\'s whole width with every lane in it, the narration under it, its questions in the frame (predictions on), nothing moving as it plays', async (page) => {
  for (const [width, height] of [[640, 480], [800, 450], [820, 620], [960, 540], [960, 600]]) {
    const at = `at ${width}×${height}`;
    await page.setViewportSize({ width: width + 40, height: height + 80 });
    await page.goto(url);
    await page.setContent(`<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:20px"><iframe src="${url}?embed#/redlock-pause/0" title="Lockstep" width="${width}" height="${height}" style="border:0"></iframe></body></html>`);
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    await frame.waitForSelector('[data-testid=beat-ticks]');
    expect(!(await frame.locator('[data-testid=menu]').isVisible()), `${at}: no lesson menu inside an embed`);
    const measure = () => frame.evaluate(() => {
      const box = document.querySelector('[data-testid=diagram]').getBoundingClientRect();
      const heads = document.querySelector('.lane-strip').getBoundingClientRect();
      const n = document.querySelector('[data-testid=narration]').getBoundingClientRect();
      return { box: [box.left, box.top, box.width, box.height].map(Math.round), heads: Math.round(heads.right), n: [n.top, n.bottom].map(Math.round),
        scroll: document.querySelector('.diagram-scroll').scrollWidth - document.querySelector('.diagram-scroll').clientWidth,
        page: document.documentElement.scrollWidth - innerWidth };
    });
    const before = await measure();
    expect(before.box[2] >= width - 40, `${at}: the diagram is ${before.box[2]} px wide in a ${width} px frame`);
    expect(before.scroll <= 1 && before.heads <= before.box[0] + before.box[2] + 1, `${at}: every lane is in the width (${JSON.stringify(before)})`);
    expect(before.page <= 0 && before.n[0] >= before.box[1] + before.box[3] && before.n[1] <= height, `${at}: the narration is under the diagram, in the frame (${JSON.stringify(before)})`);
    // Going through it: the question is on screen when asked, and the boxes hold still.
    await frame.locator('[data-testid=next-beat]').click();
    const first = await measure();
    for (let i = 0; i < 30 && !(await frame.locator('[data-testid=next-beat]').isDisabled()); i += 1) {
      await frame.locator('[data-testid=next-beat]').click();
      const q = await frame.evaluate(() => { const q = document.querySelector('[data-testid=predict]'); return q && q.getBoundingClientRect().bottom; });
      expect(q === null || q <= height + 1, `${at}: a question runs off the frame (${q})`);
      const now = await measure();
      expect(JSON.stringify(now.box) === JSON.stringify(first.box) && JSON.stringify(now.n) === JSON.stringify(first.n), `${at}: the page moved as the run went on (${JSON.stringify(first)} → ${JSON.stringify(now)})`);
    }
    await shot(page, `embed-${width}x${height}.png`);
  }
});

await check('a newcomer\'s first page: the bare address, /index.html and # show the paths, the first where to start, and edit/ the first lesson, in view at every size', async (page) => {
  const first = JSON.parse(fs.readFileSync(path.join(ROOT, `src/scenario/lessons/${lessons[0]}.json`), 'utf8'));
  for (const [width, height] of [[1920, 1080], [1366, 768], [1280, 720], [1024, 768], [390, 844]]) {
    for (const address of ['', 'index.html', '#', 'edit/']) {
      await page.setViewportSize({ width, height });
      await page.goto(`${url}${address}`);
      const at = `${address || 'the bare address'} at ${width}×${height}`;
      if (address === 'edit/') {
        await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]'), null, { timeout: STEP_MS }).catch(() => { throw new Error(`${at}: no lesson`); });
        expect((await text(page, 'lesson-title')) === `What if: ${first.title}`, `${at}: ${await text(page, 'lesson-title')}`);
        continue;
      }
      await page.waitForSelector('[data-testid=home]', { timeout: STEP_MS }).catch(() => { throw new Error(`${at}: no front page`); });
      expect((await page.locator('[data-testid=paths] .path').count()) === 6, `${at}: the six paths`);
      expect((await text(page, 'path-class')).includes('Starts with: The same race without fencing'), `${at}: the class starts with the problem`);
      const start = await page.locator('[data-testid=start-class]').boundingBox();
      expect(start && start.y >= 0 && start.y + start.height <= height, `${at}: "Start here" is on screen (${JSON.stringify(start)})`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${at}: nothing overflows sideways`);
      if (address === '') await shot(page, `front-${width}x${height}.png`);
    }
  }
});

await check('a teacher takes the 50-minute class from the bare address at 1024×768 in presenter mode by PageDown alone, predictions on: no key sticks, the diagram has most of the screen, the story in view, to the course\'s end', async (page) => {
  await page.addInitScript(() => localStorage.setItem('lockstep-predict', 'on'));
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(url);
  await page.waitForSelector('[data-testid=home]');
  await page.click('[data-testid=path-class] [data-action^=course-present]');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present') && location.hash.startsWith('#/course/class/1/'));
  const stops = new Set();
  let questions = 0;
  let last = '';
  for (let press = 0; press < 400; press += 1) {
    const now = await page.evaluate(() => ({
      where: location.hash.split('/').slice(0, 4).join('/') + ' ' + (document.querySelector('[data-testid=step-count]')?.innerText || '') + (document.querySelector('[data-testid=predict]') ? '?' : '') + (document.querySelector('[data-testid=predict-result]') ? '!' : ''),
      stop: location.hash.split('/')[3],
      share: document.querySelector('[data-testid=diagram]').getBoundingClientRect().height / innerHeight,
      asking: !!document.querySelector('[data-testid=predict]'),
      last: document.querySelector('[data-testid=course-eyebrow]')?.innerText,
    }));
    page.progress = now.where;
    expect(now.where !== last, `PageDown stuck at ${now.where}`);
    last = now.where;
    stops.add(now.stop);
    if (now.asking) {
      questions += 1;
      expect(now.share >= 0.6, `the diagram has ${(now.share * 100).toFixed(0)}% of the height at ${now.where}`);
    }
    if (/11 of 11/i.test(now.last || '') && /Step (\d+) of \1/.test(now.where) && !now.asking) break;
    await page.keyboard.press('PageDown');
    await page.waitForFunction((was) => {
      const where = location.hash.split('/').slice(0, 4).join('/') + ' ' + (document.querySelector('[data-testid=step-count]')?.innerText || '') + (document.querySelector('[data-testid=predict]') ? '?' : '') + (document.querySelector('[data-testid=predict-result]') ? '!' : '');
      return where !== was && !document.querySelector('.stage[aria-busy]');
    }, last).catch(() => { throw new Error(`PageDown did nothing at ${last}`); });
  }
  expect(stops.size === 11, `went through ${stops.size} of 11 stops: ${[...stops]}`);
  expect(questions >= 11, `asked ${questions} questions on the way`);
  await shot(page, 'class-end-1024x768.png');
  // Enter does not leave presenter mode; Escape does (no full screen in a headless browser),
  // and not while the list of keys is open, which it closes first.
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.documentElement.hasAttribute('data-present')), 'Enter left presenter mode');
  await page.keyboard.press('?');
  await page.waitForFunction(() => document.querySelector('#keys')?.matches(':popover-open'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.querySelector('#keys')?.matches(':popover-open'));
  expect(await page.evaluate(() => document.documentElement.hasAttribute('data-present')), 'Escape closed the keys and left presenter mode too');
  // Past the last stop, the course is over: the front page says so.
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.innerText.startsWith('You finished “A 50-minute class”') && document.querySelector('[data-testid=home]'));
  expect(await page.evaluate(() => location.hash === '' && !document.documentElement.hasAttribute('data-present')), 'the front page, out of presenter mode');
  // Escape leaves presenter mode.
  await page.goto(`${url}#/course/class/1/0`);
  await page.waitForSelector('[data-testid=course]');
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-present'));
}, null, 600000);

await check('? lists every key; the class\'s stops show the teacher\'s notes, in a card and a window of their own', async (page) => {
  await page.goto(`${url}#/course/class/2/0`);
  await page.waitForSelector('[data-testid=course]');
  await page.keyboard.press('?');
  await page.waitForFunction(() => document.querySelector('#keys')?.matches(':popover-open'));
  const keys = await text(page, 'keys');
  for (const key of ['Page Down', 'Page Up', 'Space', '→', 'End', '1', 'Esc', '?']) expect(keys.includes(key), `the list of keys names ${key}: ${keys}`);
  await page.keyboard.press('Escape');
  expect((await text(page, 'course')).includes('stop 2 of 11'), await text(page, 'course'));
  expect((await text(page, 'course-notes')).includes('Ask who issues the token'), await text(page, 'course-notes'));
  const [notes] = await Promise.all([page.waitForEvent('popup'), page.click('[data-testid=course-notes-window]')]);
  await notes.waitForSelector('[data-testid=notes-page]');
  expect((await notes.locator('[data-testid=notes-text]').innerText()).includes('Ask who issues the token'), 'the notes window shows the stop');
  await page.click('[data-testid=course-next]');
  await notes.waitForFunction(() => document.querySelector('[data-testid=notes-text]')?.innerText.includes('the resource only knows the tokens'));
  await notes.close();
});

await check('a teacher makes a course: runs added at their step, a lesson from the list, titles and notes, reordered, shared as a link that opens it in presenter mode; progress is kept, offered on return, exported and imported', async (page) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${url}#/lease-race-unfenced/8`);
  await page.waitForSelector('[data-testid=add-to-course]');
  await page.click('[data-testid=add-to-course]');
  await page.waitForSelector('[data-testid=notice]');
  expect((await text(page, 'notice')).startsWith('Added to your course, now 1 stop:'), await text(page, 'notice'));
  await page.goto(`${url}#/make`);
  await page.waitForSelector('[data-testid=builder]');
  await page.selectOption('[data-testid=draft-add]', 'optimistic-version');
  await page.waitForSelector('[data-testid=draft-stop-1]');
  await page.fill('[data-draft=course]', 'Locks in one hour <b>');
  await page.locator('[data-draft=course]').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('[data-draft=course]')?.getAttribute('value') === 'Locks in one hour <b>');
  await page.fill('[data-draft="stops[1].notes"]', 'Ask: where does the check live?');
  await page.locator('[data-draft="stops[1].notes"]').dispatchEvent('change');
  await page.fill('[data-draft="stops[0].predict"]', '2');
  await page.locator('[data-draft="stops[0].predict"]').dispatchEvent('change');
  await page.waitForFunction(() => document.querySelector('[data-draft="stops[0].predict"]')?.getAttribute('value') === '2');
  await page.click('[data-action="draft-up:1"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=draft-stop-0]')?.innerText.includes('Optimistic concurrency'));
  expect((await text(page, 'draft-stop-1')).includes('from step'), 'the run added on screen opens at its step');
  const [courseFile] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=draft-download]')]);
  const courseText = fs.readFileSync(await courseFile.path(), 'utf8');
  expect(courseText.includes('"course": "Locks in one hour <b>"') && courseText.includes('Ask: where does the check live?') && /"predict": \[\s*2\s*\]/.test(courseText), courseText);
  await page.click('[data-testid=draft-link]');
  await page.waitForSelector('[data-testid=notice]');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(/\?present#\/course\/1\.[A-Za-z0-9_-]+\/1\/0$/.test(link), link);
  // The link, opened as a page of its own: the course, in presenter mode, with its words shown as text.
  await page.goto(link);
  await page.waitForSelector('[data-testid=course-eyebrow]');
  expect(await page.evaluate(() => document.documentElement.hasAttribute('data-present')), 'the link opens in presenter mode');
  expect((await page.locator('[data-testid=course-eyebrow]').innerText()).toUpperCase().includes('LOCKS IN ONE HOUR <B> · 1 OF 2'), await page.locator('[data-testid=course-eyebrow]').innerText());
  expect((await page.locator('[data-testid=lesson-title]').innerText()).startsWith('Optimistic concurrency'), 'its first stop');
  // Progress: the front page offers to go on, and a file carries it to another browser.
  await page.goto(url);
  await page.waitForSelector('[data-testid=home]');
  expect((await text(page, 'continue')).includes('Continue “Locks in one hour <b>”: stop 1 of 2'), await text(page, 'continue'));
  expect((await page.locator('[data-testid=lesson-lease-race-unfenced]').getAttribute('data-progress')) === 'visited', 'the menu marks a lesson opened');
  expect((await text(page, 'progress')).startsWith('Your progress on this device') && (await text(page, 'progress')).includes('visited'), await text(page, 'progress'));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-progress]')]);
  const file = await download.path();
  await page.click('[data-testid=clear-progress]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=continue]'));
  await page.setInputFiles('[data-testid=import-progress]', file);
  await page.waitForSelector('[data-testid=continue]');
  await page.setInputFiles('[data-testid=import-progress]', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"version": 1, "visited": 7}') });
  await page.waitForFunction(() => document.querySelector('[data-testid=notice]')?.innerText.includes('visited: invalid type'));
  // A course's file, opened on the front page, is presented from its first stop.
  await page.setInputFiles('[data-testid=open-course]', { name: 'course.json', mimeType: 'application/json', buffer: Buffer.from(courseText) });
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present') && document.querySelector('[data-testid=course-eyebrow]'));
});

// In the page: the text a person can see, under 14 px (the diagram's own text is sized in its
// units and checked against the screen by `misfits`).
const SMALL_TEXT = () => {
  const small = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || el.closest('svg')) continue;
    const style = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || r.width === 0 || r.height === 0) continue;
    if (parseFloat(style.fontSize) < 13.95) small.add(`${el.tagName.toLowerCase()}.${el.className}: "${node.textContent.trim().slice(0, 30)}" at ${style.fontSize}`);
  }
  return [...small];
};

await check('every text a person reads is at least 14 px at 1024 px and up: the player, its panels, Present, the table and the editor', async (page) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const problems = [];
  for (const address of ['#/lease-race-fenced/38', '#/compare', 'edit/#/lease-race-fenced/10']) {
    await page.goto(`${url}${address}`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram, [data-testid=compare]');
    problems.push(...(await page.evaluate(SMALL_TEXT)).map((p) => `${address}: ${p}`));
  }
  await page.goto(`${url}#/lease-race-fenced/20`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  await page.keyboard.press('f');
  await page.waitForFunction(() => document.documentElement.hasAttribute('data-present'));
  problems.push(...(await page.evaluate(SMALL_TEXT)).map((p) => `Present: ${p}`));
  expect(problems.length === 0, problems.join('\n'));
});

// Opens the lesson menu (where the list is one) and returns the sidebar's last control.
const LAST_ENTRY = '.sidebar [data-testid=drill-start]';

await check('the lesson menu scrolls on its own to its last entry, by wheel and by keyboard, keeps the focus and gives it back, at every size', async (page) => {
  for (const [width, height] of [[1024, 768], [1280, 720], [1366, 768], [1920, 1080], [390, 844]]) {
    const at = `${width}×${height}`;
    await page.setViewportSize({ width, height });
    await page.goto(`${url}#/lease-race-fenced/0`);
    await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
    const drawer = await page.locator('[data-testid=menu]').isVisible();
    expect(drawer === width < 1500, `${at}: the list is a menu below 1,500 px`);
    if (drawer) {
      await page.click('[data-testid=menu]');
      await page.waitForFunction(() => document.activeElement?.closest('.sidebar') && document.querySelector('.sidebar').getBoundingClientRect().left >= 0);
    }
    // The wheel over the list scrolls the list, not the page behind it.
    const box = await page.locator('.sidebar').boundingBox();
    await page.mouse.move(box.x + box.width / 2, Math.min(box.y + box.height, height) / 2);
    const pageY = await page.evaluate(() => scrollY);
    for (let i = 0; i < 40 && !(await page.locator(LAST_ENTRY).evaluate((el) => { const r = el.getBoundingClientRect(); return r.bottom <= innerHeight && r.top >= 0; })); i += 1) {
      await page.mouse.wheel(0, 400);
      await page.evaluate(() => window.twoFrames());
    }
    const last = await page.locator(LAST_ENTRY).boundingBox();
    expect(last && last.y >= 0 && last.y + last.height <= height, `${at}: the wheel brings the last entry into view (${JSON.stringify(last)})`);
    if (drawer) expect((await page.evaluate(() => scrollY)) === pageY, `${at}: the page behind the menu stayed put`);
    // The keyboard: Tab goes through every entry of the list, in view, and round again.
    if (drawer) {
      await page.evaluate(() => { document.querySelector('.sidebar').scrollTop = 0; });
      await page.focus('.sidebar .menu-close');
      const controls = await page.locator('.sidebar button').count();
      const visited = new Set();
      for (let i = 0; i < controls; i += 1) {
        await page.keyboard.press('Tab');
        const where = await page.evaluate(() => {
          const el = document.activeElement;
          const r = el.getBoundingClientRect();
          return { inside: !!el.closest('.sidebar'), shown: r.top >= -1 && r.bottom <= innerHeight + 1, key: el.dataset.testid || el.dataset.route || el.innerText.slice(0, 40) };
        });
        expect(where.inside, `${at}: Tab left the open menu for ${where.key}`);
        expect(where.shown, `${at}: ${where.key} is focused out of view`);
        visited.add(where.key);
      }
      expect(visited.has('drill-start'), `${at}: Tab reaches the last entry`);
      await page.keyboard.press('Escape');
      await page.waitForFunction(() => !document.documentElement.hasAttribute('data-menu'));
      expect((await page.evaluate(() => document.activeElement?.dataset.testid)) === 'menu', `${at}: Escape gives the focus back to the menu's button`);
      expect(!(await page.locator('main[inert]').count()), `${at}: the page is live again`);
    }
  }
});

await check('PageDown goes on from the last beat to the end, where the takeaway is, and on to the next lesson, or the drill\'s; the beat ticks are titled marks', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=beat-ticks]');
  const names = await page.locator('.beat-tick').evaluateAll((ticks) => ticks.map((t) => t.getAttribute('title')));
  expect(names.length === 6 && names.every((n) => /^Key moment: .+ \(step \d+\)$/.test(n)), `beat ticks: ${names}`);
  expect((await page.getAttribute('[data-testid=beat-ticks]', 'aria-hidden')) === 'true', 'the ticks are marks; the Beat buttons are their controls');
  for (let i = 0; i < 7; i += 1) await page.keyboard.press('PageDown');
  await page.waitForFunction(() => /^Step (\d+) of \1 /.test(document.querySelector('[data-testid=step-count]').innerText));
  await page.waitForSelector('[data-testid=takeaway]');
  expect(await page.locator('[data-testid=next-beat]').isDisabled(), 'at the end, Beat ▸ rests');
  // A drill: PageDown at a lesson's end opens the question's next lesson.
  await page.evaluate(() => document.querySelector('[data-testid=drill-start]').click());
  await page.waitForSelector('[data-testid=drill]');
  for (let i = 0; i < 30 && (await text(page, 'drill')).includes('Lesson 1 of'); i += 1) {
    if (await page.locator('[data-testid=predict]').count()) await page.keyboard.press('1');
    else await page.keyboard.press('PageDown');
    await page.evaluate(() => window.twoFrames());
  }
  expect((await text(page, 'drill')).includes('Lesson 2 of'), `PageDown leads on: ${await text(page, 'drill')}`);
});

await check('the skip link puts the focus on Play, and Close in the editor returns to the lesson at the same step', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=play]');
  await page.keyboard.press('Tab');
  expect((await page.evaluate(() => document.activeElement.className)) === 'skip-link', 'the first Tab reaches the skip link');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'play');
  await page.keyboard.press('Tab');
  expect((await page.evaluate(() => document.activeElement?.dataset.testid)) === 'step-forward', 'and Tab goes on from there');
  await page.goto(`${url}edit/#/lease-race-fenced/12`);
  await page.waitForSelector('[data-testid=editor]');
  await page.waitForFunction(() => document.querySelector('[data-testid=stop-edit]')?.getAttribute('href') === '../#/lease-race-fenced/12');
  // Ctrl+Z and Ctrl+Y undo and redo outside a field.
  await setField(page, 'faults[0].for_ms', 500);
  await page.waitForFunction(() => document.querySelector('[data-edit="faults[0].for_ms"]').value === '500');
  await page.click('[data-testid=lesson-title]');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => document.querySelector('[data-edit="faults[0].for_ms"]').value === '1500');
  await page.keyboard.press('Control+y');
  await page.waitForFunction(() => document.querySelector('[data-edit="faults[0].for_ms"]').value === '500');
});

await check('on a phone the diagram comes first, the lesson list is a menu, and every lesson\'s beats are scrolled into view', async (page) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  const top = (await page.locator('[data-testid=diagram]').boundingBox()).y;
  expect(top < 300, `the diagram starts ${top} px down`);
  expect(!(await page.locator('.sidebar').isVisible()), 'the lesson list waits in its menu');
  const problems = [];
  for (const id of lessons) problems.push(...await misfits(page, id, true));
  expect(problems.length === 0, problems.join('\n'));
  // The menu as a newcomer meets it: on a page just opened, not one stepped through every lesson.
  // (A goto that changes only the hash loads no page, and its route change could close the menu.)
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.reload();
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  await page.click('[data-testid=menu]');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.sidebar')).visibility === 'visible', null, { timeout: 10000 });
  await page.locator('.lesson-link[data-route="#/short-pause/0"]').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]')?.innerText === 'A pause shorter than the lease');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('.sidebar')).visibility === 'hidden');
  await shot(page, 'phone.png');
});

await check('the interview drill (predictions kept off elsewhere): a question, its lessons with predictions, the answer, a score', async (page) => {
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=drill-start]', { state: 'attached' });
  await page.evaluate(() => document.querySelector('[data-testid=drill-start]').click());
  await shown(page, 'lease-race-unfenced');
  await page.waitForSelector('[data-testid=drill]');
  expect((await text(page, 'drill')).includes('Why are distributed locks harder than mutexes?'), await text(page, 'drill'));
  // The drill asks even though predictions are off on this page: first, whom the lock service
  // counts when B's request arrives (B: A's lease ran out while A was paused).
  await page.keyboard.press('End');
  await page.waitForSelector('[data-testid=predict]');
  await page.click('[data-testid=answer-1]');
  await page.waitForSelector('[data-testid=predict-result]');
  expect((await text(page, 'drill')).includes('1 of 1 predictions right'), await text(page, 'drill'));
  // To the lesson's end (answering whatever else it asks), then on through the question's lessons.
  for (let lesson = 0; lesson < 3; lesson += 1) {
    for (;;) {
      await page.keyboard.press('End');
      await page.waitForTimeout(50);
      if (await page.locator('[data-testid=drill-next]').count()) break;
      if (await page.locator('[data-testid=predict]').count()) await page.click('[data-testid=answer-1]');
    }
    if (lesson < 2) {
      expect((await text(page, 'drill-next')).startsWith('Next lesson'), `lesson ${lesson + 1} leads on`);
      await page.click('[data-testid=drill-next]');
      await page.waitForFunction((n) => document.querySelector('[data-testid=drill]')?.innerText.includes(`Lesson ${n} of 3`), lesson + 2);
    }
  }
  expect((await text(page, 'drill-answer')).includes('A mutex lives in one process'), 'the answer after the last lesson');
  await page.click('[data-testid=drill-next]');
  await page.waitForFunction(() => /question 2 of \d+/.test(document.querySelector('[data-testid=drill]')?.innerText));
  expect(page.url().includes('#/lease-race-fenced/'), `the next question's first lesson: ${page.url()}`);
  await shot(page, 'drill.png');
  await page.click('[data-testid=drill-leave]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=drill]'));
});

await check('zoom: in, out and back to fit the width', async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}#/lease-race-fenced/10`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram');
  const width = () => page.locator('[data-testid=diagram] .diagram-body svg').evaluate((s) => s.getBoundingClientRect().width);
  const fitted = await width();
  await page.click('[data-testid=zoom-in]');
  expect((await width()) > fitted * 1.2, 'zooming in draws it larger');
  expect((await text(page, 'zoom-fit')) === '125%', await text(page, 'zoom-fit'));
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  expect((await width()) < fitted * 0.9, 'zooming out draws it smaller');
  await page.keyboard.press('0');
  expect(Math.abs((await width()) - fitted) < 1, 'fit returns to the width');
});

await check("find a failure from the editor's page: the page compiles the workers' module from the files a folder up, once, and they find the same failure", async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  const cores = await page.evaluate(() => navigator.hardwareConcurrency || 1);
  let workers = 0;
  page.on('worker', () => { workers += 1; });
  for (let i = 0; i < 2; i += 1) {
    await page.click('[data-testid=find]');
    await page.waitForSelector('[data-testid=find-found]', { timeout: 20000 });
    const found = await text(page, 'find-found');
    expect(found.includes("Client A's write (token 41) was applied after Client B's (token 41) and erased it"), found);
  }
  // Fetched by the page (a worker's own fetch is not in the page's list), for both searches.
  const fetched = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/lockstep-search-worker_bg.wasm')).length);
  expect(fetched === 1, `the page fetched the module ${fetched} times`);
  expect(workers === 2 * Math.min(cores, 16), `${workers} workers started for two searches on ${cores} cores`);
});

await check('find a failure: the fenced race breaks only if the lock service loses its state and hands token 41 out again; shown and opened in the editor', async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=find]');
  await page.waitForSelector('[data-testid=find-found]', { timeout: 20000 });
  const found = await text(page, 'find-found');
  expect(found.includes("Client A's write (token 41) was applied after Client B's (token 41) and erased it"), found);
  expect((await text(page, 'finder')).includes('without its state'), await text(page, 'finder'));
  expect((await text(page, 'finder')).includes('Caused by:'), await text(page, 'finder'));
  await shot(page, 'find-found-1280.png');
  await page.click('[data-testid=find-open]');
  await page.waitForSelector('[data-testid=editor]');
  expect(new URL(page.url()).pathname.endsWith('/edit/'), `on the editor's page: ${page.url()}`);
  const title = await text(page, 'lesson-title');
  expect(title.startsWith('What if: A failure found in: The lease expiration race, fenced'), title);
  await page.keyboard.press('End');
  expect((await text(page, 'verdict')).toLowerCase().includes('unsafe'), await text(page, 'verdict'));
  await shot(page, 'find-opened-1280.png');
});

await check('the search runs in a worker: the page steps while it searches, says what it searched, and cancel stops it', async (page) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  // A step key is answered while the worker searches: the page changes within 3 s of each of
  // seven keys (the times, key to changed page, are printed; scripts/bench measures them).
  const stepTimes = () => page.evaluate(async () => {
    const times = [];
    for (let i = 0; i < 7; i += 1) {
      const searching = !!document.querySelector('[data-testid=find-progress]');
      const ms = await new Promise((done) => {
        const t0 = performance.now();
        const never = setTimeout(() => { seen.disconnect(); done(Infinity); }, 3000);
        const seen = new MutationObserver(() => { seen.disconnect(); clearTimeout(never); done(performance.now() - t0); });
        seen.observe(document.querySelector('main'), { childList: true, characterData: true, subtree: true, attributes: true });
        document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      });
      times.push({ ms, searching });
      await new Promise((r) => setTimeout(r, 20));
    }
    return times;
  });
  const median = (ts) => { const ms = ts.map((t) => t.ms).sort((a, b) => a - b); return ms[Math.floor(ms.length / 2)]; };
  // A run of about 2,000 events: its 20,000 schedules take seconds, so every key lands mid-search.
  await page.goto(`${url}#/stress/2000/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=find]');
  await page.waitForFunction(() => /^[1-9]/.test(document.querySelector('[data-testid=find-progress]')?.innerText || ''), null, { timeout: 20000 });
  const during = await stepTimes();
  expect(during.every((t) => t.searching && t.ms < Infinity), `stepped while searching: ${JSON.stringify(during)}`);
  await shot(page, 'find-progress-1920.png');
  // Cancel: the card goes at once and nothing more arrives from the ended worker.
  await page.click('[data-testid=find-cancel]');
  await page.waitForTimeout(1500);
  expect((await page.locator('[data-testid=finder]').count()) === 0, 'cancelled for good');
  const idle = await stepTimes();
  console.log(`     a step key to the changed page: ${median(during).toFixed(1)} ms while searching, ${median(idle).toFixed(1)} ms idle (medians of ${during.length} and ${idle.length})`);
  // A whole search that finds nothing says what it searched.
  await page.goto(`${url}#/etcd-txn-guard/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=find]');
  await page.waitForSelector('[data-testid=find-nothing]', { timeout: 60000 });
  const nothing = await text(page, 'find-nothing');
  expect(nothing.startsWith('No failure among 20,000 schedules of up to 2 faults: pauses up to 5,000 ms'), nothing);
  await page.click('[data-testid=find-close]');
  expect((await page.locator('[data-testid=finder]').count()) === 0, 'closed');
});

await check('prove: a lesson verified safe within its bounds in the worker, as natively; an unsafe one with its counterexample; cancel stops it', async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}#/etcd-txn-guard/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  expect((await text(page, 'proven')).startsWith('Not verified.'), await text(page, 'proven'));
  await page.click('[data-testid=prove]');
  await page.waitForSelector('[data-testid=proof]', { timeout: 120000 });
  const proof = await text(page, 'proof');
  expect((await text(page, 'proven')).startsWith('Verified safe within its bounds. Safe for every schedule'), await text(page, 'proven'));
  expect(proof.startsWith('Safe for every schedule of ≤ 2 faults (pauses, partitions, crashes and restarts) on a 200 ms grid within 1,600 ms:'), proof);
  expect((await text(page, 'finder')).includes('Verified safe'), await text(page, 'finder'));
  // The same verification natively says the same, counts and all (a verification is deterministic).
  const native = JSON.parse(cli('verify', 'etcd-txn-guard', '--format', 'json')).sentence;
  expect(native === proof, `natively: ${native}`);
  await shot(page, 'prove-safe-1280.png');
  await page.click('[data-testid=find-close]');
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=prove]');
  await page.waitForSelector('[data-testid=proof]', { timeout: 60000 });
  const unsafe = await text(page, 'proof');
  expect(unsafe.startsWith("Unsafe: Client A's write (token 41) was applied after Client B's (token 42)"), unsafe);
  expect((await page.locator('[data-testid=find-open]').count()) === 1, 'the counterexample opens in the editor');
  await shot(page, 'prove-unsafe-1280.png');
  // A long verification shows its states as it goes, and cancel ends it.
  await page.goto(`${url}#/redlock-pause-checked/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await page.click('[data-testid=prove]');
  await page.waitForFunction(() => /^[1-9][0-9,]* distinct states explored/.test(document.querySelector('[data-testid=find-progress]')?.innerText || ''), null, { timeout: 30000 });
  await shot(page, 'prove-progress-1280.png');
  await page.click('[data-testid=find-cancel]');
  await page.waitForTimeout(1000);
  expect((await page.locator('[data-testid=finder]').count()) === 0, 'cancelled for good');
});

await check('an interview answer that says safe links its proof: the lesson opens and is verified for the faults the answer covers', async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}#/lease-race-unfenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  // The answer is in the lesson menu, under its question.
  await page.$eval('[data-testid=prove-etcd-txn-guard]', (b) => { b.closest('details').open = true; b.click(); });
  await page.waitForSelector('[data-testid=proof]', { timeout: 120000 });
  expect(page.url().includes('#/etcd-txn-guard/'), page.url());
  const proof = await text(page, 'proof');
  expect(proof.startsWith('Safe for every schedule of ≤ 2 faults (pauses, partitions) on a 200 ms grid within 1,600 ms'), proof);
  expect((await text(page, 'lesson-title')).startsWith('etcd: the data lives in etcd'), await text(page, 'lesson-title'));
  // What was proved stays with the lesson for the session: away and back, its panel still says so.
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]')?.innerText.includes('fenced'));
  expect((await text(page, 'proven')).startsWith('Not verified.'), await text(page, 'proven'));
  await page.goto(`${url}#/etcd-txn-guard/3`);
  await page.waitForFunction(() => document.querySelector('[data-testid=lesson-title]')?.innerText.includes('etcd'));
  expect((await text(page, 'proven')).startsWith('Verified safe within its bounds. Safe for every schedule of ≤ 2 faults (pauses, partitions)'), await text(page, 'proven'));
});

await check('the comparison table verified cell by cell: each cell shows what was proved, with progress and cancel', async (page) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${url}#/compare`);
  await page.waitForSelector('[data-testid=compare]');
  await page.click('[data-testid=verify-table]');
  await page.waitForSelector('[data-testid=table-proving]', { timeout: 10000 });
  // The first cell (the lease whose resource checks nothing, under a pause) has a counterexample.
  await page.waitForSelector('[data-testid=proof-compare-pause-lease].proof--unsafe', { timeout: 60000 });
  expect((await page.getAttribute('[data-testid=proof-compare-pause-lease]', 'href')).startsWith('edit/#/edit/'), 'the counterexample opens in the editor');
  await page.waitForFunction(() => /^Verifying cell [2-9] of \d+/.test(document.querySelector('[data-testid=table-proving] h2')?.innerText || ''), null, { timeout: 60000 });
  await page.$eval('[data-testid=table-proving]', (c) => c.scrollIntoView({ block: 'start' }));
  await shot(page, 'table-proving-1280.png');
  // The card is drawn again as each cell ends, so the button is clicked where it is now.
  await page.$eval('[data-testid=find-cancel]', (b) => b.click());
  await page.waitForSelector('[data-testid=table-proved]', { timeout: 5000 });
  const proved = await text(page, 'table-proved');
  expect(/^Verified [1-9]\d* of \d+ cells: \d+ safe within their bounds, [1-9]\d* with a counterexample, \d+ not verified\./.test(proved), proved);
});

await check('narrow screen stays usable', async (page) => {
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto(`${url}#/network-delay/20`);
  await page.waitForSelector('[data-testid=diagram] svg');
  await shot(page, 'narrow-network-delay.png');
});

await browser.close();
close();
console.log(`e2e: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} left out by E2E_ONLY` : ''}`);
process.exit(failed ? 1 : 0);
