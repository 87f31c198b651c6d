// A field's stiffness κ(x) along its string, cell by cell, as the module evaluates it: a
// density whose kappa is an expression in x (and the constants) is taken at each cell's
// centre, as the system does (core/src/systems/field_system.cpp), by the module's own
// expression evaluator — the initial data of a probe string with one node per cell, at the
// cells' centres. A number κ gives null: nothing along the string differs. The 3-D view marks
// the stiff cells (web/scene/field.js) and the space–time rows follow the fastest waves
// (web/sim/spacetime.js).

/** The cells of a grid: { cells, dx } (periodic: one per node; else one between each two). */
export function gridCells(grid) {
  const points = Math.max(2, Math.floor(grid?.points ?? 2));
  const cells = grid?.ends === 'periodic' ? points : points - 1;
  return { cells, dx: (grid?.length ?? 1) / cells };
}

/** κ at each cell's centre (a Float64Array), or null where κ is a number (or there is no grid). */
export function stiffnessAlong(lab, scenario) {
  const kappa = scenario?.params?.density?.kappa;
  const grid = scenario?.params?.grid;
  if (typeof kappa !== 'string' || !grid) return null;
  const { cells, dx } = gridCells(grid);
  // node i of a periodic probe of `cells` nodes is at i·dx; x + dx/2 puts it at cell i's centre
  const u = kappa.replace(/\bx\b/g, `(x + ${dx / 2})`);
  const system = lab.system(scenario.system);
  const probe = lab.simulate(
    {
      system: scenario.system,
      integrator: system.defaultIntegrator,
      h: system.h.default,
      params: {
        density: { family: 'wave' },
        grid: { points: cells, length: grid.length ?? 1, ends: 'periodic' },
        constants: scenario.params.constants ?? {},
      },
      initial: { u, ut: '0' },
    },
    { historyCapacity: lab.limits.historyCapacity.min },
  );
  try {
    return Float64Array.from(probe.visualState());
  } finally {
    probe.dispose();
  }
}

/**
 * The stretches of the string stiffer than its softest cell: [{ from, to (m), kappa (their
 * largest κ) }], from the cells' κ (stiffnessAlong) and the grid; [] where κ is the same everywhere.
 */
export function stiffSegments(kappas, grid) {
  if (!kappas?.length) return [];
  const { dx } = gridCells(grid);
  const soft = Math.min(...kappas);
  const out = [];
  let open = null;
  kappas.forEach((k, i) => {
    if (k > soft * (1 + 1e-9)) {
      if (!open) out.push((open = { from: i * dx, to: (i + 1) * dx, kappa: k }));
      open.to = (i + 1) * dx;
      open.kappa = Math.max(open.kappa, k);
    } else open = null;
  });
  return out;
}
