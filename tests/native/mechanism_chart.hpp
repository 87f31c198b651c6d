// Local canonical coordinates z = (u, p_u) on a mechanism's phase space T*Q, for checking
// the symplecticity of its one-step maps by finite differences (as charts.hpp does for
// the other models). Q is the joints' submanifold of (R³ × SO(3))ᴮ.
//
// The configuration chart, centred on a reference (x⁰, q⁰): each body is moved by
// w_b = (δx, e), x = x⁰ + δx and q = q⁰ ⊗ (√(1 − |e|²), e); the joints' constraints g(w)
// have the Jacobian A = ∂g/∂w at w = 0, T is an orthonormal basis of its kernel and
// N = Aᵀ spans the normals, and
//     ψ(u) = w(u) = T u + N λ(u),   g(w(u)) = 0,
// λ(u) by a fixed-point Newton iteration with A N frozen (the implicit function theorem
// makes ψ a smooth chart of Q near the reference). Its inverse is u = Tᵀ w (T ⊥ N).
// Derivatives Dψ come from forward-mode jets carried through the iteration, which
// converge with the values.
//
// The momenta: the cotangent vector of a body's (p, Π) in its coordinates (x, q) ∈ R⁷ is
// (p, 2 q ⊗ (0, Π)) (its pairing with (ẋ, q̇) is p·ẋ + Π·ω, ω = 2 vec(q* ⊗ q̇)), and
// p_u = Dψᵀ (that vector). Back, p is the momentum (m ẋ, J ω) of the tangent velocity
// Dψ v whose pairing with every Dψ δu is p_u·δu.
#pragma once

#include <algorithm>
#include <vector>

#include "vilab/ad.hpp"
#include "vilab/models/mechanism.hpp"

namespace vilab::test {

class MechanismChart {
 public:
  MechanismChart(const MechanismModel& model, const State& reference) : model_(model), q0_(reference.q) {
    const int n = 6 * model_.bodyCount(), c = rows();
    A_.resize(c, n);
    for (int j = 0; j < n; ++j) {
      Eigen::Matrix<Jet1, Eigen::Dynamic, 1> w(n);
      for (int k = 0; k < n; ++k) w[k] = k == j ? Jet1::variable(0.0, 0) : Jet1(0.0);
      const auto g = constraints<Jet1>(w);
      for (int i = 0; i < c; ++i) A_(i, j) = g[i].v[0];
    }
    N_ = A_.transpose();
    if (c == 0) {  // free bodies: the chart is the moves w themselves
      T_ = Eigen::MatrixXd::Identity(n, n);
      return;
    }
    Eigen::JacobiSVD<Eigen::MatrixXd> svd(A_, Eigen::ComputeFullV);
    // The joints are independent (validate() refuses a mechanism that is not): rank c.
    T_ = svd.matrixV().rightCols(n - c);
    ANinverse_ = (A_ * N_).inverse();
  }

  Eigen::Index dimension() const { return T_.cols(); }

  // z = (u, p_u) of a canonical state on Q.
  VecX lower(const State& s) const {
    VecX w(6 * model_.bodyCount());
    for (int b = 0; b < model_.bodyCount(); ++b) {
      w.segment<3>(6 * b) = s.q.segment<3>(7 * b) - q0_.segment<3>(7 * b);
      Vec4 r = quat::mul(quat::conj(Vec4(q0_.segment<4>(7 * b + 3))), Vec4(s.q.segment<4>(7 * b + 3)));
      if (r[0] < 0) r = -r;  // the chart's sign: q and −q are one rotation
      w.segment<3>(6 * b + 3) = r.tail<3>();
    }
    const VecX u = T_.transpose() * w;
    const Eigen::MatrixXd D = jacobianAt(u);
    VecX cot(7 * model_.bodyCount());
    for (int b = 0; b < model_.bodyCount(); ++b) {
      cot.segment<3>(7 * b) = s.p.segment<3>(6 * b);
      cot.segment<4>(7 * b + 3) =
          2.0 * quat::mul(Vec4(s.q.segment<4>(7 * b + 3)), quat::pure(Vec3(s.p.segment<3>(6 * b + 3))));
    }
    VecX z(2 * u.size());
    z << u, D.transpose() * cot;
    return z;
  }

  // The canonical state of z = (u, p_u).
  State lift(const VecX& z) const {
    const Eigen::Index m = z.size() / 2;
    const VecX u = z.head(m), pu = z.tail(m);
    State s;
    s.q = configuration<double>(u);
    const Eigen::MatrixXd D = jacobianAt(u);
    // Column j: the momenta of the velocity D e_j and their pairing with every D e_i.
    Eigen::MatrixXd P(6 * model_.bodyCount(), m), K(m, m);
    for (Eigen::Index j = 0; j < m; ++j) {
      const VecX qdot = D.col(j);
      VecX cot(7 * model_.bodyCount());
      for (int b = 0; b < model_.bodyCount(); ++b) {
        const MechanismBody& body = model_.bodies[static_cast<std::size_t>(b)];
        const Vec4 q = s.q.segment<4>(7 * b + 3);
        const Vec3 omega = 2.0 * quat::mul(quat::conj(q), Vec4(qdot.segment<4>(7 * b + 3))).tail<3>();
        const Vec3 p = body.mass * qdot.segment<3>(7 * b), Pi = body.inertia * omega;
        P.col(j).segment<3>(6 * b) = p;
        P.col(j).segment<3>(6 * b + 3) = Pi;
        cot.segment<3>(7 * b) = p;
        cot.segment<4>(7 * b + 3) = 2.0 * quat::mul(q, quat::pure(Pi));
      }
      K.col(j) = D.transpose() * cot;
    }
    s.p = P * K.ldlt().solve(pu);
    return s;
  }

 private:
  using Jet1 = Jet<double, 1>;

  // The joints' constraints at the bodies moved by w (the rows of MechanismModel::constraints).
  template <class S>
  Eigen::Matrix<S, Eigen::Dynamic, 1> constraints(const Eigen::Matrix<S, Eigen::Dynamic, 1>& w) const {
    const int B = model_.bodyCount();
    std::vector<Vec<S, 3>> x(static_cast<std::size_t>(B));
    std::vector<Mat<S, 3, 3>> R(static_cast<std::size_t>(B));
    const auto q = configurationOf<S>(w);
    for (int b = 0; b < B; ++b) {
      x[static_cast<std::size_t>(b)] = q.template segment<3>(7 * b);
      R[static_cast<std::size_t>(b)] = quat::matrix<S>(q.template segment<4>(7 * b + 3));
    }
    Eigen::Matrix<S, Eigen::Dynamic, 1> g(rows());
    const auto cast = [](const Vec3& v) { return Vec<S, 3>(S(v[0]), S(v[1]), S(v[2])); };
    const auto castM = [](const Mat3& M) {
      Mat<S, 3, 3> r;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) r(i, k) = S(M(i, k));
      return r;
    };
    int row = 0;
    for (const MechanismJoint& j : model_.joints) {
      const auto& Rc = R[static_cast<std::size_t>(j.child)];
      const Mat<S, 3, 3> Rp = j.parent < 0 ? castM(Mat3::Identity()) : R[static_cast<std::size_t>(j.parent)];
      const Vec<S, 3> xp = j.parent < 0 ? cast(Vec3::Zero()) : x[static_cast<std::size_t>(j.parent)];
      g.template segment<3>(row) =
          xp + Rp * cast(j.parentPoint) - x[static_cast<std::size_t>(j.child)] - Rc * cast(j.childPoint);
      row += 3;
      if (j.kind == JointKind::Hinge) {
        Vec3 b, d;
        MechanismModel::perpendiculars(j.childAxis, b, d);
        const Vec<S, 3> a = Rp * cast(j.parentAxis);
        g[row++] = a.dot(Rc * cast(b));
        g[row++] = a.dot(Rc * cast(d));
      } else if (j.kind == JointKind::Fixed) {
        const Mat<S, 3, 3> E = castM(j.relative.transpose()) * Rp.transpose() * Rc;
        g[row++] = 0.5 * (E(2, 1) - E(1, 2));
        g[row++] = 0.5 * (E(0, 2) - E(2, 0));
        g[row++] = 0.5 * (E(1, 0) - E(0, 1));
      }
    }
    // A point mass (no inertia) does not turn: its rotation is held at the centre's.
    for (int b = 0; b < B; ++b)
      if (pointMass(b))
        for (int k = 0; k < 3; ++k) g[row++] = w[6 * b + 3 + k];
    return g;
  }

  bool pointMass(int b) const { return model_.bodies[static_cast<std::size_t>(b)].inertia.isZero(0); }

  // The joints' rows and three per point mass.
  int rows() const {
    int r = model_.constraintCount();
    for (int b = 0; b < model_.bodyCount(); ++b) r += pointMass(b) ? 3 : 0;
    return r;
  }

  // Per body (x, q) of the move w.
  template <class S>
  Eigen::Matrix<S, Eigen::Dynamic, 1> configurationOf(const Eigen::Matrix<S, Eigen::Dynamic, 1>& w) const {
    const int B = model_.bodyCount();
    Eigen::Matrix<S, Eigen::Dynamic, 1> q(7 * B);
    for (int b = 0; b < B; ++b) {
      for (int k = 0; k < 3; ++k) q[7 * b + k] = S(q0_[7 * b + k]) + w[6 * b + k];
      const S e0 = w[6 * b + 3], e1 = w[6 * b + 4], e2 = w[6 * b + 5];
      const Vec<S, 4> r(math::sqrt(S(1.0) - (e0 * e0 + e1 * e1 + e2 * e2)), e0, e1, e2);
      Vec<S, 4> q0;
      for (int k = 0; k < 4; ++k) q0[k] = S(q0_[7 * b + 3 + k]);
      q.template segment<4>(7 * b + 3) = quat::mul<S>(q0, r);
    }
    return q;
  }

  // ψ(u): w = T u + N λ with g(w) = 0, then the bodies' (x, q).
  template <class S>
  Eigen::Matrix<S, Eigen::Dynamic, 1> configuration(const Eigen::Matrix<S, Eigen::Dynamic, 1>& u) const {
    using VS = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    const Eigen::Index n = T_.rows(), c = N_.cols();
    VS tangent = VS::Constant(n, S(0.0));
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index k = 0; k < u.size(); ++k) tangent[i] += T_(i, k) * u[k];
    VS lambda = VS::Constant(c, S(0.0));
    const auto move = [&](const VS& l) {
      VS w = tangent;
      for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index k = 0; k < c; ++k) w[i] += N_(i, k) * l[k];
      return w;
    };
    for (int iteration = 0; c > 0 && iteration < 200; ++iteration) {
      const VS g = constraints<S>(move(lambda));
      double change = 0;
      for (Eigen::Index k = 0; k < c; ++k) {
        // λ ← λ − (A N)⁻¹ g, row by row of the frozen inverse.
        S delta(0.0);
        for (Eigen::Index i = 0; i < c; ++i) delta += ANinverse_(k, i) * g[i];
        lambda[k] -= delta;
        change = std::max(change, magnitude(delta));
      }
      if (change <= 1e-16) break;
    }
    return configurationOf<S>(move(lambda));
  }

  static double magnitude(double x) { return std::abs(x); }
  static double magnitude(const Jet1& x) { return std::max(std::abs(x.a), std::abs(x.v[0])); }

  // Dψ(u) (7B × dim Q), column by column.
  Eigen::MatrixXd jacobianAt(const VecX& u) const {
    const Eigen::Index m = u.size();
    Eigen::MatrixXd D(7 * model_.bodyCount(), m);
    for (Eigen::Index j = 0; j < m; ++j) {
      Eigen::Matrix<Jet1, Eigen::Dynamic, 1> uu(m);
      for (Eigen::Index k = 0; k < m; ++k) uu[k] = k == j ? Jet1::variable(u[k], 0) : Jet1(u[k]);
      const auto q = configuration<Jet1>(uu);
      for (Eigen::Index i = 0; i < q.size(); ++i) D(i, j) = q[i].v[0];
    }
    return D;
  }

  MechanismModel model_;
  VecX q0_;
  Eigen::MatrixXd A_, T_, N_;
  Eigen::MatrixXd ANinverse_;  // (A N)⁻¹, frozen at the centre
};

}  // namespace vilab::test
