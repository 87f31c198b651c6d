// The bench's machine-readable results and the previous run beside each row. Every run
// writes its rows as JSON (bench/results/runs/, not committed; a complete run also the
// dated bench/results/<date>-<machine>.json, committed): so a fresh clone's previous run
// is the committed one. A row's previous value is the newest earlier run holding that
// row on the same machine (any machine when none ran there), matched by its key.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export const FORMAT = 'vilab-bench-results';
export const VERSION = 1;

/** A row's key: its measure without parenthesized parts that hold numbers of the run ("(native 247 ns/step)"). */
export const rowKey = (section, what) =>
  `${section}: ${what
    .replace(/\s*\([^()]*\d[^()]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim()}`;

/** The results document of one run: meta ({ commit, tree, date, finished, machine, sections, rounds }) and its rows. */
export function resultsJson(rows, meta) {
  return {
    format: FORMAT,
    version: VERSION,
    ...meta,
    rows: rows.map((r) => ({
      section: r.section,
      key: r.key,
      what: r.what,
      median: r.median,
      min: r.min,
      max: r.max,
      n: r.n,
      unit: r.unit ?? '',
      goal: r.goal ?? '',
      met: r.met ?? null,
    })),
  };
}

/** Parses a results document; null for any other JSON (the hardening report) or a malformed one. */
export function parseResults(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (doc?.format !== FORMAT || doc.version !== VERSION || !Array.isArray(doc.rows) || typeof doc.finished !== 'string') return null;
  return doc;
}

/** Every results document in dir and dir/runs/ (the committed and this machine's runs). */
export function loadRuns(dir) {
  const runs = [];
  for (const sub of ['', 'runs/']) {
    const at = new URL(sub, dir);
    if (!existsSync(at)) continue;
    for (const name of readdirSync(at).filter((n) => n.endsWith('.json'))) {
      const doc = parseResults(readFileSync(new URL(name, at), 'utf8'));
      if (doc) runs.push(doc);
    }
  }
  return runs;
}

/**
 * key → { median, unit, commit, date } of the newest run finished before `before` (an ISO time)
 * holding that row: among the runs on machine `slug` when there are any, else among all.
 */
export function previousRows(runs, slug, before = new Date().toISOString()) {
  const earlier = runs.filter((r) => r.finished < before);
  const here = earlier.filter((r) => r.machine?.slug === slug);
  const pool = (here.length ? here : earlier).sort((a, b) => (a.finished < b.finished ? 1 : -1));
  const out = new Map();
  for (const run of pool)
    for (const row of run.rows)
      if (!out.has(row.key) && Number.isFinite(row.median))
        out.set(row.key, { median: row.median, unit: row.unit ?? '', commit: run.commit, date: run.date });
  return out;
}

/** The change from the previous median to this one, as a signed percentage ("" when either is missing). */
export function change(now, previous) {
  if (!previous || !Number.isFinite(now) || !Number.isFinite(previous.median) || previous.median === 0) return '';
  const pc = (100 * (now - previous.median)) / Math.abs(previous.median);
  const digits = Math.abs(pc) < 10 ? 1 : 0;
  return `${pc >= 0 ? '+' : '−'}${Math.abs(pc).toFixed(digits)} %`;
}
