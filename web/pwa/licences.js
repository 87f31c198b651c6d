// The licence bundle of every build: vilab's own licence (LICENSE, up to its third-party
// part) and the notice of each component compiled into the outputs, from one data file
// (web/pwa/licences.json). npm components give their version and notice from their own
// package; the C++ ones carry their licence text from web/pwa/licences/ and take their
// version from the installed headers where present (the data's version otherwise). The site gets
// LICENSES.txt; the single file carries the same text in <script type="text/plain" id="licences">.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const RULE = '-'.repeat(78);

export const LICENCE_DATA = JSON.parse(readFileSync(here('./licences.json'), 'utf8'));

/** vilab's own licence: LICENSE up to its third-party part. */
function ownLicence() {
  const text = readFileSync(here('../../LICENSE'), 'utf8');
  const cut = text.indexOf('THIRD-PARTY NOTICES');
  return (cut < 0 ? text : text.slice(0, cut)).trimEnd();
}

/** An npm package's version and notice (its LICENSE file), read from node_modules. */
function npmPackage(name) {
  const dir = here(`../../node_modules/${name}/`);
  const pkg = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
  return { version: pkg.version, licence: pkg.license, notice: readFileSync(`${dir}LICENSE`, 'utf8').trim() };
}

/** A C++ component's version as its installed headers say (what the wasm was built with), else null. */
export function headerVersion(c, include = '/usr/include/') {
  if (!c.header || !existsSync(include + c.header.file)) return null;
  const text = readFileSync(include + c.header.file, 'utf8');
  const parts = [...text.matchAll(new RegExp(`#define ${c.header.pattern}`, 'g'))].map((m) => m[1]);
  return parts.length >= 3 ? parts.slice(0, 3).join('.') : null;
}

/** One component's section of the bundle. */
function section(c) {
  const pkg = c.npm ? npmPackage(c.npm) : null;
  const version = headerVersion(c) ?? c.version ?? pkg.version;
  const texts = c.text ? [c.text].flat().map((f) => readFileSync(here(`./licences/${f}`), 'utf8').trim()) : [pkg.notice];
  return [
    RULE,
    `${c.name} ${version}`,
    `In: ${c.in}`,
    `Licence: ${c.licence ?? pkg.licence}`,
    '',
    ...(c.copyright ? [...c.copyright, ''] : []),
    ...(c.source ? [...c.source, ''] : []),
    texts.join('\n\nOr, at your option:\n\n'),
    '',
  ].join('\n');
}

/** The whole bundle as plain text. */
export function licenceText() {
  return [
    'vilab: licences',
    '',
    ownLicence(),
    '',
    '',
    'THIRD-PARTY NOTICES',
    '',
    'The page and its wasm module contain the following software. Tools used only to',
    'build or test (CMake, Vite, TypeScript, Catch2, Playwright, axe-core) are not part',
    'of the outputs and are not listed.',
    '',
    ...LICENCE_DATA.components.map(section),
  ].join('\n');
}

/** Vite plugin: LICENSES.txt beside the site, or the text inside the single file. */
export function licences({ single = false } = {}) {
  const text = licenceText();
  if (text.includes('</')) throw new Error('a licence text holds "</", which would end its <script> early');
  return {
    name: 'vilab-licences',
    apply: 'build',
    generateBundle() {
      if (!single) this.emitFile({ type: 'asset', fileName: 'LICENSES.txt', source: text });
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        single ? html.replace(/<\/body>/i, `<script type="text/plain" id="licences">\n${text}\n</script>\n</body>`) : html,
    },
  };
}
