// The live measurements behind a preset's caption: its claims (web/sim/claims.js) fed with
// the run's history as the plots get it, the stop of a broken run as the page reports it;
// the caption's {slots} filled from them, and a "Not yet: …" note for what the run has
// not reached. The same ClaimTracker checks the captions in Node. Only presets have claims,
// so their code comes with the presets (web/page/presets.js: loadClaimsCode).
import { shortTitle } from '../ui/why.js';
import { t, language } from '../i18n/index.js';

let claimsCode = null; // web/sim/claims.js, once fetched
/** Fetches web/sim/claims.js once; resolves when captions can measure claims. */
export const loadClaimsCode = () => import('../sim/claims.js').then((m) => void (claimsCode = m));

/** The time a stopped track is reported at: a breakdown's last good time, or the refused step's. */
const stopTime = (failure, h) => (Number.isFinite(failure.t) ? failure.t : failure.step != null ? failure.step * h : NaN);

/** One run's claims; `onChange()` is called when what the caption says changes. */
export function createCaptionClaims({ lab, runner, onChange }) {
  let tracker = null;
  let key = '';

  function syncStops() {
    for (const [label, track] of [
      ['A', runner.a],
      ['B', runner.b],
    ]) {
      if (track?.failure) tracker.stop(label, stopTime(track.failure, track.scenario.h));
    }
  }

  /** The results changed since the caption was last written? */
  function changed() {
    const k = [...tracker.results().values()].map((r) => `${r.state}:${r.value}`).join('|');
    if (k === key) return false;
    key = k;
    return true;
  }

  return {
    /** A new run: the preset's claims (or none), caught up with what the histories hold. */
    reset(preset) {
      key = '';
      tracker = null;
      if (!preset?.claims?.length || !runner.a) return;
      if (!claimsCode) {
        console.warn(`preset ${preset.id}: its claims' code is not in yet`); // not reached: it comes with the presets
        return;
      }
      try {
        tracker = new claimsCode.ClaimTracker(preset.claims);
      } catch (e) {
        console.warn(`preset ${preset.id}: ${e.message}`); // a malformed claims block: the caption without its numbers
        return;
      }
      tracker.ingest(runner.a.first, runner.b?.first ?? null);
      syncStops();
      tracker.ingest(runner.a.sim.history.read(0), runner.b ? runner.b.sim.history.read(0) : null);
      changed();
    },
    /** The samples the runner read (its onSamples), after the plots saw them. */
    ingest(ra, rb) {
      if (!tracker) return;
      syncStops();
      tracker.ingest(ra, rb);
      if (changed()) onChange();
    },
    /** A track stopped (the failure report). */
    stopped() {
      if (!tracker) return;
      syncStops();
      if (changed()) onChange();
    },
    /** The caption with its slots filled, and the note of what is not yet (or never) measured. */
    fill(text) {
      if (!tracker) return { text: text.replace(/\{\w+\}/g, '…'), note: '' };
      const lang = language();
      const filled = claimsCode.fillCaption(text, tracker.results(), lang);
      const who = (label) => {
        const track = label === 'B' ? runner.b : runner.a;
        return track ? shortTitle(track.integrator, track.sim.describe().structures) : label;
      };
      const stopped = filled.stopped.length ? t('claims.stopped') : '';
      return { text: filled.text, note: [pendingNote(filled.pending, who, lang), stopped].filter(Boolean).join(' ') };
    },
  };
}

// what a claim not yet measured waits for, by kind (value and ratio claims: their times, together)
const WAITS_FOR = {
  crossing: (c, at, who) => t('claims.notYet.crossing', { b: who('B'), t: at }),
  stop: (c, at, who) => t('claims.notYet.stop', { who: who(c.track ?? 'B'), t: at }),
  recurrence: (c, at) => t('claims.notYet.recurrence', { t: at }),
  interval: (c, at, who, time) => t('claims.notYet.interval', { at: time(c.at) }),
};

function pendingNote(claims, who, lang) {
  if (!claims.length) return '';
  const { expectedOf, formatClaim } = claimsCode;
  const time = (x) => formatClaim({ format: 'time' }, x, lang);
  const parts = [];
  const times = [...new Set(claims.filter((c) => c.at > 0 && !WAITS_FOR[c.kind]).map((c) => c.at))].sort((a, b) => a - b);
  const list = new Intl.ListFormat(lang, { type: 'conjunction' });
  if (times.length) parts.push(t('claims.notYet.values', { times: list.format(times.map(time)) }));
  for (const c of claims) if (WAITS_FOR[c.kind]) parts.push(WAITS_FOR[c.kind](c, time(expectedOf(c)), who, time));
  return t('claims.notYet', { list: [...new Set(parts)].join(t('claims.sep')) });
}
