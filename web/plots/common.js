// What the plot modules share: the theme's colours from CSS variables, and series of
// samples at their own times aligned for uPlot.

/** A CSS custom property of the page (the theme's colours), or the fallback. */
export function cssVar(name, fallback) {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

/**
 * uPlot's aligned data from tracks sampled at their own times: every time of the tracks
 * (k.t), and each track's value(k)[i] there or null (a gap).
 */
export function alignByTime(tracks, value) {
  const times = [...new Set(tracks.flatMap((k) => k.t))].sort((a, b) => a - b);
  const index = new Map(times.map((x, i) => [x, i]));
  return [
    times,
    ...tracks.map((k) => {
      const ys = new Array(times.length).fill(null);
      const v = value(k);
      k.t.forEach((x, i) => (ys[index.get(x)] = v[i]));
      return ys;
    }),
  ];
}

/** A uPlot axis in the theme's colours (read when drawn, so a theme switch follows). */
export function axisStyle(label, font, extra = {}) {
  const grid = () => cssVar('--grid', 'rgba(0,0,0,0.08)');
  return {
    stroke: () => cssVar('--fg-muted', '#4a515b'),
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid, width: 1, size: 4 },
    font,
    labelFont: font,
    label,
    ...extra,
  };
}
