#!/usr/bin/env node
// Writes web/sim/scenario.schema.json: the JSON Schema of scenarios (web/sim/schema.js),
// generated from the C++ registry so that it never drifts from the engine; the package
// ships it and `npx vilab schema` prints the same bytes.
// Run by scripts/build.sh after the wasm build; tests/wasm/schema.test.mjs checks the
// committed file is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { scenarioSchemaText } from '../web/sim/schema.js';

export const SCHEMA_FILE = fileURLToPath(new URL('../web/sim/scenario.schema.json', import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { createLab } = await import('../web/sim/vilab.js');
  const text = scenarioSchemaText(await createLab());
  let old = '';
  try {
    old = readFileSync(SCHEMA_FILE, 'utf8');
  } catch {}
  if (old !== text) {
    writeFileSync(SCHEMA_FILE, text);
    console.log('vilab: web/sim/scenario.schema.json updated from the registry');
  }
}
