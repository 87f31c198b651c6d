// The teacher layer's registry: for each preset and each lesson, a prediction to make
// before the run plays (the question, its choices, which one the run shows) and what to
// measure, keyed by the preset's or lesson's id, so a new preset is one entry here and
// its words in web/i18n/<lang>/activities.js:
//   activity.<kind>.<id>.question   the prediction asked before play
//   activity.<kind>.<id>.measure    what to read off the run (the printable sheet)
//   activity.<kind>.<id>.answer     what the run shows, revealed after play
//   activity.<kind>.<id>.choice.<c> a choice of its own words
// kind is 'preset' or 'lesson'. A choice 'A', 'B', 'both' or 'neither' is worded with the
// integrators the preset or lesson sets up (their registry titles), so the words follow
// the data. The set-up printed with an activity (system, integrators, h, speed, link) is
// read from the preset or lesson itself, never written here.

/** Choices worded from the run's integrators (activity.choice.<c>). */
export const RUN_CHOICES = ['A', 'B', 'both', 'neither'];
/** The fields every activity has in each language. */
export const ACTIVITY_FIELDS = ['question', 'measure', 'answer'];

const AB = RUN_CHOICES;

export const ACTIVITIES = {
  preset: {
    'dsp-energy': { choices: AB, answer: 'B' },
    'dsp-chaos': { choices: ['together', 'apart'], answer: 'apart' },
    'long-run-energy': { choices: ['A', 'B'], answer: 'A' },
    'dsp-energy-momentum': { choices: AB, answer: 'A' },
    'chain-whip': { choices: AB, answer: 'B' },
    'spherical-precession': { choices: AB, answer: 'A' },
    'pendulum-euler': { choices: ['keeps', 'dies', 'grows'], answer: 'grows' },
    'oscillator-phase': { choices: AB, answer: 'B' },
    dzhanibekov: { choices: ['steady', 'flips', 'tumbles'], answer: 'flips' },
    'major-axis-spin': { choices: ['steady', 'flips'], answer: 'steady' },
    'minor-axis-spin': { choices: ['steady', 'flips'], answer: 'steady' },
    'tennis-racket': { choices: ['plain', 'twist'], answer: 'twist' },
    'symmetric-precession': { choices: ['fixed', 'cone', 'flips'], answer: 'cone' },
    'heavy-top-nutation': { choices: ['falls', 'smooth', 'cusps'], answer: 'cusps' },
    'cart-pendulum': { choices: AB, answer: 'A' },
    'double-pendulum': { choices: ['together', 'apart'], answer: 'apart' },
    'driven-damped-pendulum': { choices: ['settles', 'never'], answer: 'never' },
    'elastic-pendulum': { choices: AB, answer: 'B' },
    fput: { choices: ['spreads', 'returns', 'stays'], answer: 'returns' },
    'henon-heiles': { choices: ['together', 'apart'], answer: 'apart' },
    kapitza: { choices: ['falls', 'stays'], answer: 'stays' },
    kepler: { choices: ['decays', 'turns', 'grows'], answer: 'turns' },
    'newmark-vs-rk4': { choices: AB, answer: 'B' },
    'quartic-kinetic': { choices: AB, answer: 'A' },
    'relativistic-particle': { choices: ['reaches', 'below'], answer: 'below' },
    'rotating-hoop': { choices: ['bottom', 'tilted', 'top'], answer: 'tilted' },
    'swinging-atwood': { choices: ['falls', 'held'], answer: 'held' },
    // fields (scenes/fields)
    'plucked-string': { choices: AB, answer: 'B' },
    'stiff-string': { choices: AB, answer: 'A' },
    'klein-gordon': { choices: ['copies', 'ripples'], answer: 'ripples' },
    'sine-gordon-kink': { choices: ['keeps', 'spreads', 'slows'], answer: 'keeps' },
    'kink-antikink': { choices: ['annihilate', 'bounce', 'pass'], answer: 'pass' },
    breather: { choices: ['apart', 'oscillates', 'decays'], answer: 'oscillates' },
    'phi4-kink': { choices: ['constant', 'slows', 'turns'], answer: 'constant' },
    'nonlinear-string': { choices: ['drifts', 'band'], answer: 'band' },
    'whirling-string': { choices: ['drifts', 'exact'], answer: 'exact' },
    // mechanisms (scenes/mechanisms)
    'compound-double-pendulum': { choices: ['drifts', 'exact'], answer: 'exact' },
    gyroscope: { choices: ['turns', 'holds'], answer: 'holds' },
    'gravity-gradient-satellite': { choices: ['tumbles', 'rocks', 'aligns'], answer: 'rocks' },
    'lagrange-top': { choices: ['fixed', 'nods', 'falls'], answer: 'nods' },
    'middle-axis': { choices: ['steady', 'flips'], answer: 'flips' },
    'physical-pendulum': { choices: ['same', 'exchange'], answer: 'exchange' },
  },
  lesson: {
    'mw-newmark-rk4': { choices: AB, answer: 'B' },
    'mw-string-energy': { choices: AB, answer: 'B' },
    'multisymplectic-law': { choices: ['box', 'variational', 'all'], answer: 'variational' },
    'dsp-fluctuation': { choices: ['x2', 'x4', 'x16'], answer: 'x4' },
    'dsp-jz': { choices: AB, answer: 'A' },
    'dsp-penalty': { choices: ['same', 'x10', 'x100'], answer: 'x10' },
    'lu-clock': { choices: ['nh', 'ndt'], answer: 'ndt' },
    floquet: { choices: ['circle', 'outside'], answer: 'outside' },
    'wm-amplitude': { choices: ['x2', 'x4', 'x16'], answer: 'x4' },
  },
};

/** The activity of a preset or lesson (kind 'preset' | 'lesson'), or null. */
export function activityFor(kind, id) {
  const entry = ACTIVITIES[kind]?.[id];
  return entry ? { kind, id, ...entry } : null;
}

/** The catalogue keys an activity's words need (its fields and its own choices). */
export function activityKeys(kind, id) {
  const entry = ACTIVITIES[kind]?.[id];
  if (!entry) return [];
  const keys = ACTIVITY_FIELDS.map((f) => `activity.${kind}.${id}.${f}`);
  for (const c of entry.choices) if (!RUN_CHOICES.includes(c)) keys.push(`activity.${kind}.${id}.choice.${c}`);
  return keys;
}

/** The catalogue key of a choice's words. */
export const choiceKey = (kind, id, choice) =>
  RUN_CHOICES.includes(choice) ? `activity.choice.${choice}` : `activity.${kind}.${id}.choice.${choice}`;
