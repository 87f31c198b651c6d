// A preset's `lesson` block, read into what the page sets up (also usable from Node):
//
//   plot     the plot card its caption names, shown large in the lesson layout
//   speed    one of SPEEDS;  window: one of WINDOWS;  energy: 'signed' | 'envelope'
//   cards    the plot cards shown (absent: all the system's cards)
//   camera   { position: [x, y, z], target: [x, y, z] }
//   jumpTo   seconds: the run lands there by stepping (the same bits as watching), then plays
//   frame    { axis: [x, y, z], rate, toward?: [x, y, z] }: a frame turning at `rate` (rad/s)
//            about `axis` (the orbit frame of a satellite): the view can draw the bodies in it,
//            with the axis and `toward` (a direction fixed in the frame: the Earth's) as
//            arrows, and the plots add its Jacobi integral H − rate·(axis·L)
//
// A field that is wrong is left out (its default applies) and named in `problems`
// ({ field, code, args }), so one typo never loses the rest of the lesson.
import { SPEEDS, WINDOWS, UI_DEFAULTS } from '../state/store.js';
import { PLOT_CARDS } from '../plots/cards.js';

export { PLOT_CARDS };
export const ENERGY_VIEWS = Object.freeze(['signed', 'envelope']);

const finiteVector = (v) => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x));

function readCamera(camera, problems) {
  if (camera === undefined) return null;
  const ok = camera && typeof camera === 'object';
  let good = !!ok;
  for (const key of ['position', 'target']) {
    if (ok && finiteVector(camera[key])) continue;
    problems.push({ field: `lesson.camera.${key}`, code: 'vector', args: {} });
    good = false;
  }
  return good ? { position: camera.position.slice(), target: camera.target.slice() } : null;
}

function readCards(cards, problems) {
  if (cards === undefined) return null;
  if (!Array.isArray(cards) || cards.length === 0) {
    problems.push({ field: 'lesson.cards', code: 'cards', args: { list: PLOT_CARDS.join(', ') } });
    return null;
  }
  const out = [];
  cards.forEach((id, i) => {
    if (PLOT_CARDS.includes(id)) out.push(id);
    else problems.push({ field: `lesson.cards[${i}]`, code: 'card', args: { list: PLOT_CARDS.join(', ') } });
  });
  return out.length ? out : null;
}

const nonZero = (v) => finiteVector(v) && Math.hypot(...v) > 0;
const unit = (v) => v.map((x) => x / Math.hypot(...v));

/** A rotating frame: { axis (unit), rate, toward (unit, or null) }, or null with its problems named. */
function readFrame(frame, problems) {
  if (frame === undefined) return null;
  if (!frame || typeof frame !== 'object' || Array.isArray(frame)) {
    problems.push({ field: 'lesson.frame', code: 'object', args: {} });
    return null;
  }
  let good = true;
  if (!nonZero(frame.axis)) {
    problems.push({ field: 'lesson.frame.axis', code: 'direction', args: {} });
    good = false;
  }
  if (!(typeof frame.rate === 'number' && Number.isFinite(frame.rate) && frame.rate !== 0)) {
    problems.push({ field: 'lesson.frame.rate', code: 'rate', args: {} });
    good = false;
  }
  if (frame.toward !== undefined && !nonZero(frame.toward)) {
    problems.push({ field: 'lesson.frame.toward', code: 'direction', args: {} });
    good = false;
  }
  if (!good) return null;
  return { axis: unit(frame.axis), rate: frame.rate, toward: frame.toward === undefined ? null : unit(frame.toward) };
}

/** One of `allowed`, or the default with a problem named (undefined: the default, silently). */
function oneOf(value, allowed, fallback, field, problems) {
  if (value === undefined) return fallback;
  if (allowed.includes(value)) return value;
  problems.push({ field, code: 'oneOf', args: { list: allowed.join(', ') } });
  return fallback;
}

/** { view: { plot, speed, window, energy, cards, camera, jumpTo, frame }, problems: [{ field, code, args }] } */
export function readLessonView(lesson) {
  const problems = [];
  const block = lesson && typeof lesson === 'object' && !Array.isArray(lesson) ? lesson : {};
  if (lesson !== undefined && block !== lesson) problems.push({ field: 'lesson', code: 'object', args: {} });
  const plot = oneOf(block.plot, PLOT_CARDS, null, 'lesson.plot', problems);
  const view = {
    plot,
    speed: oneOf(block.speed, SPEEDS, UI_DEFAULTS.speed, 'lesson.speed', problems),
    window: oneOf(block.window, WINDOWS, UI_DEFAULTS.window, 'lesson.window', problems),
    energy: oneOf(block.energy, ENERGY_VIEWS, 'signed', 'lesson.energy', problems),
    cards: readCards(block.cards, problems),
    camera: readCamera(block.camera, problems),
    jumpTo: null,
    frame: readFrame(block.frame, problems),
  };
  if (block.jumpTo !== undefined) {
    if (typeof block.jumpTo === 'number' && Number.isFinite(block.jumpTo) && block.jumpTo > 0) view.jumpTo = block.jumpTo;
    else problems.push({ field: 'lesson.jumpTo', code: 'seconds', args: {} });
  }
  // the named plot is always shown, whatever `cards` says
  if (view.cards && plot && !view.cards.includes(plot)) view.cards = [plot, ...view.cards];
  return { view, problems };
}

/** The step a lesson's jumpTo lands on: the first step at or after that time (fixed-step runs). */
export function jumpStep(jumpTo, h) {
  return Math.ceil(jumpTo / h - 1e-9);
}
