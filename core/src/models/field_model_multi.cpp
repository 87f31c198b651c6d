// FieldModel's several components (models/field_model.hpp, field_multi.hpp): q and p hold
// the components component-major; each node's Legendre transform takes all its components.
#include <cmath>

#include "vilab/models/field_model.hpp"

namespace vilab {

// Several components: node i's values (u^a, and u_x^a as slope()) from a component-major vector.
void FieldModel::nodeValues(const VecX& u, int i, double* values, double* slopes) const {
  const int n = grid.points;
  for (int a = 0; a < components(); ++a) {
    const auto column = u.segment(a * n, n);
    values[a] = column[i];
    slopes[a] = slope(column, i);
  }
}
// The nodes' momenta from their velocities w (component-major, as q), all components at once.
bool FieldModel::momentaMulti(const VecX& q, const std::vector<double>& w, VecX& p) const {
  const int n = grid.points, m = components();
  p.setZero(size());
  double u[field::kMaxFieldComponents], ux[field::kMaxFieldComponents], v[field::kMaxFieldComponents],
      out[field::kMaxFieldComponents];
  for (int i = 0; i < n; ++i) {
    if (!moves(i)) continue;
    nodeValues(q, i, u, ux);
    for (int a = 0; a < m; ++a) v[a] = w[static_cast<std::size_t>(a * n + i)];
    field::multiMomentum(*multi, length(i), u, v, ux, grid.x(i), out);
    for (int a = 0; a < m; ++a) p[a * n + i] = out[a];
  }
  return p.allFinite();
}
// The first node whose velocity cannot be recovered, or −1.
int FieldModel::toFieldMultiAt(const State& s, field::State& f) const {
  const int n = grid.points, m = components();
  f.u.assign(s.q.data(), s.q.data() + size());
  f.v.assign(static_cast<std::size_t>(size()), 0.0);
  double u[field::kMaxFieldComponents], ux[field::kMaxFieldComponents], p[field::kMaxFieldComponents],
      w[field::kMaxFieldComponents];
  int bad = -1;
  for (int i = 0; i < n; ++i) {
    if (!moves(i)) continue;
    nodeValues(s.q, i, u, ux);
    for (int a = 0; a < m; ++a) p[a] = s.p[a * n + i];
    if (!field::multiVelocity(*multi, length(i), u, p, ux, grid.x(i), w)) {
      if (bad < 0) bad = i;
      continue;
    }
    for (int a = 0; a < m; ++a) f.v[static_cast<std::size_t>(a * n + i)] = w[a];
  }
  return bad;
}
void FieldModel::toCanonicalMulti(const field::State& f, State& s) const {
  s.q = Eigen::Map<const VecX>(f.u.data(), size());
  VecX p;
  momentaMulti(s.q, f.v, p);
  s.p = p;
}
// As energy() for one component, with Σ_a u_t^a ∂ℒ/∂u_t^a − ℒ.
double FieldModel::energyMulti(const field::State& f) const {
  const int n = grid.points, m = components();
  const double dx = grid.spacing();
  double e = 0, z[3 * field::kMaxFieldComponents];
  for (int c = 0; c < field::cellCount(grid); ++c) {
    const int ends[2] = {c, (c + 1) % n};
    for (int i : ends) {
      for (int a = 0; a < m; ++a) {
        const std::size_t at = static_cast<std::size_t>(a * n);
        z[3 * a] = f.u[at + static_cast<std::size_t>(i)];
        z[3 * a + 1] = f.v[at + static_cast<std::size_t>(i)];
        z[3 * a + 2] = (f.u[at + static_cast<std::size_t>(ends[1])] - f.u[at + static_cast<std::size_t>(ends[0])]) / dx;
      }
      const double* out = multi->evaluate(z, grid.x(i));
      double kinetic = 0;
      for (int a = 0; a < m; ++a) kinetic += z[3 * a + 1] * out[multi->gradientAt(3 * a + 1)];
      e += 0.5 * dx * (kinetic - out[0]);
    }
  }
  return e;
}
// The declared symmetries' Noether charges Q = Σ_i p_i · G u_i (field_multi.hpp).
void FieldModel::chargesInto(const State& s, Diagnostics& d) const {
  const int n = grid.points, m = components();
  d.momentumSize = static_cast<int>(multi->symmetries.size());
  for (int k = 0; k < d.momentumSize; ++k) {
    const Eigen::MatrixXd& G = multi->symmetries[static_cast<std::size_t>(k)].generator;
    double q = 0;
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < m; ++a) {
        double flow = 0;
        for (int b = 0; b < m; ++b) flow += G(a, b) * s.q[b * n + i];
        q += s.p[a * n + i] * flow;
      }
    d.momentum[static_cast<std::size_t>(k)] = q;
  }
}

}  // namespace vilab
