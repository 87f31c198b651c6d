// The page's numbers in the language shown (web/sim/format.js): Intl's decimal sign and
// percent per language, and English exactly as before (the digits the tests and the
// captions read). Runs without the module.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import {
  fixed,
  listSeparator,
  num,
  numberLocale,
  percent,
  sci,
  seconds,
  setNumberLocale,
  signedSci,
  stepTime,
} from '../../web/sim/format.js';

afterEach(() => setNumberLocale('en'));

test('English: the digits of toPrecision / toExponential, with a real minus sign', () => {
  assert.equal(numberLocale(), 'en');
  // a measured number of a caption (it used to print as the raw fraction "0.0833")
  assert.equal(num(1 / 12, 3), '0.0833');
  assert.equal(num(-2.5, 4), '−2.5');
  assert.equal(num(12345.678, 4), '12350', 'no grouping: a number reads the same in a table and a caption');
  assert.equal(num(3.2e-7, 2), '3.2e−7');
  assert.equal(sci(-1.234e-5, 3), '−1.23e−5');
  assert.equal(signedSci(4.2e-3, 2), '+4.2e−3');
  assert.equal(seconds(14.734), '14.73');
  assert.equal(seconds(1880.4), '1880');
  assert.equal(percent(0.0391), '3.9%');
  assert.equal(fixed(2.004, 2), '2.00');
  // the same digits as the former toPrecision-based formatting, over 5000 numbers
  let x = 0.7316;
  for (let i = 0; i < 5000; i++) {
    x = (x * 9301 + 49297) % 233280;
    const v = (x / 233280 - 0.5) * 10 ** ((i % 14) - 5) || 1;
    const a = Math.abs(v);
    if (a >= 1e-4 && a < 1e6) assert.equal(num(v, 4), Number(v.toPrecision(4)).toString().replace('-', '−'), `num(${v})`);
  }
});

test('Spanish: a decimal comma, a spaced percent sign; the same digits', () => {
  setNumberLocale('es');
  assert.equal(num(1 / 12, 3), '0,0833');
  assert.equal(num(-2.5, 4), '−2,5');
  assert.equal(sci(-1.234e-5, 3), '−1,23e−5');
  assert.equal(seconds(14.734), '14,73');
  assert.equal(percent(0.0391), '3,9\u00a0%');
  assert.equal(fixed(2.004, 2), '2,00');
  // an interval's numbers are separated by a semicolon where the decimal sign is a comma
  assert.equal(listSeparator(), '; ');
  setNumberLocale('en');
  assert.equal(listSeparator(), ', ');
  setNumberLocale('es');
  // a whole number, an infinity and a missing value read the same in every language
  assert.equal(num(600, 4), '600');
  assert.equal(num(Number.POSITIVE_INFINITY), '∞');
  assert.equal(num(Number.NaN), '—');
});

test('negative control: a formatter that ignores the language fails the Spanish expectation', () => {
  setNumberLocale('es');
  const ignoring = (v, sig) => Number(v.toPrecision(sig)).toString();
  assert.notEqual(ignoring(1 / 12, 3), num(1 / 12, 3));
  assert.notEqual((0.0391 * 100).toFixed(1) + '%', percent(0.0391));
});

test('a stop’s time has the digits of its step: 0.004 s at h = 0.004 s, never 0.00', () => {
  // the stiff string's leapfrog is refused in its first steps (h = 0.004 s)
  assert.equal(stepTime(0.004, 0.004), '0.004');
  assert.equal(stepTime(0.012, 0.004), '0.012');
  assert.equal(stepTime(12.52, 0.004), '12.52', 'trailing zeros past the second decimal dropped');
  assert.equal(stepTime(3, 0.01), '3.00');
  assert.equal(stepTime(0.0025, 0.0025), '0.0025');
  assert.equal(stepTime(1 / 30, 1 / 30), '0.0333', 'a step with no finite decimals: two past its first digit');
  assert.equal(stepTime(0.004, NaN), '0.004', 'without h: enough for the first digit');
  assert.equal(stepTime(0, 0.004), '0.00');
  assert.equal(stepTime(NaN, 0.01), '—');
  // the format it replaces read the refused step as t = 0
  assert.equal(fixed(0.004, 2), '0.00');
  setNumberLocale('es');
  assert.equal(stepTime(0.004, 0.004), '0,004');
});
