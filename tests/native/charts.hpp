// Local canonical coordinates z = (u, p_u) on each model's phase space, for checking
// symplecticity of one-step maps by finite differences: a map Φ of canonical
// states is symplectic iff, read in canonical coordinates, its Jacobian J satisfies
// JᵀΩJ = Ω. The chart is the cotangent lift of a configuration chart ψ centred on a
// reference state: p_u = Dψ(u)ᵀ p, and back, p is the momentum whose pairing with
// every tangent vector Dψ(u)δu is p_u·δu.
#pragma once

#include <functional>

#include "support.hpp"
#include "vilab/ad.hpp"
#include "vilab/models/model.hpp"

namespace vilab::test {

class CotangentChart {
 public:
  // Centred on `s`. `onManifold` false: the phase space is all of T*R^n (penalty
  // springs), and the chart is the identity.
  CotangentChart(const Model& model, const State& s, bool onManifold) : model_(model), onManifold_(onManifold) {
    if (!onManifold_) return;
    if (const auto* c = std::get_if<ChainModel>(&model_)) {
      for (int i = 0; i < c->bobs(); ++i) {
        const Vec3 d = chainLink(s.q.data(), i).normalized();
        d_.push_back(d);
        if (c->planar) {
          a_.push_back(Vec3(d[2], 0.0, -d[0]));
          b_.push_back(Vec3::Zero());
        } else {
          int axis = 0;
          for (int k = 1; k < 3; ++k)
            if (std::abs(d[k]) < std::abs(d[axis])) axis = k;
          const Vec3 a = Vec3::Unit(axis).cross(d).normalized();
          a_.push_back(a);
          b_.push_back(d.cross(a));
        }
      }
    }
    if (std::get_if<RigidBodyModel>(&model_)) q0_ = s.q;
  }

  // z = (u, p_u) of a state.
  VecX lower(const State& s) const {
    if (!onManifold_ || identity()) {
      const std::vector<int> k = freeComponents(s.q.size());
      const Eigen::Index n = static_cast<Eigen::Index>(k.size());
      VecX z(2 * n);
      for (Eigen::Index i = 0; i < n; ++i) {
        z[i] = s.q[k[i]];
        z[n + i] = s.p[k[i]];
      }
      return z;
    }
    const VecX u = inverse(s.q);
    const Eigen::MatrixXd D = jacobianAt(u);
    VecX z(2 * u.size());
    z << u, D.transpose() * cotangentVector(s);
    return z;
  }

  // The state of z = (u, p_u).
  State lift(const VecX& z) const {
    State s;
    if (!onManifold_ || identity()) {
      const Eigen::Index n = z.size() / 2;
      const auto* c = std::get_if<ChainModel>(&model_);
      const auto* f = std::get_if<FieldModel>(&model_);
      const Eigen::Index size = c ? 3 * c->bobs() : f ? f->size() : n;
      const std::vector<int> k = freeComponents(size);
      s.q = VecX::Zero(size);
      s.p = VecX::Zero(size);
      for (Eigen::Index i = 0; i < n; ++i) {
        s.q[k[i]] = z[i];
        s.p[k[i]] = z[n + i];
      }
      return s;
    }
    const Eigen::Index m = z.size() / 2;
    const VecX u = z.head(m), pu = z.tail(m);
    const Eigen::MatrixXd D = jacobianAt(u);
    s.q = position(u);
    if (const auto* c = std::get_if<ChainModel>(&model_)) {
      // p = M D (Dᵀ M D)⁻¹ p_u: the momentum of the tangent velocity with pairing p_u.
      VecX masses(s.q.size());
      for (int i = 0; i < c->bobs(); ++i) masses.segment<3>(3 * i).setConstant(c->masses[i]);
      const Eigen::MatrixXd MD = masses.asDiagonal() * D;
      s.p = MD * (D.transpose() * MD).ldlt().solve(pu);
    } else {
      // Rigid body: p4 = D (DᵀD)⁻¹ p_u is tangent to S³ with pairing p_u; Π = ½ vec(q* ⊗ p4).
      const Vec4 p4 = D * (D.transpose() * D).ldlt().solve(pu);
      const Vec4 q = s.q;
      s.p = 0.5 * quat::mul(quat::conj(q), p4).tail<3>();
    }
    return s;
  }

 private:
  // (q, p) are canonical coordinates already: the oscillator, fields, and systems
  // defined by data without constraints.
  bool identity() const {
    if (std::get_if<OscillatorModel>(&model_) || std::get_if<FieldModel>(&model_)) return true;
    const auto* l = std::get_if<LagrangianModel>(&model_);
    return l && l->problem->c == 0;
  }

  // Coordinates of an unconstrained Cartesian phase space: all of them, but y for the
  // planar pendulum and a field's fixed ends (held at u = 0, p = 0; every component's,
  // stored component-major).
  std::vector<int> freeComponents(Eigen::Index size) const {
    const auto* c = std::get_if<ChainModel>(&model_);
    const auto* f = std::get_if<FieldModel>(&model_);
    std::vector<int> k;
    for (int i = 0; i < static_cast<int>(size); ++i)
      if (!(c && c->planar && i % 3 == 1) && !(f && !f->moves(i % f->points()))) k.push_back(i);
    return k;
  }

  // The cotangent vector in the configuration space's own coordinates.
  VecX cotangentVector(const State& s) const {
    if (std::get_if<RigidBodyModel>(&model_)) return 2.0 * quat::mul(Vec4(s.q), quat::pure(Vec3(s.p)));
    return s.p;
  }

  template <class S>
  Eigen::Matrix<S, Eigen::Dynamic, 1> positionT(const Eigen::Matrix<S, Eigen::Dynamic, 1>& u) const {
    using VS = Eigen::Matrix<S, Eigen::Dynamic, 1>;
    if (const auto* c = std::get_if<ChainModel>(&model_)) {
      const int per = c->planar ? 1 : 2;
      VS x(3 * c->bobs());
      Vec<S, 3> sum = Vec<S, 3>::Constant(S(0.0));
      for (int i = 0; i < c->bobs(); ++i) {
        const S al = u[per * i], be = c->planar ? S(0.0) : u[2 * i + 1];
        const S ca = math::cos(al), sa = math::sin(al), cb = math::cos(be), sb = math::sin(be);
        for (int k = 0; k < 3; ++k) sum[k] += c->lengths[i] * (ca * cb * d_[i][k] + sa * cb * a_[i][k] + sb * b_[i][k]);
        x.template segment<3>(3 * i) = sum;
      }
      return x;
    }
    // q = q0 ⊗ (√(1 − |u|²), u)
    Vec<S, 4> r;
    r[0] = math::sqrt(S(1.0) - (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
    r[1] = u[0];
    r[2] = u[1];
    r[3] = u[2];
    Vec<S, 4> q0;
    for (int k = 0; k < 4; ++k) q0[k] = S(q0_[k]);
    const Vec<S, 4> q = quat::mul(q0, r);
    return VS(q);
  }
  VecX position(const VecX& u) const { return positionT<double>(u); }

  Eigen::MatrixXd jacobianAt(const VecX& u) const {
    const Eigen::Index m = u.size();
    Eigen::MatrixXd J;
    using D = Jet<double, 1>;
    for (Eigen::Index j = 0; j < m; ++j) {
      Eigen::Matrix<D, Eigen::Dynamic, 1> uu(m);
      for (Eigen::Index k = 0; k < m; ++k) uu[k] = k == j ? D::variable(u[k], 0) : D(u[k]);
      const auto x = positionT<D>(uu);
      if (J.size() == 0) J.resize(x.size(), m);
      for (Eigen::Index i = 0; i < x.size(); ++i) J(i, j) = x[i].v[0];
    }
    return J;
  }

  VecX inverse(const VecX& q) const {
    if (const auto* c = std::get_if<ChainModel>(&model_)) {
      const int per = c->planar ? 1 : 2;
      VecX u(per * c->bobs());
      for (int i = 0; i < c->bobs(); ++i) {
        const Vec3 e = chainLink(q.data(), i) / c->lengths[i];
        const double x = e.dot(d_[i]), y = e.dot(a_[i]), z = e.dot(b_[i]);
        u[per * i] = dm::atan2(y, x);
        if (!c->planar) u[2 * i + 1] = dm::atan2(z, dm::hypot(x, y));
      }
      return u;
    }
    // r = q0* ⊗ q; u = vec r (with w ≥ 0, the chart's sign).
    Vec4 r = quat::mul(quat::conj(Vec4(q0_)), Vec4(q));
    if (r[0] < 0) r = -r;
    return r.tail<3>();
  }

  Model model_;
  bool onManifold_;
  std::vector<Vec3> d_, a_, b_;
  VecX q0_;
};

// The Jacobian at z0 of a map f of canonical coordinates z = (u, p_u): fourth-order central
// differences, Richardson-extrapolated (sixth order), with steps `step` in the positions and
// `step` times the largest |p_u| (at least 0.1) in the momenta: light chains have small p_u,
// and an absolute step would let truncation error dominate; smaller steps let the solvers'
// rounding dominate.
inline Eigen::MatrixXd canonicalJacobian(const std::function<VecX(const VecX&)>& f, const VecX& z0, double step) {
  const Eigen::Index m = z0.size() / 2;
  VecX steps(z0.size());
  steps.head(m).setConstant(step);
  steps.tail(m).setConstant(step * std::max(z0.tail(m).cwiseAbs().maxCoeff(), 0.1));
  const Eigen::MatrixXd J4 = finiteDifferenceJacobian(f, z0, steps);
  return (16 * finiteDifferenceJacobian(f, z0, steps / 2) - J4) / 15;
}

// ‖JᵀΩJ − Ω‖_max of a map of canonical coordinates.
inline double symplecticDefect(const Eigen::MatrixXd& J) {
  const Eigen::Index n = J.rows() / 2;
  Eigen::MatrixXd Omega = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  Omega.topRightCorner(n, n).setIdentity();
  Omega.bottomLeftCorner(n, n) = -Eigen::MatrixXd::Identity(n, n);
  return (J.transpose() * Omega * J - Omega).cwiseAbs().maxCoeff();
}

}  // namespace vilab::test
