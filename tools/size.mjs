// Prints the size of the built site's files, gzipped and brotli-compressed: the player's
// payload (wasm + js + css) and what its wasm's code and data take, the failure search's worker
// apart (it loads only when a search starts), and the editor's page. `node tools/size.mjs` after scripts/build-site; the benchmark
// prints the same figures.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

/** Prints each wasm, js and css file of a build with its compressed sizes; returns the totals. */
export function sizes(dir, prefix, worker = false) {
  let gz = 0;
  let br = 0;
  const isWorker = (f) => f.startsWith('lockstep-search-worker');
  for (const f of fs.readdirSync(dir).filter((f) => /\.(wasm|js|css)$/.test(f) && isWorker(f) === worker).sort()) {
    const raw = fs.readFileSync(path.join(dir, f));
    const g = zlib.gzipSync(raw, { level: 9 }).length;
    const b = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    gz += g;
    br += b;
    console.log(`${prefix}: ${f.replace(/-[0-9a-f]{16}/, '')} ${(raw.length / 1024).toFixed(1)} KB, ${kb(g)} gzipped, ${kb(b)} brotli`);
  }
  return { gz, br };
}

/** The gzipped size of a wasm module's code and data sections, each compressed on its own. */
export function sections(file) {
  const wasm = fs.readFileSync(file);
  const parts = { 10: [], 11: [] };
  let at = 8;
  const leb = () => {
    let n = 0;
    for (let shift = 0; ; shift += 7) {
      const b = wasm[at++];
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
    }
  };
  while (at < wasm.length) {
    const id = wasm[at++];
    const len = leb();
    if (parts[id]) parts[id].push(wasm.subarray(at, at + len));
    at += len;
  }
  const gz = (id) => zlib.gzipSync(Buffer.concat(parts[id]), { level: 9 }).length;
  return { code: gz(10), data: gz(11) };
}

/** Prints the site's figures. */
export function siteSizes() {
  const dist = path.join(ROOT, 'dist');
  const total = sizes(dist, 'size');
  console.log(`size: payload (wasm + js + css) ${kb(total.gz)} gzipped, ${kb(total.br)} brotli`);
  const wasm = fs.readdirSync(dist).find((f) => /^lockstep-web-.*\.wasm$/.test(f));
  if (wasm) {
    const { code, data } = sections(path.join(dist, wasm));
    console.log(`size: the player's wasm by section, each gzipped on its own: code ${kb(code)}, data ${kb(data)}`);
  }
  const worker = sizes(dist, 'worker', true);
  console.log(`worker: the failure search's Web Worker (loaded when a search starts) ${kb(worker.gz)} gzipped, ${kb(worker.br)} brotli`);
  const editor = sizes(path.join(dist, 'edit'), 'editor');
  console.log(`editor: the editor's page (edit/, loaded when "What if…" is chosen) ${kb(editor.gz)} gzipped, ${kb(editor.br)} brotli`);
  const floorDist = path.join(ROOT, 'target/yew-floor-dist');
  if (fs.existsSync(floorDist)) {
    const floor = sizes(floorDist, 'floor');
    console.log(`floor: the smallest Yew app, built the same way, ${kb(floor.gz)} gzipped`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) siteSizes();
