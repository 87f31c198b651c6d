import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precache } from './pwa/precache-plugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
    // the wasm is fetched by the emscripten loader: never inline it
    assetsInlineLimit: (file) => (file.endsWith('.wasm') ? false : undefined),
  },
  plugins: [precache({ template: fileURLToPath(new URL('./pwa/sw-template.js', import.meta.url)) })],
  // The emscripten module loads its .wasm through new URL(..., import.meta.url):
  // keep it out of dependency pre-bundling so that URL stays valid.
  optimizeDeps: { exclude: ['vilab'] },
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
  preview: { host: '127.0.0.1' },
});
