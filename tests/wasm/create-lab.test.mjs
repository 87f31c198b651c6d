// createLab(options): the module loads once per process; later calls with the same
// options (or none) resolve to the same lab, and options that conflict with the
// loaded module reject with a VilabError naming them instead of being ignored.
// This file loads its own lab (with explicit options) and so does not use helpers.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createLab, VilabError } from '../../web/sim/vilab.js';

const bytes = readFileSync(new URL('../../build/wasm/vilab.wasm', import.meta.url));
const locateFile = (path, prefix) => prefix + path;

async function rejection(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

async function assertRejects(options, field, pattern) {
  const e = await rejection(createLab(options));
  assert.ok(e instanceof VilabError, `not a VilabError: ${e}`);
  assert.equal(e.field, field);
  assert.ok(e.message.startsWith(`vilab: ${field}: `), e.message);
  assert.match(e.message, pattern);
  assert.ok(lab.vocabulary.inputErrorCodes.includes(e.code), `code ${e.code}`);
}

// Loaded first, before any other test of this file runs.
const lab = await createLab({ wasmBinary: bytes, locateFile });

test('the same options resolve to the same lab', async () => {
  assert.equal(await createLab({ wasmBinary: bytes, locateFile }), lab);
  // equal bytes in another buffer, as an ArrayBuffer or a typed array
  const copy = new Uint8Array(bytes);
  assert.equal(await createLab({ wasmBinary: copy, locateFile }), lab);
  assert.equal(await createLab({ wasmBinary: copy.buffer.slice(0), locateFile }), lab);
  // options left out ask for nothing in particular
  assert.equal(await createLab(), lab);
  assert.equal(await createLab({}), lab);
  assert.equal(await createLab({ locateFile }), lab);
});

test('options that conflict with the loaded module reject, and the lab goes on', async () => {
  const other = new Uint8Array(bytes);
  other[other.length - 1] ^= 1;
  await assertRejects({ wasmBinary: other }, 'options', /already loaded with other options/);
  await assertRejects({ wasmBinary: bytes.subarray(0, 100) }, 'options', /already loaded with other options/);
  await assertRejects({ locateFile: (path) => path }, 'options', /already loaded with other options/);
  const sim = lab.simulate({ system: 'oscillator' });
  sim.advance(10);
  assert.equal(sim.step, 10);
  sim.dispose();
});

test('unknown options and options of the wrong type reject with the field', async () => {
  await assertRejects(
    { timeBudgetMs: 50 },
    'options.timeBudgetMs',
    /unknown option \(known: build, wasmBinary, locateFile, loadDeferred\)/,
  );
  await assertRejects({ wasmBinary: 'vilab.wasm' }, 'options.wasmBinary', /must be an ArrayBuffer or a typed array, got string/);
  await assertRejects({ locateFile: 'vilab.wasm' }, 'options.locateFile', /must be a function/);
  await assertRejects({ loadDeferred: 'yes' }, 'options.loadDeferred', /must be true or false, got string/);
  await assertRejects(null, 'options', /must be an object, got null/);
  await assertRejects([], 'options', /must be an object, got an array/);
  // a bad argument rejects the promise; createLab itself never throws synchronously
  const call = createLab(42);
  assert.ok(call instanceof Promise);
  assert.ok((await rejection(call)) instanceof VilabError);
});
