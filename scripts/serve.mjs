// Serves the built app on localhost and prints its URL: `node scripts/serve.mjs [dir]`
// (dist/ by default; PORT=4173). It first writes the .br and .gz copies beside each asset
// that lacks a fresh one (scripts/precompress.mjs), then the preview's plugin
// (web/vite.config.js) sends them to browsers that accept them, as a host with
// brotli_static / gzip_static does.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { precompress } from './precompress.mjs';

const port = Number(process.env.PORT ?? 4173);
const dist = resolve(process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url)));
const written = await precompress(dist);
if (written) console.log(`compressed ${written} files (.br and .gz beside each)`);
const server = await preview({
  configFile: fileURLToPath(new URL('../web/vite.config.js', import.meta.url)),
  build: { outDir: dist },
  preview: { port, strictPort: false, host: '127.0.0.1', open: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${port}/`;
console.log(`vilab is running at ${url}  (Ctrl+C to stop)`);
