// Serves the built app (dist/) on localhost and prints its URL. The .br and .gz copies
// that npm run build:site writes beside each asset are served to browsers that accept
// them (scripts/precompress.mjs); a plain build is served as it is.
import { fileURLToPath } from 'node:url';
import { preview } from 'vite';
import { servePrecompressed } from './precompress.mjs';

const port = Number(process.env.PORT ?? 4173);
const dist = fileURLToPath(new URL('../dist', import.meta.url));
const server = await preview({
  configFile: new URL('../web/vite.config.js', import.meta.url).pathname,
  preview: { port, strictPort: false, host: '127.0.0.1', open: false },
  plugins: [{ name: 'vilab-precompressed', configurePreviewServer: (s) => void s.middlewares.use(servePrecompressed(dist)) }],
  logLevel: 'warn',
});
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${port}/`;
console.log(`vilab is running at ${url}  (Ctrl+C to stop)`);
