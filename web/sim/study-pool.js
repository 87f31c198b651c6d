// Studies off the main thread: a pool of workers (web/sim/study-worker.js), one wasm
// instance each, one per core. run(task, args) resolves with the worker's result;
// cancel() stops everything running (the workers are terminated and replaced lazily),
// so the page never waits on a sweep and never freezes during one.
import inlinedWasm from 'virtual:vilab-wasm';

/** A new study worker; the single file carries its worker inline (no file to fetch). */
async function spawn() {
  const { default: StudyWorker } =
    import.meta.env.MODE === 'single' ? await import('./study-worker.js?worker&inline') : await import('./study-worker.js?worker');
  return new StudyWorker();
}

export class StudyPool {
  constructor({ size = Math.max(1, Math.min(8, globalThis.navigator?.hardwareConcurrency ?? 2)) } = {}) {
    this.size = size;
    this.idle = [];
    this.busy = new Map(); // worker → { reject }
    this.queue = [];
    this.count = 0;
    this.nextId = 1;
  }

  /** Runs one task; onProgress(fraction) while it works. Rejects with Error('vilab: … cancelled') on cancel(). */
  run(task, args, { onProgress } = {}) {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, args, onProgress, resolve, reject });
      this.#pump();
    });
  }

  /** Runs tasks in parallel, results in order. */
  all(jobs, { onDone } = {}) {
    let done = 0;
    return Promise.all(
      jobs.map(([task, args]) =>
        this.run(task, args).then((r) => {
          onDone?.(++done, jobs.length);
          return r;
        }),
      ),
    );
  }

  async #pump() {
    while (this.queue.length > 0 && (this.idle.length > 0 || this.count < this.size)) {
      const job = this.queue.shift();
      let worker = this.idle.pop();
      if (!worker) {
        this.count++;
        try {
          worker = await spawn();
        } catch (e) {
          this.count--;
          job.reject(e);
          continue;
        }
        worker.fresh = true;
      }
      this.#start(worker, job);
    }
  }

  #start(worker, job) {
    const id = this.nextId++;
    this.busy.set(worker, job);
    worker.onmessage = ({ data }) => {
      if (data.id !== id) return;
      if ('progress' in data) {
        job.onProgress?.(data.progress);
        return;
      }
      this.busy.delete(worker);
      this.idle.push(worker);
      if (data.error) job.reject(Object.assign(new Error(data.error.message), { field: data.error.field }));
      else job.resolve(data.result);
      this.#pump();
    };
    worker.onerror = (e) => {
      this.busy.delete(worker);
      worker.terminate();
      this.count--;
      job.reject(new Error(`vilab: study worker failed: ${e.message ?? e}`));
      this.#pump();
    };
    // the single file's workers cannot fetch the wasm: they get the page's bytes once
    const wasmBinary = worker.fresh && inlinedWasm ? inlinedWasm.slice() : undefined;
    worker.fresh = false;
    worker.postMessage({ id, task: job.task, args: job.args, wasmBinary });
  }

  /** Stops every queued and running task. */
  cancel() {
    for (const job of this.queue) job.reject(new Error('vilab: study cancelled'));
    this.queue = [];
    for (const [worker, job] of this.busy) {
      worker.terminate();
      this.count--;
      job.reject(new Error('vilab: study cancelled'));
    }
    this.busy.clear();
  }

  dispose() {
    this.cancel();
    for (const w of this.idle) w.terminate();
    this.idle = [];
    this.count = 0;
  }
}
