// Hostile share links and postMessage payloads, as they may arrive through chat apps
// and learning platforms. Each bad link, opened in a running page, shows a banner that
// names its field, keeps the current run (which goes on) and executes nothing: any
// payload that ran would set window.__pwned or open a dialog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useBrowser, openPage, BASE } from './helpers.mjs';

const browser = useBrowser();

const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=1</script>',
  "'-window.__pwned=1-'",
  'javascript:window.__pwned=1',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection attempt, on purpose
  '${window.__pwned=1}',
  '{{constructor.constructor("window.__pwned=1")()}}',
  '<svg onload=window.__pwned=1>',
];
const NUMBERS = [
  '',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1e999',
  '-1e999',
  '1e-400',
  '0x10',
  '1_000',
  '١',
  '1,2,3',
  '--1',
  '+',
  '.',
  'e5',
  'null',
  'true',
  '[]',
  '{}',
];
const STRANGE = [
  '%',
  '%%',
  '%E0%A4%A',
  '%C3',
  '%FF%FE',
  'é'.repeat(40),
  '\u0000',
  '\u202e',
  '__proto__',
  'constructor',
  'toString',
  ';;;;',
  ',,,',
  'a'.repeat(5000),
  '['.repeat(1000) + ']'.repeat(1000),
];
const FIELDS = [
  'system',
  'integrator',
  'h',
  'params.g',
  'params.masses',
  'params.lengths',
  'initial.angles',
  'initial.rates',
  'options.tolerance',
  'compare',
  'speed',
  'spf',
  'window',
  'cam',
  'fp',
  'at',
  'def',
];

/** [hash, field the banner must name] */
function corpus() {
  const out = [];
  const enc = (v) => (/%/.test(v) && !/%%|%$/.test(v) ? v : encodeURIComponent(v));
  for (const field of FIELDS) {
    for (const v of [...PAYLOADS, ...NUMBERS.filter((x) => x !== '0' || field === 'h'), ...STRANGE]) {
      out.push([`system=double-spherical-pendulum&${field}=${enc(v)}`, field]);
    }
  }
  // hostile keys
  for (const key of [
    ...PAYLOADS,
    '__proto__',
    'constructor',
    'prototype',
    'params.__proto__',
    'params.constructor',
    'initial.__proto__.x',
    'params',
    'options.',
    '.g',
    'x'.repeat(100),
    'params.g.h',
    '%3Cscript%3E',
  ]) {
    out.push([`${encodeURIComponent(key)}=1`, null]);
  }
  // structure: repeated keys, huge and deep definitions, unknown systems
  out.push(['h=0.01&h=0.02', 'h']);
  out.push([
    `system=lagrangian&def=${encodeURIComponent('{"coordinates":["x"],"lagrangian":"' + '('.repeat(1000) + 'x' + ')'.repeat(1000) + '"}')}`,
    'params',
  ]);
  out.push([`system=lagrangian&def=${'A'.repeat(60000)}`, 'def']);
  out.push([`system=lagrangian&def=${encodeURIComponent('{"coordinates":["x"],"lagrangian":"eval(1)"}')}`, 'params']);
  out.push([`system=lagrangian&def=${encodeURIComponent('{"coordinates":["x"],"lagrangian":"window"}')}`, 'params']);
  out.push(['system=' + encodeURIComponent('<b>x</b>'), 'system']);
  return out;
}

test('≥ 300 hostile links: each named in a banner, the run kept and going, nothing executed', async () => {
  const { page, errors } = await openPage(browser.context, '#system=double-spherical-pendulum&integrator=midpoint&h=0.01');
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss();
  });
  await page.evaluate(() => window.vilabPage.play());
  const links = corpus();
  assert.ok(links.length >= 300, `${links.length} links`);
  let named = 0;
  let refused = 0;
  const unnamed = [];
  const accepted = [];
  // In chunks of 50, each link tried in the page itself (a round trip per link was ≈ 35 ms of
  // the ≈ 90 each took): the banner cleared, the hash set, and the page's hashchange listener
  // run (registered before this one).
  const results = [];
  for (let k = 0; k < links.length; k += 50) {
    const hashes = links.slice(k, k + 50).map(([hash]) => hash);
    const chunk = await page.evaluate(async (hashes) => {
      const out = [];
      for (const hash of hashes) {
        const before = window.vilabPage.state().scenario;
        document.querySelector('.banner[data-key="link"]')?.remove();
        const changed = new Promise((r) => addEventListener('hashchange', r, { once: true }));
        location.hash = hash;
        await Promise.race([changed, new Promise((r) => setTimeout(r, 2000))]);
        const banner = document.querySelector('.banner[data-key="link"]');
        const after = window.vilabPage.state().scenario;
        out.push({
          banner: banner?.textContent ?? null,
          field: banner?.querySelector('code')?.textContent ?? null,
          kept: JSON.stringify(before) === JSON.stringify(after),
        });
      }
      return out;
    }, hashes);
    results.push(...chunk);
  }
  for (const [k, [hash, field]] of links.entries()) {
    const result = results[k];
    if (result.banner === null) {
      // accepted: a value that happens to be valid for its field (compare= empty is "off")
      accepted.push(hash.slice(0, 80));
      continue;
    }
    refused++;
    assert.ok(result.kept, `the run is kept: ${hash.slice(0, 80)}`);
    if (field === null || result.field === field || (result.field ?? result.banner).includes(field)) named++;
    else unnamed.push(`${hash.slice(0, 60)} → ${result.field ?? result.banner.slice(0, 80)}`);
  }
  const stats = await page.evaluate(() => ({
    pwned: window.__pwned,
    playing: window.vilabPage.playing(),
    step: window.vilabPage.sim().step,
  }));
  console.log(
    `hostile links: ${links.length} tried, ${refused} refused with a banner, ${named} naming the expected field, ${accepted.length} valid after all (${accepted.join(' | ')})`,
  );
  assert.ok(refused >= 300, `${refused} refused`);
  assert.equal(stats.pwned, undefined, 'no payload ran');
  assert.deepEqual(dialogs, []);
  assert.ok(stats.playing, 'still playing');
  const s0 = stats.step;
  await page.waitForFunction((s0) => window.vilabPage.sim().step > s0, s0, { timeout: 5000 });
  assert.deepEqual(unnamed, [], `every link refused, naming its field:\n${unnamed.join('\n')}`);
  assert.deepEqual(errors, []);
  // and a good link still opens in place afterwards
  await page.evaluate(() => (location.hash = 'system=oscillator&h=0.05'));
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'oscillator');
  await page.close();
});

test('≥ 50 hostile postMessage payloads: errors named, nothing executed, the page keeps running', async () => {
  const { page, errors } = await openPage(
    browser.context,
    `?origin=${encodeURIComponent(new URL(BASE).origin)}#system=double-spherical-pendulum&h=0.01`,
  );
  await page.evaluate(() => window.vilabPage.play());
  const messages = [
    ...PAYLOADS.map((p) => ({ type: p })),
    ...PAYLOADS.map((p) => ({ type: 'vilab:get', id: p.repeat(20) })),
    ...PAYLOADS.map((p) => ({ type: 'vilab:load', scenario: { system: p } })),
    ...PAYLOADS.map((p) => ({ type: 'vilab:load', scenario: { system: 'oscillator', params: { [p]: 1 } } })),
    ...NUMBERS.map((n) => ({ type: 'vilab:step', steps: n })),
    { type: 'vilab:step', steps: Number.NaN },
    { type: 'vilab:step', steps: Infinity },
    { type: 'vilab:step', steps: -5 },
    { type: 'vilab:load', scenario: null },
    { type: 'vilab:load', scenario: [] },
    { type: 'vilab:load', scenario: { system: 'oscillator', h: 1e308 } },
    { type: 'vilab:load', scenario: { system: 'oscillator', h: 'NaN' } },
    {
      type: 'vilab:load',
      scenario: { system: 'lagrangian', params: { coordinates: ['x'], lagrangian: '('.repeat(1000) + 'x' + ')'.repeat(1000) } },
    },
    { type: 'vilab:load', scenario: { system: 'x'.repeat(1 << 20) } },
    { type: 'vilab:play', __proto__: { evil: 1 } },
    { type: 'vilab:pause', constructor: 'x' },
  ];
  assert.ok(messages.length >= 50, `${messages.length} messages`);
  const replies = await page.evaluate(async (messages) => {
    const out = [];
    for (const m of messages) {
      const reply = new Promise((resolve) => {
        const on = (e) => {
          if (e.data?.type === 'vilab:error' || e.data?.type === 'vilab:state') {
            removeEventListener('message', on);
            resolve(e.data);
          }
        };
        addEventListener('message', on);
        setTimeout(() => {
          removeEventListener('message', on);
          resolve(null);
        }, 500);
      });
      window.postMessage(m, '*');
      out.push(await reply);
    }
    return out;
  }, messages);
  const answered = replies.filter((r) => r?.type === 'vilab:error');
  assert.ok(answered.length >= 50, `${answered.length} answered with an error`);
  for (const r of answered) assert.ok(r.field && r.message.startsWith('vilab: '), JSON.stringify(r).slice(0, 200));
  console.log(
    `hostile messages: ${messages.length} sent, ${answered.length} answered with a named error, ${replies.filter((r) => r === null).length} ignored (not vilab's)`,
  );
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.ok(await page.evaluate(() => window.vilabPage.sim().step > 0));
  assert.deepEqual(errors, []);
  await page.close();
});
