// English of the teacher layer (web/sim/activities.js, web/ui/activity.js): the prediction
// card, the printable activity, and each preset's and lesson's question, choices, what to
// measure and answer (activity.<preset|lesson>.<id>.<field>).
export default {
  'activity.title': 'Predict first',
  'activity.reopen': 'Prediction and activity',
  'activity.embed': 'Ask for a prediction when a preset or lesson is chosen (predict=1)',
  'activity.play': 'Play to see',
  'activity.reveal': 'Reveal the answer',
  'activity.print': 'Print activity',
  'activity.print.title': 'A one-page activity for this lesson: set-up, prediction, what to measure, answer',
  'activity.close': 'Close the prediction',
  'activity.choices': 'Your prediction',
  'activity.chosen': 'Your prediction: {choice}.',
  'activity.right': 'Your prediction was right.',
  'activity.wrong': 'The run shows otherwise.',
  'activity.none': 'No prediction was made.',
  'activity.answerIs': 'Answer: {choice}.',
  'activity.held': 'The run waits for your prediction: press play to see.',
  'activity.choice.A': '{a} (A, blue)',
  'activity.choice.B': '{b} (B, orange)',
  'activity.choice.both': 'Both',
  'activity.choice.neither': 'Neither',

  'activity.sheet.kind.preset': 'vilab activity',
  'activity.sheet.kind.lesson': 'vilab lesson activity',
  'activity.sheet.name': 'Name: ____________________   Date: __________',
  'activity.sheet.setup': '1. Set-up',
  'activity.sheet.system': 'System',
  'activity.sheet.a': 'Integrator A (blue)',
  'activity.sheet.b': 'Integrator B (orange ghost)',
  'activity.sheet.noB': 'none',
  'activity.sheet.h': 'Time step h',
  'activity.sheet.speed': 'Speed',
  'activity.sheet.source': 'Source',
  'activity.sheet.link': 'Open this link (it sets up the run):',
  'activity.sheet.predict': '2. Predict (before pressing play)',
  'activity.sheet.tick': 'Tick one, and say why:',
  'activity.sheet.why': 'Why: ______________________________________________________________',
  'activity.sheet.measure': '3. Measure',
  'activity.sheet.record': 'Your measurements: ____________________________________________________',
  'activity.sheet.answer': '4. Answer (for checking afterwards)',
  'activity.sheet.footer': 'Made with vilab, the Variational Integrator Lab.',
  'activity.sheet.jump': ', starting at t = {t} s',
  'activity.sheet.menu.preset': 'Or open vilab ({url}) and choose “{title}” in the Preset menu.',
  'activity.sheet.menu.lesson': 'Or open vilab ({url}), press Studies and choose the lesson “{title}”.',

  // ---- presets
  'activity.preset.dsp-energy.question': 'Over a long run, whose energy error keeps growing?',
  'activity.preset.dsp-energy.measure':
    "On the energy plot (the largest error so far, log scale), read A's and B's error at two times far apart, e.g. t = 300 s and t = 1800 s. Which one grew between them, and by how much?",
  'activity.preset.dsp-energy.answer':
    'B. The midpoint rule (A) is variational: its energy error reaches a band within seconds and never leaves it. RK4 (B) starts far more accurate but is not symplectic, so its error rises steadily and in the end passes the band.',
  'activity.preset.dsp-chaos.question': 'Both methods keep the energy bounded. Will the two pendulums keep moving together?',
  'activity.preset.dsp-chaos.choice.together': 'Yes, they stay together',
  'activity.preset.dsp-chaos.choice.apart': 'No, they part',
  'activity.preset.dsp-chaos.measure':
    'Note the time when the orange ghost visibly leaves the blue pendulum. At that time, read both energy errors: are they still small?',
  'activity.preset.dsp-chaos.answer':
    'They part. The two methods differ by a small O(h) amount, and in a chaotic system small differences grow exponentially, so the ghost soon swings its own way. Yet both energy errors stay in their bands: being variational bounds the energy, not the trajectory.',
  'activity.preset.long-run-energy.question': 'Which method has the smaller energy error after ten minutes of motion?',
  'activity.preset.long-run-energy.measure':
    "On the energy plot, find the time when B's orange curve crosses A's blue band. Then read both errors at t = 600 s.",
  'activity.preset.long-run-energy.answer':
    "A. RK4 (B) is more accurate at first, but its error keeps rising while the midpoint rule's (A) stays in a flat band; the orange curve crosses the band after a few minutes and stays above it.",
  'activity.preset.dsp-energy-momentum.question': 'Which method keeps the energy to round-off (errors near 1e−15)?',
  'activity.preset.dsp-energy-momentum.measure':
    'On the log energy plot, read the size of each energy error after 60 s. Then look at J_z and the constraint residual of both.',
  'activity.preset.dsp-energy-momentum.answer':
    'A. The energy–momentum scheme (A) keeps the energy to round-off by construction; the midpoint rule (B) keeps it in a bounded O(h²) band. Both keep J_z and the rod lengths. The price of exact energy: the energy–momentum map is not symplectic.',
  'activity.preset.chain-whip.question': 'Both methods keep every link length. Whose energy error shows a steady trend?',
  'activity.preset.chain-whip.measure':
    'Read the constraint residual of A and B. Then read both energy errors after one minute and after five minutes: which changed in one direction?',
  'activity.preset.chain-whip.answer':
    "B. Both keep the links to round-off (RK4 is projected back onto them after every step). The midpoint rule's (A) energy error jumps during the whip and then stays bounded with no trend; RK4's (B), far smaller at first, drifts steadily in one direction.",
  'activity.preset.spherical-precession.question': 'Whose angular momentum J_z about the vertical stays exactly at its start?',
  'activity.preset.spherical-precession.measure':
    'On the momentum plot, read the relative change of J_z for A and B after 60 s, and again much later.',
  'activity.preset.spherical-precession.answer':
    "A. Rotation symmetry about the vertical makes J_z a conserved momentum, and the discrete Noether theorem keeps it exact (to round-off) for the midpoint rule. RK4's (B) J_z drifts slowly, as does its energy.",
  'activity.preset.pendulum-euler.question': "What will explicit Euler's pendulum (B) do?",
  'activity.preset.pendulum-euler.choice.keeps': 'Keep its swing',
  'activity.preset.pendulum-euler.choice.dies': 'Swing less and less',
  'activity.preset.pendulum-euler.choice.grows': 'Swing higher and higher',
  'activity.preset.pendulum-euler.measure':
    "Read B's energy error at t = 1 s and t = 5 s. Note when B goes over the top, and when and why its run is stopped. Compare A's energy error.",
  'activity.preset.pendulum-euler.answer':
    "It swings higher and higher. Explicit Euler adds energy at every step, so the swing grows until the pendulum goes over the top and spins ever faster, until the run is stopped. The midpoint rule's (A) energy error stays small and its swing keeps its amplitude.",
  'activity.preset.oscillator-phase.question': 'In the phase portrait (position against momentum), whose orbit spirals outward?',
  'activity.preset.oscillator-phase.measure':
    "On the phase portrait, compare each orbit after one turn and after 10 s. Read B's energy error at t = 10 s.",
  'activity.preset.oscillator-phase.answer':
    "B. The midpoint rule (A) is symplectic and conserves this quadratic energy exactly, so its orbit closes on itself; explicit Euler's (B) energy grows by a fixed factor at every step, so its orbit spirals outward.",
  'activity.preset.dzhanibekov.question': 'The body spins about its intermediate axis with a tiny wobble. What happens?',
  'activity.preset.dzhanibekov.choice.steady': 'It keeps spinning steadily',
  'activity.preset.dzhanibekov.choice.flips': 'It turns over, again and again, regularly',
  'activity.preset.dzhanibekov.choice.tumbles': 'It tumbles at random',
  'activity.preset.dzhanibekov.measure':
    'Time several flips with the clock (t in the corner) and find the time between flips. Watch Π on the momentum sphere during a flip.',
  'activity.preset.dzhanibekov.answer':
    'It turns over again and again, at regular intervals. Rotation about the intermediate axis is unstable: the tiny wobble grows, the body flips, and the motion repeats periodically (Π travels between the two unstable points on the momentum sphere), like the wing nut filmed on the ISS.',
  'activity.preset.major-axis-spin.question': 'The same body, spun about its axis of largest inertia with the same wobble. Will it flip?',
  'activity.preset.major-axis-spin.choice.steady': 'No, it keeps close to a steady spin',
  'activity.preset.major-axis-spin.choice.flips': 'Yes, it turns over again and again',
  'activity.preset.major-axis-spin.measure':
    'Watch Π on the momentum sphere: how far does it go from its start? Compare with the Dzhanibekov flip preset.',
  'activity.preset.major-axis-spin.answer':
    'No. Rotation about the axis of largest inertia is stable: the wobble stays small and Π circles close to its start on the momentum sphere.',
  'activity.preset.minor-axis-spin.question': 'Spun about its axis of smallest inertia with a small wobble: will this rigid body flip?',
  'activity.preset.minor-axis-spin.choice.steady': 'No, it keeps close to a steady spin',
  'activity.preset.minor-axis-spin.choice.flips': 'Yes, it turns over again and again',
  'activity.preset.minor-axis-spin.measure': 'Watch Π on the momentum sphere and the body for a minute: how large does the wobble get?',
  'activity.preset.minor-axis-spin.answer':
    'No. For a rigid body, rotation about the axis of smallest inertia is stable too; only the intermediate axis is unstable. (A flexible body would lose energy and end up spinning about the major axis.)',
  'activity.preset.tennis-racket.question':
    'A racket is tossed spinning about the axis in the plane of its face, across the handle. What else does it do?',
  'activity.preset.tennis-racket.choice.plain': 'Nothing: it just spins',
  'activity.preset.tennis-racket.choice.twist': 'It makes a half twist about the handle, again and again',
  'activity.preset.tennis-racket.measure': 'Count the half twists about the handle over 10 s and time the interval between them.',
  'activity.preset.tennis-racket.answer':
    'It makes a half twist about the handle on each flip. That axis is the intermediate axis of inertia, so the spin about it is unstable (the tennis racket theorem).',
  'activity.preset.symmetric-precession.question': 'No torque acts on this symmetric body. What does its symmetry axis do?',
  'activity.preset.symmetric-precession.choice.fixed': 'It stays fixed in space',
  'activity.preset.symmetric-precession.choice.cone': 'It turns steadily on a cone',
  'activity.preset.symmetric-precession.choice.flips': 'It flips over',
  'activity.preset.symmetric-precession.measure':
    'Time one turn of the symmetry axis around its cone and compare it with 2π I1/|Π| (read |Π| from the run).',
  'activity.preset.symmetric-precession.answer':
    "It turns steadily on a cone around the fixed angular momentum, at the rate |Π|/I1: torque-free precession, the motion of the Earth's free Euler wobble.",
  'activity.preset.heavy-top-nutation.question': "Released without precession, what does the top's axis do?",
  'activity.preset.heavy-top-nutation.choice.falls': 'It falls over',
  'activity.preset.heavy-top-nutation.choice.smooth': 'It circles the vertical smoothly',
  'activity.preset.heavy-top-nutation.choice.cusps': 'It dips and rises in cusps while it circles the vertical',
  'activity.preset.heavy-top-nutation.measure':
    'Watch the tip of the axis. Time one dip (nutation) and one full turn about the vertical (precession).',
  'activity.preset.heavy-top-nutation.answer':
    'It dips and rises in cusps (nutation) while it precesses about the vertical. Released at rest apart from its spin, the axis starts each dip from a standstill, which draws the cusps.',
  'activity.preset.cart-pendulum.question':
    'The cart recoils as the bob swings. Whose total horizontal momentum stays exactly at its start?',
  'activity.preset.cart-pendulum.measure': 'On the momentum plot, read the change of the horizontal momentum of A and B after 60 s.',
  'activity.preset.cart-pendulum.answer':
    "A. Sliding the whole system sideways changes nothing, so horizontal momentum is conserved; the discrete Noether theorem keeps it exact for the midpoint rule (A), and the centre of mass stays put. RK4's (B) momentum drifts.",
  'activity.preset.double-pendulum.question': 'A and B start from the same state. Will the two double pendulums keep moving together?',
  'activity.preset.double-pendulum.choice.together': 'Yes, they stay together',
  'activity.preset.double-pendulum.choice.apart': 'No, they part',
  'activity.preset.double-pendulum.measure':
    'Note the time when the two pendulums visibly part. Read both energy errors then: does either method lose the energy?',
  'activity.preset.double-pendulum.answer':
    'They part: released high, the double pendulum is chaotic, so the tiny difference between the two methods grows until the motions differ completely. Each energy still stays in its band.',
  'activity.preset.driven-damped-pendulum.question': 'The pendulum is driven and damped. Will its motion settle into a repeating rhythm?',
  'activity.preset.driven-damped-pendulum.choice.settles': 'Yes, it settles into a rhythm',
  'activity.preset.driven-damped-pendulum.choice.never': 'No, it never repeats',
  'activity.preset.driven-damped-pendulum.measure':
    'Watch the phase portrait over several drive periods. Note when the comparison run (B) parts from A.',
  'activity.preset.driven-damped-pendulum.answer':
    'It never settles: with these values the driven damped pendulum is chaotic. Energy is pumped in and dissipated, so it is not conserved, and the comparison run parts from A after a few drive periods.',
  'activity.preset.elastic-pendulum.question': 'Energy sloshes between the swing and the spring. Whose total energy error drifts?',
  'activity.preset.elastic-pendulum.measure':
    "Read both energy errors at two times far apart. Look at the trend, not the size: RK4's error may be the smaller one at first.",
  'activity.preset.elastic-pendulum.answer':
    "B. The midpoint rule's (A) total energy error stays in a thin O(h²) band however the energy moves between swing and stretch; RK4's (B), small at first, drifts steadily.",
  'activity.preset.fput.question': 'All the energy starts in the lowest mode of the chain. Where will it be much later?',
  'activity.preset.fput.choice.spreads': 'Shared equally by all the modes',
  'activity.preset.fput.choice.returns': 'In a few low modes, then back in the first',
  'activity.preset.fput.choice.stays': 'All in the first mode, always',
  'activity.preset.fput.measure':
    "On the mode energies card, follow mode 1's share as time passes. Find when it comes back close to where it started.",
  'activity.preset.fput.answer':
    'It spreads only into a few low modes and then comes back almost entirely to mode 1: the Fermi–Pasta–Ulam–Tsingou recurrence, instead of the equal sharing (equipartition) the experimenters expected.',
  'activity.preset.henon-heiles.question': 'At this energy, will the orbits of A and B stay together?',
  'activity.preset.henon-heiles.choice.together': 'Yes, they stay together',
  'activity.preset.henon-heiles.choice.apart': 'No, they part',
  'activity.preset.henon-heiles.measure': 'Note when the two orbits part. Read both energy errors at that time.',
  'activity.preset.henon-heiles.answer':
    'They part: at this energy most orbits are chaotic, so two integrators (or two nearby starts) separate. The energy still stays in a thin band.',
  'activity.preset.kapitza.question': 'The pendulum starts near upside down, its pivot shaken fast up and down. What happens?',
  'activity.preset.kapitza.choice.falls': 'It falls down',
  'activity.preset.kapitza.choice.stays': 'It stays up, rocking slowly about the top',
  'activity.preset.kapitza.measure':
    'Watch the angle on the phase portrait for a minute. Then lower the shaking frequency w to 30 and run again.',
  'activity.preset.kapitza.answer':
    'It stays up: fast enough shaking makes the inverted position stable, and the bob rocks slowly about it. With w = 30 the shaking is too weak and it falls. The energy is not conserved: L depends on time.',
  'activity.preset.kepler.question': "Over many orbits, what does the midpoint rule's (A) orbit do?",
  'activity.preset.kepler.choice.decays': 'It spirals inward',
  'activity.preset.kepler.choice.turns': 'It keeps its shape but slowly turns',
  'activity.preset.kepler.choice.grows': 'It spirals outward',
  'activity.preset.kepler.measure':
    'Note the direction of the closest point (perihelion) after each orbit. Read the change of Lz for A and B.',
  'activity.preset.kepler.answer':
    "It keeps its shape and slowly turns: the perihelion precesses (an O(h²) phase error) while the orbit neither decays nor grows and Lz stays exact. RK4's (B) Lz and energy drift.",
  'activity.preset.newmark-vs-rk4.question': 'At this coarse step, whose energy will decay as if there were friction?',
  'activity.preset.newmark-vs-rk4.measure': 'Read the energy of A and B, relative to the start, at t = 100 s, 200 s and 300 s.',
  'activity.preset.newmark-vs-rk4.answer':
    "B. RK4's energy decays steadily, as if the pendulum had friction. Variational Newmark (A) makes a larger error per step, yet its energy only oscillates in a band and comes back.",
  'activity.preset.relativistic-particle.question':
    'The momentum p = q̇/√(1 − |q̇|²) can grow without bound. As it grows past 1, does the speed |q̇| reach 1?',
  'activity.preset.relativistic-particle.choice.reaches': 'Yes, the speed reaches 1',
  'activity.preset.relativistic-particle.choice.below': 'No, the speed stays below 1',
  'activity.preset.relativistic-particle.measure':
    'Read the largest momentum and the largest speed on the plot, and the energy error band.',
  'activity.preset.relativistic-particle.answer':
    'The speed stays below 1 while the momentum passes 1.5: every step recovers q̇ from p with a damped Newton that halves its step rather than leave |q̇| < 1, and the energy error stays in a band.',
  'activity.preset.quartic-kinetic.question': 'L is symmetric under rotations. Which integrator keeps the angular momentum Lz?',
  'activity.preset.quartic-kinetic.measure': 'Read the drift of Lz for A and for B on the momentum plot.',
  'activity.preset.quartic-kinetic.answer':
    'The midpoint rule (A) keeps Lz to rounding, whatever the |q̇|⁴ term does to the momentum; RK4 (B) lets it drift.',
  'activity.preset.rotating-hoop.question': 'The hoop spins faster than √(g/R). Where does the bead oscillate?',
  'activity.preset.rotating-hoop.choice.bottom': 'About the bottom of the hoop',
  'activity.preset.rotating-hoop.choice.tilted': 'About a point up the side',
  'activity.preset.rotating-hoop.choice.top': 'About the top of the hoop',
  'activity.preset.rotating-hoop.measure': 'Read the angle the bead oscillates about and compare it with arccos(g/(Rω²)).',
  'activity.preset.rotating-hoop.answer':
    'About a point up the side. Above ω = √(g/R) the bottom is unstable: the bead leaves it and oscillates about the tilted equilibrium cos θ* = g/(Rω²).',
  'activity.preset.swinging-atwood.question':
    'A light swinging mass hangs against a much heavier counterweight. What does the counterweight do?',
  'activity.preset.swinging-atwood.choice.falls': 'It falls and pulls the light mass up',
  'activity.preset.swinging-atwood.choice.held': 'It is held up by the swing',
  'activity.preset.swinging-atwood.measure': "Watch the counterweight's height and the path of the light mass for a minute.",
  'activity.preset.swinging-atwood.answer':
    "It is held up: the swing's centrifugal pull on the rope lifts the counterweight, while the light mass loops around the pulley and back.",

  // ---- lessons
  'activity.lesson.mw-newmark-rk4.question': 'At the coarse step h = 0.3 s, whose energy will decay over 300 s?',
  'activity.lesson.mw-newmark-rk4.measure': "Read each curve's energy at the end of the figure, relative to the start.",
  'activity.lesson.mw-newmark-rk4.answer':
    "B. RK4's energy falls and never returns, as if there were friction; variational Newmark (A) oscillates in a band and comes back.",
  'activity.lesson.mw-string-energy.question':
    'The plucked string runs 10⁵ steps at the same h. Whose energy drifts out of the window it filled in the first tenth of the run?',
  'activity.lesson.mw-string-energy.measure':
    'Read the two energy window ratios printed under the figure (the whole run’s max − min of E − E₀ over its first tenth’s), and where each curve ends.',
  'activity.lesson.mw-string-energy.answer':
    'B. RK4’s energy sinks steadily, so its window keeps widening and its ratio is several times 1; the leapfrog’s (A) oscillates in the band it fills early, ratio near 1.',
  'activity.lesson.multisymplectic-law.question':
    'On the nonlinear sine-Gordon breather, which methods keep the discrete multisymplectic conservation law to rounding?',
  'activity.lesson.multisymplectic-law.choice.box': 'Only the box scheme',
  'activity.lesson.multisymplectic-law.choice.variational': 'The box scheme and the leapfrog',
  'activity.lesson.multisymplectic-law.choice.all': 'All three, RK4 too',
  'activity.lesson.multisymplectic-law.measure':
    'Read the three curves on the log axis and the largest residuals printed under the figure.',
  'activity.lesson.multisymplectic-law.answer':
    'The box scheme and the leapfrog: each is the discrete Euler–Lagrange equation of a discrete density (midpoint, trapezoid), so each keeps its own law at rounding, on a nonlinear density too. RK4 is no such equation: its residual stays orders of magnitude above rounding.',
  'activity.lesson.dsp-fluctuation.question': 'Halve the time step h: by how much does the largest energy fluctuation shrink?',
  'activity.lesson.dsp-fluctuation.choice.x2': 'By a factor of 2',
  'activity.lesson.dsp-fluctuation.choice.x4': 'By a factor of 4',
  'activity.lesson.dsp-fluctuation.choice.x16': 'By a factor of 16',
  'activity.lesson.dsp-fluctuation.measure': 'Read the ratios printed under the figure and the slope of the line on log–log axes.',
  'activity.lesson.dsp-fluctuation.answer':
    'By about 4: the method is of second order, so the fluctuation is O(h²), a line of slope 2, with no drift.',
  'activity.lesson.dsp-jz.question': 'Whose angular momentum J_z about the vertical stays at its start to round-off?',
  'activity.lesson.dsp-jz.measure': "Read the largest change of J_z over the run for A and B from the figure's numbers.",
  'activity.lesson.dsp-jz.answer':
    "A. The symplectic-momentum scheme in generalized coordinates keeps J_z to round-off (discrete Noether); RK4's (B) drifts.",
  'activity.lesson.dsp-penalty.question': 'Make the penalty stiffness μ ten times larger: what happens to the constraint error?',
  'activity.lesson.dsp-penalty.choice.same': 'It stays the same',
  'activity.lesson.dsp-penalty.choice.x10': 'It gets about ten times smaller',
  'activity.lesson.dsp-penalty.choice.x100': 'It gets about a hundred times smaller',
  'activity.lesson.dsp-penalty.measure': 'Read the slope of the line of constraint error against μ on log–log axes.',
  'activity.lesson.dsp-penalty.answer': 'About ten times smaller: the constraint error is proportional to 1/μ, a line of slope −1.',
  'activity.lesson.lu-clock.question': 'After many steps of size h, at which time does the midpoint oscillator match the exact motion?',
  'activity.lesson.lu-clock.choice.nh': 'At n·h, the time it has stepped',
  'activity.lesson.lu-clock.choice.ndt': 'At n·Δt, a slightly shorter time of its own',
  'activity.lesson.lu-clock.measure': 'Compare the two error curves of the figure: against the exact flow at n·h and at n·Δt.',
  'activity.lesson.lu-clock.answer':
    'At n·Δt, with Δt = (2/ω) arctan(ωh/2), a little shorter than h: the midpoint rule runs the exact flow on its own clock, so the error at n·Δt stays at round-off while the error at n·h grows.',
  'activity.lesson.floquet.question':
    'Shaken at ω = 30, below Kapitza’s threshold a²ω² = 2gl, where do the two Floquet multipliers of the inverted pendulum lie?',
  'activity.lesson.floquet.choice.circle': 'Both on the unit circle: it stays up',
  'activity.lesson.floquet.choice.outside': 'One outside the unit circle: it falls',
  'activity.lesson.floquet.measure': 'Read the two curves of the figure at ω = 30, and the measured line under it.',
  'activity.lesson.floquet.answer':
    'One outside: the monodromy matrix has determinant 1, so its multipliers are μ and 1/μ; at ω = 30 the shaking is too slow to hold the pendulum up, |μ| > 1 and a small tilt grows every period.',
  'activity.lesson.wm-amplitude.question': 'Halve the time step h: by how much does the amplitude of the energy oscillation shrink?',
  'activity.lesson.wm-amplitude.choice.x2': 'By a factor of 2',
  'activity.lesson.wm-amplitude.choice.x4': 'By a factor of 4',
  'activity.lesson.wm-amplitude.choice.x16': 'By a factor of 16',
  'activity.lesson.wm-amplitude.measure':
    'Read the slope of the amplitudes against h on log–log axes, for the heavy top and the double spherical pendulum.',
  'activity.lesson.wm-amplitude.answer': 'By about 4: the amplitude is proportional to h², a line of slope 2.',

  // fields (scenes/fields)
  'activity.preset.plucked-string.question': 'Whose energy error will keep growing in one direction, never coming back?',
  'activity.preset.plucked-string.measure':
    'On the energy card, follow the relative energy error of A and B as the run goes on. Note whether each one comes back towards zero.',
  'activity.preset.plucked-string.answer':
    "B. RK4's energy falls steadily: its error is small but only ever grows, because RK4 damps the short waves of the pluck. The leapfrog's (A) error is larger at first but stays in a band and keeps coming back.",
  'activity.preset.stiff-string.question':
    'At this step, twice the stiff segment’s stability limit for the leapfrog, which run keeps going?',
  'activity.preset.stiff-string.measure':
    'Read the time at which the page stops B (the legend and the energy card mark it). Read the energy error band of A after a few seconds.',
  'activity.preset.stiff-string.answer':
    'A. The leapfrog (B) takes one step everywhere, too long for the stiff cells, and blows up in its first steps. The asynchronous variational integrator (A) takes smaller steps only in the stiff segment, and its energy stays in a band.',
  'activity.preset.klein-gordon.question': 'A bump is released at rest. With the mass term, what does it become?',
  'activity.preset.klein-gordon.choice.copies': 'Two copies of itself travelling apart, unchanged',
  'activity.preset.klein-gordon.choice.ripples': 'A train of ripples that spreads out',
  'activity.preset.klein-gordon.measure':
    'Watch the space–time image: count the stripes of alternating colour. Then set the mass to 0 and run again.',
  'activity.preset.klein-gordon.answer':
    'Ripples: with a mass term waves of different lengths travel at different speeds (ω² = k² + m²), so the bump disperses and u changes sign along the string. With m = 0 it splits into two copies that keep their shape.',
  'activity.preset.sine-gordon-kink.question': 'As the kink travels across the grid, what happens to it?',
  'activity.preset.sine-gordon-kink.choice.keeps': 'It keeps its shape and its speed',
  'activity.preset.sine-gordon-kink.choice.spreads': 'It spreads out',
  'activity.preset.sine-gordon-kink.choice.slows': 'It slows down',
  'activity.preset.sine-gordon-kink.measure':
    'Read the kink’s speed on the kink card twice, early and late in the run, and compare it with the exact speed.',
  'activity.preset.sine-gordon-kink.answer':
    'It keeps its shape and its speed: the kink is an exact travelling solution, and the box scheme carries it with the speed of the exact one to better than a part in a thousand.',
  'activity.preset.kink-antikink.question': 'A kink and an antikink run into each other. What happens when they meet?',
  'activity.preset.kink-antikink.choice.annihilate': 'They destroy each other and the string is left ringing',
  'activity.preset.kink-antikink.choice.bounce': 'They bounce back',
  'activity.preset.kink-antikink.choice.pass': 'They pass through each other and come out unchanged',
  'activity.preset.kink-antikink.measure':
    'On the kink card, follow the positions of the kink (+) and the antikink (−) before and after they meet, and their speeds afterwards.',
  'activity.preset.kink-antikink.answer':
    'They pass through each other: each comes out on the other side with its shape and its speed, only shifted in time. Sine-Gordon is integrable; its kinks are solitons.',
  'activity.preset.breather.question': 'A kink and an antikink bound together: what does the breather do?',
  'activity.preset.breather.choice.apart': 'It flies apart into a kink and an antikink',
  'activity.preset.breather.choice.oscillates': 'It oscillates in place',
  'activity.preset.breather.choice.decays': 'It dies out',
  'activity.preset.breather.measure':
    'Watch the space–time image and the string: note where the motion is, and whether its amplitude falls.',
  'activity.preset.breather.answer':
    'It oscillates in place: the bound pair breathes in and out at the centre without travelling or dying out, and the ends of the string stay at rest.',
  'activity.preset.phi4-kink.question': 'The φ⁴ kink joins the two vacua u = −1 and u = 1. How does it move?',
  'activity.preset.phi4-kink.choice.constant': 'At a constant speed',
  'activity.preset.phi4-kink.choice.slows': 'Slower and slower',
  'activity.preset.phi4-kink.choice.turns': 'It turns back',
  'activity.preset.phi4-kink.measure': 'Read the kink’s speed on the kink card early and late in the run.',
  'activity.preset.phi4-kink.answer':
    'At a constant speed, the speed it started with: with no forcing and a uniform string nothing pushes the kink, and the leapfrog keeps its speed.',
  'activity.preset.nonlinear-string.question': 'At this large amplitude, what does the box scheme’s energy error do?',
  'activity.preset.nonlinear-string.choice.drifts': 'It drifts further and further',
  'activity.preset.nonlinear-string.choice.band': 'It stays in a band',
  'activity.preset.nonlinear-string.measure':
    'On the energy card, compare the largest energy error in the first and in the second half of the run.',
  'activity.preset.nonlinear-string.answer':
    'It stays in a band: the box scheme is multisymplectic, so even for this nonlinear density the energy error oscillates and does not drift.',
  'activity.preset.whirling-string.question':
    'Over the run, what happens to the string’s angular momentum about its axis, the rotation’s charge J_rotation?',
  'activity.preset.whirling-string.choice.drifts': 'It drifts slowly',
  'activity.preset.whirling-string.choice.exact': 'It stays the same, to rounding',
  'activity.preset.whirling-string.measure': 'On the momentum card, read the change of J_rotation from its start as the run goes on.',
  'activity.preset.whirling-string.answer':
    'It stays the same to rounding: turning both displacements about the axis leaves the density unchanged, and the box scheme, a variational integrator, keeps the Noether charge of that symmetry exactly.',
  // mechanisms (scenes/mechanisms)
  'activity.preset.compound-double-pendulum.question': 'Over the run, what happens to the vertical angular momentum J_z?',
  'activity.preset.compound-double-pendulum.choice.drifts': 'It drifts slowly',
  'activity.preset.compound-double-pendulum.choice.exact': 'It stays the same, to rounding',
  'activity.preset.compound-double-pendulum.measure': 'On the momentum card, read the change of J_z from its start as the run goes on.',
  'activity.preset.compound-double-pendulum.answer':
    'It stays the same to rounding: the method is variational and the system symmetric about the vertical, so the discrete Noether theorem keeps J_z exactly.',
  'activity.preset.gyroscope.question': 'The gimbal rings are set turning. Does the fast rotor’s spin axis turn with them?',
  'activity.preset.gyroscope.choice.turns': 'Yes, it turns with the rings',
  'activity.preset.gyroscope.choice.holds': 'No, it holds its direction in space',
  'activity.preset.gyroscope.measure': 'Watch the rotor’s axis against the rings. Then set the rotor’s spin to 0 and run again.',
  'activity.preset.gyroscope.answer':
    'It holds its direction: the spinning rotor resists turning (gyroscopic stiffness), so its axis hardly moves while the rings turn. Without the spin it turns with the rings.',
  'activity.preset.gravity-gradient-satellite.question':
    'The satellite turns once per orbit with its long axis toward the Earth, and is nudged in pitch. What does the long axis do?',
  'activity.preset.gravity-gradient-satellite.choice.tumbles': 'It tumbles away from the Earth',
  'activity.preset.gravity-gradient-satellite.choice.rocks': 'It rocks to and fro about the Earth direction',
  'activity.preset.gravity-gradient-satellite.choice.aligns': 'It settles back and stays still',
  'activity.preset.gravity-gradient-satellite.measure':
    'Watch the long axis against the direction to the Earth and count its swings in one orbit.',
  'activity.preset.gravity-gradient-satellite.answer':
    'It rocks to and fro about the Earth direction, a little slower than once per orbit: the gravity-gradient torque pulls the long axis back, and nothing damps the swing.',
  'activity.preset.lagrange-top.question': 'The top spins fast and precesses. What does the tilt of its axis do?',
  'activity.preset.lagrange-top.choice.fixed': 'It stays fixed',
  'activity.preset.lagrange-top.choice.nods': 'It nods up and down (nutation)',
  'activity.preset.lagrange-top.choice.falls': 'It falls over',
  'activity.preset.lagrange-top.measure': 'Watch the axis from the side. Note the largest and the smallest tilt, and how often it nods.',
  'activity.preset.lagrange-top.answer':
    'It nods up and down between two tilts while it goes round: nutation on top of the precession. The top does not fall.',
  'activity.preset.middle-axis.question': 'The T-handle is spun about its crossbar, its middle axis. What happens?',
  'activity.preset.middle-axis.choice.steady': 'It keeps spinning steadily',
  'activity.preset.middle-axis.choice.flips': 'It flips over again and again',
  'activity.preset.middle-axis.measure': 'Count the flips in the first half minute. Then spin it about another axis and compare.',
  'activity.preset.middle-axis.answer':
    'It flips over again and again (the Dzhanibekov effect): a spin about the middle principal axis is unstable. About the largest or smallest axis it spins steadily.',
  'activity.preset.physical-pendulum.question': 'The plate swings and spins about its long axis. Does its spin stay the same?',
  'activity.preset.physical-pendulum.choice.same': 'Yes, the spin stays the same',
  'activity.preset.physical-pendulum.choice.exchange': 'No, swing and spin trade energy',
  'activity.preset.physical-pendulum.measure':
    'Watch the plate spin as it swings: note when it spins fast and when it slows or turns back.',
  'activity.preset.physical-pendulum.answer':
    'Swing and spin trade energy: the spin speeds up, slows down and even reverses as the plate swings, while the total energy stays in a band.',
};
