#!/usr/bin/env node
// Precompressed copies for hosts that serve them: beside each text or wasm asset of a
// built site, NAME.br (brotli, quality 11) and NAME.gz (gzip, level 9), decompressing to
// the same bytes. `node scripts/precompress.mjs dist` writes them (npm run build:site and
// npm start do; copies newer than their file are kept); servePrecompressed(root) is the
// middleware that serves them (the preview's plugin in web/vite.config.js, so scripts/serve.mjs
// and `vite preview` both; the tests).
import { readdirSync, readFileSync, writeFileSync, statSync, createReadStream } from 'node:fs';
import { join, extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

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

const modified = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};
/** A copy written after its file was (a rebuilt file's old copy is not). */
const fresh = (path, suffix) => {
  const made = modified(path);
  return made >= 0 && modified(path + suffix) >= made;
};

/** Brotli at quality 11, as the budget tests and npm run bench count it. */
export const brotli = (bytes) =>
  brotliAsync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });

/**
 * Writes NAME.br and NAME.gz beside every compressible file under dir (compressed in the
 * thread pool, several at once); resolves to how many files it compressed. A file whose
 * copies are both fresh is skipped unless `force`.
 */
export async function precompress(dir, { force = false } = {}) {
  const todo = [...files(dir)].filter((path) => extname(path) in CONTENT_TYPES && (force || !fresh(path, '.br') || !fresh(path, '.gz')));
  await Promise.all(
    todo.map(async (path) => {
      const bytes = readFileSync(path);
      const [br, gz] = await Promise.all([brotli(bytes), gzipAsync(bytes, { level: 9 })]);
      writeFileSync(`${path}.br`, br);
      writeFileSync(`${path}.gz`, gz);
    }),
  );
  return todo.length;
}

/** Whether an Accept-Encoding header takes an encoding (named or by *, and not with q=0). */
function accepts(header, encoding) {
  const q = new Map(
    header
      .toLowerCase()
      .split(',')
      .map((part) => part.trim().split(';'))
      .map(([name, ...params]) => {
        const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
        return [name.trim(), weight ? Number(weight.slice(2)) : 1];
      }),
  );
  const weight = q.get(encoding) ?? q.get('*') ?? 0;
  return weight > 0;
}

/**
 * Connect-style middleware: a GET or HEAD for a file that has a fresh precompressed copy
 * the client accepts gets that copy with Content-Encoding; anything else goes to next()
 * (which serves the file as it is), with Vary: Accept-Encoding where a copy exists, so a
 * cache never hands one client's encoding to another. A Range request goes to next() too:
 * byte ranges are of the file itself. base: the sub-path the site is served under ('/vilab/').
 */
export function servePrecompressed(root, { base = '/' } = {}) {
  const top = resolve(root);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://host').pathname);
    } catch {
      return next(); // a malformed address is the file server's to refuse
    }
    if (!path.startsWith(base)) return next();
    path = path.slice(base.length);
    if (path === '' || path.endsWith('/')) path += 'index.html';
    const file = resolve(top, path);
    const type = CONTENT_TYPES[extname(file)];
    if (!type || (file !== top && !file.startsWith(top + sep))) return next();
    const copies = [
      ['br', '.br'],
      ['gzip', '.gz'],
    ].filter(([, suffix]) => fresh(file, suffix));
    if (copies.length) res.setHeader('Vary', 'Accept-Encoding');
    const hit = copies.find(([name]) => accepts(req.headers['accept-encoding'] ?? '', name));
    if (!hit || req.headers.range) return next();
    const [encoding, suffix] = hit;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', statSync(file + suffix).size);
    res.setHeader('Cache-Control', 'no-cache');
    if (req.method === 'HEAD') return res.end();
    createReadStream(file + suffix).pipe(res);
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'dist';
  console.log(`precompressed ${await precompress(dir, { force: true })} files in ${dir} (.br and .gz beside each)`);
}
