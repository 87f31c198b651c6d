import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { precache } from './pwa/precache-plugin.js';
import { inlineWasm, woff2Only } from './pwa/inline-wasm-plugin.js';
import { csp } from './pwa/csp-plugin.js';
import { licences } from './pwa/licences.js';
import { mujocoNoEval } from './pwa/mujoco-no-eval-plugin.js';
import { servePrecompressed } from '../scripts/precompress.mjs';

const root = fileURLToPath(new URL('.', import.meta.url));
const wasmFile = fileURLToPath(new URL('../build/wasm/vilab.wasm', import.meta.url));

// Two builds: the site (dist/, any static host, any sub-path: relative base, a service
// worker for offline use) and, with --mode single, the classroom file
// (dist-single/vilab.html: one HTML file with the wasm, the code, the styles and the
// fonts inlined, that runs from file://, a USB stick or an LMS upload).
// VITE_SITE_URL=https://… (build time, --mode single): the hosted page the file's "Copy link"
// points at, so a copied link opens anywhere; without it the file's links are file://
// addresses, and Copy link says they open only on this computer.
function siteURL(mode) {
  const value = process.env.VITE_SITE_URL;
  if (mode !== 'single' || !value) return;
  let url = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol))
    throw new Error(`VITE_SITE_URL must be an http(s) address of the hosted page, got "${value}"`);
}

// The preview (`vite preview`, npm start) sends the .br / .gz copy of a file beside it in
// the output folder to a browser that accepts it, as a static host with brotli_static does.
const precompressed = {
  name: 'vilab-precompressed',
  configurePreviewServer(server) {
    const { root: top, build } = server.config;
    server.middlewares.use(servePrecompressed(resolve(top, build.outDir)));
  },
};

// A language's words are chunks of their own (web/i18n/index.js), named words-<lang>-<area>:
// named for their area alone they would read like the code of a drawer that shares it
// (studies, lessons), and the tests tell what a page fetched by these names.
function chunkFileNames(chunk) {
  const words = /\/i18n\/([a-z]{2})\/([\w-]+)\.js$/.exec(chunk.facadeModuleId ?? '');
  return words ? `assets/words-${words[1]}-${words[2]}-[hash].js` : 'assets/[name]-[hash].js';
}

export default defineConfig(({ mode }) => {
  const single = mode === 'single';
  siteURL(mode);
  return {
    root,
    base: './',
    build: {
      outDir: fileURLToPath(new URL(single ? '../dist-single' : '../dist', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: single ? 6000 : 1200,
      // the site's wasm is fetched by the emscripten loader: never inline it
      assetsInlineLimit: single ? () => true : (file) => (file.endsWith('.wasm') ? false : undefined),
      rollupOptions: { output: { chunkFileNames } },
    },
    plugins: single
      ? [
          woff2Only(),
          inlineWasm({ wasmFile }),
          viteSingleFile({ removeViteModuleLoader: true, outputFileName: 'vilab.html' }),
          licences({ single: true }),
          csp({ single: true }),
        ]
      : [
          inlineWasm({ wasmFile: null }),
          mujocoNoEval(),
          licences(),
          precache({ template: fileURLToPath(new URL('./pwa/sw-template.js', import.meta.url)) }),
          csp(),
          precompressed,
        ],
    // the study workers (web/sim/study-worker.js): in the single file
    // they get the wasm's bytes from the page, so their own references are emptied
    worker: { plugins: () => [inlineWasm({ wasmFile: single ? wasmFile : null })] },
    // The emscripten module loads its .wasm through new URL(..., import.meta.url):
    // keep it out of dependency pre-bundling so that URL stays valid.
    // MuJoCo's loader does the same (mujoco.wasm, ≈ 10 MB, a separate asset fetched only
    // when "Compare with MuJoCo" is chosen); the single file carries no MuJoCo.
    optimizeDeps: { exclude: ['vilab', '@mujoco/mujoco'] },
    resolve: single ? { alias: { '@mujoco/mujoco': fileURLToPath(new URL('./sim/no-mujoco.js', import.meta.url)) } } : {},
    server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
    preview: { host: '127.0.0.1' },
  };
});
