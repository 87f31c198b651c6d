// English text of the Studies drawer (web/ui/studies.js), fetched with it (i18n loadLaterWords);
// its button and title, in the page's markup, are in page.js.
export default {
  'studies.intro':
    'Each study runs many simulations at once, off the page, on {cores} cores. It uses the run as it is set up now (its start, its h, A and B).',
  'studies.run': 'Run',
  'studies.cancel': 'Cancel',
  'studies.progress': 'Progress of the study',
  'studies.running': 'Running…',
  'studies.done': 'Done.',
  'studies.cancelled': 'Cancelled.',
  'studies.failed': 'The study stopped: {message}',
  'studies.axis.time': 'time t (s)',
  'studies.axis.h': 'time step h (s)',
  'studies.loop.title': 'A loop of starts: is phase-space area kept?',
  'studies.loop.text':
    'Hundreds of starts on a small closed loop around where the run is when you press Run move together. The integral ∮ p·dq around the loop (its area, for one degree of freedom) is kept exactly by the true motion and by every symplectic method; other methods change it. The plot shows its relative change over time.',
  'studies.loop.rigid':
    'Not for rigid bodies here: their state (a rotation and the body angular momentum) is not a pair of positions and momenta.',
  'studies.loop.points': 'Points on the loop',
  'studies.loop.steps': 'Steps',
  'studies.loop.axis': 'relative change of ∮p·dq',
  'studies.loop.col.points': 'points at the end',
  'studies.loop.col.change': 'relative change at the end',
  'studies.loop.col.action0': '∮p·dq at the start',
  'studies.loop.col.action': '∮p·dq at the end',
  'studies.loop.unresolved':
    'From t = {t} s the loop had stretched too far for {n} points to resolve it (chaos stretches it exponentially): its ∮p·dq is no longer measured. Try fewer steps.',
  'studies.loop.shape.text':
    'The loop itself, in a plane of two of the run’s variables: where it started (grey, dashed) and where each method carried it. It may stretch and fold; for one degree of freedom the area it encloses is ∮p·dq (in position and momentum), which a symplectic method keeps.',
  'studies.loop.shape.x': 'Horizontal',
  'studies.loop.shape.y': 'Vertical',
  'studies.loop.shape.time': 'Loop at t = {t} s',
  'studies.loop.shape.start': 'start',
  'studies.convergence.title': 'Order of convergence',
  'studies.loop.centre.state':
    'The loop is centred on the state at t = {t} s, where the run was when the study started; its time counts from there.',
  'studies.loop.centre.start':
    'The run was at t = {t} s, but this system’s state cannot be restarted from there (its time origin matters): the loop is centred on the start.',
  'studies.loop.centre.origin': 'The loop is centred on the start of the run.',
  'studies.convergence.text':
    'The same start is run to T = {T} s with h = {h0} s, then h/2, … down to {hmin} s, and compared with the exact solution (oscillator, pendulum, free rigid body) or a much finer run of a sixth-order method. On log–log axes the error falls on a line whose slope is the order of the method.',
  'studies.convergence.axis': 'error at T',
  'studies.convergence.col.order': 'fitted order (slope)',
  'studies.convergence.col.claimed': 'order of the method',
  'studies.poincare.title': 'Poincaré section: regular and chaotic orbits',
  'studies.poincare.text':
    'Orbits with the energy of this run (E = {E}) are followed, and a dot is drawn each time {x} crosses 0 going up. A regular orbit draws a closed curve; a chaotic one scatters its dots over a region. Run adds eight orbits; click the section to add an orbit starting there.',
  'studies.poincare.label': 'Poincaré section: {y} across, its momentum up',
  'studies.poincare.outside': 'No orbit of this energy starts there.',
  'studies.poincare.count': '{n} orbits on the section.',
};
