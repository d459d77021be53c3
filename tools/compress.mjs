// Trunk's post-build hook: in a release build, writes a brotli-compressed copy (`name.br`) of
// each asset next to it, for hosts that serve precompressed files.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = process.env.TRUNK_STAGING_DIR;
if (process.env.TRUNK_PROFILE === 'release' && dir) {
  for (const f of fs.readdirSync(dir).filter((f) => /\.(wasm|js|css|html|svg)$/.test(f))) {
    const raw = fs.readFileSync(path.join(dir, f));
    const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    fs.writeFileSync(path.join(dir, `${f}.br`), br);
  }
}
