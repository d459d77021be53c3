// Lighthouse on the release site, as a newcomer meets it: the front page and a lesson link,
// served gzipped on 127.0.0.1, with Lighthouse's mobile profile. Prints the accessibility score,
// the cumulative layout shift and every accessibility audit that fails, and exits 1 unless
// accessibility is 100 and the layout shift under 0.1 on both pages.
//
//   node tools/lighthouse.mjs [dist]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { ROOT, CHROMIUM, CHROMIUM_ARGS } from './serve.mjs';

const require = createRequire(path.join(ROOT, 'tools/package.json'));
const { default: lighthouse } = await import(require.resolve('lighthouse'));
const chromeLauncher = await import(require.resolve('chrome-launcher'));

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };
const root = path.resolve(process.argv[2] || path.join(ROOT, 'dist'));

/** A static server over `root` that gzips what the browser accepts, as a real host does. */
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(req.url.split('?')[0]);
  if (p.endsWith('/')) p += 'index.html';
  const file = path.join(root, path.normalize(p));
  if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
  fs.readFile(file, (err, data) => {
    if (err) { res.writeHead(404); res.end(); return; }
    const headers = { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-cache' };
    if (/\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(data));
    } else {
      res.writeHead(200, headers);
      res.end(data);
    }
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless=new', ...CHROMIUM_ARGS, `--user-data-dir=${fs.mkdtempSync('/tmp/lockstep-lighthouse-')}`],
});
let failed = false;
try {
  for (const [name, address] of [['the front page', base], ['a lesson link', `${base}#/lease-race-fenced/0`]]) {
    const { lhr } = await lighthouse(address, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['accessibility', 'performance'] });
    const accessibility = Math.round(lhr.categories.accessibility.score * 100);
    const shift = lhr.audits['cumulative-layout-shift'].numericValue;
    // Each failing audit, with the first few elements it names.
    const failing = lhr.categories.accessibility.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a.score !== null && a.score < 1)
      .map((a) => {
        const where = (a.details?.items || []).slice(0, 6).map((i) => `\n      ${i.node?.selector || ''} ${i.node?.explanation?.split('\n')[0] || ''}`);
        return `${a.id}: ${a.title}${where.join('')}`;
      });
    console.log(`lighthouse ${name}: accessibility ${accessibility}, cumulative layout shift ${shift.toFixed(3)}${failing.length ? `\n  failing: ${failing.join('\n  failing: ')}` : ''}`);
    if (accessibility < 100 || shift >= 0.1) failed = true;
  }
} finally {
  await chrome.kill();
  server.close();
}
process.exit(failed ? 1 : 0);
