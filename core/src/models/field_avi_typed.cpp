// The AVI's elements on a typed density (models/field_avi_typed.hpp).
#include "vilab/models/field_avi_typed.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "vilab/models/field_data.hpp"
#include "vilab/models/field_lines.hpp"
#include "vilab/types.hpp"

namespace vilab::field {

TypedCells::TypedCells(LinesDensity d, const Grid& g) : density_(std::move(d)), grid_(g), m_(density_.components()) {
  MultiLines(density_, g, "avi");  // refuses a kinetic part that is not ½ u_tᵀ M u_t, M constant
  double w[3 * kMaxFieldComponents] = {};
  const double* out = density_.evaluate(w, 0.0);
  mass_.resize(m_, m_);
  for (int a = 0; a < m_; ++a)
    for (int b = 0; b < m_; ++b) mass_(a, b) = out[density_.hessianAt(3 * a + 1, 3 * b + 1)];
  inverseMass_ = mass_.inverse();
}

// The cell's two nodes in MultiLines::acceleration's order: each gives ½Δx ℒ_u at its own
// u and the cell's slope, and pulls both ends by ∓½ ℒ_{u_x}.
void TypedCells::force(int c, const std::vector<double>& u, double* g) const {
  const int n = grid_.points, m = m_;
  const double dx = grid_.spacing();
  const int ends[2] = {c, (c + 1) % n};
  for (int k = 0; k < 2 * m; ++k) g[k] = 0;
  double z[3 * kMaxFieldComponents];
  for (int e = 0; e < 2; ++e) {
    for (int b = 0; b < m; ++b) {
      z[3 * b] = u[static_cast<std::size_t>(b * n + ends[e])];
      z[3 * b + 1] = 0;
      z[3 * b + 2] = (u[static_cast<std::size_t>(b * n + ends[1])] - u[static_cast<std::size_t>(b * n + ends[0])]) / dx;
    }
    const double* out = density_.evaluate(z, grid_.x(ends[e]));
    for (int b = 0; b < m; ++b) {
      const double pull = 0.5 * out[1 + 3 * b + 2];
      g[e * m + b] += 0.5 * dx * out[1 + 3 * b];
      g[b] -= pull;
      g[m + b] += pull;
    }
  }
}

}  // namespace vilab::field
