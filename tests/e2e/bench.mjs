// Benchmark in headless Chromium, printed as figures:
// - the payload (wasm + js + css), gzipped and brotli-compressed, beside the smallest Yew app,
//   and the failure search's worker apart (it loads only when a search starts);
// - the failure search's schedules per second: a page's first search in a pool of one Web Worker
//   per core, then later searches in one worker and in the pool, and the wasm/native ratio;
// - a stress run of about 100, 1,000, 3,000 and 10,000 messages, timed to the first frame painted
//   with its arrows in the page (requestAnimationFrame after the mutation that added them), from
//   navigation and in an already loaded app (a link followed at once and after a second), and
//   the whole diagram as SVG (the app's export put in the page), beside Mermaid drawing the same
//   messages in the same browser session, from navigation with its script and from its render
//   call: medians and p95 over 7 samples each; and whether each diagram came in one task;
// - the largest stress run: time to a painted diagram and the longest task;
// - step time: a key pressed as a frame starts, to that frame painted; and a key pressed at any
//   moment, to the updated DOM and to the next painted frame; at 100, 1,000 and 10,000 events;
// - an edit's redraw: a field changed as a frame starts and at any moment, to the frame painted
//   with the new diagram, for a lesson and a scenario of about 1,000 events;
// - wasm memory per event at 10,000 events;
// - verification in its worker: the lease race's bounds, time to the verdict and states per second.
// Arguments name the parts to run (diagram, largest, step, editor, search, verify); none runs them all.
// `diagram=1000` (or `diagram=100,1000`) times the diagram at those sizes only.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve, chromium, ROOT, CHROMIUM, CHROMIUM_ARGS } from '../../tools/serve.mjs';
import { siteSizes, kb } from '../../tools/size.mjs';

const parts = process.argv.slice(2);
const run = (part) => parts.length === 0 || parts.some((p) => p.split('=')[0] === part);
const sizes = parts.find((p) => p.startsWith('diagram='))?.slice(8).split(',').map(Number);
if (run('payload')) siteSizes();
const dist = path.join(ROOT, 'dist');

const cli = (...args) => execFileSync(path.join(ROOT, 'target/release/lockstep'), args, { encoding: 'utf8', maxBuffer: 1 << 30 });
const { url, close } = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

/** Opens a page that records when the first diagram appears, when the frame after it is
 * painted, and the longest task; it keeps the wasm instance. */
async function open(hash) {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: 'longtask', buffered: true });
    addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; });
    // The diagram counts once its arrows are in the page, not at its lane-name strip; a strip
    // seen without arrows means the diagram came in two tasks.
    window.__stripFirst = false;
    new MutationObserver((_, obs) => {
      if (document.querySelector('svg.lockstep-diagram') && !document.querySelector('svg.lockstep-diagram .msg')) window.__stripFirst = true;
      if (document.querySelector('svg.lockstep-diagram .msg')) {
        window.__firstDiagram = performance.now();
        requestAnimationFrame(() => setTimeout(() => { window.__painted = performance.now(); }));
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${url}${hash}`);
  await page.waitForFunction(() => window.__painted !== undefined, null, { timeout: 600000 });
  return page;
}

/** In a page already showing a lesson, the time from a link to a stress run to the frame
 * painted with its arrows: the work of the app alone, as Mermaid's render call is Mermaid's.
 * The link is followed `idle` ms after the first lesson's frame: at once (0), when the browser
 * has not yet optimized the WebAssembly, or after a second, as a person reads before clicking.
 * Also says whether the new run came in one task: no frame painted with its title but without
 * its arrows (none yet, or the last run's). */
async function inApp(events, idle) {
  const page = await open('#/short-pause/0');
  const took = await page.evaluate(async ([events, idle]) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    await frame();
    await new Promise((r) => setTimeout(r, idle));
    const before = document.querySelectorAll('svg.lockstep-diagram .msg').length;
    const titled = () => document.querySelector('[data-testid=lesson-title]').textContent.includes('contending');
    const arrows = () => document.querySelectorAll('svg.lockstep-diagram .msg').length > before;
    // A frame about to be painted with the new run's title but not its arrows (none, or the
    // last run's) means the run came in two tasks.
    let split = false, watching = true;
    const watch = () => {
      if (!watching) return;
      if (titled() && !arrows()) split = true;
      requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    // Once the new run's title and arrows are in the page (the lesson before had fewer), the
    // frame after that mutation. (A mutation observer hears of it in the task that made it; a
    // timer polling for it could first run after that frame was painted, and count the next.)
    const painted = new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error(`a link to #/stress/${events}/0: its arrows were not drawn within 60 s`)), 60000);
      const seen = new MutationObserver(() => {
        if (!(titled() && arrows())) return;
        seen.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now())));
      });
      seen.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    const t0 = performance.now();
    location.hash = `#/stress/${events}/0`;
    const ms = (await painted) - t0;
    watching = false;
    return { ms, split };
  }, [events, idle]);
  await page.close();
  return took;
}

/** In a page showing a stress run, the time from its SVG export (the whole diagram as one SVG
 * file, written by the app) to the frame painted with that SVG put in the page: the same work as
 * Mermaid's render call, which also writes the whole diagram and is timed to its frame. */
async function wholeSvg(events) {
  const page = await open(`#/stress/${events}/0`);
  await page.waitForTimeout(1000);
  await page.click('[data-testid=exports-button]');
  await page.waitForSelector('[data-testid=export-svg]');
  const took = await page.evaluate(async () => {
    let blob = null;
    URL.createObjectURL = (b) => { blob = b; return 'blob:bench'; };
    HTMLAnchorElement.prototype.click = () => {};
    const t0 = performance.now();
    document.querySelector('[data-testid=export-svg]').click();
    while (!blob) await new Promise((r) => setTimeout(r));
    const out = document.createElement('div');
    out.style.cssText = 'position: fixed; inset: 0; overflow: auto; background: #fff; z-index: 99';
    out.innerHTML = await blob.text();
    document.body.append(out);
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    // An arrow is drawn as two items (its line, then its label over every line).
    return { ms: performance.now() - t0, arrows: new Set([...out.querySelectorAll('.msg')].map((e) => e.dataset.events)).size };
  });
  await page.close();
  return took;
}

// Navigation to painted arrows, against Mermaid drawing the same messages.
const SAMPLES = 7;
const mermaidJs = fs.readFileSync(path.join(ROOT, 'tools/node_modules/mermaid/dist/mermaid.min.js'), 'utf8');
/** The median and p95 of samples, in ms. */
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
}
const said = (x) => `median ${x.median.toFixed(0)} ms, p95 ${x.p95.toFixed(0)} ms`;
/** Mermaid in a page of its own: from navigation (its script parsed and run as part of the page)
 * and from its render call, each to the frame painted with the diagram. */
async function mermaid(text) {
  const m = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await m.route(`${url}mermaid-bench.html`, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><div id="out"></div><script>${mermaidJs.replace(/<\/script/g, '<\\/script')}</script><script>
      window.done = (async () => {
        mermaid.initialize({ startOnLoad: false, maxTextSize: 1e9, maxEdges: 1e9, securityLevel: 'strict' });
        const t0 = performance.now();
        const { svg } = await mermaid.render('bench', ${JSON.stringify(text)});
        document.getElementById('out').innerHTML = svg;
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
        return { call: performance.now() - t0, navigation: performance.now() };
      })();
    </script>`,
  }));
  // Mermaid's render holds the page's main thread (30 s at 10,000 messages): wait for the
  // navigation to commit, and for its promise, within 10 minutes.
  m.setDefaultTimeout(600000);
  await m.goto(`${url}mermaid-bench.html`, { waitUntil: 'commit' });
  const r = await m.waitForFunction(() => window.done !== undefined).then(() => m.evaluate(() => window.done)).catch(() => null);
  await m.close();
  return r;
}
for (const messages of run('diagram') ? sizes ?? [100, 1000, 3000, 10000] : []) {
  const events = Math.round(messages * 2.7);
  const trace = JSON.parse(cli('run', `stress-${events}`, '--format', 'json'));
  const drawn = trace.events.filter((e) => e.kind === 'deliver' || e.kind === 'drop').length;
  const text = cli('run', `stress-${events}`, '--format', 'mermaid');
  const nav = [], app = [], idle = [], whole = [], mNav = [], mCall = [];
  let split = 0, arrows = 0;
  for (let k = 0; k < SAMPLES; k++) {
    const page = await open(`#/stress/${events}/0`);
    nav.push(await page.evaluate(() => window.__painted));
    split += await page.evaluate(() => window.__stripFirst);
    await page.close();
    for (const [idleMs, into] of [[0, app], [1000, idle]]) {
      const r = await inApp(events, idleMs);
      into.push(r.ms);
      split += r.split;
    }
    const w = await wholeSvg(events);
    whole.push(w.ms);
    arrows = w.arrows;
    const m = await mermaid(text);
    if (m) { mNav.push(m.navigation); mCall.push(m.call); }
  }
  const ours = stats(nav), loaded = stats(app), read = stats(idle), file = stats(whole);
  console.log(`browser: ${drawn} messages (${trace.events.length} events), to the frame painted with the arrows: navigation ${said(ours)}; a link in the loaded app at once ${said(loaded)}, after a second ${said(read)}; the diagram in one task in ${3 * SAMPLES - split} of ${3 * SAMPLES}`);
  console.log(`browser: ${drawn} messages, the whole diagram as SVG (its export, put in the page, ${arrows} arrows): ${said(file)}`);
  if (mCall.length === SAMPLES) {
    const byNav = stats(mNav), byCall = stats(mCall);
    const r = (x) => (x.median / byCall.median).toFixed(3);
    console.log(`browser: ${drawn} messages, Mermaid: from navigation with its script ${said(byNav)}; from its render call ${said(byCall)}`);
    console.log(`browser: ${drawn} messages, median ratio to Mermaid's render call: navigation ${r(ours)}, a link at once ${r(loaded)}, after a second ${r(read)}, the whole diagram as SVG ${r(file)}; navigation to navigation ${(ours.median / byNav.median).toFixed(3)}`);
  } else {
    console.log(`browser: ${drawn} messages: Mermaid failed in ${SAMPLES - mCall.length} of ${SAMPLES} samples`);
  }
}

// The largest run the stress link accepts.
if (run('largest')) {
  const page = await open('#/stress/200000/0');
  const r = await page.evaluate(() => ({ first: window.__firstDiagram, painted: window.__painted, longest: window.__longest, items: document.querySelectorAll('.diagram-body .item').length }));
  console.log(`browser: #/stress/200000: diagram ${r.first.toFixed(0)} ms, painted ${r.painted.toFixed(0)} ms after navigation, longest task ${r.longest.toFixed(0)} ms, ${r.items} items in the page`);
  await page.close();
}

// Step time and memory.
let base = null;
for (const n of run('step') ? [100, 1000, 10000] : []) {
  const page = await open(`#/stress/${n}/0`);
  const memory = await page.evaluate(() => window.__wasm.memory.buffer.byteLength);
  const events = await page.evaluate(() => +document.querySelector('[data-testid=step-count]').innerText.match(/of ([\d,]+)/)[1].replace(/,/g, ''));
  if (base === null) base = { memory, events };
  else console.log(`browser: ${events} events: wasm memory ${kb(memory)}, ${((memory - base.memory) / (events - base.events)).toFixed(0)} bytes per event over the ${base.events}-event run`);
  const steps = Math.min(300, events - 1);
  // Two measures of a step, each with the key press dispatched in the page:
  // - in one frame: the key pressed as a frame starts (in its requestAnimationFrame callback),
  //   to that frame painted (a task queued from the callback runs once the frame's style,
  //   layout and paint are done). The step fits in a frame when this is under 16.7 ms.
  // - at any moment: the key pressed in a task at a random point of the frame, to the update in
  //   the DOM (a MutationObserver on the playback controls, where the step counter is) and to
  //   the next painted frame, which includes waiting for that frame to start (0 to 16.7 ms).
  const times = await page.evaluate(async (steps) => {
    const label = document.querySelector('.controls');
    const press = () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    const changed = () => new Promise((res) => {
      const o = new MutationObserver(() => { o.disconnect(); res(performance.now()); });
      o.observe(label, { childList: true, subtree: true, characterData: true });
    });
    const out = [];
    for (let i = 0; i < steps; i++) {
      const inFrame = await new Promise((res) => requestAnimationFrame(() => {
        const t0 = performance.now();
        setTimeout(() => res(performance.now() - t0));
        press();
      }));
      await new Promise((r) => setTimeout(r, Math.random() * 17));
      const t0 = performance.now();
      const done = changed();
      press();
      const dom = (await done) - t0;
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
      out.push([inFrame, dom, performance.now() - t0]);
    }
    return out;
  }, Math.floor(steps / 2));
  const [inFrame, dom, painted] = [0, 1, 2].map((k) => stats(times.map((t) => t[k])));
  console.log(`browser: ${events} events: step, key pressed as a frame starts → that frame painted: median ${inFrame.median.toFixed(2)} ms, p95 ${inFrame.p95.toFixed(2)} ms (one 60 Hz frame: 16.7 ms); pressed at any moment → DOM median ${dom.median.toFixed(2)} ms, p95 ${dom.p95.toFixed(2)} ms → next painted frame median ${painted.median.toFixed(2)} ms, p95 ${painted.p95.toFixed(2)} ms; ${times.length} steps of each`);
  await page.close();
}
// The editor: from a changed field to the frame painted with the redrawn diagram, for a lesson
// and for a scenario of about 1,000 events.
const lesson = fs.readFileSync(path.join(ROOT, 'src/scenario/lessons/lease-race-fenced.json'), 'utf8');
const long = JSON.parse(lesson);
const cycle = [{ step: 'acquire' }, { step: 'work', ms: 10 }, { step: 'write', value: 'A' }, { step: 'release', mode: 'safe' }];
// Six clients, each taking the lock eight times: about a thousand events.
const script = Array.from({ length: 8 }, () => cycle).flat();
long.participants[0].script = script;
long.participants[3].script = script;
for (let i = 0; i < 4; i++) {
  long.participants.push({ role: 'client', id: `C${i}`, name: `Client C${i}`, start_ms: 30 * i, script });
}
long.limits = { max_events: 100000 };
for (const [name, file] of run('editor') ? [['a lesson', lesson], ['a long scenario', JSON.stringify(long)]] : []) {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${url}edit/#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=editor]');
  await page.setInputFiles('[data-testid=open-file]', { name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await page.waitForTimeout(300);
  const events = await page.evaluate(() => +document.querySelector('[data-testid=step-count]').innerText.match(/of ([\d,]+)/)[1].replace(/,/g, ''));
  const notice = await page.locator('[data-testid=notice]').count();
  if (notice) throw new Error(`the ${name} did not open: ${await page.locator('[data-testid=notice]').innerText()}`);
  // Two measures of an edit, as of a step: the change made as a frame starts (in its
  // requestAnimationFrame callback) and at any moment (in a task of its own), each to the frame
  // painted with the new diagram: the frame after the mutation that put it in the page, or the
  // starting frame itself if the mutation came within it (a task queued from the callback runs
  // once that frame is painted).
  const times = await page.evaluate(async () => {
    const nextTask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const edit = (i, t0, inFrame) => new Promise((res) => {
      const field = document.querySelector('[data-edit="faults[0].for_ms"]');
      field.value = String(i % 2 ? 1500 : 700);
      const diagram = document.querySelector('[data-testid=diagram] .diagram-body');
      let changed = false;
      const o = new MutationObserver(() => {
        o.disconnect();
        changed = true;
        if (!inFrame) requestAnimationFrame(() => setTimeout(() => res(performance.now() - t0)));
      });
      o.observe(diagram, { childList: true, subtree: true });
      field.dispatchEvent(new Event('change', { bubbles: true }));
      // Within the starting frame, or else the frame after the mutation.
      if (inFrame) setTimeout(() => (changed ? res(performance.now() - t0) : (inFrame = false)));
    });
    const out = [];
    for (let i = 0; i < 60; i++) {
      await nextTask();
      const inFrame = await new Promise((r) => requestAnimationFrame(() => r(edit(2 * i, performance.now(), true))));
      await nextTask();
      const any = await edit(2 * i + 1, performance.now(), false);
      out.push([inFrame, any]);
    }
    return out;
  });
  const [inFrame, any] = [0, 1].map((k) => times.map((t) => t[k]).sort((a, b) => a - b));
  const said = (t) => `median ${t[30].toFixed(1)} ms, p95 ${t[57].toFixed(1)} ms`;
  console.log(`editor: ${name} (${events} events): edit → frame painted with the new diagram, made as a frame starts: ${said(inFrame)}; at any moment: ${said(any)}; 60 edits of each (60 Hz frame: 16.7 ms)`);
  await page.close();
}

// The failure search in its Web Workers, as the page runs it: the worker's module compiled once
// for the page and posted to each worker, and each worker of a pool of one per core the browser
// reports judging its share of every schedule. 20,000 schedules of a lesson's search (the default
// budget): the page's first search, in its pool, and then, best of three with the module already
// optimized by earlier searches, in one worker and in the pool; and the same over 100,000
// schedules. Beside the native figure `cargo bench --bench search` wrote (scripts/bench keeps it).
const native = fs.existsSync(path.join(ROOT, 'target/search-native.txt')) ? fs.readFileSync(path.join(ROOT, 'target/search-native.txt'), 'utf8') : '';
for (const id of run('search') ? ['lease-race-fenced', 'redlock-pause'] : []) {
  const page = await browser.newPage();
  await page.goto(`${url}#/${id}/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  const file = fs.readFileSync(path.join(dist, 'lessons', `${id}.json`), 'utf8');
  const [first, one, pool, cores, longOne, longPool] = await page.evaluate(async (file) => {
    const module = await WebAssembly.compileStreaming(fetch('lockstep-search-worker_bg.wasm'));
    // Schedules per second with `of` workers, each judging its share of every schedule.
    const rate = async (of, budget = 20000) => {
      const workers = [...Array(of)].map(() => new Worker('lockstep-search-worker_loader.js'));
      const ready = Promise.all(workers.map((w) => new Promise((r) => { w.onmessage = (e) => { if (e.data === 'ready') r(); }; })));
      workers.forEach((w) => w.postMessage(module));
      await ready;
      const t0 = performance.now();
      const reports = await Promise.all(workers.map((w, index) => new Promise((done) => {
        w.onmessage = (e) => done(JSON.parse(e.data));
        w.postMessage(JSON.stringify({ file, bounds: { budget, sample: true }, share: [index, of] }));
      })));
      const seconds = (performance.now() - t0) / 1000;
      workers.forEach((w) => w.terminate());
      const judged = reports.reduce((n, r) => n + r.tried, 0);
      if (judged !== budget) throw new Error(`the pool judged ${judged} of ${budget} schedules`);
      return judged / seconds;
    };
    const best = async (of, budget) => { let b = 0; for (let i = 0; i < 3; i += 1) b = Math.max(b, await rate(of, budget)); return b; };
    const cores = Math.max(1, navigator.hardwareConcurrency || 1);
    const first = await rate(cores);
    return [first, await best(1), await best(cores), cores, await best(1, 100000), await best(cores, 100000)];
  }, file);
  const m = native.match(new RegExp(`search: ${id}: (\\d+) schedules/s natively`));
  const ratio = m ? ` (native, one thread: ${m[1]}/s, ${(Number(m[1]) / one).toFixed(2)}× as fast)` : '';
  console.log(`search: ${id}: the page's first search ${first.toFixed(0)} schedules/s in a pool of ${cores} Web Workers in Chromium; later searches ${one.toFixed(0)} in one worker, ${pool.toFixed(0)} in the pool${ratio}; over 100,000 schedules ${longOne.toFixed(0)} and ${longPool.toFixed(0)}`);
  await page.close();
}
// Verification in its Web Worker: the fenced lease race without its own pause (every pause comes
// from the verification), pauses only, a 100 ms grid, a 3 s horizon, up to 2 faults; the unfenced
// race's first counterexample within the same bounds. The worker starts as the page starts it,
// from the module the page compiled once. From the request posted to the verdict received,
// median of 3, with the distinct states per second.
if (run('verify')) {
  const page = await browser.newPage();
  await page.goto(`${url}#/lease-race-fenced/0`);
  await page.waitForSelector('[data-testid=diagram] svg');
  for (const id of ['lease-race-unfenced', 'lease-race-fenced']) {
    const doc = JSON.parse(fs.readFileSync(path.join(dist, 'lessons', `${id}.json`), 'utf8'));
    doc.faults = [];
    const request = JSON.stringify({ file: JSON.stringify(doc), verify: { faults: ['pause'], grid_ms: 100, horizon_ms: 3000 } });
    const runs = [];
    for (let i = 0; i < 3; i += 1) {
      runs.push(await page.evaluate(async (request) => {
        const w = new Worker('lockstep-search-worker_loader.js');
        const ready = new Promise((r) => { w.onmessage = (e) => { if (e.data === 'ready') r(); }; });
        // The module, compiled by the page once and posted first, as the page does.
        window.__module ??= await WebAssembly.compileStreaming(fetch('lockstep-search-worker_bg.wasm'));
        w.postMessage(window.__module);
        await ready;
        const t0 = performance.now();
        const last = await new Promise((done) => {
          w.onmessage = (e) => { const r = JSON.parse(e.data); if (r.report !== 'proving') done(r); };
          w.postMessage(request);
        });
        const ms = performance.now() - t0;
        w.terminate();
        return { ms, last };
      }, request));
    }
    runs.sort((a, b) => a.ms - b.ms);
    const { ms, last } = runs[1];
    if (last.report !== 'proven') throw new Error(`verify ${id}: ${JSON.stringify(last)}`);
    const states = Number((last.sentence.match(/([\d,]+) distinct states?/) || ['', '0'])[1].replace(/,/g, ''));
    console.log(`verify: ${id} (pauses, 100 ms grid, 3 s, ≤ 2) in one Web Worker: ${last.safe ? 'safe' : 'counterexample'} in ${ms.toFixed(1)} ms (median of 3), ${states} states, ${(states / (ms / 1000)).toFixed(0)} states/s`);
  }
  await page.close();
}
await browser.close();
close();
