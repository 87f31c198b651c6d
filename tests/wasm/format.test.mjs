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

test('English is written without Intl, with the strings Intl writes', () => {
  // Every function, over numbers of every size, signs, −0 and ties of each kind ('en-US'
  // takes Intl's path: the same data as 'en'). Intl rounds the shortest decimal of x,
  // half away from zero: 1.005 → 1.01, where toFixed, on x's binary value, gives 1.00.
  const cases = [
    (x) => num(x, 4),
    (x) => num(x, 2),
    (x) => sci(x, 3),
    (x) => signedSci(x, 2),
    (x) => percent(x),
    (x) => percent(x, 3),
    (x) => seconds(x),
    (x) => fixed(x, 0),
    (x) => fixed(x, 2),
    (x) => fixed(x, 5),
    (x) => stepTime(x, 0.004),
    (x) => stepTime(x, 1 / 3),
  ];
  const xs = [0, -0, 1.005, -1.005, 2.675, 0.125, -0.125, 0.5, 2.5, 9.995, 99.995, 999999.5, 0.00049999, -0.001];
  xs.push(1e-9, -5e-324, 1 / 3, 0.045, 14.734, 1880.4, 0.1 + 0.2, 123456789, 9.999999e20, 1e21, 3e22);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 20000; i++) {
    const x = (random() - 0.5) * 10 ** (Math.floor(random() * 30) - 15);
    // every third a tie at some decimal place
    xs.push(i % 3 ? x : Math.round(x * 10 ** (i % 7)) / 10 ** (i % 7) + 0.5 * 10 ** -(i % 6));
  }
  for (const [k, f] of cases.entries())
    for (const x of xs) {
      setNumberLocale('en-US');
      const intl = f(x);
      setNumberLocale('en');
      assert.equal(f(x), intl, `case ${k} at ${x}`);
    }
  assert.equal(fixed(1.005, 2), '1.01');
  // negative control: rounding x's binary value (toFixed) is not Intl's rounding
  assert.notEqual((1.005).toFixed(2), fixed(1.005, 2));
  assert.equal(fixed(-0, 2), '−0.00', 'Intl keeps the sign of −0');
});

test('English makes no Intl.NumberFormat (the first sets ICU up: ~20 ms of the first frame)', async () => {
  // a fresh instance of the module: no formatter cached by the tests above
  const fresh = await import(new URL('../../web/sim/format.js?no-intl', import.meta.url));
  const NumberFormat = Intl.NumberFormat;
  Intl.NumberFormat = function () {
    throw new Error('an Intl.NumberFormat was made');
  };
  try {
    fresh.setNumberLocale('en');
    for (const x of [-12.345678, 0, -0, 1.005, 3.2e-7, 1e20])
      for (const f of [fresh.num, fresh.sci, fresh.signedSci, fresh.percent, fresh.seconds, fresh.fixed, fresh.stepTime]) f(x, 3);
    assert.equal(fresh.listSeparator(), ', ');
    // the control: another language does make one
    fresh.setNumberLocale('es');
    assert.throws(() => fresh.num(1.5), /Intl.NumberFormat was made/);
  } finally {
    Intl.NumberFormat = NumberFormat;
  }
});
