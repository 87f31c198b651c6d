#!/usr/bin/env node
// Writes web/sim/ids.d.ts: the system and integrator ids and every closed vocabulary of
// the registry (registryJson() "vocabulary") as TypeScript union types, generated from
// the C++ registry so the types never drift from the engine.
// Run by scripts/build.sh after the wasm build; tests/wasm/ids.test.mjs checks the
// committed file is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const IDS_FILE = fileURLToPath(new URL('../web/sim/ids.d.ts', import.meta.url));

/** Each list of registry.vocabulary: the name of its union type and what it is. */
export const VOCABULARY_TYPES = {
  models: ['ModelKind', 'The model behind a system (SystemInfo.model), which fixes its canonical state.'],
  views: ['ViewKind', 'Which scene draws a system (SystemInfo.view).'],
  states: ['StateKind', "What a system's canonical state (q, p) is (SystemInfo.state)."],
  exactSolutions: ['ExactSolutionKind', 'An exact solution the core knows (SystemInfo.exact.solution, lab.exact).'],
  families: ['IntegratorFamily', 'The family of an integrator (IntegratorInfo.family).'],
  claimKinds: ['ClaimKind', "What an integrator's claim is about (IntegratorInfo.claims[].kind)."],
  quantities: ['Quantity', 'What a parameter is, where the page needs to know (ParamInfo.quantity).'],
  refusalCodes: ['RefusalCode', "A refused step's VilabError.code."],
  suggestionActions: ['SuggestionAction', 'What a refused step suggests (VilabError.action), beside its words.'],
  inputErrorCodes: ['InputErrorCode', 'Every other VilabError.code: bad input, used after dispose, a module that did not load, …'],
};

const union = (ids) => ids.map((id) => `\n  | '${id}'`).join('');

/** The text of ids.d.ts for a registry ({ systems, integrators, vocabulary }). */
export function idsSource(registry) {
  const systems = registry.systems.map((s) => s.id);
  const integrators = registry.integrators.map((i) => i.id);
  const unknown = Object.keys(registry.vocabulary).filter((key) => !(key in VOCABULARY_TYPES));
  if (unknown.length)
    throw new Error(`gen-ids: no type name for the vocabulary list(s) ${unknown.join(', ')}: add them to VOCABULARY_TYPES`);
  const vocabulary = Object.entries(VOCABULARY_TYPES).map(([key, [name, about]]) => {
    const ids = registry.vocabulary[key];
    if (!Array.isArray(ids) || !ids.length) throw new Error(`gen-ids: the registry has no vocabulary list "${key}"`);
    return `/** ${about} At run time: lab.vocabulary.${key}. */\nexport type ${name} =${union(ids)};\n`;
  });
  return (
    '// Generated from the C++ registry by scripts/gen-ids.mjs (run by scripts/build.sh); do not edit.\n\n' +
    `/** The id of a shipped system (lab.systems). */\nexport type SystemId =${union(systems)};\n\n` +
    `/** The id of an integrator (lab.integrators). */\nexport type IntegratorId =${union(integrators)};\n\n` +
    vocabulary.join('\n')
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
