// English text of the Explain drawer (web/ui/explain.js) and of the "why the curves
// differ" line (web/ui/why.js).
export default {
  'explain.definition.title': 'This system',
  'explain.definition.label': 'The Lagrangian and constraints of this system',
  'explain.unknown': 'Unknown integrator.',
  'explain.equationsOf': 'Equations of {title}',
  'explain.update': 'Update',
  'explain.update.lagrangian': 'Discrete Lagrangian and update',
  'explain.update.gradient': 'Discrete gradient and update',
  'explain.whyDrifts': 'Why it drifts',
  'explain.whyConserves': 'Why it conserves what it conserves',
  'explain.source': 'Source: ',
  'explain.studies': 'Studies and lessons',
  // web/ui/why.js: '{title} is {nature}.', the nature built from the pieces below
  'explain.why.keeps.momenta': ', and its momenta hold to round-off',
  'explain.why.keeps.constraints': ', and its constraints hold to round-off',
  'explain.why.keeps.both': ', and its momenta and constraints hold to round-off',
  'explain.why.symplectic': 'symplectic: its energy error oscillates but stays bounded, with no drift{keeps}',
  'explain.why.symplecticReversible': 'symplectic and time-reversible: its energy error oscillates but stays bounded, with no drift{keeps}',
  'explain.why.energyExact': 'not symplectic, but it conserves the energy exactly (to round-off){keeps}',
  'explain.why.drifts': 'not symplectic: its energy error drifts{momenta}{projected}',
  'explain.why.momentaDrift': ', and so do its momenta',
  'explain.why.projected': '; its constraints hold only because it projects onto them after every step',
  'explain.why.single': '{title} is {nature}.',
  // the words of a baseline's title that name its projection, left out where nothing is projected (web/ui/run-title.js)
  'explain.title.projection': 'with projection',
  'explain.why.suggest': ' Compare it with {other} to see the difference.',
  'explain.why.bothSymplectic':
    'Both are symplectic: both energy errors stay bounded{momenta}. They differ in accuracy ({orders}); in a chaotic system the trajectories then part even though both are structure-preserving.',
  'explain.why.momentaExact': ' and momenta are exact',
  'explain.why.neither': 'Neither method is symplectic: both energy errors drift, at rates set by their orders ({orders}).',
  // two methods' orders in a sentence: different, or the same
  'explain.why.orders.differ': 'order {a} vs {b}',
  'explain.why.orders.same': 'both order {a}',
  'explain.why.differ': 'Why the curves differ: A (blue) is {a}. B (orange) is {b}.',
};
