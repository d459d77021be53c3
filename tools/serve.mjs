// A static file server for dist/ on 127.0.0.1: `node tools/serve.mjs dist 8080` serves the built
// site (scripts/serve); the end-to-end check and the benchmark import it.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml' };

/** Serves `root` on a loopback port (an ephemeral one by default) under the path `under`; resolves to { url, close }. */
export function serve(root, port = 0, under = '/') {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(req.url.split('?')[0]);
    // Served under a sub-path (as a project page of a static host is), nothing else exists.
    if (!p.startsWith(under)) { res.writeHead(404); res.end(); return; }
    p = '/' + p.slice(under.length);
    if (p.endsWith('/')) p += 'index.html';
    const file = path.join(root, path.normalize(p));
    if (!file.startsWith(path.resolve(root))) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end(); return; }
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => {
    resolve({ url: `http://127.0.0.1:${server.address().port}${under}`, close: () => server.close() });
  }));
}

/** The flags that let Debian's Chromium run headless on a closed network as root. */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Playwright's driver library, installed under tools/ by scripts/setup. */
export const { chromium } = createRequire(path.join(ROOT, 'tools/package.json'))('playwright-core');

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const [root = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await serve(path.resolve(root), Number(port));
  console.log(`  Lockstep is at  ${url}  (the editor at ${url}edit/; Ctrl-C stops it)`);
}
