// Okabe–Ito colours (colour-blind safe) and the two themes.
export const OKABE_ITO = {
  blue: '#0072B2', // integrator A
  orange: '#E69F00', // integrator B
  vermillion: '#D55E00', // constraint error; principal axis e1
  green: '#009E73', // principal axis e2
  sky: '#56B4E9', // principal axis e3
  purple: '#CC79A7', // angular velocity ω
  yellow: '#F0E442',
  grey: '#8a8f98', // exact-solution ghost
};

export const COLOR_A = OKABE_ITO.blue;
export const COLOR_B = OKABE_ITO.orange;
export const COLOR_EXACT = OKABE_ITO.grey;
export const COLOR_CONSTRAINT = OKABE_ITO.vermillion;

export function isDark() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

export function sceneTheme(dark = isDark()) {
  return dark
    ? { background: '#14171c', grid: '#3a414c', gridCenter: '#58606c', fg: '#e8eaed', muted: '#a9b0ba', rod: '#c9ced6', pivot: '#e8eaed' }
    : { background: '#f6f7f9', grid: '#c9ced6', gridCenter: '#9aa2ad', fg: '#1d2127', muted: '#4a515b', rod: '#3b424c', pivot: '#1d2127' };
}
