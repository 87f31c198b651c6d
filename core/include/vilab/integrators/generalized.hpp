// Generalized coordinates for pendulums (one or two links), two ways.
//
// 1. RestrictedChartStepper — Wendlandt & Marsden §4.2. The constrained discrete
//    Lagrangian is the Cartesian one restricted to Q × Q through a chart ψ,
//        L_d^c(u_k, u_{k+1}) = L_d(ψ(u_k), ψ(u_{k+1})),
//    and the DEL equations are solved in the chart:
//        Dψ(u_k)ᵀ [p_k + D1 L_d(ψ(u_k), ψ(u_{k+1}))] = 0,
//    i.e. p_k + D1 L_d is normal to Q at q_k, which is W–M's eq. 4.5 with the
//    multiplier eliminated. So this is exactly the map of the multiplier
//    formulation (W–M §4.3), whatever the chart, and the chart may change every step:
//    each step uses a chart centred on the current configuration (every link at the
//    chart's origin, 90° from its poles), so no coordinate singularity is ever near.
//    Per link, with the orthonormal frame (d, a, b) of the current link direction d,
//        ℓ(α, β) = l (cos α cos β d + sin α cos β a + sin β b)   (planar: β = 0, a = e_y × d).
//    The momentum is the discrete Legendre transform p_{k+1} = D2 L_d, in impulse form
//    and tangent like the multiplier method's, so the canonical state is the same.
//
// 2. AnglesStepper — the midpoint rule of the Lagrangian written in one global chart,
//    L_d = h L(ū, (u_{k+1} − u_k)/h) with u = (θ, φ) spherical angles per link. It is a
//    different discrete map (it discretizes the chart, not the configuration), and the
//    chart is singular at the poles θ = 0, π: near the straight-down configuration the
//    φ-inertia m l² sin²θ vanishes and the Newton matrix loses rank, so steps there are
//    refused. It is kept as the lesson about coordinate singularities.
#pragma once

#include <cmath>
#include <limits>

#include "vilab/integrators/chain_projection.hpp"
#include "vilab/integrators/integrator.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/lagrangians/chain.hpp"

namespace vilab {

template <int Links, bool Planar>
class RestrictedChartStepper {
 public:
  static constexpr int PerLink = Planar ? 1 : 2;
  static constexpr int M = PerLink * Links;  // chart dimension
  static constexpr int N = 3 * Links;        // Cartesian dimension
  using VecM = Vec<double, M>;
  using VecN = Vec<double, N>;
  using MatNM = Mat<double, N, M>;

  RestrictedChartStepper(const ChainModel& model, double h)
      : model_(model), cartesian_(ChainCartesian<Links>{model}, DiscreteRule::midpoint(), h), h_(h) {}

  StepOutcome step(VecX& x, VecX& p) {
    // Stage 1: the chart centred on q_k: one orthonormal frame per link.
    Chart chart;
    for (int i = 0; i < Links; ++i) chart.frame(i, chainLink(x.data(), i), Planar);
    chart.lengths = model_.lengths;
    const VecN xk = x.head<N>(), pk = p.head<N>();

    // Stage 2: Newton in the chart on Dψ(0)ᵀ [p_k + D1 L_d(q_k, q_k + δ(u))] = 0 from u = 0.
    Problem problem(*this, chart, xk, pk);
    VecM u = VecM::Zero();
    NewtonSettings settings;
    settings.fullNewton = false;  // the nested-AD Jacobian is the costly part
    settings.what = "the discrete Euler–Lagrange equations in the chart";
    const StepOutcome out = solveNewton(problem, u, settings);
    if (!out.ok) return out;

    // Stage 3: positions from the chart (so |x_i − x_{i−1}| = l_i to rounding, without
    // accumulation), and p_{k+1} = D2 L_d in impulse form: with r = p_k + D1 L_d normal to
    // Q at q_k (= Dg(q_k)ᵀμ at the root), p_{k+1} = p_k − Dg(q_k)ᵀμ + (D1 + D2) L_d, then
    // its normal part at q_{k+1} removed, as the multiplier method does.
    const VecN delta = chart.displacement(u);
    const VecN x1 = chart.positions(u);
    VecX r = pk + cartesian_.d1Step(xk, delta);
    if (!projector_.normalMultipliers(model_, x, r))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other", "reduce h",
                                 out.iterations);
    VecX p1 = pk + cartesian_.shiftDerivative(xk, delta);
    projector_.subtractNormal(p1);
    VecX x1x = x1;
    if (!projector_.project(model_, x1x, p1))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other", "reduce h",
                                 out.iterations);
    if (!x1x.allFinite() || !p1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", "reduce h", out.iterations);
    if (Planar)
      for (int i = 0; i < Links; ++i) x1x[3 * i + 1] = p1[3 * i + 1] = 0.0;
    x = x1x;
    p = p1;
    return out;
  }

  // ψ: per link ℓ_i(α, β) = l_i (cos α cos β d_i + sin α cos β a_i + sin β b_i).
  struct Chart {
    Vec3 d[Links], a[Links], b[Links];
    std::vector<double> lengths;

    void frame(int i, const Vec3& link, bool planar) {
      d[i] = link / link.norm();
      if (planar) {
        a[i] = Vec3(d[i][2], 0.0, -d[i][0]);  // e_y × d: in the x–z plane
        b[i] = Vec3::Zero();
        return;
      }
      // The coordinate axis least aligned with d gives a well-conditioned normal.
      int axis = 0;
      for (int c = 1; c < 3; ++c)
        if (std::abs(d[i][c]) < std::abs(d[i][axis])) axis = c;
      const Vec3 e = Vec3::Unit(axis);
      a[i] = e.cross(d[i]);
      a[i] /= a[i].norm();
      b[i] = d[i].cross(a[i]);
    }

    // δ(u) = ψ(u) − ψ(0), bob by bob, with cos α cos β − 1 = −2 sin²(α/2) cos β − 2 sin²(β/2)
    // so that small steps keep their relative precision.
    template <class S>
    Vec<S, N> displacementT(const Vec<S, M>& u) const {
      Vec<S, N> out;
      Vec<S, 3> sum = Vec<S, 3>::Constant(S(0.0));
      for (int i = 0; i < Links; ++i) {
        const S al = u[PerLink * i];
        const S sa = math::sin(al), sh = math::sin(al * 0.5);
        Vec<S, 3> dl;
        if constexpr (Planar) {
          const S c1 = -2.0 * sh * sh;
          for (int c = 0; c < 3; ++c) dl[c] = lengths[i] * (c1 * d[i][c] + sa * a[i][c]);
        } else {
          const S be = u[2 * i + 1];
          const S sb = math::sin(be), cb = math::cos(be), shb = math::sin(be * 0.5);
          const S c1 = -2.0 * sh * sh * cb - 2.0 * shb * shb;
          const S c2 = sa * cb;
          for (int c = 0; c < 3; ++c) dl[c] = lengths[i] * (c1 * d[i][c] + c2 * a[i][c] + sb * b[i][c]);
        }
        sum += dl;
        out.template segment<3>(3 * i) = sum;
      }
      return out;
    }
    VecN displacement(const VecM& u) const { return displacementT<double>(u); }
    // Dψ(u), by AD.
    MatNM jacobianAt(const VecM& u) const {
      MatNM J;
      jacobian<M, N>([&](const auto& uu) { return displacementT(uu); }, u, J);
      return J;
    }
    // ψ(u) itself: bob positions from the anchor.
    VecN positions(const VecM& u) const {
      VecN out;
      Vec3 sum = Vec3::Zero();
      for (int i = 0; i < Links; ++i) {
        const double al = u[PerLink * i], be = Planar ? 0.0 : u[2 * i + 1];
        double sa, ca, sb, cb;
        dm::sincos(al, sa, ca);
        dm::sincos(be, sb, cb);
        sum += lengths[i] * (ca * cb * d[i] + sa * cb * a[i] + sb * b[i]);
        out.template segment<3>(3 * i) = sum;
      }
      return out;
    }
  };

  struct Problem {
    using Vector = VecM;
    const RestrictedChartStepper& s;
    const Chart& chart;
    const VecN& xk;
    const VecN& pk;
    MatNM P0;  // Dψ(0)
    double scale;
    DenseLU<M> lu;

    Problem(const RestrictedChartStepper& stepper, const Chart& c, const VecN& x, const VecN& p)
        : s(stepper), chart(c), xk(x), pk(p) {
      P0 = chart.jacobianAt(VecM::Zero());
      // Angles turned per step: the links' rates times h, plus gravity's h² g / l from rest.
      double rate = 0, shortest = std::numeric_limits<double>::infinity();
      Vec3 vPrev = Vec3::Zero();
      for (int i = 0; i < Links; ++i) {
        const Vec3 v = p.template segment<3>(3 * i) / s.model_.masses[i];
        rate = std::max(rate, (v - vPrev).norm() / s.model_.lengths[i]);
        shortest = std::min(shortest, s.model_.lengths[i]);
        vPrev = v;
      }
      scale = s.h_ * rate + s.h_ * s.h_ * s.model_.g / shortest + std::numeric_limits<double>::min();
    }
    NewtonEval evaluate(const VecM& u, VecM& r, bool linearize) {
      const VecN delta = chart.displacement(u);
      Mat<double, N, N> J11;
      const VecN d1 = s.cartesian_.d1Step(xk, delta, linearize ? &J11 : nullptr);
      r = P0.transpose() * (pk + d1);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize && !lu.factorize(P0.transpose() * J11 * chart.jacobianAt(u))) return NewtonEval::Singular;
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return lu.pivotRatio(); }
    void solve(VecM& b) const { lu.solveInPlace(b); }
    double size(const VecM& du) const { return du.cwiseAbs().maxCoeff() / scale; }
  };

 private:
  ChainModel model_;
  VariationalIntegrator<ChainCartesian<Links>> cartesian_;
  double h_;
  ChainMomentumProjector projector_;
};

// The midpoint rule in one global chart of spherical angles (see 2. above). Private
// state (u, p_u); the canonical state is Cartesian.
template <int Links, bool Planar>
class AnglesIntegrator final : public Integrator {
 public:
  using System = ChainAngles<Links, Planar>;
  static constexpr int M = System::N;
  static constexpr int PerLink = System::PerLink;
  using VecM = Vec<double, M>;

  AnglesIntegrator(const ChainModel& model, double h) : vi_(System{model}, DiscreteRule::midpoint(), h) {}

  // Angles of each link from Cartesian positions; at a pole (sin θ = 0) φ is undefined
  // and taken from the link's velocity so that φ̇ = 0 there. p_u = Dψ(u)ᵀ p.
  void load(const State& s) override {
    const ChainModel& m = vi_.system().model;
    Vec3 prev = Vec3::Zero(), vPrev = Vec3::Zero();
    for (int i = 0; i < Links; ++i) {
      const Vec3 xi = s.q.segment<3>(3 * i), vi = s.p.segment<3>(3 * i) / m.masses[i];
      const Vec3 d = (xi - prev) / m.lengths[i], w = (vi - vPrev) / m.lengths[i];
      prev = xi;
      vPrev = vi;
      if (Planar) {
        u_[i] = dm::atan2(d[0], -d[2]);
        continue;
      }
      const double rho = dm::hypot(d[0], d[1]);
      u_[2 * i] = dm::atan2(rho, -d[2]);
      u_[2 * i + 1] = rho < 1e-12 ? dm::atan2(w[1], w[0]) : dm::atan2(d[1], d[0]);
    }
    Mat<double, 3 * Links, M> J;
    jacobian<M, 3 * Links>([&](const auto& uu) { return positions(uu); }, u_, J);
    pu_ = J.transpose() * Vec<double, 3 * Links>(s.p);
  }
  StepOutcome step() override { return vi_.step(u_, pu_); }
  // x = ψ(u); p = M ẋ with ẋ = Dψ(u) u̇, u̇ from the Legendre transform of the chart.
  void store(State& s) const override {
    const ChainModel& m = vi_.system().model;
    VecM du;
    if (!Mechanics<System>::velocity(vi_.system(), u_, pu_, du)) du.setZero();
    Vec<double, 3 * Links> x, v;
    vi_.system().cartesian(u_, du, x, v);
    s.q = x;
    for (int i = 0; i < Links; ++i) v.template segment<3>(3 * i) *= m.masses[i];
    s.p = v;
  }

 private:
  template <class S>
  Vec<S, 3 * Links> positions(const Vec<S, M>& u) const {
    Vec<S, 3 * Links> x, v;
    vi_.system().cartesian(u, Vec<S, M>::Constant(S(0.0)).eval(), x, v);
    return x;
  }

  VariationalIntegrator<System> vi_;
  VecM u_, pu_;
};

}  // namespace vilab
