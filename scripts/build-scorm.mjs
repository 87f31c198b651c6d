#!/usr/bin/env node
// npm run build:scorm -- --preset <id> | --link <url or #…> [--complete-at <s>] [--out <file.zip>]
// A SCORM 1.2 package (imsmanifest.xml + the single file vilab.html as its one SCO) that an
// LMS (Moodle, Canvas, …) imports as an activity. The file opens on the chosen preset (its
// lesson set-up) or link, and reports cmi.core.lesson_status "completed" once the run has
// reached the lesson's stated time: the largest time its caption names, or --complete-at
// (model seconds; a link without it: 30 s). The choice travels in the file as
// <script type="application/json" id="vilab-launch"> (read by web/page/lms.js).
// The single file is dist-single/vilab.html (built from build/wasm when missing; --html
// names another).
import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { presetFromScene } from '../web/sim/preset-data.js';
import { zip } from './zip.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const LINK_COMPLETE_AT = 30;

/** The presets the page offers, in its order (web/sim/presets.js), read as data. */
export function presets() {
  const list = [];
  for (const file of ['scenes/presets.json', 'scenes/rigid_body_presets.json']) {
    if (existsSync(join(root, file))) list.push(...JSON.parse(readFileSync(join(root, file), 'utf8')));
  }
  const dir = join(root, 'scenes/lagrangian');
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const p = presetFromScene(name, JSON.parse(readFileSync(join(dir, name), 'utf8')));
    if (p) list.push(p);
  }
  return list;
}

/** The largest model time a preset's caption names (its claims' `at`, a crossing's latest expected time). */
export function statedTime(preset) {
  const times = (preset.claims ?? []).map((c) => (c.kind === 'crossing' ? c.expect?.[1] : c.at)).filter(Number.isFinite);
  return times.length ? Math.max(...times) : null;
}

class UsageError extends Error {}
const fail = (field, problem) => {
  throw new UsageError(`build:scorm: ${field}: ${problem}`);
};

/** The launch (what the file opens on, when it reports completion) from the command line. */
export function launchFrom(values, list = presets()) {
  if (values.preset !== undefined && values.link !== undefined) fail('--preset/--link', 'give one, not both');
  if (values.preset === undefined && values.link === undefined) fail('--preset/--link', 'give a preset id or a link');
  let completeAt = null;
  if (values['complete-at'] !== undefined) {
    completeAt = Number(values['complete-at']);
    if (!Number.isFinite(completeAt) || completeAt <= 0)
      fail('--complete-at', `must be a positive number of seconds, got "${values['complete-at']}"`);
  }
  if (values.preset !== undefined) {
    const preset = list.find((p) => p.id === values.preset);
    if (!preset) fail('--preset', `no preset "${values.preset}"; the presets are ${list.map((p) => p.id).join(', ')}`);
    return {
      id: preset.id,
      title: preset.title,
      launch: { preset: preset.id, completeAt: completeAt ?? statedTime(preset) ?? LINK_COMPLETE_AT },
    };
  }
  const link = String(values.link);
  const hash = link.includes('#') ? link.slice(link.indexOf('#')) : '';
  if (hash.length < 2) fail('--link', `must be a vilab link with its # part (…#system=…), got "${link}"`);
  if (/[\s<>]/.test(hash)) fail('--link', 'holds spaces or angle brackets: copy the link from the page');
  return { id: 'link', title: 'vilab', launch: { link: hash, completeAt: completeAt ?? LINK_COMPLETE_AT } };
}

const xml = (s) => String(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);

/** The SCORM 1.2 manifest: one organization, one item, one SCO resource launching vilab.html. */
export function manifest({ id, title }) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="vilab-${xml(id)}" version="1.0"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="vilab-organization">
    <organization identifier="vilab-organization">
      <title>${xml(title)}</title>
      <item identifier="vilab-item" identifierref="vilab-sco" isvisible="true">
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="vilab-sco" type="webcontent" adlcp:scormtype="sco" href="vilab.html">
      <file href="vilab.html"/>
    </resource>
  </resources>
</manifest>
`;
}

/** The single file with the launch inside (a data block: never run, so its CSP stays whole). */
export function withLaunch(html, launch) {
  const data = JSON.stringify(launch).replace(/</g, '\\u003c');
  // The document's own </body> is the last one: the inlined code writes MJCF, whose <body>
  // elements close with the same text.
  const end = html.lastIndexOf('</body>');
  if (end < 0) throw new UsageError('build:scorm: the single file has no </body>');
  return `${html.slice(0, end)}<script type="application/json" id="vilab-launch">${data}</script>\n${html.slice(end)}`;
}

function singleFile(path) {
  if (path) return path;
  const built = join(root, 'dist-single/vilab.html');
  if (!existsSync(built)) {
    console.log('build:scorm: building dist-single/vilab.html from build/wasm');
    const r = spawnSync(
      'npx',
      ['--no-install', 'vite', 'build', '--config', 'web/vite.config.js', '--mode', 'single', '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (r.status !== 0) throw new UsageError('build:scorm: the single-file build failed (is build/wasm built?)');
  }
  return built;
}

function main() {
  const { values } = parseArgs({
    options: {
      preset: { type: 'string' },
      link: { type: 'string' },
      'complete-at': { type: 'string' },
      out: { type: 'string' },
      html: { type: 'string' },
    },
  });
  const chosen = launchFrom(values);
  const html = readFileSync(singleFile(values.html), 'utf8');
  const out = values.out ?? join(root, 'dist-scorm', `vilab-${chosen.id}.zip`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    zip([
      { name: 'imsmanifest.xml', data: manifest(chosen) },
      { name: 'vilab.html', data: withLaunch(html, chosen.launch) },
    ]),
  );
  console.log(
    `build:scorm: wrote ${out} (SCORM 1.2; opens ${chosen.launch.preset ?? chosen.launch.link}; completed at t = ${chosen.launch.completeAt} s)`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (e) {
    const usage = e instanceof UsageError || String(e?.code).startsWith('ERR_PARSE_ARGS');
    if (!usage) throw e;
    console.error(e instanceof UsageError ? e.message : `build:scorm: ${e.message}`);
    process.exit(2);
  }
}
