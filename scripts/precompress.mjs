#!/usr/bin/env node
// Precompressed copies for hosts that serve them: beside each text or wasm asset of a
// built site, NAME.br (brotli, quality 11) and NAME.gz (gzip, level 9), decompressing to
// the same bytes. `node scripts/precompress.mjs dist` writes them (npm run build:site does);
// servePrecompressed(root) is the middleware that serves them (scripts/serve.mjs, the tests).
import { readdirSync, readFileSync, writeFileSync, statSync, existsSync, createReadStream } from 'node:fs';
import { join, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

/** What a file is served as; also the list of what is worth compressing (woff2, png: already are). */
export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
};

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

/** Writes NAME.br and NAME.gz beside every compressible file under dir; returns their count. */
export function precompress(dir) {
  let count = 0;
  for (const path of [...files(dir)]) {
    if (!(extname(path) in CONTENT_TYPES)) continue;
    const bytes = readFileSync(path);
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    writeFileSync(`${path}.br`, brotli);
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    count++;
  }
  return count;
}

/** The encodings a request accepts, best first, among those precompressed. */
function accepted(header = '') {
  const offered = header
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || Number(q.split('=')[1]) > 0)
    .map(([name]) => name.trim());
  return [
    ['br', '.br'],
    ['gzip', '.gz'],
  ].filter(([name]) => offered.includes(name));
}

/**
 * Connect-style middleware: a GET or HEAD for a file that has a precompressed copy the
 * client accepts gets that copy with Content-Encoding; anything else goes to next().
 * base: the sub-path the site is served under ('/vilab/').
 */
export function servePrecompressed(root, { base = '/' } = {}) {
  const top = resolve(root);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let path = decodeURIComponent(new URL(req.url, 'http://host').pathname);
    if (!path.startsWith(base)) return next();
    path = path.slice(base.length);
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = resolve(top, path);
    const type = CONTENT_TYPES[extname(file)];
    if (!type || (file !== top && !file.startsWith(top + sep))) return next();
    const hit = accepted(req.headers['accept-encoding']).find(([, suffix]) => existsSync(file + suffix));
    if (!hit) return next();
    const [encoding, suffix] = hit;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', statSync(file + suffix).size);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'no-cache');
    if (req.method === 'HEAD') return res.end();
    createReadStream(file + suffix).pipe(res);
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'dist';
  console.log(`precompressed ${precompress(dir)} files in ${dir} (.br and .gz beside each)`);
}
