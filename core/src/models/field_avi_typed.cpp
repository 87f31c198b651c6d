// The AVI's elements on a typed density (models/field_avi_typed.hpp).
#include "vilab/models/field_avi_typed.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "vilab/models/field_data.hpp"
#include "vilab/models/field_lines.hpp"
#include "vilab/types.hpp"

namespace vilab::field {

namespace {

// One component: ℒ_{u_t u_t} at 8 test points, which must not change, with no mixed
// derivative in u or u_x and ℒ_{u_t} = M u_t (the check MultiLines makes on several).
double constantMass(const DataDensity& d, double length) {
  TestPoints points{0x2545f4914f6cdd1dull};
  double M = 0, out[10];
  for (int k = 0; k < 8; ++k) {
    const double u = points.next(), ut = points.next(), ux = points.next(), x = (points.next() + 0.5) * length;
    d.evaluate(u, ut, ux, x, 0.0, out);
    const double scale = std::abs(out[7]);
    const double off = std::max({std::abs(out[5]), std::abs(out[8]), std::abs(out[2] - out[7] * ut)});
    const char* why = nullptr;
    if (!std::isfinite(out[7]) || !std::isfinite(off))
      why = "ℒ is not finite at a test point";
    else if (off > 1e-12 * (scale + 1))
      why = "∂ℒ/∂u_t depends on u or u_x (or has a term free of u_t)";
    else if (k > 0 && std::abs(out[7] - M) > 1e-12 * scale)
      why = "∂²ℒ/∂u_t² changes with u, u_t, u_x or x";
    else if (!(out[7] > 0))
      why = "∂²ℒ/∂u_t² is not positive";
    if (why)
      throw InputError(InputErrorCode::NotApplicable, "integrator",
                       std::string("\"avi\" steps a typed density whose kinetic part is ½ M u_t² with M constant: ") +
                           why + "; the box scheme (midpoint) runs it");
    if (k == 0) M = out[7];
  }
  return M;
}

}  // namespace

TypedCells::TypedCells(std::shared_ptr<const DataDensity> one, std::shared_ptr<const MultiDensity> several,
                       const Grid& g)
    : one_(std::move(one)), several_(std::move(several)), grid_(g), m_(several_ ? several_->components() : 1) {
  if (several_) {
    MultiLines(several_, g, "avi");  // refuses a kinetic part that is not ½ u_tᵀ M u_t, M constant
    double w[3 * kMaxFieldComponents] = {};
    const double* out = several_->evaluate(w, 0.0);
    mass_.resize(m_, m_);
    for (int a = 0; a < m_; ++a)
      for (int b = 0; b < m_; ++b) mass_(a, b) = out[several_->hessianAt(3 * a + 1, 3 * b + 1)];
  } else {
    mass_ = Eigen::MatrixXd::Constant(1, 1, constantMass(*one_, g.length));
  }
  inverseMass_ = mass_.inverse();
}

const double* TypedCells::evaluate(const double* w, double x) const {
  if (several_) return several_->evaluate(w, x);
  one_->evaluate(w[0], w[1], w[2], x, 0.0, out_);
  return out_;
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
    const double* out = evaluate(z, grid_.x(ends[e]));
    for (int b = 0; b < m; ++b) {
      const double pull = 0.5 * out[1 + 3 * b + 2];
      g[e * m + b] += 0.5 * dx * out[1 + 3 * b];
      g[b] -= pull;
      g[m + b] += pull;
    }
  }
}

}  // namespace vilab::field
