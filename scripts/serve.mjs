// Serves the built app (dist/) on localhost and prints its URL.
import { preview } from 'vite';

const port = Number(process.env.PORT ?? 4173);
const server = await preview({
  configFile: new URL('../web/vite.config.js', import.meta.url).pathname,
  preview: { port, strictPort: false, host: '127.0.0.1', open: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${port}/`;
console.log(`vilab is running at ${url}  (Ctrl+C to stop)`);
