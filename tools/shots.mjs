// Screenshots of chosen views at chosen sizes, for looking at: node tools/shots.mjs out-dir view... (view = hash[@WxH])
import path from 'node:path';
import { serve, chromium, ROOT, CHROMIUM, CHROMIUM_ARGS } from './serve.mjs';
const [out, ...views] = process.argv.slice(2);
const { url, close } = await serve(path.join(ROOT, 'dist'));
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
for (const v of views) {
  const [hash, size = '1280x720'] = v.split('@');
  const [width, height] = size.split('x').map(Number);
  const page = await browser.newPage({ viewport: { width, height } });
  await page.addInitScript(() => localStorage.setItem('lockstep-predict', 'off'));
  page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
  await page.goto(`${url}${hash}`);
  await page.waitForSelector('[data-testid=diagram] svg.lockstep-diagram, .compare-table', { timeout: 10000 }).catch(() => {});
  await page.waitForTimeout(400);
  const file = path.join(out, `${hash.replace(/[^a-z0-9]+/gi, '_')}_${size}.png`);
  await page.screenshot({ path: file });
  console.log(file);
  await page.close();
}
await browser.close();
close();
