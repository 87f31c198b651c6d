// Embedding: the bridge that lets a host page drive an embedded vilab through postMessage
// (the protocol and its validation: state/messages.js) and the page's embed keys. The
// "Copy embed code" dialog is web/ui/embed-dialog.js, fetched when first opened.
import { parseMessage, parseEmbedKeys, MessageError, readId, PROTOCOL_VERSION } from '../state/messages.js';
import { splitApiError } from '../state/url.js';

/** At most this many vilab:step events per second while playing. */
const STEP_EVENTS_PER_SECOND = 4;

/**
 * Drives the page for a host. controller: { load(scenario, meta) → Error|null or a promise of
 * it (a change that waits for the full build), play(), pause(), step(n) → A's step or a promise
 * of it, position() → { step, time, fingerprint }, snapshot() → position and { playing,
 * scenario, compare, diagnostics, energyError, shareURL } }.
 * origins: the host origins whose commands are obeyed; read-only requests are answered
 * for any origin. report(field, message, code): shows a rejected command to the reader.
 * Every reply echoes the request's id when one could be read; a command is answered with
 * vilab:done once it is done (a long vilab:step when its last step is taken).
 */
export class EmbedBridge {
  constructor({ origins, controller, report, version }) {
    this.origins = new Set(origins);
    this.controller = controller;
    this.report = report;
    this.version = version;
    this.parent = window.parent !== window ? window.parent : null;
    this.lastStep = null;
    this.commanding = false; // true while a host's command runs: what changes then is the host's doing
    this.onMessage = (event) => this.receive(event);
    window.addEventListener('message', this.onMessage);
    // step events only for a parent window: a page that is not embedded does no work here
    this.timer = this.parent ? setInterval(() => this.tick(), 1000 / STEP_EVENTS_PER_SECOND) : 0;
  }

  /** Tells the host the page is up, once the first run exists. */
  announce() {
    this.post({
      type: 'vilab:ready',
      version: this.version,
      protocol: PROTOCOL_VERSION,
      fingerprint: this.controller.position().fingerprint,
    });
  }

  /** Events go to the parent window with '*': they carry nothing its iframe src does not show. */
  post(message) {
    this.parent?.postMessage(message, '*');
  }

  reply(event, message) {
    if (!event.source || typeof event.source.postMessage !== 'function') return;
    // an opaque origin ('null': file://, sandboxed frames) can only be reached with '*'
    event.source.postMessage(message, event.origin && event.origin !== 'null' ? event.origin : '*');
  }

  tick() {
    if (!this.parent) return;
    const { step, time, fingerprint } = this.controller.position();
    if (step === this.lastStep) return;
    this.lastStep = step;
    this.post({ type: 'vilab:step', step, time, fingerprint });
  }

  /** A refused step, as the page reports it. */
  refusal({ track, step, code, message }) {
    this.post({ type: 'vilab:refusal', track, step, code: code ?? null, message });
  }

  /**
   * What the reader (or the host, by a command) changed: { change, fields?, preset?, source? }
   * (state/messages.js changeOf), sent with the run's new position and document.
   */
  change({ change, fields = [], preset, source }) {
    if (!this.parent) return;
    const { step, time, fingerprint, playing, scenario, compare } = this.controller.snapshot();
    const by = source ?? (this.commanding ? 'host' : 'reader');
    this.post({
      type: 'vilab:change',
      change,
      fields,
      ...(preset !== undefined ? { preset } : {}),
      source: by,
      scenario,
      compare,
      playing,
      step,
      time,
      fingerprint,
    });
  }

  receive(event) {
    const trusted = this.origins.has(event.origin);
    let msg;
    try {
      msg = parseMessage(event.data);
    } catch (e) {
      const request = typeof event.data?.type === 'string' ? event.data.type.slice(0, 32) : null;
      this.reject(event, trusted, e.field, e.message, request, readId(event.data), e.code);
      return;
    }
    if (!msg) return; // not addressed to vilab
    if (!msg.command) {
      this.reply(event, {
        type: 'vilab:state',
        id: msg.id,
        protocol: PROTOCOL_VERSION,
        version: this.version,
        ...this.controller.snapshot(),
      });
      return;
    }
    if (!trusted) {
      // commands only from the origins the embed code names; nothing shown to the reader
      this.reply(event, {
        type: 'vilab:error',
        id: msg.id,
        field: 'origin',
        message: `vilab: origin: ${event.origin} may not send ${msg.type} (allowed: the origin= keys of this page)`,
        request: msg.type,
      });
      return;
    }
    this.#obey(event, msg);
  }

  /** A trusted command: done now or when its promise settles; then vilab:done (or vilab:error for a refused load). */
  #obey(event, msg) {
    let outcome;
    this.commanding = true;
    try {
      if (msg.type === 'vilab:load') {
        const refusal = msg.compare === undefined ? null : this.controller.compareRefusal(msg.scenario, msg.compare);
        if (refusal) return this.reject(event, true, 'compare', `vilab: compare: ${refusal.message}`, msg.type, msg.id, refusal.code);
        outcome = this.controller.load(msg.scenario, { source: 'host' }, msg.compare);
      } else if (msg.type === 'vilab:play') this.controller.play();
      else if (msg.type === 'vilab:pause') this.controller.pause();
      else if (msg.type === 'vilab:step') outcome = this.controller.step(msg.steps);
    } finally {
      this.commanding = false;
    }
    const finish = (result) => {
      if (msg.type === 'vilab:load' && result instanceof Error) return this.#loadRefused(event, msg, result);
      this.lastStep = null;
      this.tick();
      const { step, time, fingerprint, playing } = this.controller.snapshot();
      this.reply(event, { type: 'vilab:done', id: msg.id, request: msg.type, step, time, fingerprint, playing });
    };
    if (outcome && typeof outcome.then === 'function') outcome.then(finish, (e) => finish(e instanceof Error ? e : new Error(String(e))));
    else finish(outcome);
  }

  /** A scenario the API refused: the field inside the scenario named, the run kept. */
  #loadRefused(event, msg, err) {
    const { field, problem } = err.field ? { field: err.field, problem: splitApiError(err.message).problem } : splitApiError(err.message);
    const path = `scenario${field ? '.' + field : ''}`;
    this.reject(event, true, path, `vilab: ${path}: ${problem}`, msg.type, msg.id, err.code);
  }

  /** code: the error's (lab.vocabulary.inputErrorCodes), for the reader's banner in the page's language. */
  reject(event, trusted, field, message, request, id = null, code = null) {
    this.reply(event, { type: 'vilab:error', id, field, message, request });
    if (trusted) this.report(field, message, code);
  }

  dispose() {
    window.removeEventListener('message', this.onMessage);
    clearInterval(this.timer);
  }
}

const EMBED_DEFAULTS = { embed: false, paused: false, chrome: true, origins: [] };

/**
 * The embedding keys of this page, each validated alone: a bad one is reported
 * (report(key, problem), once per key) and ignored, the others keep their effect.
 * Each origin= is its own key: a bad one does not drop the good ones.
 */
export function readEmbedKeys(search, report) {
  const params = new URLSearchParams(search);
  const keys = { ...EMBED_DEFAULTS, origins: [] };
  const problems = new Map();
  const read = (key, values) => {
    try {
      return parseEmbedKeys(`?${new URLSearchParams(values.map((v) => [key, v]))}`);
    } catch (e) {
      if (!(e instanceof MessageError)) throw e;
      problems.set(e.field, [...(problems.get(e.field) ?? []), [e.problem, e.code]]);
      return null;
    }
  };
  for (const key of ['embed', 'paused', 'chrome']) {
    const values = params.getAll(key);
    if (values.length) keys[key] = read(key, values)?.[key] ?? EMBED_DEFAULTS[key];
  }
  // the prediction card: on in the page, off in an embed unless asked
  const predict = params.getAll('predict');
  keys.predict = (predict.length ? read('predict', predict)?.predict : undefined) ?? !keys.embed;
  const valid = params.getAll('origin').flatMap((text) => read('origin', [text])?.origins ?? []);
  // too many origins is a problem of the whole key: then none is obeyed
  if (valid.length) keys.origins = read('origin', valid)?.origins ?? [];
  for (const [key, list] of problems) report(key, list.map(([problem]) => problem).join('; '), list[0][1]);
  return keys;
}
