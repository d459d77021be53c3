// Benchmark in headless Chromium: initial render time and time per step for stress traces of
// 100, 1,000 and 10,000 events, and the gzipped size of the payload (wasm + js + css).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { serve, chromium, ROOT, CHROMIUM, CHROMIUM_ARGS } from './serve.mjs';

/** Prints each wasm, js and css file of a build with its gzipped size; returns the gzipped total. */
function sizes(dir, prefix) {
  let total = 0;
  for (const f of fs.readdirSync(dir).filter((f) => /\.(wasm|js|css)$/.test(f)).sort()) {
    const raw = fs.readFileSync(path.join(dir, f));
    const gz = zlib.gzipSync(raw, { level: 9 }).length;
    total += gz;
    console.log(`${prefix}: ${f.replace(/-[0-9a-f]{16}/, '')} ${(raw.length / 1024).toFixed(1)} KB, ${(gz / 1024).toFixed(1)} KB gzipped`);
  }
  return total;
}

const dist = path.join(ROOT, 'dist');
const total = sizes(dist, 'size');
console.log(`size: payload (wasm + js + css) ${(total / 1024).toFixed(1)} KB gzipped (target < 100 KB)`);
const floorDist = path.join(ROOT, 'target/yew-floor-dist');
if (fs.existsSync(floorDist)) {
  const floor = sizes(floorDist, 'floor');
  console.log(`floor: the smallest Yew app, built the same way, ${(floor / 1024).toFixed(1)} KB gzipped`);
}

const { url, close } = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
for (const n of [100, 1000, 10000]) {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.addInitScript(() => {
    new MutationObserver((_, obs) => {
      if (document.querySelector('svg.lockstep-diagram')) { window.__firstDiagram = performance.now(); obs.disconnect(); }
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto(`${url}#/stress/${n}/0`);
  await page.waitForFunction(() => window.__firstDiagram !== undefined, null, { timeout: 120000 });
  const first = await page.evaluate(() => window.__firstDiagram);
  const events = await page.evaluate(() => +document.querySelector('[data-testid=step-count]').innerText.match(/of (\d+)/)[1]);
  const steps = Math.min(300, events - 1);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  // Latency from the key press to the updated DOM, measured by a MutationObserver on the step
  // counter: it fires after the whole render (script, effects and the layout they force).
  const times = await page.evaluate(async (steps) => {
    const label = document.querySelector('[data-testid=step-count]');
    const nextTask = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = r; c.port2.postMessage(0); });
    const out = [];
    for (let i = 0; i < steps; i++) {
      await nextTask();
      const t0 = performance.now();
      const done = new Promise((res) => {
        const o = new MutationObserver(() => { o.disconnect(); res(performance.now()); });
        o.observe(label, { childList: true, subtree: true, characterData: true });
      });
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      out.push((await done) - t0);
    }
    return out;
  }, steps);
  const after = await metrics();
  const per = (k) => ((after[k] - before[k]) * 1000 / steps).toFixed(2);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p95 = times[Math.floor(times.length * 0.95)];
  console.log(`browser: ${events} events: first render ${first.toFixed(0)} ms after navigation start`);
  console.log(`browser: ${events} events: step input→DOM median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms over ${steps} steps (60 Hz frame: 16.7 ms)`);
  console.log(`browser: ${events} events: main thread per step: script ${per('ScriptDuration')} ms, style ${per('RecalcStyleDuration')} ms, layout ${per('LayoutDuration')} ms, all tasks incl. software paint ${per('TaskDuration')} ms`);
  await page.close();
}
await browser.close();
close();
