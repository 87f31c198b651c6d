#!/usr/bin/env node
// Writes web/sim/ids.d.ts: the system and integrator ids as TypeScript union types,
// generated from the C++ registry so the types never drift from the engine.
// Run by scripts/build.sh after the wasm build; tests/wasm/ids.test.mjs checks the
// committed file is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const IDS_FILE = fileURLToPath(new URL('../web/sim/ids.d.ts', import.meta.url));

const union = (ids) => ids.map((id) => `\n  | '${id}'`).join('');

/** The text of ids.d.ts for a registry ({ systems, integrators }). */
export function idsSource(registry) {
  const systems = registry.systems.map((s) => s.id);
  const integrators = registry.integrators.map((i) => i.id);
  return (
    '// Generated from the C++ registry by scripts/gen-ids.mjs (run by scripts/build.sh); do not edit.\n\n' +
    `/** The id of a shipped system (lab.systems). */\nexport type SystemId =${union(systems)};\n\n` +
    `/** The id of an integrator (lab.integrators). */\nexport type IntegratorId =${union(integrators)};\n`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { createLab } = await import('../web/sim/vilab.js');
  const lab = await createLab();
  const text = idsSource(lab);
  let old = '';
  try {
    old = readFileSync(IDS_FILE, 'utf8');
  } catch {}
  if (old !== text) {
    writeFileSync(IDS_FILE, text);
    console.log('vilab: web/sim/ids.d.ts updated from the registry');
  }
}
