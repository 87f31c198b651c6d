// The registry of studies and lessons: one place for what the page says about them
// (title, caption, source, what to see, docs with LaTeX) and for what they compute.
// The Studies drawer lists and runs the lessons, the Explain drawer prints their docs,
// and the API tests run the same jobs through runLesson(); nothing switches on an id.
//
// A lesson sets up the page (`scenario` and `compare`, or the `preset` it names) and
// computes its figure as independent jobs (`jobs(scenario)` → [task, args] for
// web/sim/study-worker.js, one wasm run each, so a sweep spreads over the worker pool),
// then `figure(results)` → { plot: { x, y, logX, logY }, curves: [{ label, x, y }],
// measured: { … numbers the caption and the tests quote }, percent: [the measured numbers that
// are fractions, printed as percentages] }.
import { fittedOrder } from './studies.js';
import { midpointClockStep } from './exact.js';
import { floquetSweep, stepAngles } from './floquet.js';

// ---- measurements (worker tasks)

/** Largest history ring a measurement reads in one go; longer runs are read in chunks. */
const CHUNK = 1 << 16;

/**
 * One run of `scenario` to time T, every step read from the recorded history:
 * { t, energy, momentum, constraint } sampled at ≤ `samples` + 1 times, and over every
 * step maxEnergy = max |E − E₀|, energyAmplitude = (max E − min E)/2, maxMomentum =
 * max |J − J₀| (first momentum column), maxConstraint = max |g|; earlyWindow = max E − min E
 * over steps 0 … ⌊n/10⌋, the window a bounded energy error fills early (the energy window
 * ratio is 2·energyAmplitude/earlyWindow).
 */
export function measureRun(lab, { scenario, T, samples = 400 }, progress) {
  const sim = lab.simulate(scenario, { historyCapacity: CHUNK + 1 });
  try {
    const h = sim.scenario().h;
    const n = Math.round(T / h);
    const every = Math.max(1, Math.floor(n / samples));
    const tenth = Math.floor(n / 10);
    const out = { t: [], energy: [], momentum: [], constraint: [] };
    let E0 = null;
    let early = NaN;
    let J0 = null;
    let [lo, hi, maxE, maxJ, maxC] = [Infinity, -Infinity, 0, 0, 0];
    let read = 0;
    const take = () => {
      const r = sim.history.read(read);
      const J = r.momentum[0];
      for (let i = 0; i < r.count; i++) {
        const e = r.energy[i];
        E0 ??= e;
        lo = Math.min(lo, e);
        hi = Math.max(hi, e);
        if (r.start + i === tenth) early = hi - lo;
        maxE = Math.max(maxE, Math.abs(e - E0));
        maxC = Math.max(maxC, Math.abs(r.constraint[i]));
        if (J) {
          J0 ??= J[i];
          maxJ = Math.max(maxJ, Math.abs(J[i] - J0));
        }
        if ((r.start + i) % every === 0) {
          out.t.push(r.t[i]);
          out.energy.push(e);
          out.momentum.push(J ? J[i] : NaN);
          out.constraint.push(r.constraint[i]);
        }
      }
      read = r.start + r.count;
    };
    take();
    while (sim.step < n) {
      sim.advance(Math.min(CHUNK, n - sim.step));
      take();
      progress?.(sim.step / n);
    }
    return {
      ...out,
      h,
      steps: n,
      E0,
      J0,
      maxEnergy: maxE,
      energyAmplitude: (hi - lo) / 2,
      earlyWindow: early,
      maxMomentum: maxJ,
      maxConstraint: maxC,
    };
  } finally {
    sim.dispose();
  }
}

/**
 * Lu's two clocks for a midpoint run of the undamped oscillator: after n steps the run is
 * compared with the exact flow at n·h and at n·Δt, Δt = (2/ω) arctan(ωh/2). Returns
 * { t, atNh, atNdt } (max-norm errors of (q, p), sampled) and their maxima over every step.
 */
export function clockRun(lab, { scenario, steps, samples = 400 }, progress) {
  const base = lab.normalize(scenario);
  const exact = lab.exact(base);
  let sim;
  try {
    sim = lab.simulate(base, { historyCapacity: lab.limits.historyCapacity.min });
    const { mass, stiffness } = base.params;
    const w = Math.sqrt(stiffness / mass);
    const dt = midpointClockStep(base.h, w);
    const every = Math.max(1, Math.floor(steps / samples));
    const err = (ref) => Math.max(Math.abs(sim.q[0] - ref.q[0]), Math.abs(sim.p[0] - ref.p[0]));
    const out = { t: [], atNh: [], atNdt: [], maxNh: 0, maxNdt: 0, dt, h: base.h, omega: w };
    for (let n = 1; n <= steps; n++) {
      sim.advance(1);
      const a = err(exact.state(n * base.h));
      const b = err(exact.state(n * dt));
      out.maxNh = Math.max(out.maxNh, a);
      out.maxNdt = Math.max(out.maxNdt, b);
      if (n % every === 0) {
        out.t.push(n * base.h);
        out.atNh.push(a);
        out.atNdt.push(b);
      }
      if (n % 1000 === 0) progress?.(n / steps);
    }
    return out;
  } finally {
    sim?.dispose();
    exact.dispose();
  }
}

/**
 * The multisymplectic law along a run of a field: sim.lawResidual().max (the largest
 * relative residual over the nodes, for the next two steps) at step 0 and every
 * ⌊steps/samples⌋ steps to `steps`. Returns { t, max, law, h, steps }; the run itself is
 * unchanged by the probes (they step copies).
 */
export function lawRun(lab, { scenario, steps, samples = 100 }, progress) {
  const sim = lab.simulate(scenario, { historyCapacity: lab.limits.historyCapacity.min });
  try {
    const every = Math.max(1, Math.floor(steps / samples));
    const out = { t: [], max: [], law: null, h: sim.scenario().h, steps };
    for (;;) {
      const r = sim.lawResidual();
      out.law ??= r.law;
      out.t.push(sim.time);
      out.max.push(r.max);
      if (sim.step >= steps) return out;
      sim.advance(Math.min(every, steps - sim.step));
      progress?.(sim.step / steps);
    }
  } finally {
    sim.dispose();
  }
}

// ---- figures

const halvings = (h0, n) => Array.from({ length: n }, (_, i) => h0 / 2 ** i);
/** Ratios of successive values (×4 per halving of h for a second-order quantity). */
const ratios = (ys) => ys.slice(1).map((y, i) => ys[i] / y);
const run = (scenario, T, samples) => ['measure', { scenario, T, samples }];
/** Kapitza's shaking frequencies (rad/s) of the Floquet figure, 30 and 60 among them. */
const KAPITZA_OMEGAS = Array.from({ length: 13 }, (_, i) => 20 + 5 * i);
/** Steps per forcing period of the Floquet figure (h = 2π/(ω·N)). */
const KAPITZA_STEPS = 200;
/** |μ| − 1 below this is on the unit circle (the step's rounding over one period). */
const UNIT_CIRCLE = 1e-9;
/** The linear oscillator x'' = −ω²x by the midpoint rule (ω = 2), as a system defined by data. */
const OSCILLATOR_DATA = {
  system: 'lagrangian',
  integrator: 'midpoint',
  params: {
    coordinates: ['x'],
    constants: { m: 1, k: 4 },
    lagrangian: "m/2*x'^2 - k/2*x^2",
    constraints: [],
    conserved: {},
    symmetries: {},
    bodies: [{ position: ['x', '0', '0'], radius: 0.05 }],
  },
  initial: { q: [1], qdot: [0] },
};
const OSCILLATOR_HS = [0.01, 0.1, 0.5, 1];

/** The Floquet figure's numbers: the verdicts at ω = 60 and 30, and the midpoint rule's angle against Lu's clock. */
function floquetMeasured(sweep, clock, constants) {
  const at = (w) => sweep.omegas.indexOf(w);
  const w = Math.sqrt(constants.k / constants.m);
  const lu = clock.hs.map((h) => 2 * Math.atan((h * w) / 2));
  // the smallest ω of the sweep from which every one is stable
  let first = sweep.omegas.length;
  while (first > 0 && sweep.largest[first - 1] - 1 <= UNIT_CIRCLE) first--;
  const c = sweep.constants;
  return {
    steps: sweep.stepsPerPeriod,
    off60: Math.max(Math.abs(sweep.largest[at(60)] - 1), Math.abs(sweep.smallest[at(60)] - 1)),
    mu30: sweep.largest[at(30)],
    firstStable: sweep.omegas[first] ?? NaN,
    kapitza: Math.sqrt(2 * c.g * c.l) / c.a,
    hAngle: clock.hs[1],
    angle: clock.angles[1],
    lu: lu[1],
    hFirst: clock.hs[0],
    hLast: clock.hs.at(-1),
    angleError: Math.max(...clock.angles.map((a, i) => Math.abs(a - lu[i]))),
  };
}

const PENALTY_MUS = [1e3, 1e4, 1e5, 1e6];
/** The string lesson's run: 1e5 steps of the plucked-string preset (h = 0.004 s). */
const STRING_T = 400;
/** The string's energy is read at every step; the figure draws this many + 1 of them. */
const STRING_SAMPLES = 1000;
/** The law lesson's run: the residual at step 0 and every LAW_STEPS/LAW_SAMPLES steps. */
const LAW_STEPS = 3000;
const LAW_SAMPLES = 100;
/** (E − E₀)/E₀ in parts per million: the string's energy moves by about 1e-5 of itself. */
const PPM = 1e6;

const sorted = (ys) => [...ys].sort((a, b) => a - b);
const median = (ys) => sorted(ys)[Math.floor(ys.length / 2)];

/** The energy window ratio: max − min of E over the whole run over the same over its first tenth. */
const windowRatio = (r) => (2 * r.energyAmplitude) / r.earlyWindow;

/**
 * Studies (the three sections of the drawer) and lessons (the seeds' figures). Text
 * fields are English; translations live in web/i18n/<lang>/lessons.js under
 * `study.<id>.<field>` and `lesson.<id>.<field>` (registryText).
 */
export const STUDIES = [
  {
    id: 'loop',
    title: 'Loops of starts: the Poincaré–Cartan invariant',
    docs: 'A closed loop of initial conditions γ is carried by the method. A symplectic map φ keeps ∮_{φ(γ)} p·dq = ∮_γ p·dq for every closed loop (the discrete flow of a discrete Lagrangian preserves the canonical two-form; by Stokes, the loop action). The loop is sampled at N equally spaced parameters and the integral taken with the derivative from the discrete Fourier transform (exponentially accurate for smooth periodic curves); points are added where the loop stretches. The loop is centred on the state the run is at when the study starts. Runge–Kutta 4, DOPRI5, Euler and the energy–momentum schemes change the action; every variational method keeps it to round-off.',
    tex: "\\oint_{\\varphi_h^n(\\gamma)} p\\cdot dq = \\oint_{\\gamma} p\\cdot dq \\approx \\frac{2\\pi}{N}\\sum_{j=0}^{N-1} p_j\\cdot q'(s_j)",
    citation: 'Marsden & West, Discrete mechanics and variational integrators (2001), §1.3 and §2.1',
  },
  {
    id: 'convergence',
    title: 'Order of convergence',
    docs: 'The same start is run to T with h, h/2, …, h/32. The error at T is measured against the exact solution where one is known (the linear oscillator; the pendulum via Jacobi sn, sin(θ/2) = k sn(ωt + u₀ | k²); the free rigid body via Jacobi elliptic functions), else against an order-6 composition at h/256. A method of order r has error ≈ C h^r, a straight line of slope r on log–log axes; the slope is fitted by least squares (errors at round-off are left out).',
    tex: '\\|e(T)\\| \\approx C\\,h^{r}\\ \\Rightarrow\\ \\log\\|e\\| = \\log C + r\\log h,\\qquad \\sin\\tfrac{\\theta}{2} = k\\,\\mathrm{sn}(\\omega t + u_0\\mid k^2)',
    citation: 'Hairer, Lubich & Wanner, Geometric numerical integration, §II.1; DLMF 22.7 (Landen) and 19.36 (Carlson)',
  },
  {
    id: 'poincare',
    title: 'Poincaré sections',
    docs: 'For a system with two coordinates, orbits of one energy live on a three-dimensional surface; each time q₁ crosses 0 upwards the point (q₂, p₂) is recorded (linear interpolation between steps). Orbits on invariant tori (KAM) draw closed curves; chaotic orbits fill regions. A symplectic method keeps the picture for long times because it is the exact flow of a nearby Hamiltonian.',
    tex: '\\Sigma = \\{ q_1 = 0,\\ p_1 > 0,\\ H(q, p) = E \\},\\qquad P : \\Sigma \\to \\Sigma',
    citation: 'Hénon & Heiles (1964); Marsden & West (2001), §1.3',
  },
];

export const LESSONS = [
  {
    id: 'mw-newmark-rk4',
    title: 'Variational Newmark vs RK4 over 300 s',
    source: 'Marsden & West, Discrete mechanics and variational integrators (2001), Fig. 1',
    caption:
      'A pendulum (ω = 2 rad/s) at the coarse step h = 0.3 s for 300 s. RK4’s energy decays as if there were friction; variational Newmark (γ = ½, β = 0) oscillates in a band and comes back.',
    see: 'The orange curve falls and never returns; the blue one stays in its band however long the run.',
    docs: 'Newmark with γ = ½, β = 0 is the Störmer–Verlet method, the DEL equations of the trapezoidal discrete Lagrangian: symplectic, so its energy error is bounded for exponentially long times (backward error analysis). RK4 is more accurate per step but not symplectic: its energy error accumulates, here as a steady loss.',
    tex: 'L_d(q_k, q_{k+1}) = \\tfrac{h}{2}\\Big[L\\big(q_k, \\tfrac{q_{k+1}-q_k}{h}\\big) + L\\big(q_{k+1}, \\tfrac{q_{k+1}-q_k}{h}\\big)\\Big]',
    preset: 'newmark-vs-rk4',
    plot: { x: 'time', y: 'energy', logX: false, logY: false },
    jobs: (sc) => [run(sc, 300, 1000), run({ ...sc, integrator: 'rk4', options: {} }, 300, 1000)],
    figure: ([a, b]) => ({
      curves: [
        { label: 'A', x: a.t, y: a.energy },
        { label: 'B', x: b.t, y: b.energy },
      ],
      measured: {
        bandA: a.maxEnergy / Math.abs(a.E0),
        finalA: (a.energy.at(-1) - a.E0) / Math.abs(a.E0),
        finalB: (b.energy.at(-1) - b.E0) / Math.abs(b.E0),
      },
      percent: ['bandA', 'finalA', 'finalB'],
      summary: 'measured.mw',
    }),
  },
  {
    id: 'mw-string-energy',
    title: 'The plucked string’s energy over 10⁵ steps: leapfrog vs RK4',
    source:
      'Marsden & West, Discrete mechanics and variational integrators (2001), Fig. 1 for a field: §5.2 (multisymplectic integrators for PDEs) and §2 (error analysis)',
    caption:
      'The plucked string (128 grid points, fixed ends) at h = 0.004 s for 10⁵ steps (400 s), by the leapfrog (A) and by RK4 (B) at the same step. The leapfrog’s energy stays in the window it fills in the first tenth of the run; RK4’s drifts down, out of its early window.',
    see: 'The blue curve fills its band in the first tenth and stays in it; the orange one is a thin line that keeps sinking. Over these 400 s RK4’s loss is still smaller than the leapfrog’s band: what tells them apart is that the band stops widening and the drift does not, as the printed window ratios show (near 1 for A, several times 1 for B).',
    docs: 'The leapfrog is the discrete Euler–Lagrange equation of the trapezoid discrete density L_c on the space-time grid (on each cell, ℒ averaged over the four corners, each with the differences along its own edges): a multisymplectic integrator (Marsden & West §5.2), and on the semi-discrete string a symplectic map, so by backward error analysis (§2) its energy is that of a nearby conserved one and oscillates in a band for exponentially long times. RK4 steps the same semi-discrete string but is not symplectic: at this step it damps the pluck’s short waves, and its energy error accumulates as a steady loss. The figure measures it by the energy window ratio R: the width max − min of E − E₀ over the whole run over the width over its first tenth. A bounded oscillation fills its window early (R near 1); a drift keeps widening it.',
    tex: 'R = \\frac{\\max_{k\\le n} E_k - \\min_{k\\le n} E_k}{\\max_{k\\le n/10} E_k - \\min_{k\\le n/10} E_k},\\qquad L_c = \\tfrac{\\Delta x\\,\\Delta t}{4}\\sum_{i=1}^{4} \\mathcal{L}\\big(u_i,\\ \\delta_t u,\\ \\delta_x u\\big)',
    preset: 'plucked-string',
    plot: { x: 'time', y: 'relative-energy', logX: false, logY: false },
    jobs: (sc) => [run(sc, STRING_T, STRING_SAMPLES), run({ ...sc, integrator: 'rk4', options: {} }, STRING_T, STRING_SAMPLES)],
    figure: ([a, b]) => ({
      curves: [a, b].map((r, k) => ({ label: 'AB'[k], x: r.t, y: r.energy.map((e) => (PPM * (e - r.E0)) / r.E0) })),
      measured: {
        steps: a.steps,
        ratioA: windowRatio(a),
        ratioB: windowRatio(b),
        bandA: a.maxEnergy / Math.abs(a.E0),
        finalB: (b.energy.at(-1) - b.E0) / Math.abs(b.E0),
        farthestB: b.maxEnergy / Math.abs(b.E0),
      },
      percent: ['bandA', 'finalB', 'farthestB'],
      summary: 'measured.string',
    }),
  },
  {
    id: 'multisymplectic-law',
    title: 'The multisymplectic law along a run: box scheme, leapfrog and RK4',
    source:
      'Marsden, Patrick & Shkoller, Multisymplectic geometry, variational integrators and nonlinear PDEs (1998), Thm 4.1; Marsden & West (2001), §5.2',
    caption:
      'The sine-Gordon breather (512 grid points, h = 0.02 s) for 3000 steps (60 s) by the box scheme, the leapfrog (A) and RK4 (B). Every 30 steps, the largest residual over the nodes of the discrete multisymplectic conservation law, for two variations carried through the next two steps by each method’s own linearization. The box scheme and the leapfrog keep the law to rounding on this nonlinear density; RK4 misses it by orders of magnitude more, by an amount that swings with the breather’s beat.',
    see: 'On the log axis the green (box scheme) and blue (leapfrog) curves lie at rounding, near 1e−16, all along; the orange one (RK4) sits around 1e−7 and dips and rises with the breather.',
    docs: 'A field’s symplectic form is not one number for the whole string but a density: ω at each point, with a flux κ along the string, and the exact flow keeps the local law ∂ω/∂t + ∂κ/∂x = 0 (Bridges 1997; Marsden, Patrick & Shkoller 1998). A variational integrator of a discrete density L_c on the space-time cells keeps its discrete form (MPS 1998, Thm 4.1; Marsden & West §5.2): for two first variations ξ, η of a discrete solution, the terms η·(H^{c}ξ) − ξ·(H^{c}η) of the cells c around a node, H^{c} the Hessian of L_c in the cell’s corners, sum to zero. The box scheme is the variational integrator of the midpoint density, the leapfrog of the trapezoid density. The check (sim.lawResidual) takes the next two steps of the run and of two variations (a smooth mode in u, one in the rate), each carried by the method’s own linearization at the current state, so it holds on a nonlinear density (here sine-Gordon, V = 1 − cos u) and not only on a linear one; at each node the residual is the sum over the node’s cells divided by the sum of the terms’ magnitudes, so rounding is about 1e−16. RK4 steps the same semi-discrete string as the leapfrog and is held to the trapezoid density’s law; it is no discrete Euler–Lagrange equation and breaks it.',
    tex: '\\sum_{c\\,\\ni\\,k}\\Big[\\eta_k\\,(H^c\\xi)_k - \\xi_k\\,(H^c\\eta)_k\\Big] = 0,\\quad H^c = D^2 L_c\\qquad\\leftrightsquigarrow\\qquad \\partial_t\\omega + \\partial_x\\kappa = 0',
    preset: 'breather',
    plot: { x: 'time', y: 'law-residual', logX: false, logY: true },
    jobs: (sc) =>
      ['midpoint', 'trapezoid', 'rk4'].map((integrator) => [
        'law',
        { scenario: { ...sc, integrator, options: {} }, steps: LAW_STEPS, samples: LAW_SAMPLES },
      ]),
    figure: ([box, leapfrog, rk4]) => ({
      curves: [
        { label: 'law-leapfrog', x: leapfrog.t, y: leapfrog.max, color: 'A' },
        { label: 'law-rk4', x: rk4.t, y: rk4.max, color: 'B' },
        { label: 'law-box', x: box.t, y: box.max },
      ],
      measured: {
        steps: box.steps,
        every: box.steps / (box.t.length - 1),
        box: Math.max(...box.max),
        leapfrog: Math.max(...leapfrog.max),
        rk4Min: Math.min(...rk4.max),
        rk4Median: median(rk4.max),
        rk4Max: Math.max(...rk4.max),
      },
      summary: 'measured.law',
    }),
  },
  {
    id: 'dsp-fluctuation',
    title: 'DSP: the energy fluctuation shrinks ×4 per halving of h',
    source: 'Seed 002, “Two equations of motion in continuous and in discrete form”, Lagrange multipliers (symplectic-momentum scheme)',
    caption:
      'The double spherical pendulum with its rods held by Lagrange multipliers, run 1000 s with h = 0.02, 0.01 and 0.005 s. The largest energy fluctuation falls by about 4 each time h is halved: second order, with no drift.',
    see: 'Three points on a line of slope 2 on log–log axes; the ratios printed are close to 4.',
    docs: 'The midpoint DEL with multipliers keeps the constraints g(q) = 0 exactly and J_z to round-off; its energy is not conserved but fluctuates within O(h²) of the true value for all the 1000 s: the fluctuation is measured over every step.',
    tex: '\\max_{0\\le t_k\\le T} |E_k - E_0| = O(h^2),\\qquad \\frac{\\Delta E(h)}{\\Delta E(h/2)} \\to 4',
    scenario: { system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 },
    compare: null,
    plot: { x: 'h', y: 'energy-fluctuation', logX: true, logY: true },
    jobs: (sc) => halvings(0.02, 3).map((h) => run({ ...sc, h }, 1000, 1)),
    figure: (rs) => {
      const hs = rs.map((r) => r.h);
      const ys = rs.map((r) => r.maxEnergy);
      return {
        curves: [{ label: 'A', x: hs, y: ys }],
        measured: { ratios: ratios(ys), slope: fittedOrder(hs, ys) },
        summary: 'measured.ratios',
      };
    },
  },
  {
    id: 'dsp-jz',
    title: 'DSP: J_z kept in generalized coordinates',
    source: 'Seed 002, “Two equations of motion in continuous and in discrete form”, Generalized coordinates',
    caption:
      'The double spherical pendulum in two spherical angles per bob, run 100 s by the symplectic-momentum scheme (A) and by RK4 (B). The angular momentum about the vertical J_z stays at its start to round-off for A, while RK4’s drifts.',
    see: 'A’s curve lies at 1e−13 and below; B’s climbs by orders of magnitude.',
    docs: 'The discrete Lagrangian in generalized coordinates (θ, φ per bob) is invariant under rotation about the vertical (φ ↦ φ + c), so by the discrete Noether theorem its momentum map, J_z, is conserved exactly by the DEL equations. RK4 has no such structure.',
    tex: 'L_d(u_k + c\\,e_\\varphi, u_{k+1} + c\\,e_\\varphi) = L_d(u_k, u_{k+1})\\ \\Rightarrow\\ J_z(u_{k+1}) = J_z(u_k)',
    scenario: { system: 'double-spherical-pendulum', integrator: 'generalized', h: 0.01 },
    compare: 'rk4',
    plot: { x: 'time', y: 'momentum-drift', logX: false, logY: true },
    jobs: (sc) => [run(sc, 100, 400), run({ ...sc, integrator: 'rk4', options: {} }, 100, 400)],
    figure: (rs) => ({
      curves: rs.map((r, k) => ({ label: 'AB'[k], x: r.t, y: r.momentum.map((j) => Math.abs(j - r.J0)) })),
      measured: { driftA: rs[0].maxMomentum, driftB: rs[1].maxMomentum },
      summary: 'measured.jz',
    }),
  },
  {
    id: 'dsp-penalty',
    title: 'DSP: constraint error against penalty stiffness μ',
    source:
      'Seed 002, “Two equations of motion in continuous and in discrete form”, Penalty potential (energy-momentum scheme, h = 0.001 s)',
    caption:
      'The rods replaced by stiff springs of stiffness μ, run 2 s at h = 0.001 s by the energy–momentum scheme, for μ = 10³ … 10⁶. The largest error in the rod lengths falls like 1/μ.',
    see: 'Points on a line of slope −1 on log–log axes: ten times stiffer, ten times smaller error.',
    docs: 'With the penalty potential (μ/2) Σ g_i² the links stretch until the spring force balances the centrifugal and gravitational loads, so g = O(1/μ). The energy–momentum scheme (Gonzalez’s discrete gradient) keeps the total energy with the springs and J_z exactly, for every μ and h; the stiffer the springs, the closer the motion to the constrained one.',
    tex: 'H_\\mu = T(p) + V(q) + \\tfrac{\\mu}{2}\\sum_i g_i(q)^2,\\qquad \\max_t |g(q(t))| = O(\\mu^{-1})',
    scenario: { system: 'double-spherical-pendulum', integrator: 'penalty-energy-momentum', h: 0.001, options: { mu: 10000 } },
    compare: null,
    plot: { x: 'mu', y: 'constraint', logX: true, logY: true },
    jobs: (sc) => PENALTY_MUS.map((mu) => run({ ...sc, h: 0.001, options: { ...sc.options, mu } }, 2, 1)),
    figure: (rs) => {
      const mus = PENALTY_MUS;
      const ys = rs.map((r) => r.maxConstraint);
      return { curves: [{ label: 'A', x: mus, y: ys }], measured: { slope: fittedOrder(mus, ys) }, summary: 'measured.slope' };
    },
  },
  {
    id: 'lu-clock',
    title: 'The midpoint rule runs the exact flow on its own clock',
    source: 'J. Lu, Conserving integrators by generating function (1995), §2.3, eqs. 16–18 (corrected)',
    caption:
      'The linear oscillator (ω = 1) by the midpoint rule at h = 0.1 s for 2000 steps, compared with the exact motion at two clocks: at n·h, the error grows steadily; at n·Δt with Δt = (2/ω) arctan(ωh/2), it stays at round-off.',
    see: 'The orange curve (exact motion at n·h) rises; the blue one (exact motion at n·Δt) stays near 1e−15: the method makes no error in the orbit, only in the time.',
    docs: 'One midpoint step is the matrix (1 + (ωh)²/4)⁻¹ [[1 − (ωh)²/4, h], [−ω²h, 1 − (ωh)²/4]], which is the exact flow over Δt with cos ωΔt = (1 − (ωh)²/4)/(1 + (ωh)²/4). The method keeps the energy exactly here and is symplectic; it lags the true clock by n h (ωh)²/12 after n steps.',
    tex: '\\Delta t = \\frac{2}{\\omega}\\arctan\\frac{\\omega h}{2},\\qquad \\Phi^{\\text{mid}}_h = \\varphi^{\\text{exact}}_{\\Delta t}',
    scenario: { system: 'oscillator', integrator: 'midpoint', h: 0.1 },
    compare: null,
    plot: { x: 'time', y: 'clock-error', logX: false, logY: true },
    jobs: (sc) => [['clock', { scenario: sc, steps: 2000 }]],
    figure: ([r]) => ({
      curves: [
        { label: 'ndt', x: r.t, y: r.atNdt, color: 'A' },
        { label: 'nh', x: r.t, y: r.atNh, color: 'B' },
      ],
      measured: { maxNdt: r.maxNdt, maxNh: r.maxNh, dt: r.dt },
      summary: 'measured.clock',
    }),
  },
  {
    id: 'floquet',
    title: 'Floquet multipliers from the step’s Jacobian: Kapitza’s pendulum',
    source: 'Kapitza (1951); Marsden & West (2001), §1.3 (linearized discrete flow); J. Lu (1995), §2.3 (the midpoint rule’s clock)',
    caption:
      'Kapitza’s pendulum held upside down, its pivot shaken as a·cos(ωt), by the midpoint rule over one period of the shaking. The product of its step Jacobians (sim.linearize()) is the monodromy matrix; its two multipliers μ tell whether the inverted position is stable (both on the unit circle) or not (one outside).',
    see: 'Above the threshold both curves sit at |μ| = 1; below it they split, one above 1 (the pendulum falls) and one below. The printed line gives the verdicts at ω = 60 and ω = 30, and the midpoint rule’s rotation angle on the linear oscillator against Lu’s 2·atan(hω/2).',
    docs: 'The Jacobian of one step, ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k), is computed by the implicit function theorem on the discrete Euler–Lagrange equations (the second derivatives of L). Over one forcing period T = N h the product M = J_{N−1}⋯J_0 is the monodromy matrix of the discrete map about the periodic orbit (here the inverted equilibrium); the step is symplectic, so det M = 1 and the multipliers come in pairs μ, 1/μ: either both on the unit circle (stable) or one outside (unstable). Kapitza’s averaging predicts stability for a²ω² > 2gl. On the linear oscillator one midpoint step is a rotation by θ with eigenvalues e^{±iθ}, θ = 2·atan(hω/2): the exact flow over Lu’s modified time step.',
    tex: 'M = \\prod_{k=N-1}^{0} \\frac{\\partial(q_{k+1}, p_{k+1})}{\\partial(q_k, p_k)},\\quad \\det M = 1,\\quad \\text{stable} \\iff |\\mu_{1,2}| = 1;\\qquad \\theta_{\\text{mid}} = 2\\arctan\\frac{h\\omega}{2}',
    preset: 'kapitza',
    plot: { x: 'omega', y: 'multiplier', logX: false, logY: true },
    jobs: (sc) => [
      [
        'floquet',
        { scenario: { ...sc, initial: { q: [Math.PI], qdot: [0] } }, constant: 'w', omegas: KAPITZA_OMEGAS, stepsPerPeriod: KAPITZA_STEPS },
      ],
      ['stepAngles', { scenario: OSCILLATOR_DATA, hs: OSCILLATOR_HS }],
    ],
    figure: ([sweep, clock]) => {
      const measured = floquetMeasured(sweep, clock, OSCILLATOR_DATA.params.constants);
      const verdicts = measured.off60 <= UNIT_CIRCLE && measured.mu30 > 1 + UNIT_CIRCLE;
      return {
        curves: [
          { label: 'mu-largest', x: sweep.omegas, y: sweep.largest, color: 'B' },
          { label: 'mu-smallest', x: sweep.omegas, y: sweep.smallest, color: 'A' },
        ],
        measured,
        summary: verdicts ? 'measured.floquet' : 'measured.floquet-other',
      };
    },
  },
  {
    id: 'wm-amplitude',
    title: 'Energy oscillates with amplitude ∝ h²: rigid body and DSP',
    source:
      'Wendlandt & Marsden, Mechanical integrators derived from a discrete variational principle (1997), §1 and the RB and DSP examples',
    caption:
      'The heavy top by the quaternion DEL (W–M’s rigid body in R⁴ with |q| = 1) and the double spherical pendulum by the midpoint DEL, 100 s each, for h = 0.02 … 0.0025 s. The energy oscillates around a constant; the half-width of its band falls like h².',
    see: 'Two lines of slope 2 on log–log axes (the fitted slopes are printed). On the free rigid body the energy is kept to round-off, so the lesson uses the top in gravity.',
    docs: 'A variational integrator is the exact flow of a modified Hamiltonian H̃ = H + O(h^r) for exponentially long times (backward error analysis), so E_k = H(q_k, p_k) oscillates around the constant H̃ with an amplitude of order h^r; for these second-order methods r = 2.',
    tex: '\\tfrac12\\big(\\max_k E_k - \\min_k E_k\\big) = O(h^2)',
    scenario: { system: 'heavy-top', integrator: 'quaternion', h: 0.01 },
    compare: null,
    plot: { x: 'h', y: 'energy-amplitude', logX: true, logY: true },
    jobs: () => {
      const hs = halvings(0.02, 4);
      return [
        ...hs.map((h) => run({ system: 'heavy-top', integrator: 'quaternion', h }, 100, 1)),
        ...hs.map((h) => run({ system: 'double-spherical-pendulum', integrator: 'midpoint', h }, 100, 1)),
      ];
    },
    figure: (rs) => {
      const half = rs.length / 2;
      const curve = (part, label) => ({ label, x: part.map((r) => r.h), y: part.map((r) => r.energyAmplitude) });
      const top = curve(rs.slice(0, half), 'top');
      const dsp = curve(rs.slice(half), 'dsp');
      return {
        curves: [top, dsp],
        measured: { slopeTop: fittedOrder(top.x, top.y), slopeDsp: fittedOrder(dsp.x, dsp.y) },
        summary: 'measured.slopes',
      };
    },
  },
];

export const lessonById = (id) => LESSONS.find((l) => l.id === id) ?? null;
export const studyById = (id) => STUDIES.find((s) => s.id === id) ?? null;

/** The worker tasks the lessons use (web/sim/study-worker.js registers them). */
export const LESSON_TASKS = {
  measure: measureRun,
  clock: clockRun,
  law: lawRun,
  floquet: (lab, args, progress) => ({
    ...floquetSweep(lab, args, progress),
    constants: args.scenario.params.constants,
    stepsPerPeriod: args.stepsPerPeriod,
  }),
  stepAngles,
};

/** The scenario a lesson starts from: its own, or its preset's (presets: [{ id, scenario, compare }]). */
export function lessonSetup(lesson, presets = []) {
  if (lesson.preset) {
    const p = presets.find((x) => x.id === lesson.preset);
    if (!p) return null;
    return { scenario: p.scenario, compare: p.compare ?? null, preset: p };
  }
  return { scenario: lesson.scenario, compare: lesson.compare ?? null, preset: null };
}

/**
 * Runs a lesson in this thread (the API tests; the page spreads the jobs over its
 * workers): resolves to its figure { curves, measured, summary }.
 */
export async function runLesson(lab, lesson, scenario, { onProgress } = {}) {
  const jobs = lesson.jobs(lab.normalize(scenario));
  const results = [];
  for (const [task, args] of jobs) {
    results.push(LESSON_TASKS[task](lab, args));
    onProgress?.(results.length / jobs.length);
  }
  return lesson.figure(results);
}
