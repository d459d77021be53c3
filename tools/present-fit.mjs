// How much of the screen Present gives the diagram, and how much of the story is in view at each
// beat: `node tools/present-fit.mjs [dist] [WxH...] [-- lesson ids]` opens each lesson in presenter
// mode with predictions on, goes through it by PageDown alone (a question's answer shown by the
// next press), and at every stop prints the diagram box's share of the screen's height and how
// many of the story's beats so far have their event in the box. (The figures issue 51 asks for;
// run it on two builds to compare them.)
import path from 'node:path';
import { serve, chromium, ROOT, CHROMIUM, CHROMIUM_ARGS } from './serve.mjs';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const head = split < 0 ? args : args.slice(0, split);
const dist = path.resolve(head.find((a) => !/^\d+x\d+$/.test(a)) || path.join(ROOT, 'dist'));
const sizes = head.filter((a) => /^\d+x\d+$/.test(a));
const ids = split < 0 ? ['lease-race-unfenced', 'lease-race-fenced', 'redis-del-release', 'etcd-lease-expires', 'redlock-pause', 'k8s-paused-leader'] : args.slice(split + 1);
const { url, close } = await serve(dist);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
for (const size of sizes.length ? sizes : ['1024x768', '1280x720']) {
  const [width, height] = size.split('x').map(Number);
  for (const id of ids) {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.addInitScript(() => localStorage.setItem('lockstep-predict', 'on'));
    await page.goto(`${url}#/${id}/0`);
    await page.waitForSelector('.diagram-body svg', { timeout: 20000 });
    await page.keyboard.press('f');
    await page.waitForTimeout(300);
    const stops = [];
    for (let i = 0; i < 120; i += 1) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(120);
      const m = await page.evaluate(() => {
        const box = document.querySelector('.diagram-scroll').getBoundingClientRect();
        const count = document.querySelector('[data-testid=step-count]').innerText.match(/Step ([\d,]+) of ([\d,]+)/);
        const [step, steps] = [count[1], count[2]].map((n) => Number(n.replace(/,/g, '')));
        const strip = document.querySelector('.lane-strip').getBoundingClientRect().height;
        const events = [...document.querySelectorAll('.beat-tick')].map((t) => Number(t.dataset.step) - 1).filter((e) => e < step);
        const y = (e) => {
          for (const g of document.querySelectorAll('.diagram-body g.item[data-events]')) {
            const [a, b] = g.dataset.events.split(' ').map(Number);
            const r = g.getBoundingClientRect();
            if (a === e) return r.top + 2;
            if (b === e) return r.bottom - 2;
          }
          return null;
        };
        const placed = events.map(y).filter((v) => v !== null);
        const seen = placed.filter((v) => v >= box.top + strip - 4 && v <= box.bottom + 4).length;
        return { step, steps, share: box.height / innerHeight, seen, beats: placed.length, asking: !!document.querySelector('[data-testid=predict]') };
      });
      stops.push(m);
      if (m.step >= m.steps && !m.asking) break;
    }
    const share = Math.min(...stops.map((s) => s.share));
    const whole = stops.filter((s) => s.seen === s.beats).length;
    const asked = stops.filter((s) => s.asking);
    const askedWhole = asked.filter((s) => s.seen === s.beats).length;
    console.log(`${size} ${id}: diagram ${(share * 100).toFixed(1)}% of the height at least; every past beat in view at ${whole} of ${stops.length} stops (${askedWhole} of ${asked.length} questions); fewest in view ${Math.min(...stops.map((s) => (s.beats ? s.seen / s.beats : 1))).toFixed(2)}`);
    await page.close();
  }
}
await browser.close();
close();
