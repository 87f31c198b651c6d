// uPlot, fetched on first use: the page's first frame (the scene) does not wait for the
// plotting library; the diagnostics plots and the Studies drawer load it through here.
// `uPlot` is a live binding: null until loadUPlot() resolves.
import 'uplot/dist/uPlot.min.css';

export let uPlot = null;
let loading = null;

/** Resolves to the uPlot constructor (one fetch, shared). */
export function loadUPlot() {
  loading ??= import('uplot').then((m) => (uPlot = m.default));
  return loading;
}
