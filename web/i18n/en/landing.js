// English text of landing on a far step (web/page/landing.js, web/ui/landing.js,
// web/page/link.js): the progress line, its Cancel, and a landing refused for its length.
export default {
  'landing.going': 'Going to {goal}',
  'landing.goal.step': 'step {step}',
  'landing.goal.time': 't = {t} s',
  'landing.progress': '{head}: step {step}, {pct} done, about {left} left.',
  'landing.barLabel': 'Progress of the landing',
  'landing.cancel': 'Cancel',
  'landing.duration.s': '{n} s',
  'landing.duration.min': '{n} min',
  'landing.duration.h': '{n} h',
  'landing.duration.unknown': 'an unknown time',
  'landing.link': "Going to the link's step {step}",
  'landing.lesson': 'Going to the lesson’s t = {t} s (step {step})',
  'landing.compare': 'Bringing the comparison to step {step}',
  'landing.external': '{engine} catching up to step {step}',
  'landing.steps': 'Taking {n} steps',
  'landing.cancelled': 'Stopped at step {step} (cancelled before step {goal}); the run is paused there.',
  'landing.stopped': 'The run stopped at step {step} on its way to step {goal}.',
  'landing.tooLong.before': "This link's ",
  'landing.tooLong.kept':
    ' asks for step {step}: at this computer’s measured speed that would take about {estimate} of computing (the bound is {bound}). The link was not opened; the run shown is kept.',
  'landing.tooLong.start':
    ' asks for step {step}: at this computer’s measured speed that would take about {estimate} of computing (the bound is {bound}). The run opens at step 0 instead.',
  'landing.tooLong.lesson':
    'This lesson’s jump to t = {t} s asks for step {step}: at this computer’s measured speed that would take about {estimate} of computing (the bound is {bound}). The run stays where it is, paused.',
  'landing.tooLongSteps':
    'Taking {n} steps would take about {estimate} at this computer’s measured speed (the bound is {bound}); not started.',
};
