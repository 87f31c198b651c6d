// Number formatting for the page: units, sensible significant digits, relative
// errors in scientific notation with a real minus sign, each in the language shown
// (Intl: the decimal sign, the percent sign and its spacing). The language is set by
// the page's i18n module (setNumberLocale); Node and the tests get English.

const MINUS = '\u2212';

let locale = 'en';
const formatters = new Map();

/** The language numbers are written in (a BCP 47 tag: 'en', 'es'). */
export function setNumberLocale(code) {
  locale = typeof code === 'string' && code ? code : 'en';
}
export const numberLocale = () => locale;

/** One Intl.NumberFormat per language and options, made once. */
function formatter(options) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { useGrouping: false, ...options });
    formatters.set(key, f);
  }
  return f;
}

/**
 * x as Intl.NumberFormat(locale, { useGrouping: false, ...options }) writes it. English is
 * written here without Intl: a page's first NumberFormat sets ICU up, 18–27 ms of the
 * default page's first frame in Chromium. The same strings (tests/wasm/format.test.mjs
 * compares them with Intl's): Intl rounds the shortest decimal that reads back as x (what
 * toExponential() writes; 1.005 → 1.01), half away from zero, and keeps the sign of −0.
 */
function format(x, options) {
  if (locale !== 'en' || !Number.isFinite(x) || Math.abs(x) >= 1e21 || !plainOptions(options)) return formatter(options).format(x);
  const percent = options.style === 'percent';
  const shift = percent ? 2 : 0; // a percent is x·100, moved in decimal
  const min = options.minimumFractionDigits ?? 0;
  const text = options.maximumSignificantDigits
    ? englishDigits(x, shift, (exponent) => exponent + 1 - options.maximumSignificantDigits, 0)
    : englishDigits(x, shift, () => -(options.maximumFractionDigits ?? Math.max(min, percent ? 0 : 3)), min);
  return percent ? `${text}%` : text;
}

/** Options the English path writes: decimals, significant digits, a percent. */
const PLAIN = new Set(['minimumFractionDigits', 'maximumFractionDigits', 'maximumSignificantDigits', 'style']);
const plainOptions = (options) =>
  Object.keys(options).every((k) => PLAIN.has(k)) && (options.style === undefined || options.style === 'percent');

/**
 * |x|·10^shift rounded half away from zero at the power of ten lastPlace(exponent) (the
 * exponent of its first digit given), in full, with at least minDecimals decimals; '-'
 * before it when x is negative or −0.
 */
function englishDigits(x, shift, lastPlace, minDecimals) {
  const [mantissa, e] = Math.abs(x).toExponential().split('e');
  let digits = mantissa.replace('.', '');
  let exponent = x === 0 ? 0 : Number(e) + shift; // the power of ten of digits[0]
  const last = lastPlace(exponent);
  const kept = exponent - last + 1; // digits from 10^exponent down to 10^last
  if (kept < digits.length) {
    const up = kept >= 0 && digits[kept] >= '5';
    digits = kept > 0 ? digits.slice(0, kept) : '';
    if (up) {
      // add one at 10^last, carrying
      let i = digits.length - 1;
      while (i >= 0 && digits[i] === '9') i--;
      digits =
        i < 0 ? `1${'0'.repeat(digits.length)}` : digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1);
      if (i < 0) exponent = last + digits.length - 1;
    }
    if (!digits) {
      digits = '0';
      exponent = last;
    }
  }
  // written out: the integer part, then the decimals down to 10^last, zeros after the digits trimmed to minDecimals
  const at = (place) => {
    const k = exponent - place;
    return k >= 0 && k < digits.length ? digits[k] : '0';
  };
  let whole = '';
  for (let place = Math.max(exponent, 0); place >= 0; place--) whole += at(place);
  let decimals = '';
  for (let place = -1; place >= Math.min(last, exponent - digits.length + 1); place--) decimals += at(place);
  decimals = decimals.replace(/0+$/, '');
  if (decimals.length < minDecimals) decimals += '0'.repeat(minDecimals - decimals.length);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  return `${sign}${whole}${decimals ? `.${decimals}` : ''}`;
}

/** The shared cases: missing, infinite. */
function special(x) {
  if (x == null || Number.isNaN(x)) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : `${MINUS}∞`;
  return null;
}

const minus = (s) => s.replace(/^-/, MINUS).replace('e-', `e${MINUS}`);

export function sci(x, digits = 2) {
  const s = special(x);
  if (s) return s;
  if (x === 0) return '0';
  const [m, e] = x.toExponential(digits - 1).split('e');
  const exp = Number(e);
  const mant = minus(format(Number(m), { minimumFractionDigits: digits - 1, maximumFractionDigits: digits - 1 }));
  return exp === 0 ? mant : `${mant}e${exp < 0 ? MINUS : ''}${Math.abs(exp)}`;
}

/** Signed scientific: always shows + or −. */
export function signedSci(x, digits = 2) {
  const s = sci(x, digits);
  return x > 0 ? `+${s}` : s;
}

/** A plain number with up to `sig` significant digits, trimmed (scientific when far from 1). */
export function num(x, sig = 4) {
  const s = special(x);
  if (s) return s;
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-4) return sci(x, sig);
  return minus(format(Number(x.toPrecision(sig)), { maximumSignificantDigits: sig }));
}

/** A fraction as a percentage (0.039 → '3.9%' in English, '3,9 %' in Spanish), `sig` significant digits. */
export function percent(x, sig = 2) {
  const s = special(x);
  if (s) return s;
  if (x === 0) return format(0, { style: 'percent' });
  return minus(format(Number(x.toPrecision(sig)), { style: 'percent', maximumSignificantDigits: sig }));
}

/** A time in seconds: two decimals (none from 1000 s on). */
export function seconds(t) {
  if (!Number.isFinite(t)) return '—';
  const digits = t < 1000 ? 2 : 0;
  return minus(format(t, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
}

/** The decimals that write h exactly (h·10^d whole), from 2 up to two more than its first significant digit's. */
function stepDecimals(h) {
  if (!(h > 0) || !Number.isFinite(h)) return 2;
  const most = Math.max(2, Math.ceil(-Math.log10(h)) + 2);
  for (let d = 2; d < most; d++) {
    const x = h * 10 ** d;
    if (Math.abs(x - Math.round(x)) <= 1e-9 * x) return d;
  }
  return most;
}

/**
 * The time of a step of a run of step h (a stop, a refusal): as many decimals as h needs,
 * at least 2 (trailing zeros past the second dropped), so no step's time reads as another's
 * (0.004 s at h = 0.004 s, never 0.00); without h, enough for the time's first digit.
 */
export function stepTime(t, h) {
  const s = special(t);
  if (s) return s;
  const own = t === 0 ? 2 : Math.max(2, Math.ceil(-Math.log10(Math.abs(t))) + 1);
  const digits = Math.min(12, h > 0 ? Math.max(stepDecimals(h), own) : own);
  return minus(format(t, { minimumFractionDigits: 2, maximumFractionDigits: digits }));
}

/** A number with exactly `digits` decimals (a fitted order, a time in a sentence). */
export function fixed(x, digits = 2) {
  const s = special(x);
  if (s) return s;
  return minus(format(x, { minimumFractionDigits: digits, maximumFractionDigits: digits }));
}

/** What separates the numbers of a list or an interval: '; ' where the decimal sign is a comma. */
export function listSeparator() {
  return format(0.5, { minimumFractionDigits: 1 }).includes(',') ? '; ' : ', ';
}

/** '3f9a…08c2' from a 16-hex fingerprint. */
export function shortHash(hash) {
  if (!hash) return '—';
  return hash.length > 8 ? `${hash.slice(0, 4)}…${hash.slice(-4)}` : hash;
}

const SUB = '₀₁₂₃₄₅₆₇₈₉';
export const subscript = (n) => String(n).replace(/\d/g, (d) => SUB[Number(d)]);
