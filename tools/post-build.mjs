// Trunk's post-build hook, release builds only: minifies the wasm-bindgen loaders (Trunk leaves
// them as written) and updates its integrity hash in index.html, then writes a brotli-compressed copy
// (`name.br`) of each asset next to it, for hosts that serve precompressed files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (process.env.TRUNK_PROFILE === 'release' && dir) {
  const html = path.join(dir, 'index.html');
  let page = fs.readFileSync(html, 'utf8');
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const file = path.join(dir, f);
    const before = fs.readFileSync(file);
    // The search worker's scripts are classic scripts that share the global `wasm_bindgen`:
    // their top-level names must stay.
    const module = !f.startsWith('lockstep-search-worker');
    const out = await minify(before.toString('utf8'), { module, compress: true, mangle: true });
    fs.writeFileSync(file, out.code);
    const digest = (b) => `sha384-${crypto.createHash('sha384').update(b).digest('base64')}`;
    page = page.replaceAll(digest(before), digest(out.code));
  }
  fs.writeFileSync(html, page);
  for (const f of fs.readdirSync(dir).filter((f) => /\.(wasm|js|css|html|svg)$/.test(f))) {
    const raw = fs.readFileSync(path.join(dir, f));
    const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    fs.writeFileSync(path.join(dir, `${f}.br`), br);
  }
}
