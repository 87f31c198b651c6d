// Number formatting for the page: units, sensible significant digits, relative
// errors in scientific notation with a real minus sign.

const MINUS = '\u2212';

export function sci(x, digits = 2) {
  if (x == null || Number.isNaN(x)) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : `${MINUS}∞`;
  if (x === 0) return '0';
  const [m, e] = x.toExponential(digits - 1).split('e');
  const exp = Number(e);
  const mant = m.replace('-', MINUS);
  return exp === 0 ? mant : `${mant}e${exp < 0 ? MINUS : ''}${Math.abs(exp)}`;
}

/** Signed scientific: always shows + or −. */
export function signedSci(x, digits = 2) {
  const s = sci(x, digits);
  return x > 0 ? `+${s}` : s;
}

/** A plain number with up to `sig` significant digits, trimmed. */
export function num(x, sig = 4) {
  if (x == null || Number.isNaN(x)) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : `${MINUS}∞`;
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 1e6 || a < 1e-4) return sci(x, sig);
  const s = Number(x.toPrecision(sig)).toString();
  return s.replace('-', MINUS);
}

export function seconds(t) {
  if (!Number.isFinite(t)) return '—';
  return t < 1000 ? t.toFixed(2) : t.toFixed(0);
}

/** '3f9a…08c2' from a 16-hex fingerprint. */
export function shortHash(hash) {
  if (!hash) return '—';
  return hash.length > 8 ? `${hash.slice(0, 4)}…${hash.slice(-4)}` : hash;
}

const SUB = '₀₁₂₃₄₅₆₇₈₉';
export const subscript = (n) => String(n).replace(/\d/g, (d) => SUB[Number(d)]);
