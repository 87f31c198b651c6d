// What a run's numbers mean, from its normalized scenario and the system's registry
// entry (model kind, parameters, schema): which recorded quantities the exact flow of
// THIS scenario conserves (forcing, gravity's torque and symmetry decide), whether
// there are constraints, and the natural variables (angles and their rates, Π, ω, …)
// computed from the canonical state (q, p). The page plots from this, never from ids.
//
// Natural variables are for display and export only: they never feed back into a step,
// so they may use the JS Math functions (the run's bits do not depend on them).

/** Both claim kinds about the energy (exact and bounded) apply where the exact flow conserves it. */
const ENERGY = ['energy', 'energy-bounded'];

const sub = (i) => String(i).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);
const isNonZero = (v) => (Array.isArray(v) ? v.some((x) => x !== 0) : Number(v ?? 0) !== 0);

/** Chains: spherical links carry [θ, φ] per link in their schema; the planar pendulum θ alone. */
function chainIsPlanar(system) {
  const a = system.defaults?.initial?.angles;
  return Array.isArray(a) && a.length > 0 && !Array.isArray(a[0]);
}

/** A time-dependent expression (the identifier t) in a definition's L or forces. */
export function usesTime(text) {
  return /(^|[^\w'.])t(?![\w'(])/.test(String(text ?? ''));
}

function energyQuantity(conserved, why) {
  return { key: 'energy', symbol: 'E', title: 'energy', unit: 'J', columns: ['energy'], conserved, why };
}

function describeOscillator(system, sc) {
  const damped = isNonZero(sc.params.damping);
  const m = sc.params.mass;
  return {
    quantities: [energyQuantity(!damped, damped ? 'The damper removes energy.' : 'No friction and no driving: the energy stays constant.')],
    constrained: false,
    constraintScale: 1,
    constraintWhat: 'none',
    variables: [
      { key: 'x', symbol: 'x', title: 'position', titleKey: 'words.var.position', unit: 'm', kind: 'position' },
      { key: 'v', symbol: 'ẋ', title: 'velocity', titleKey: 'words.var.velocity', unit: 'm/s', kind: 'velocity' },
    ],
    phase: [0, 1],
    energyParts: true,
    structures: damped ? ['symplectic'] : ['symplectic', ...ENERGY],
    values(q, p, out) {
      out[0] = q[0];
      out[1] = p[0] / m;
    },
    kinetic: (q, p) => (p[0] * p[0]) / (2 * m),
  };
}

/** The energy; for spherical links also J_z, which gravity (vertical) leaves alone. */
function chainQuantities(planar, damped) {
  const quantities = [
    energyQuantity(
      !damped,
      damped ? 'The drag on the bobs removes energy.' : 'Gravity and rigid links do no net work: the energy stays constant.',
    ),
  ];
  if (!planar) {
    quantities.push({
      key: 'momentum',
      symbol: 'J_z',
      title: 'angular momentum about the vertical',
      unit: 'kg·m²/s',
      columns: ['momentum'],
      conserved: !damped,
      why: damped
        ? 'The drag exerts a torque about the vertical.'
        : 'Gravity is vertical, so turning the whole pendulum about the vertical changes nothing (Noether).',
    });
  }
  return quantities;
}

/** θ (and φ) of each link, then their rates: the order values() writes them in. */
function chainVariables(n, planar) {
  const variables = [];
  const link = (i) => (n > 1 ? ` of link ${i}` : '');
  for (let i = 1; i <= n; i++) {
    variables.push({
      key: `theta${i}`,
      symbol: `θ${n > 1 ? sub(i) : ''}`,
      title: `angle${link(i)} from the downward vertical`,
      titleKey: n > 1 ? 'words.var.thetaOf' : 'words.var.theta',
      titleVars: { i },
      unit: 'rad',
      kind: 'angle',
    });
    if (!planar)
      variables.push({
        key: `phi${i}`,
        symbol: `φ${n > 1 ? sub(i) : ''}`,
        title: `azimuth${link(i)} about the vertical`,
        titleKey: n > 1 ? 'words.var.phiOf' : 'words.var.phi',
        titleVars: { i },
        unit: 'rad',
        kind: 'angle',
      });
  }
  const angles = variables.length;
  for (let k = 0; k < angles; k++) {
    const v = variables[k];
    variables.push({
      key: `${v.key}dot`,
      symbol: `${v.symbol[0]}̇${v.symbol.slice(1)}`,
      title: `rate of ${v.title.replace(/ from the downward vertical| about the vertical/, '')}`,
      titleKey: `${v.titleKey}.rate`,
      titleVars: v.titleVars,
      unit: 'rad/s',
      kind: 'rate',
    });
  }
  return variables;
}

/** Each link's angles and their rates, from the bobs' positions and momenta relative to the bob above. */
function chainAnglesAndRates(q, p, out, masses, planar, angles) {
  const n = masses.length;
  const per = planar ? 1 : 2;
  let px = 0,
    py = 0,
    pz = 0,
    vx0 = 0,
    vy0 = 0,
    vz0 = 0;
  for (let i = 0; i < n; i++) {
    const x = q[3 * i],
      y = q[3 * i + 1],
      z = q[3 * i + 2];
    const vx = p[3 * i] / masses[i],
      vy = p[3 * i + 1] / masses[i],
      vz = p[3 * i + 2] / masses[i];
    const dx = x - px,
      dy = y - py,
      dz = z - pz;
    const wx = vx - vx0,
      wy = vy - vy0,
      wz = vz - vz0;
    if (planar) {
      // θ = atan2(dx, −dz), signed, in the x–z plane
      out[i] = Math.atan2(dx, -dz);
      out[angles + i] = (-dz * wx + dx * wz) / (dx * dx + dz * dz);
    } else {
      // θ = atan2(ρ, −dz) with ρ = √(dx² + dy²); φ = atan2(dy, dx)
      const rho2 = dx * dx + dy * dy;
      const rho = Math.sqrt(rho2);
      const rhoDot = rho > 0 ? (dx * wx + dy * wy) / rho : 0;
      out[per * i] = Math.atan2(rho, -dz);
      out[per * i + 1] = rho > 0 ? Math.atan2(dy, dx) : 0;
      out[angles + per * i] = (-dz * rhoDot + rho * wz) / (rho2 + dz * dz);
      out[angles + per * i + 1] = rho2 > 0 ? (dx * wy - dy * wx) / rho2 : 0;
    }
    (px = x), (py = y), (pz = z), (vx0 = vx), (vy0 = vy), (vz0 = vz);
  }
}

function describeChain(system, sc) {
  const masses = sc.params.masses;
  const lengths = sc.params.lengths;
  const n = masses.length;
  const planar = chainIsPlanar(system);
  const damped = isNonZero(sc.params.damping);
  const quantities = chainQuantities(planar, damped);
  const variables = chainVariables(n, planar);
  const angles = variables.length / 2; // as many rates as angles
  return {
    quantities,
    constrained: true,
    constraintScale: Math.min(...lengths),
    constraintWhat: 'links',
    variables,
    phase: [0, angles],
    energyParts: true,
    structures: ['symplectic', 'constraints', ...(damped ? [] : ENERGY), ...(!planar && !damped ? ['momentum'] : [])],
    values(q, p, out) {
      chainAnglesAndRates(q, p, out, masses, planar, angles);
    },
    kinetic(q, p) {
      let T = 0;
      for (let i = 0; i < n; i++) T += (p[3 * i] ** 2 + p[3 * i + 1] ** 2 + p[3 * i + 2] ** 2) / (2 * masses[i]);
      return T - chainRadialKinetic(q, p, masses);
    },
  };
}

/**
 * The kinetic energy of the motion along the links, ½ bᵀ(G M⁻¹Gᵀ)⁻¹b with b the links' length
 * rates (a tridiagonal solve, as the core's ChainModel::radialKinetic): the diagnostics' energy
 * is the tangent motion's, so the kinetic part is too (0 for momenta on the hidden constraint).
 */
function chainRadialKinetic(q, p, masses) {
  let removed = 0;
  let prevPivot = 0;
  let prevRhs = 0;
  let prev = [0, 0, 0];
  for (let i = 0; i < masses.length; i++) {
    const d = [0, 1, 2].map((c) => q[3 * i + c] - (i > 0 ? q[3 * i - 3 + c] : 0));
    const len = Math.hypot(d[0], d[1], d[2]);
    if (!(len > 0)) return 0;
    const e = d.map((x) => x / len);
    const w = [0, 1, 2].map((c) => p[3 * i + c] / masses[i] - (i > 0 ? p[3 * i - 3 + c] / masses[i - 1] : 0));
    let pivot = 1 / masses[i];
    let ratio = 0;
    if (i > 0) {
      pivot += 1 / masses[i - 1];
      const off = -(prev[0] * e[0] + prev[1] * e[1] + prev[2] * e[2]) / masses[i - 1];
      ratio = off / prevPivot;
      pivot -= ratio * off;
    }
    const rhs = e[0] * w[0] + e[1] * w[1] + e[2] * w[2] - ratio * prevRhs;
    removed += (rhs * rhs) / pivot;
    prevPivot = pivot;
    prevRhs = rhs;
    prev = e;
  }
  return removed / 2;
}

/** One component of the spatial angular momentum, and why it is or is not conserved. */
function spatialMomentumQuantity(a, k, { damped, torque, gravityTorque }) {
  const vertical = k === 2;
  const conserved = !damped && torque[k] === 0 && (vertical || !gravityTorque);
  const why = damped
    ? 'The damping torque changes the angular momentum.'
    : torque[k] !== 0
      ? 'The applied torque changes this component.'
      : conserved
        ? vertical && gravityTorque
          ? 'Gravity exerts no torque about the vertical (Noether).'
          : 'No torque acts on this component (Noether).'
        : "Gravity's torque about horizontal axes changes this component.";
  return {
    key: `momentum.${a}`,
    symbol: `J_${a}`,
    title: `spatial angular momentum, ${a} component`,
    unit: 'kg·m²/s',
    columns: [`momentum.${a}`],
    conserved,
    why,
  };
}

/** The energy, J_x, J_y, J_z; Π₃ for a symmetric top; |Π| where gravity exerts no torque. */
function rigidBodyQuantities({ I, torque, damped, com, gravityTorque, forced }) {
  const quantities = [
    energyQuantity(
      !forced,
      forced
        ? 'The applied torque or damping changes the energy.'
        : gravityTorque
          ? 'Gravity is a potential force: kinetic plus potential energy stays constant.'
          : 'No torque acts: the energy stays constant.',
    ),
  ];
  ['x', 'y', 'z'].forEach((a, k) => quantities.push(spatialMomentumQuantity(a, k, { damped, torque, gravityTorque })));
  const symmetric = I[0] === I[1];
  if (gravityTorque && symmetric && com[0] === 0 && com[1] === 0 && !forced) {
    quantities.push({
      key: 'bodyMomentum.z',
      symbol: 'Π₃',
      title: 'angular momentum about the symmetry axis',
      unit: 'kg·m²/s',
      columns: ['bodyMomentum.z'],
      conserved: true,
      why: 'A symmetric top with its centre of mass on the axis: gravity exerts no torque about that axis.',
    });
  }
  if (!gravityTorque) {
    quantities.push({
      key: 'casimir',
      symbol: '|Π|',
      title: 'size of the angular momentum',
      unit: 'kg·m²/s',
      columns: ['bodyMomentum.x', 'bodyMomentum.y', 'bodyMomentum.z'],
      combine: 'norm',
      conserved: !forced,
      why: forced
        ? 'The applied torque or damping changes |Π|.'
        : 'No torque: the length of the angular momentum stays constant (a Casimir).',
    });
  }
  return quantities;
}

/** Π and ω in the body frame, then the tilt and azimuth of the body's third axis. */
function rigidBodyVariables() {
  return [
    ...[1, 2, 3].map((i) => ({
      key: `Pi${i}`,
      symbol: `Π${sub(i)}`,
      title: `body angular momentum about axis ${i}`,
      titleKey: 'words.var.Pi',
      titleVars: { i },
      unit: 'kg·m²/s',
      kind: 'momentum',
    })),
    ...[1, 2, 3].map((i) => ({
      key: `omega${i}`,
      symbol: `ω${sub(i)}`,
      title: `angular velocity about body axis ${i}`,
      titleKey: 'words.var.omega',
      titleVars: { i },
      unit: 'rad/s',
      kind: 'rate',
    })),
    {
      key: 'tilt',
      symbol: 'θ',
      title: "tilt of the body's third axis from the vertical",
      titleKey: 'words.var.tilt',
      unit: 'rad',
      kind: 'angle',
    },
    {
      key: 'azimuth',
      symbol: 'φ',
      title: "azimuth of the body's third axis",
      titleKey: 'words.var.axisAzimuth',
      unit: 'rad',
      kind: 'angle',
    },
  ];
}

function describeRigidBody(system, sc) {
  const I = sc.params.inertia;
  const torque = sc.params.torque ?? [0, 0, 0];
  const damped = isNonZero(sc.params.damping);
  const g = Number(sc.params.g ?? 0);
  const com = sc.params.com ?? [0, 0, 0];
  const gravityTorque = g !== 0 && isNonZero(com);
  const forced = damped || isNonZero(torque);
  const quantities = rigidBodyQuantities({ I, torque, damped, com, gravityTorque, forced });
  const variables = rigidBodyVariables();
  const momentumConserved =
    quantities.some((q) => q.key.startsWith('momentum') && q.conserved) || quantities.some((q) => q.key === 'bodyMomentum.z');
  return {
    quantities,
    constrained: true,
    constraintScale: 1,
    constraintWhat: 'rotation',
    variables,
    phase: [0, 1],
    energyParts: true,
    structures: [
      'symplectic',
      'constraints',
      ...(forced ? [] : ENERGY),
      ...(momentumConserved ? ['momentum'] : []),
      ...(!gravityTorque && !forced ? ['casimir'] : []),
    ],
    values(q, p, out) {
      const [w, x, y, z] = q;
      for (let k = 0; k < 3; k++) {
        out[k] = p[k];
        out[3 + k] = p[k] / I[k];
      }
      // the body's third axis in space: R e₃
      const ex = 2 * (x * z + w * y);
      const ey = 2 * (y * z - w * x);
      const ez = 1 - 2 * (x * x + y * y);
      out[6] = Math.atan2(Math.hypot(ex, ey), ez);
      out[7] = Math.atan2(ey, ex);
    },
    kinetic(q, p) {
      return 0.5 * (p[0] ** 2 / I[0] + p[1] ** 2 / I[1] + p[2] ** 2 / I[2]);
    },
  };
}

function describeData(system, sc, columns) {
  const def = sc.params;
  const forced = isNonZero(def.damping) || (Array.isArray(def.forces) && def.forces.some((f) => String(f).trim() !== '0'));
  const timeDependent = usesTime(def.lagrangian);
  const quantities = [
    energyQuantity(
      !forced && !timeDependent,
      forced
        ? 'The forces and damping change the energy.'
        : timeDependent
          ? 'The Lagrangian depends on time, so the energy is not conserved.'
          : 'The Lagrangian does not depend on time: the energy stays constant.',
    ),
  ];
  for (const c of columns.filter((c) => c.startsWith('momentum.'))) quantities.push(symmetryMomentum(c, forced));
  for (const c of columns.filter((c) => c.startsWith('conserved.'))) {
    const name = c.slice('conserved.'.length);
    quantities.push({
      key: c,
      symbol: name,
      title: name,
      unit: '',
      columns: [c],
      conserved: true,
      why: 'Declared conserved by the definition.',
    });
  }
  const names = def.coordinates ?? [];
  const variables = [
    ...names.map((c) => ({
      key: c,
      symbol: c,
      title: `coordinate ${c}`,
      titleKey: 'words.var.coordinate',
      titleVars: { c },
      unit: '',
      kind: 'position',
    })),
    ...names.map((c) => ({
      key: `p_${c}`,
      symbol: `p_${c}`,
      title: `momentum conjugate to ${c}`,
      titleKey: 'words.var.conjugate',
      titleVars: { c },
      unit: '',
      kind: 'momentum',
    })),
  ];
  const constrained = Array.isArray(def.constraints) && def.constraints.length > 0;
  return {
    quantities,
    constrained,
    constraintScale: 1,
    constraintWhat: constrained ? 'surface' : 'none',
    variables,
    phase: [0, names.length],
    energyParts: false,
    structures: [
      'symplectic',
      ...(constrained ? ['constraints'] : []),
      ...(!forced && !timeDependent ? ENERGY : []),
      ...(quantities.some((q) => q.key.startsWith('momentum.') && q.conserved) ? ['momentum'] : []),
    ],
    values(q, p, out) {
      const k = names.length;
      for (let i = 0; i < k; i++) {
        out[i] = q[i];
        out[k + i] = p[i];
      }
    },
    kinetic: null,
  };
}

/** The Noether momentum of a declared symmetry (column momentum.<name>): conserved unless forced. */
function symmetryMomentum(column, forced) {
  const name = column.slice('momentum.'.length);
  return {
    key: column,
    symbol: `J_${name}`,
    title: `momentum of the symmetry ${name}`,
    unit: '',
    columns: [column],
    conserved: !forced,
    why: forced ? 'The forces break the symmetry.' : 'The Lagrangian is unchanged by this symmetry (Noether).',
  };
}

/** A typed density ℒ(u, u_t, u_x, x, t) that contains u itself (not only u_t, u_x): the shift u ↦ u + c changes it. */
function usesU(text) {
  return /(^|[^\w'.])u(?![\w'(])/.test(String(text ?? ''));
}

/**
 * A field u(x, t) on a grid (system "field"). The energy: no forcing, and the density
 * does not depend on t (the core refuses a typed ℒ with t in it). With periodic ends the
 * core records Σp, the momentum of the shift u ↦ u + c (Noether): kept by the exact flow
 * only when ℒ does not depend on u (the family "wave", V' = 0; a typed ℒ without u);
 * Klein–Gordon, sine-Gordon and φ⁴ pull u back to their vacua, so for them it is a value.
 * No phase portrait: the state is hundreds of nodes (the page draws u over x and t).
 */
function describeField(system, sc, columns) {
  const density = sc.params.density ?? {};
  const typed = typeof density.lagrangian === 'string';
  const periodic = sc.params.grid?.ends === 'periodic';
  const quantities = [energyQuantity(true, 'No forcing, and the density does not depend on time: the energy stays constant.')];
  let shiftConserved = false;
  if (periodic && columns.includes('momentum')) {
    shiftConserved = typed ? !usesU(density.lagrangian) : (density.family ?? 'wave') === 'wave';
    quantities.push({
      key: 'momentum',
      symbol: 'Σp',
      title: 'momentum of the shift u ↦ u + c',
      unit: 'kg·m/s',
      columns: ['momentum'],
      conserved: shiftConserved,
      why: shiftConserved
        ? 'With periodic ends, shifting u by a constant changes nothing (Noether).'
        : 'The potential V(u) pulls u back to its vacuum: shifting u changes the energy, so Σp is not conserved.',
    });
  }
  // a field of several components: the Noether charges of its declared linear symmetries
  for (const c of columns.filter((c) => c.startsWith('momentum.'))) quantities.push(symmetryMomentum(c, false));
  const rho = density.rho ?? 1;
  const n = sc.params.grid?.points ?? 0;
  const dx = periodic ? sc.params.grid.length / n : sc.params.grid.length / (n - 1);
  // a node's share of the length w_iΔx: half a cell at a free end (a fixed end has p = 0)
  const free = sc.params.grid?.ends === 'free';
  const share = (i) => (free && (i === 0 || i === n - 1) ? 0.5 : 1) * dx;
  return {
    quantities,
    constrained: false,
    constraintScale: 1,
    constraintWhat: 'none',
    variables: [],
    phase: [0, 0],
    energyParts: !typed,
    structures: ['symplectic', ...ENERGY, ...(shiftConserved || quantities.some((q) => q.key.startsWith('momentum.')) ? ['momentum'] : [])],
    values() {},
    // the built-in densities' kinetic energy Σ p_i²/(2ρ w_iΔx) (a typed ℒ's is not separate)
    kinetic: typed
      ? null
      : (q, p) => {
          let T = 0;
          for (let i = 0; i < n; i++) T += (p[i] * p[i]) / (2 * rho * share(i));
          return T;
        },
  };
}

const BY_MODEL = {
  oscillator: describeOscillator,
  chain: describeChain,
  'rigid-body': describeRigidBody,
  lagrangian: describeData,
  field: describeField,
};

/**
 * The description of a run: { quantities, constrained, constraintScale, variables, phase,
 * energyParts, structures } (plain data) plus values(q, p, out) and kinetic(q, p).
 * system: lab.system(id); scenario: the normalized scenario; columns: history columns.
 */
export function describeRun(system, scenario, columns) {
  const make = BY_MODEL[system.model] ?? describeData;
  return make(system, scenario, columns);
}
