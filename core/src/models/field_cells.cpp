// A field's local stiffness per cell (models/field_cells.hpp).
#include "vilab/models/field_cells.hpp"

#include <algorithm>
#include <limits>

namespace vilab::field {

CellStiffness cellStiffness(const FieldModel& m) {
  const int cells = cellCount(m.grid);
  const double dx = m.grid.spacing();
  CellStiffness out;
  out.speed2.resize(static_cast<std::size_t>(cells));
  out.curvature.resize(static_cast<std::size_t>(cells));
  out.inertia.resize(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c) {
    const std::size_t k = static_cast<std::size_t>(c);
    const double x = (c + 0.5) * dx;
    if (m.multi) {
      double w[3 * kMaxFieldComponents] = {};
      const MultiDensity& d = *m.multi;
      const double* h = d.evaluate(w, x);
      double speed2 = -std::numeric_limits<double>::infinity(), curvature = speed2, inertia = speed2;
      for (int a = 0; a < d.components(); ++a) {
        const double rho = h[d.hessianAt(3 * a + 1, 3 * a + 1)];
        speed2 = std::max(speed2, -h[d.hessianAt(3 * a + 2, 3 * a + 2)] / rho);
        curvature = std::max(curvature, -h[d.hessianAt(3 * a, 3 * a)]);
        inertia = std::max(inertia, rho);
      }
      out.speed2[k] = speed2, out.curvature[k] = curvature, out.inertia[k] = inertia;
    } else if (m.typed) {
      double h[10];
      m.typed->evaluate(0, 0, 0, x, 0, h);
      out.speed2[k] = -h[9] / h[7], out.curvature[k] = -h[4], out.inertia[k] = h[7];
    } else {
      out.speed2[k] = m.density.kappaOf(c) / m.density.rho;
      out.curvature[k] = m.density.potentialCurvature(0.0);
      out.inertia[k] = m.density.rho;
    }
  }
  return out;
}

}  // namespace vilab::field
