// The module 'virtual:vilab-wasm': in the single-file build, the wasm's bytes (base64 in
// the page, decoded once), handed to createLab({ wasmBinary }) so nothing is fetched;
// in the site build, null (the emscripten loader fetches the .wasm next to the page).
// In the single file the loader's and the API's own references to vilab.wasm (new URL(…,
// import.meta.url), which Vite would inline a second and third time) become empty: the
// bytes arrive as wasmBinary, so those URLs are never fetched. The lean build (the site's
// first load) is left out of the single file altogether.
import { readFileSync } from 'node:fs';

const ID = 'virtual:vilab-wasm';
const RESOLVED = '\0' + ID;

export function inlineWasm({ wasmFile }) {
  return {
    name: 'vilab-inline-wasm',
    resolveId: (id) => (id === ID ? RESOLVED : null),
    transform(code, id) {
      if (!wasmFile || !/(vilab\.mjs|sim[\\/]vilab\.js)$/.test(id)) return null;
      // The single file carries the full build only: the lean one is neither inlined nor reachable.
      const out = code
        .replace(/new URL\((['"])[^'"]*vilab(-lean)?(\.deferred)?\.wasm\1,\s*import\.meta\.url\)/g, "new URL('data:,')")
        .replace(
          /import\((['"])[^'"]*vilab-lean\.mjs\1\)/g,
          "Promise.reject(new Error('the single-file page carries the full build only'))",
        );
      return out === code ? null : { code: out, map: null };
    },
    load(id) {
      if (id !== RESOLVED) return null;
      if (!wasmFile) return 'export default null;';
      const base64 = readFileSync(wasmFile).toString('base64');
      return `const text = atob(${JSON.stringify(base64)});
const bytes = new Uint8Array(text.length);
for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
export default bytes;`;
    },
  };
}

/**
 * KaTeX's stylesheet lists each font three times (woff2, woff, ttf); every browser
 * that runs the page reads woff2, so the single file inlines only those (−1 MB).
 */
export function woff2Only() {
  return {
    name: 'vilab-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!/katex(\.min)?\.css$/.test(id)) return null;
      return { code: code.replace(/,\s*url\([^)]*\.(woff|ttf)\)\s*format\(["']?(woff|truetype)["']?\)/g, ''), map: null };
    },
  };
}
