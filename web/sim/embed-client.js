// vilab/embed-client: drive a vilab page embedded in an <iframe> from its host page,
// with promises. Requests carry ids and are matched to their replies; only messages from
// that iframe's window and origin are read; each request has a timeout.
//   const lab = connect(iframe);  await lab.ready;  await lab.step(100);
//   const state = await lab.get();  lab.on('change', (e) => …);
// The protocol: docs/embedding.md.

/** A request the page refused (vilab:error) or that was not answered in time. */
export class EmbedError extends Error {
  constructor(message, { field = null, request = null, code = null } = {}) {
    super(message);
    this.name = 'EmbedError';
    Object.assign(this, { field, request, code });
  }
}

const REPLIES = ['vilab:state', 'vilab:done', 'vilab:error'];

/**
 * Connects to the vilab page in `iframe`. Options: origin (the page's origin; by default
 * that of iframe.src), timeout (ms per request, default 10000).
 */
export function connect(iframe, { origin, timeout = 10000 } = {}) {
  const target = origin ?? new URL(iframe.src, location.href).origin;
  // a page from file:// has the opaque origin 'null', reachable only with '*'
  const to = target === 'null' ? '*' : target;
  const pending = new Map();
  const listeners = new Map();
  let next = 0;
  let closed = false;
  let readyInfo;
  let resolveReady;
  const ready = new Promise((r) => {
    resolveReady = r;
  });
  const emit = (type, data) => {
    for (const fn of listeners.get(type) ?? []) fn(data);
  };
  const onMessage = (e) => {
    const d = e.data;
    if (e.source !== iframe.contentWindow || e.origin !== target || typeof d?.type !== 'string' || !d.type.startsWith('vilab:')) return;
    if (d.type === 'vilab:ready' || (d.type === 'vilab:state' && !readyInfo)) {
      readyInfo = { version: d.version ?? null, fingerprint: d.fingerprint ?? null };
      resolveReady(readyInfo);
    }
    const waiting = REPLIES.includes(d.type) && pending.get(d.id);
    if (waiting) {
      pending.delete(d.id);
      clearTimeout(waiting.timer);
      if (d.type === 'vilab:error') waiting.reject(new EmbedError(d.message, { field: d.field, request: d.request }));
      else waiting.resolve(d);
      return;
    }
    emit(d.type.slice(6), d);
  };
  addEventListener('message', onMessage);

  /** Sends { type: 'vilab:' + kind, ...fields } and resolves with its reply. */
  const request = (kind, fields = {}) => {
    if (closed) return Promise.reject(new EmbedError('vilab: the connection is closed', { request: `vilab:${kind}` }));
    const id = `c${++next}`;
    const type = `vilab:${kind}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new EmbedError(`vilab: ${type}: no reply within ${timeout} ms`, { request: type, code: 'timeout' }));
      }, timeout);
      pending.set(id, { resolve, reject, timer });
      iframe.contentWindow.postMessage({ type, id, ...fields }, to);
    });
  };
  // the page may be up before this client: ask until it answers
  const poll = setInterval(() => {
    if (readyInfo || closed) return clearInterval(poll);
    iframe.contentWindow?.postMessage({ type: 'vilab:get', id: 'ready' }, to);
  }, 250);

  return {
    ready,
    get: () => request('get'),
    /** compare: B's integrator id (a registry id, 'mujoco-rk4', 'mujoco-implicit'), null for none; absent, B is kept. */
    load: (scenario, compare) => request('load', compare === undefined ? { scenario } : { scenario, compare }),
    play: () => request('play'),
    pause: () => request('pause'),
    step: (steps = 1) => request('step', { steps }),
    /** fn(event) for each event of that kind ('change', 'step', 'refusal', 'ready', 'error'); returns the unsubscriber. */
    on(kind, fn) {
      if (!listeners.has(kind)) listeners.set(kind, new Set());
      listeners.get(kind).add(fn);
      return () => listeners.get(kind).delete(fn);
    },
    close() {
      closed = true;
      clearInterval(poll);
      removeEventListener('message', onMessage);
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        p.reject(new EmbedError('vilab: the connection is closed', { request: id }));
      }
      pending.clear();
    },
  };
}
