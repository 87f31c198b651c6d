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
  const mant = minus(formatter({ minimumFractionDigits: digits - 1, maximumFractionDigits: digits - 1 }).format(Number(m)));
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
  return minus(formatter({ maximumSignificantDigits: sig }).format(Number(x.toPrecision(sig))));
}

/** A fraction as a percentage (0.039 → '3.9%' in English, '3,9 %' in Spanish), `sig` significant digits. */
export function percent(x, sig = 2) {
  const s = special(x);
  if (s) return s;
  if (x === 0) return formatter({ style: 'percent' }).format(0);
  return minus(formatter({ style: 'percent', maximumSignificantDigits: sig }).format(Number(x.toPrecision(sig))));
}

/** A time in seconds: two decimals (none from 1000 s on). */
export function seconds(t) {
  if (!Number.isFinite(t)) return '—';
  const digits = t < 1000 ? 2 : 0;
  return minus(formatter({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(t));
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
  return minus(formatter({ minimumFractionDigits: 2, maximumFractionDigits: digits }).format(t));
}

/** A number with exactly `digits` decimals (a fitted order, a time in a sentence). */
export function fixed(x, digits = 2) {
  const s = special(x);
  if (s) return s;
  return minus(formatter({ minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x));
}

/** What separates the numbers of a list or an interval: '; ' where the decimal sign is a comma. */
export function listSeparator() {
  return formatter({ minimumFractionDigits: 1 }).format(0.5).includes(',') ? '; ' : ', ';
}

/** '3f9a…08c2' from a 16-hex fingerprint. */
export function shortHash(hash) {
  if (!hash) return '—';
  return hash.length > 8 ? `${hash.slice(0, 4)}…${hash.slice(-4)}` : hash;
}

const SUB = '₀₁₂₃₄₅₆₇₈₉';
export const subscript = (n) => String(n).replace(/\d/g, (d) => SUB[Number(d)]);
