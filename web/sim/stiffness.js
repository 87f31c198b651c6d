// A field's stiffness along its string, cell by cell, as the core gives it
// (sim.fieldStiffness(), core/include/vilab/models/field_cells.hpp): each cell's squared wave
// speed c² = −ℒ_{u_x u_x}/ℒ_{u_t u_t} at rest (κ/ρ for the built-in family; a κ given as an
// expression in x is taken at each cell's centre). The 3-D view marks the stretches faster than
// the softest cell (web/scene/field.js) and the space–time rows follow the fastest waves
// (web/sim/spacetime.js).

/** The cells of a grid: { cells, dx } (periodic: one per node; else one between each two). */
export function gridCells(grid) {
  const points = Math.max(2, Math.floor(grid?.points ?? 2));
  const cells = grid?.ends === 'periodic' ? points : points - 1;
  return { cells, dx: (grid?.length ?? 1) / cells };
}

/** c² of each cell (a Float64Array) of a field's run. */
export function stiffnessAlong(sim) {
  return sim.fieldStiffness().speed2;
}

/**
 * The stretches of the string stiffer than its softest cell: [{ from, to (m), speed2 (their
 * largest c²) }], from the cells' c² (stiffnessAlong) and the grid; [] where c² is the same everywhere.
 */
export function stiffSegments(speeds, grid) {
  if (!speeds?.length) return [];
  const { dx } = gridCells(grid);
  const soft = Math.min(...speeds);
  const out = [];
  let open = null;
  speeds.forEach((c2, i) => {
    if (c2 > soft * (1 + 1e-9)) {
      if (!open) out.push((open = { from: i * dx, to: (i + 1) * dx, speed2: c2 }));
      open.to = (i + 1) * dx;
      open.speed2 = Math.max(open.speed2, c2);
    } else open = null;
  });
  return out;
}
