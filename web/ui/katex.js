// KaTeX and its stylesheet, loaded lazily on first use (the Explain drawer, the
// Lagrangian editor's preview), once for the page.

let katexPromise = null;

/** Resolves to the katex module; rejects (and is retried next time) when it cannot load. */
export function loadKatex() {
  if (!katexPromise) {
    katexPromise = Promise.all([import('katex'), import('katex/dist/katex.min.css')])
      .then(([m]) => m.default ?? m)
      .catch((e) => {
        katexPromise = null;
        throw e;
      });
  }
  return katexPromise;
}
