// The method of lines on a typed density (models/field_lines.hpp).
#include "vilab/models/field_lines.hpp"

#include <algorithm>
#include <cmath>

#include "vilab/models/field_box.hpp"
#include "vilab/models/field_model.hpp"

namespace vilab::field {

namespace {

// M = ∂²ℒ/∂u_t² at 8 test points, which must not change, nor depend on u or u_x through a
// mixed derivative, nor carry a term linear in u_t (∂ℒ/∂u_t = M u_t); empty with `why` else.
Eigen::MatrixXd constantMass(const LinesDensity& d, double length, std::string& why) {
  const int m = d.components();
  Eigen::MatrixXd M;
  TestPoints points{0x2545f4914f6cdd1dull};
  for (int k = 0; k < 8; ++k) {
    double w[3 * kMaxFieldComponents];
    for (int j = 0; j < 3 * m; ++j) w[j] = points.next();
    const double x = (points.next() + 0.5) * length;
    const double* out = d.evaluate(w, x);
    Eigen::MatrixXd here(m, m);
    double scale = 0, off = 0;
    for (int a = 0; a < m; ++a) {
      double linear = out[d.gradientAt(3 * a + 1)];
      for (int b = 0; b < m; ++b) {
        here(a, b) = out[d.hessianAt(3 * a + 1, 3 * b + 1)];
        linear -= here(a, b) * w[3 * b + 1];
        scale += std::abs(here(a, b));
        off = std::max(
            {off, std::abs(out[d.hessianAt(3 * a + 1, 3 * b)]), std::abs(out[d.hessianAt(3 * a + 1, 3 * b + 2)])});
      }
      off = std::max(off, std::abs(linear));
    }
    if (!here.allFinite() || !std::isfinite(off)) {
      why = "ℒ is not finite at a test point";
      return {};
    }
    if (off > 1e-12 * (scale + 1)) {
      why = "∂ℒ/∂u_t depends on u or u_x (or has a term free of u_t)";
      return {};
    }
    if (k == 0) M = here;
    if ((here - M).cwiseAbs().maxCoeff() > 1e-12 * scale) {
      why = "∂²ℒ/∂u_t² changes with u, u_t, u_x or x";
      return {};
    }
  }
  if (M.llt().info() != Eigen::Success || !(M.llt().matrixLLT().diagonal().minCoeff() > 0)) {
    why = "∂²ℒ/∂u_t² is not positive definite";
    return {};
  }
  return M;
}

}  // namespace

MultiLines::MultiLines(LinesDensity d, const Grid& g, const std::string& method)
    : density_(std::move(d)), grid_(g), m_(density_.components()) {
  std::string why;
  const Eigen::MatrixXd M = constantMass(density_, g.length, why);
  if (M.size() == 0)
    throw InputError(InputErrorCode::NotApplicable, "integrator",
                     "\"" + method + "\" steps a typed density whose kinetic part is ½ u_tᵀ M u_t with M constant: " +
                         why + "; the box scheme (midpoint) runs it");
  inverseMass_ = M.inverse();
}

template <class Visit>
void MultiLines::eachCellEnd(const std::vector<double>& u, Visit visit) const {
  const int n = grid_.points, m = m_;
  const double dx = grid_.spacing();
  double z[3 * kMaxFieldComponents];
  for (int c = 0; c < cellCount(grid_); ++c) {
    const int ends[2] = {c, (c + 1) % n};
    for (int node : ends) {
      for (int b = 0; b < m; ++b) {
        const std::size_t at = static_cast<std::size_t>(b * n);
        z[3 * b] = u[at + static_cast<std::size_t>(node)];
        z[3 * b + 1] = 0;
        z[3 * b + 2] = (u[at + static_cast<std::size_t>(ends[1])] - u[at + static_cast<std::size_t>(ends[0])]) / dx;
      }
      visit(node, ends, density_.evaluate(z, grid_.x(node)));
    }
  }
}

void MultiLines::accelerationOf(std::vector<double>& a) const {
  const int n = grid_.points, m = m_;
  const double dx = grid_.spacing();
  a.assign(static_cast<std::size_t>(size()), 0.0);
  for (int i = 0; i < n; ++i) {
    if (!nodeMoves(grid_, i)) continue;
    const double share = weight(grid_, i) * dx;
    for (int b = 0; b < m; ++b) {
      double sum = 0;
      for (int e = 0; e < m; ++e) sum += inverseMass_(b, e) * force_[static_cast<std::size_t>(e * n + i)];
      a[static_cast<std::size_t>(b * n + i)] = sum / share;
    }
  }
}

// ∂L_h/∂u_i: each cell's two nodes give Δx ½ ∂ℒ/∂u at their own u and the cell's slope,
// and pull both ends by ∓½ ∂ℒ/∂u_x (S_c's derivative ∓1/Δx); then ü_i = M⁻¹ ∂L_h/∂u_i / (w_i Δx).
void MultiLines::acceleration(const std::vector<double>& u, std::vector<double>& a) const {
  const int n = grid_.points, m = m_;
  const double dx = grid_.spacing();
  force_.assign(static_cast<std::size_t>(size()), 0.0);
  eachCellEnd(u, [&](int node, const int* ends, const double* out) {
    for (int b = 0; b < m; ++b) {
      const std::size_t at = static_cast<std::size_t>(b * n);
      const double pull = 0.5 * out[density_.gradientAt(3 * b + 2)];
      force_[at + static_cast<std::size_t>(node)] += 0.5 * dx * out[density_.gradientAt(3 * b)];
      force_[at + static_cast<std::size_t>(ends[0])] -= pull;
      force_[at + static_cast<std::size_t>(ends[1])] += pull;
    }
  });
  accelerationOf(a);
}

// The same sums with ∂ℒ/∂u and ∂ℒ/∂u_x replaced by their derivatives along (δu_node, δS_c)
// (the u_t rows drop: ∂²ℒ/∂u_t∂u = ∂²ℒ/∂u_t∂u_x = 0, MultiLines' constant mass).
void MultiLines::accelerationTangent(const std::vector<double>& u, const std::vector<double>& du,
                                     std::vector<double>& da) const {
  const int n = grid_.points, m = m_;
  const double dx = grid_.spacing();
  force_.assign(static_cast<std::size_t>(size()), 0.0);
  eachCellEnd(u, [&](int node, const int* ends, const double* out) {
    double dz[3 * kMaxFieldComponents];
    for (int e = 0; e < m; ++e) {
      const std::size_t at = static_cast<std::size_t>(e * n);
      dz[3 * e] = du[at + static_cast<std::size_t>(node)];
      dz[3 * e + 2] = (du[at + static_cast<std::size_t>(ends[1])] - du[at + static_cast<std::size_t>(ends[0])]) / dx;
    }
    const auto along = [&](int row) {
      double sum = 0;
      for (int e = 0; e < m; ++e)
        sum +=
            out[density_.hessianAt(row, 3 * e)] * dz[3 * e] + out[density_.hessianAt(row, 3 * e + 2)] * dz[3 * e + 2];
      return sum;
    };
    for (int b = 0; b < m; ++b) {
      const std::size_t at = static_cast<std::size_t>(b * n);
      const double pull = 0.5 * along(3 * b + 2);
      force_[at + static_cast<std::size_t>(node)] += 0.5 * dx * along(3 * b);
      force_[at + static_cast<std::size_t>(ends[0])] -= pull;
      force_[at + static_cast<std::size_t>(ends[1])] += pull;
    }
  });
  accelerationOf(da);
}

namespace {
// Corner k of a cell (k = a_i, a_j, b_i, b_j): its node (0 = i, 1 = j) and row (0 = a, 1 = b).
int nodeOf(int k) { return k % 2; }
int rowOf(int k) { return k / 2; }
// The corners slot s (u, u_t, u_x) of ℒ at corner k reads, and their weights:
// u = y_k, u_t = (y_{b,node} − y_{a,node})/Δt, u_x = (y_{row,j} − y_{row,i})/Δx.
struct Slot {
  int corner[2];
  double weight[2];
};
Slot slotOf(int k, int s, double dt, double dx) {
  if (s == 0) return {{k, k}, {1.0, 0.0}};
  if (s == 1) return {{nodeOf(k) + 2, nodeOf(k)}, {1 / dt, -1 / dt}};
  return {{2 * rowOf(k) + 1, 2 * rowOf(k)}, {1 / dx, -1 / dx}};
}
}  // namespace

const double* MultiLines::atCorner(int c, int k, double dt, const double* y) const {
  const int m = m_, node = nodeOf(k), row = rowOf(k);
  const double dx = grid_.spacing();
  double w[3 * kMaxFieldComponents];
  for (int a = 0; a < m; ++a) {
    w[3 * a] = y[k * m + a];
    w[3 * a + 1] = (y[(node + 2) * m + a] - y[node * m + a]) / dt;
    w[3 * a + 2] = (y[(2 * row + 1) * m + a] - y[2 * row * m + a]) / dx;
  }
  return density_.evaluate(w, grid_.x((c + node) % grid_.points));
}

void MultiLines::cellGradient(int c, double dt, const double* y, double* g) const {
  const int m = m_, corners = 4 * m;
  const double dx = grid_.spacing(), scale = 0.25 * dx * dt;
  std::fill(g, g + corners, 0.0);
  for (int k = 0; k < 4; ++k) {
    const double* out = atCorner(c, k, dt, y);
    for (int a = 0; a < m; ++a)
      for (int s = 0; s < 3; ++s) {
        const Slot slot = slotOf(k, s, dt, dx);
        for (int e = 0; e < 2; ++e)
          g[slot.corner[e] * m + a] += scale * slot.weight[e] * out[density_.gradientAt(3 * a + s)];
      }
  }
}

// Σ over corners of (∂w/∂y)ᵀ ∇²ℒ (∂w/∂y), w = ℒ's arguments at the corner.
void MultiLines::cellHessian(int c, double dt, const double* y, double* h) const {
  const int m = m_, corners = 4 * m;
  const double dx = grid_.spacing(), scale = 0.25 * dx * dt;
  std::fill(h, h + corners * corners, 0.0);
  for (int k = 0; k < 4; ++k) {
    const double* out = atCorner(c, k, dt, y);
    for (int a = 0; a < m; ++a)
      for (int s = 0; s < 3; ++s)
        for (int b = 0; b < m; ++b)
          for (int r = 0; r < 3; ++r) {
            const double second = scale * out[density_.hessianAt(3 * a + s, 3 * b + r)];
            const Slot p = slotOf(k, s, dt, dx), q = slotOf(k, r, dt, dx);
            for (int e = 0; e < 2; ++e)
              for (int f = 0; f < 2; ++f)
                h[(p.corner[e] * m + a) * corners + q.corner[f] * m + b] += p.weight[e] * q.weight[f] * second;
          }
  }
}

void MultiLeapfrog::stepWithTangents(const MultiLines& lines, State& s, State* ds, int count, double dt) {
  leapfrogWithTangents([&](const std::vector<double>& u, std::vector<double>& a) { lines.acceleration(u, a); },
                       [&](const std::vector<double>& u, const std::vector<double>& du, std::vector<double>& da) {
                         lines.accelerationTangent(u, du, da);
                       },
                       s, ds, count, dt);
}

void rungeKutta4Tangent(const MultiLines& lines, const State& start, State& ds, double dt) {
  rungeKutta4Tangent([&](const std::vector<double>& u, std::vector<double>& a) { lines.acceleration(u, a); },
                     [&](const std::vector<double>& u, const std::vector<double>& du, std::vector<double>& da) {
                       lines.accelerationTangent(u, du, da);
                     },
                     start, ds, dt);
}

// Each component's end nodes as they are, its inside with w_i = 1: the length (1 · Δx) = Δx
// formed once (the same bits, without a modulo and a branch per entry).
bool MultiOde::rhs(const VecX& y, VecX& dy) {
  const int size = lines->size(), n = lines->grid().points;
  u.assign(y.data(), y.data() + size);
  lines->acceleration(u, a);
  const double dx = lines->grid().spacing();
  const auto node = [&](int k) {
    dy[k] = lines->moves(k) ? y[size + k] / mass(k) : 0.0;
    dy[size + k] = mass(k) * a[static_cast<std::size_t>(k)];
  };
  for (int first = 0; first < size; first += n) {
    node(first);
    for (int k = first + 1; k + 1 < first + n; ++k) {
      dy[k] = y[size + k] / dx;
      dy[size + k] = dx * a[static_cast<std::size_t>(k)];
    }
    node(first + n - 1);
  }
  return dy.allFinite();
}

}  // namespace vilab::field

namespace vilab {
field::LinesDensity linesDensity(const FieldModel& m) {
  return m.multi ? field::LinesDensity(m.multi) : field::LinesDensity(m.typed);
}
}  // namespace vilab
