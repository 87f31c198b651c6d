// A small Vite plugin: after the build is written, generate dist/sw.js from
// web/pwa/sw-template.js with the list of every emitted file (the precache) and
// a version derived from their contents. KaTeX's .woff/.ttf fallbacks are left
// out (every browser that runs the page uses the .woff2 files), and so is MuJoCo (≈ 10 MB,
// fetched only by those who compare with it).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function precache({ template, exclude = [/\.ttf$/i, /\.woff$/i, /^sw\.js$/, /(^|\/)mujoco-[^/]*\.(wasm|js)$/] } = {}) {
  return {
    name: 'vilab-precache',
    apply: 'build',
    enforce: 'post',
    // start downloading the first-load (lean) wasm and its loader in parallel with the JS
    // that will ask for them
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const files = Object.keys(ctx.bundle ?? {});
        const wasm = files.find((f) => /vilab-lean-[^/]*\.wasm$/.test(f));
        const loader = files.find((f) => /vilab-lean-[^/]*\.js$/.test(f));
        if (!wasm) return html;
        const tags = [
          {
            tag: 'link',
            attrs: { rel: 'preload', href: `./${wasm}`, as: 'fetch', type: 'application/wasm', crossorigin: '' },
            injectTo: 'head',
          },
        ];
        if (loader) tags.push({ tag: 'link', attrs: { rel: 'modulepreload', href: `./${loader}`, crossorigin: '' }, injectTo: 'head' });
        return tags;
      },
    },
    writeBundle(options, bundle) {
      const files = Object.keys(bundle)
        .filter((f) => !exclude.some((re) => re.test(f)))
        .sort();
      const hash = createHash('sha256');
      for (const f of files) {
        const item = bundle[f];
        hash.update(f);
        hash.update(item.type === 'chunk' ? item.code : item.source);
      }
      const version = hash.digest('hex').slice(0, 16);
      const list = ['./', ...files.map((f) => `./${f}`)];
      const source = readFileSync(template, 'utf8')
        .replace('__VERSION__', version)
        .replace('__PRECACHE__', JSON.stringify(list, null, 0));
      writeFileSync(join(options.dir, 'sw.js'), source);
    },
  };
}
