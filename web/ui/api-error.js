// An error of the API (a VilabError: code, field, message) or of a link, in the page's
// words: the field it names and its problem by code (lab.vocabulary.inputErrorCodes),
// so a banner or an editor error speaks the page's language. The core writes its
// messages in English: an English page shows them as they are (they say the most); any
// other language gets the code's words, with the message's literal parts (quoted names,
// intervals, numbers after "got", the column) carried over.
import { has, language, t } from '../i18n/index.js';
import { splitApiError } from '../state/url.js';
import { listSeparator, num } from '../sim/format.js';

/** A number of an English message ('0.2', '-3', '1e-6') in the page's language; anything else as it is. */
const localNumber = (s) => (/^[-−+]?(\d+\.?\d*|\.\d+)(e[-−+]?\d+)?$/i.test(s) ? num(Number(s.replace('−', '-')), 6) : s);

/** An interval of an English message ('(0, 0.2]') with its numbers and separator in the page's language. */
const localInterval = (s) => {
  const [, open, a, b, close] = s.match(/^([[(])\s*([^,]+?)\s*,\s*([^\])]+?)\s*([\])])$/) ?? [];
  return open ? `${open}${localNumber(a)}${listSeparator()}${localNumber(b)}${close}` : s;
};

// What of an English message a translation carries over, and how it is written there.
const LITERALS = [
  { re: /"[^"]{1,60}"/g, text: (m) => m[0] }, // a quoted name or value
  { re: /<\/?[A-Za-z][\w-]{0,30}(?:\s[^<>"]{1,40}(?:"[^"<>]{0,30}")?)?>/g, text: (m) => m[0] }, // an XML element named (an MJCF model's)
  { re: /[[(]\s*[-−+]?[\d.e+−-]+\s*,\s*[-−+]?[\d.e+−-]+\s*[\])]/g, text: (m) => localInterval(m[0]) }, // an interval
  { re: /\bgot\s+([^\s,;)]{1,40})/g, text: (m) => localNumber(m[1]) }, // what was given
];

/** The parts of an English problem a translation keeps (names, intervals, given values), in order of appearance. */
export function literalsOf(problem) {
  const found = [];
  for (const { re, text } of LITERALS) for (const m of String(problem ?? '').matchAll(re)) found.push({ at: m.index, text: text(m) });
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.text))];
}

/** { field, problem } of an error, the problem in the page's language. */
export function apiError(e) {
  const split = splitApiError(e?.message ?? e);
  const field = typeof e?.field === 'string' && e.field ? e.field : split.field;
  // a field the message's form does not split off ('mjcf line 12: …') is taken off by name
  const problem = field && split.problem.startsWith(`${field}: `) ? split.problem.slice(field.length + 2) : split.problem;
  const code = typeof e?.code === 'string' ? e.code : null;
  if (language() === 'en' || !code || !has(`words.error.${code}`)) return { field, problem };
  const column = String(problem).match(/at column (\d+)/);
  const extra = [...(column ? [t('words.error.column', { column: column[1] })] : []), ...literalsOf(problem)];
  return { field, problem: `${t(`words.error.${code}`)}${extra.length ? ` (${extra.join('; ')})` : ''}` };
}

/** The error as one line: 'field: problem'. */
export function apiErrorText(e) {
  const { field, problem } = apiError(e);
  return field ? `${field}: ${problem}` : problem;
}
