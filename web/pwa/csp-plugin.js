// The page's Content-Security-Policy, as a <meta> written at build time: no inline
// script, no eval (Embind is built with DYNAMIC_EXECUTION=0; WebAssembly needs only
// 'wasm-unsafe-eval'), no third-party origin, no plugins, no <base>, no form posts.
// The single-file build has no files beside it: its scripts and styles are inline,
// so its policy names each one by its SHA-256 instead of 'self', and fonts come as data:.
import { createHash } from 'node:crypto';

const COMMON = ["object-src 'none'", "base-uri 'none'", "form-action 'none'"];

export const SITE_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  ...COMMON,
].join('; ');

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The single file's policy for its inline scripts and styles. */
export function singleFilePolicy(html) {
  // data blocks (the licences' text/plain) are never run: only scripts get a hash
  const runs = (attrs) => /^(module|text\/javascript|)$/i.test(attrs.match(/\btype="([^"]*)"/i)?.[1] ?? '');
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter((m) => runs(m[1])).map((m) => sha256(m[2]));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => sha256(m[1]));
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ')} 'wasm-unsafe-eval'`,
    `style-src ${styles.join(' ') || "'none'"}`,
    'font-src data:',
    'img-src data: blob:',
    'worker-src blob:',
    ...COMMON,
  ].join('; ');
}

const meta = (policy) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;

export function csp({ single = false } = {}) {
  if (!single) {
    return {
      name: 'vilab-csp',
      apply: 'build',
      transformIndexHtml: { order: 'post', handler: (html) => html.replace(/<head>/i, `<head>\n    ${meta(SITE_POLICY)}`) },
    };
  }
  return {
    name: 'vilab-csp-single',
    apply: 'build',
    enforce: 'post',
    // after vite-plugin-singlefile has inlined everything (it runs earlier in the same hook)
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const item of Object.values(bundle)) {
          if (item.type !== 'asset' || !item.fileName.endsWith('.html')) continue;
          const html = String(item.source);
          item.source = html.replace(/<head>/i, `<head>\n    ${meta(singleFilePolicy(html))}`);
        }
      },
    },
  };
}
