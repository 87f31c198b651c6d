// The plot cards of web/plots/plots.js, in the order they are built: the ids a lesson names
// (web/sim/lesson-view.js). A module of its own, so that the plots' chunk, fetched after the
// first frame, imports nothing of the lesson's reading (the bundler would otherwise split the
// page's store into a chunk the first frame waits for).
export const PLOT_CARDS = Object.freeze(['energy', 'momentum', 'conserved', 'unconserved', 'constraint', 'iterations', 'dt', 'phase']);
