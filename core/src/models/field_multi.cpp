// Fields of several components (models/field_multi.hpp): the typed density's program, the
// midpoint cell's derivatives, the nodes' Legendre transform and the box scheme with m × m
// blocks (its Newton matrix block tridiagonal, bordered by its last block row and column
// with periodic ends).
#include "vilab/models/field_multi.hpp"

#include <algorithm>
#include <cmath>

#include "vilab/expr/graph.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/solver/block_tridiagonal.hpp"
#include "vilab/solver/newton.hpp"

namespace vilab::field {

MultiDensity::MultiDensity(const std::string& text, std::vector<std::string> names, const std::string& field,
                           std::vector<std::pair<std::string, double>> constants)
    : names_(std::move(names)), m_(static_cast<int>(names_.size())) {
  expr::Scope scope;
  for (const std::string& n : names_)
    for (const char* suffix : {"", "_t", "_x"}) scope.coordinates.push_back(n + suffix);
  scope.coordinates.push_back("x");
  scope.constants = std::move(constants);
  scope.velocities = false;
  scope.time = false;
  scope.timeUse = "the field's energy is read at any time, so ℒ may not depend on t";
  expr::Graph graph;
  const int node = expr::parseExpression(text, field, scope, graph).node;
  program_ = std::make_shared<expr::Program>(graph, graph.valueGradientHessian(node, 3 * m_));
  vars_.assign(static_cast<std::size_t>(2 * (3 * m_ + 1) + 1), 0.0);
  out_.assign(static_cast<std::size_t>(outputs()), 0.0);
}

const double* MultiDensity::evaluate(const double* w, double x) const {
  std::copy(w, w + 3 * m_, vars_.begin());
  vars_[static_cast<std::size_t>(3 * m_)] = x;
  program_->run(vars_.data(), out_.data(), registers_);
  return out_.data();
}

void MultiDensity::variation(const Eigen::MatrixXd& G, const double* w, double x, double& rate, double& scale) const {
  const double* out = evaluate(w, x);
  rate = scale = 0;
  for (int a = 0; a < m_; ++a)
    for (int r = 0; r < 3; ++r) {
      double flow = 0;
      for (int b = 0; b < m_; ++b) flow += G(a, b) * w[3 * b + r];
      const double term = out[gradientAt(3 * a + r)] * flow;
      rate += term;
      scale += std::abs(term);
    }
}

namespace {
// The cell's m values of the centre, rate and slope (J's rows) from its corners
// y[k·m + a] (k = a_i, a_j, b_i, b_j).
inline void cellCentreValues(int m, double dx, double dt, const double* y, double* w) {
  for (int a = 0; a < m; ++a) {
    const double c0 = y[a], c1 = y[m + a], c2 = y[2 * m + a], c3 = y[3 * m + a];
    w[3 * a] = 0.25 * (c0 + c1 + c2 + c3);
    w[3 * a + 1] = (c2 + c3 - c0 - c1) / (2 * dt);
    w[3 * a + 2] = (c1 + c3 - c0 - c2) / (2 * dx);
  }
}

inline void cellRowsOf(double dx, double dt, double J[3][4]) {
  const double mean[4] = {0.25, 0.25, 0.25, 0.25}, D[4] = {-0.5, -0.5, 0.5, 0.5}, S[4] = {-0.5, 0.5, -0.5, 0.5};
  for (int k = 0; k < 4; ++k) J[0][k] = mean[k], J[1][k] = D[k] / dt, J[2][k] = S[k] / dx;
}

// The nodes' slopes u_x^a: centred, one-sided at an end (as field_box.hpp's); u node-major.
inline void multiSlope(const Grid& g, int m, const std::vector<double>& u, int i, double* ux) {
  const int n = g.points;
  const double h = g.spacing();
  int lo = i - 1, hi = i + 1;
  double span = 2 * h;
  if (g.ends == Ends::Periodic) {
    lo = (i + n - 1) % n, hi = (i + 1) % n;
  } else if (i == 0) {
    lo = 0, span = h;
  } else if (i == n - 1) {
    hi = n - 1, span = h;
  }
  for (int a = 0; a < m; ++a)
    ux[a] = (u[static_cast<std::size_t>(hi * m + a)] - u[static_cast<std::size_t>(lo * m + a)]) / span;
}

}  // namespace

void multiCell(const MultiDensity& d, double dx, double dt, double x, const double* y, double* g, double* h) {
  const int m = d.components(), K = 3 * m, C = 4 * m;
  double w[3 * kMaxFieldComponents], J[3][4];
  cellCentreValues(m, dx, dt, y, w);
  cellRowsOf(dx, dt, J);
  const double* out = d.evaluate(w, x);
  const double area = dx * dt;
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < m; ++a) {
      double sum = 0;
      for (int r = 0; r < 3; ++r) sum += out[d.gradientAt(3 * a + r)] * J[r][k];
      g[k * m + a] = area * sum;
    }
  if (h == nullptr) return;
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < m; ++a)
      for (int l = 0; l < 4; ++l)
        for (int b = 0; b < m; ++b) {
          double sum = 0;
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) sum += J[r][k] * out[d.hessianAt(3 * a + r, 3 * b + s)] * J[s][l];
          h[(k * m + a) * C + l * m + b] = area * sum;
        }
  (void)K;
}

void multiMomentum(const MultiDensity& d, double mass, const double* u, const double* w, const double* ux, double x,
                   double* p) {
  const int m = d.components();
  double z[3 * kMaxFieldComponents];
  for (int a = 0; a < m; ++a) z[3 * a] = u[a], z[3 * a + 1] = w[a], z[3 * a + 2] = ux[a];
  const double* out = d.evaluate(z, x);
  for (int a = 0; a < m; ++a) p[a] = mass * out[d.gradientAt(3 * a + 1)];
}

bool multiVelocity(const MultiDensity& d, double mass, const double* u, const double* p, const double* ux, double x,
                   double* w) {
  const int m = d.components();
  double z[3 * kMaxFieldComponents];
  for (int a = 0; a < m; ++a) z[3 * a] = u[a], z[3 * a + 1] = 0, z[3 * a + 2] = ux[a];
  Eigen::MatrixXd H(m, m);
  Eigen::VectorXd r(m);
  for (int k = 0; k < 50; ++k) {
    const double* out = d.evaluate(z, x);
    for (int a = 0; a < m; ++a) {
      r[a] = p[a] / mass - out[d.gradientAt(3 * a + 1)];
      for (int b = 0; b < m; ++b) H(a, b) = out[d.hessianAt(3 * a + 1, 3 * b + 1)];
    }
    const Eigen::PartialPivLU<Eigen::MatrixXd> lu(H);
    if (!(std::abs(lu.determinant()) > 0) || !r.allFinite()) return false;
    const Eigen::VectorXd step = lu.solve(r);
    double size = 0, largest = 0;
    for (int a = 0; a < m; ++a) {
      z[3 * a + 1] += step[a];
      size = std::max(size, std::abs(step[a]));
      largest = std::max(largest, std::abs(z[3 * a + 1]));
    }
    if (!std::isfinite(size)) return false;
    if (size <= 4e-16 * largest || size == 0) {
      for (int a = 0; a < m; ++a) w[a] = z[3 * a + 1];
      return true;
    }
  }
  return false;
}

namespace {

template <int M>
class MultiBoxScheme final : public MultiBox {
 public:
  using Vector = Eigen::VectorXd;
  using Block = Eigen::Matrix<double, M, M>;

  StepOutcome step(const MultiDensity& d, const Grid& g, State& s, double dt) override {
    const int n = g.points;
    d_ = &d, g_ = &g, dt_ = dt;
    old_ = nodeMajor(s.u, n);
    momentum_.assign(static_cast<std::size_t>(M * n), 0.0);
    const std::vector<double> rate = nodeMajor(s.v, n);
    Vector b(M * n);
    double largest = 0;
    for (int i = 0; i < n; ++i) {
      double ux[M];
      multiSlope(g, M, old_, i, ux);
      if (nodeMoves(g, i))
        multiMomentum(d, weight(g, i) * g.spacing(), &old_[static_cast<std::size_t>(i * M)],
                      &rate[static_cast<std::size_t>(i * M)], ux, g.x(i), &momentum_[static_cast<std::size_t>(i * M)]);
      for (int a = 0; a < M; ++a) {
        const int k = i * M + a;
        b[k] = old_[static_cast<std::size_t>(k)] + (nodeMoves(g, i) ? dt * rate[static_cast<std::size_t>(k)] : 0.0);
        largest = std::max(
            {largest, std::abs(old_[static_cast<std::size_t>(k)]), std::abs(b[k] - old_[static_cast<std::size_t>(k)])});
      }
    }
    scale_ = largest > 0 ? largest : 1.0;
    NewtonSettings settings;
    settings.what = "the box scheme's new time row";
    const StepOutcome out = solveNewton(*this, b, settings, workspace_);
    if (!out.ok) return out;
    if (!b.allFinite()) return newton_detail::residualNotFinite(settings.what, out.iterations);
    const std::vector<double> next(b.data(), b.data() + M * n);
    newMomentum(next);
    std::vector<double> velocity(static_cast<std::size_t>(M * n), 0.0);
    for (int i = 0; i < n; ++i) {
      if (!nodeMoves(g, i)) continue;
      double ux[M];
      multiSlope(g, M, next, i, ux);
      if (!multiVelocity(d, weight(g, i) * g.spacing(), &next[static_cast<std::size_t>(i * M)],
                         &momentum_[static_cast<std::size_t>(i * M)], ux, g.x(i),
                         &velocity[static_cast<std::size_t>(i * M)]))
        return StepOutcome::refuse(RefusalCode::NonFinite,
                                   "the density's momentum ∂ℒ/∂u_t cannot be inverted for u_t at the new row",
                                   Suggestion::reduceH(), out.iterations);
    }
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < M; ++a) {
        s.u[static_cast<std::size_t>(a * n + i)] = next[static_cast<std::size_t>(i * M + a)];
        s.v[static_cast<std::size_t>(a * n + i)] = velocity[static_cast<std::size_t>(i * M + a)];
      }
    s.t += dt;
    return out;
  }

  // Marsden–West §5.2, as BoxSchemeT::tangent: ∂²S/∂a∂b δb = −(∂²S/∂a² δa + δp) on the
  // scheme's own Newton matrix at b (δb = δa at a fixed end), δp' = ∂²S/∂b∂a δa + ∂²S/∂b² δb
  // (0 at a fixed end).
  bool tangent(const MultiDensity& d, const Grid& g, double dt, double, const std::vector<double>& a,
               const std::vector<double>& b, std::vector<double>& du, std::vector<double>& dp) override {
    const int n = g.points, C = 4 * M;
    d_ = &d, g_ = &g, dt_ = dt;
    old_ = nodeMajor(a, n);
    momentum_.assign(static_cast<std::size_t>(M * n), 0.0);
    const std::vector<double> next = nodeMajor(b, n), dOld = nodeMajor(du, n), dMomentum = nodeMajor(dp, n);
    const Vector row = Eigen::Map<const Vector>(next.data(), M * n);
    Vector r, x = Vector::Zero(M * n);
    if (evaluate(row, r, true) != NewtonEval::Ok) return false;
    // Each cell's Hessian and its corners' nodes; the old-row corners' rows (k = 0, 1) of
    // ∂²S/∂a² δa go to the right-hand side.
    std::vector<double> hessians(static_cast<std::size_t>(cellCount(g) * C * C));
    double y[4 * M], grad[4 * M];
    for (int c = 0; c < cellCount(g); ++c) {
      const int node[4] = {c, (c + 1) % n, c, (c + 1) % n};
      for (int k = 0; k < 4; ++k)
        for (int e = 0; e < M; ++e) y[k * M + e] = (k < 2 ? old_ : next)[static_cast<std::size_t>(node[k] * M + e)];
      double* h = &hessians[static_cast<std::size_t>(c * C * C)];
      multiCell(d, g.spacing(), dt, (c + 0.5) * g.spacing(), y, grad, h);
      for (int k = 0; k < 2; ++k)
        for (int e = 0; e < M; ++e)
          for (int l = 0; l < 2; ++l)
            for (int f = 0; f < M; ++f)
              x[node[k] * M + e] -= h[(k * M + e) * C + l * M + f] * dOld[static_cast<std::size_t>(node[l] * M + f)];
    }
    for (int i = 0; i < n; ++i)
      for (int e = 0; e < M; ++e) {
        const int k = i * M + e;
        x[k] = nodeMoves(g, i) ? x[k] - dMomentum[static_cast<std::size_t>(k)] : dOld[static_cast<std::size_t>(k)];
      }
    solve(x);
    std::vector<double> dNew(static_cast<std::size_t>(M * n), 0.0);
    for (int c = 0; c < cellCount(g); ++c) {
      const int node[4] = {c, (c + 1) % n, c, (c + 1) % n};
      const double* h = &hessians[static_cast<std::size_t>(c * C * C)];
      for (int k = 2; k < 4; ++k)
        for (int e = 0; e < M; ++e)
          for (int l = 0; l < 4; ++l)
            for (int f = 0; f < M; ++f) {
              const int at = node[l] * M + f;
              dNew[static_cast<std::size_t>(node[k] * M + e)] +=
                  h[(k * M + e) * C + l * M + f] * (l < 2 ? dOld[static_cast<std::size_t>(at)] : x[at]);
            }
    }
    for (int i = 0; i < n; ++i)
      for (int e = 0; e < M; ++e) {
        const std::size_t to = static_cast<std::size_t>(e * n + i), from = static_cast<std::size_t>(i * M + e);
        du[to] = x[static_cast<Eigen::Index>(from)];
        dp[to] = nodeMoves(g, i) ? dNew[from] : 0.0;
      }
    return x.allFinite();
  }

  // Newton's problem: r_i = ∂S/∂a_i (a, b) + p_i at the moving nodes, b_i − a_i at fixed ones.
  NewtonEval evaluate(const Vector& b, Vector& r, bool linearize) {
    const Grid& g = *g_;
    const int n = g.points;
    r = Eigen::Map<const Vector>(momentum_.data(), M * n);
    if (linearize) {
      lower_.assign(static_cast<std::size_t>(n), Block::Zero());
      diag_.assign(static_cast<std::size_t>(n), Block::Zero());
      upper_.assign(static_cast<std::size_t>(n), Block::Zero());
      cornerLow_.setZero(), cornerHigh_.setZero();
    }
    double y[4 * M], grad[4 * M], hess[16 * M * M];
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      for (int a = 0; a < M; ++a) {
        y[a] = old_[static_cast<std::size_t>(i * M + a)], y[M + a] = old_[static_cast<std::size_t>(j * M + a)];
        y[2 * M + a] = b[i * M + a], y[3 * M + a] = b[j * M + a];
      }
      multiCell(*d_, g.spacing(), dt_, (c + 0.5) * g.spacing(), y, grad, linearize ? hess : nullptr);
      for (int a = 0; a < M; ++a) r[i * M + a] += grad[a], r[j * M + a] += grad[M + a];
      if (!linearize) continue;
      const auto block = [&](int k, int l) {
        Block B;
        for (int a = 0; a < M; ++a)
          for (int e = 0; e < M; ++e) B(a, e) = hess[(k * M + a) * 4 * M + l * M + e];
        return B;
      };
      diag_[static_cast<std::size_t>(i)] += block(0, 2);
      diag_[static_cast<std::size_t>(j)] += block(1, 3);
      if (j == i + 1) {
        upper_[static_cast<std::size_t>(i)] += block(0, 3);
        lower_[static_cast<std::size_t>(j)] += block(1, 2);
      } else {  // the wrapping cell: row n − 1, column 0 and row 0, column n − 1
        cornerHigh_ += block(0, 3);
        cornerLow_ += block(1, 2);
      }
    }
    if (!r.allFinite()) return NewtonEval::NonFinite;
    for (int i = 0; i < n; ++i) {
      if (nodeMoves(g, i)) continue;
      for (int a = 0; a < M; ++a) r[i * M + a] = b[i * M + a] - old_[static_cast<std::size_t>(i * M + a)];
      if (linearize) {
        diag_[static_cast<std::size_t>(i)].setIdentity();
        lower_[static_cast<std::size_t>(i)].setZero(), upper_[static_cast<std::size_t>(i)].setZero();
      }
    }
    if (linearize && !factorize()) return NewtonEval::Singular;
    return NewtonEval::Ok;
  }
  double conditionEstimate() const { return solver_.pivotRatio(); }
  double size(const Vector& dx) const { return dx.cwiseAbs().maxCoeff() / scale_; }

  // Periodic ends: with x' the first n − 1 blocks and z the last, T x' + B z = r',
  // E x' + D z = r_z, so z = (D − E T⁻¹B)⁻¹ (r_z − E T⁻¹ r') and x' = T⁻¹r' − T⁻¹B z.
  void solve(Vector& x) const {
    solver_.solve(x.data());
    if (g_->ends != Ends::Periodic) return;
    const int n = g_->points, last = n - 1;
    Eigen::Matrix<double, M, 1> z = x.template segment<M>(M * last);
    z -= cornerHigh_ * x.template segment<M>(0) +
         lower_[static_cast<std::size_t>(last)] * x.template segment<M>(M * (last - 1));
    z = schurInverse_ * z;
    x.template segment<M>(M * last) = z;
    x.head(M * last) -= border_ * z;
  }

 private:
  bool factorize() {
    const int n = g_->points, blocks = g_->ends == Ends::Periodic ? n - 1 : n;
    solver_.resize(blocks);
    for (int i = 0; i < blocks; ++i) {
      solver_.lower(i) = lower_[static_cast<std::size_t>(i)];
      solver_.diag(i) = diag_[static_cast<std::size_t>(i)];
      solver_.upper(i) = upper_[static_cast<std::size_t>(i)];
    }
    if (!solver_.factorize()) return false;
    if (g_->ends != Ends::Periodic) return true;
    const int last = n - 1;
    border_ = Eigen::MatrixXd::Zero(M * last, M);
    border_.template block<M, M>(0, 0) = cornerLow_;
    border_.template block<M, M>(M * (last - 1), 0) += upper_[static_cast<std::size_t>(last - 1)];
    for (int col = 0; col < M; ++col) solver_.solve(border_.col(col).data());
    const Block schur = diag_[static_cast<std::size_t>(last)] - cornerHigh_ * border_.template block<M, M>(0, 0) -
                        lower_[static_cast<std::size_t>(last)] * border_.template block<M, M>(M * (last - 1), 0);
    const Eigen::FullPivLU<Block> lu(schur);
    if (!lu.isInvertible()) return false;
    schurInverse_ = lu.inverse();
    return schurInverse_.allFinite();
  }

  // p^{n+1}_i = ∂S/∂b_i (a, b) (zero at fixed ends), into momentum_.
  void newMomentum(const std::vector<double>& next) {
    const Grid& g = *g_;
    const int n = g.points;
    std::fill(momentum_.begin(), momentum_.end(), 0.0);
    double y[4 * M], grad[4 * M];
    for (int c = 0; c < cellCount(g); ++c) {
      const int i = c, j = (c + 1) % n;
      for (int a = 0; a < M; ++a) {
        y[a] = old_[static_cast<std::size_t>(i * M + a)], y[M + a] = old_[static_cast<std::size_t>(j * M + a)];
        y[2 * M + a] = next[static_cast<std::size_t>(i * M + a)],
                  y[3 * M + a] = next[static_cast<std::size_t>(j * M + a)];
      }
      multiCell(*d_, g.spacing(), dt_, (c + 0.5) * g.spacing(), y, grad, nullptr);
      for (int a = 0; a < M; ++a)
        momentum_[static_cast<std::size_t>(i * M + a)] += grad[2 * M + a],
            momentum_[static_cast<std::size_t>(j * M + a)] += grad[3 * M + a];
    }
    for (int i = 0; i < n; ++i)
      if (!nodeMoves(g, i))
        for (int a = 0; a < M; ++a) momentum_[static_cast<std::size_t>(i * M + a)] = 0;
  }

  static int cellCount(const Grid& g) { return g.ends == Ends::Periodic ? g.points : g.points - 1; }
  // A row component-major (component a's nodes at a·N) as the scheme's node-major one.
  static std::vector<double> nodeMajor(const std::vector<double>& row, int n) {
    std::vector<double> out(static_cast<std::size_t>(M * n));
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < M; ++a) out[static_cast<std::size_t>(i * M + a)] = row[static_cast<std::size_t>(a * n + i)];
    return out;
  }

  const MultiDensity* d_ = nullptr;
  const Grid* g_ = nullptr;
  double dt_ = 0, scale_ = 1;
  std::vector<double> old_, momentum_;
  std::vector<Block> lower_, diag_, upper_;
  Block cornerLow_ = Block::Zero(), cornerHigh_ = Block::Zero(), schurInverse_ = Block::Zero();
  Eigen::MatrixXd border_;
  BlockTridiagonal<M> solver_;
  NewtonWorkspace<Vector> workspace_;
};

}  // namespace

std::unique_ptr<MultiBox> makeMultiBox(int m) {
  switch (m) {
    case 1: return std::make_unique<MultiBoxScheme<1>>();
    case 2: return std::make_unique<MultiBoxScheme<2>>();
    case 3: return std::make_unique<MultiBoxScheme<3>>();
    default: return std::make_unique<MultiBoxScheme<4>>();
  }
}

}  // namespace vilab::field
