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

class RestrictedChartStepper {
 public:
  RestrictedChartStepper(const ChainModel& model, double h) : model_(model), h_(h) {
    const int n = model_.bobs();
    gradV_ = VecX::Zero(3 * n);
    mass_ = VecX::Zero(3 * n);
    for (int i = 0; i < n; ++i) {
      gradV_[3 * i + 2] = model_.masses[i] * model_.g;
      mass_.segment<3>(3 * i).setConstant(model_.masses[i]);
    }
  }

  StepOutcome step(VecX& x, VecX& p) {
    const int n = model_.bobs();
    // Stage 1: the chart centred on q_k: one orthonormal frame per link.
    Chart chart(model_);
    for (int i = 0; i < n; ++i) chart.frame(i, chainLink(x.data(), i));

    // Stage 2: Newton in the chart on Dψ(0)ᵀ [p_k + D1 L_d(q_k, q_k + δ(u))] = 0 from u = 0.
    // The Cartesian midpoint L_d of the chain (M constant, ∇V constant; W–M eq. 4.7):
    //     D1 L_d(q_k, q_k + δ) = −M δ/h − (h/2) ∇V,   ∂(D1 L_d)/∂δ = −M/h,
    //     (D1 + D2) L_d = −h ∇V.
    Problem problem(*this, chart, p);
    VecX u = VecX::Zero(chart.dimension());
    NewtonSettings settings;
    settings.what = "the discrete Euler–Lagrange equations in the chart";
    const StepOutcome out = solveNewton(problem, u, settings);
    if (!out.ok) return out;

    // Stage 3: positions from the chart (so |x_i − x_{i−1}| = l_i to rounding, without
    // accumulation), and p_{k+1} = D2 L_d in impulse form: with r = p_k + D1 L_d normal to
    // Q at q_k (= Dg(q_k)ᵀμ at the root), p_{k+1} = p_k − Dg(q_k)ᵀμ + (D1 + D2) L_d, then
    // its normal part at q_{k+1} removed, as the multiplier method does.
    const VecX delta = chart.displacement(u);
    VecX x1 = chart.positions(u);
    const VecX r = p - mass_.cwiseProduct(delta) / h_ - (0.5 * h_) * gradV_;
    if (!projector_.normalMultipliers(model_, x, r))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                                 Suggestion::reduceH(), out.iterations);
    VecX p1 = p - h_ * gradV_;
    projector_.subtractNormal(p1);
    if (!projector_.project(model_, x1, p1))
      return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                                 Suggestion::reduceH(), out.iterations);
    if (!x1.allFinite() || !p1.allFinite())
      return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                                 out.iterations);
    if (model_.planar)
      for (int i = 0; i < n; ++i) x1[3 * i + 1] = p1[3 * i + 1] = 0.0;
    x = x1;
    p = p1;
    return out;
  }

  // ψ: per link ℓ_i(α, β) = l_i (cos α cos β d_i + sin α cos β a_i + sin β b_i), bob
  // positions the sums of the links (β = 0 for the planar pendulum).
  struct Chart {
    const ChainModel& model;
    std::vector<Vec3> d, a, b;
    explicit Chart(const ChainModel& m) : model(m), d(m.bobs()), a(m.bobs()), b(m.bobs()) {}
    int perLink() const { return model.planar ? 1 : 2; }
    int dimension() const { return perLink() * model.bobs(); }

    void frame(int i, const Vec3& link) {
      d[i] = link / link.norm();
      if (model.planar) {
        a[i] = Vec3(d[i][2], 0.0, -d[i][0]);  // e_y × d: in the x–z plane
        b[i] = Vec3::Zero();
        return;
      }
      // The coordinate axis least aligned with d gives a well-conditioned normal.
      int axis = 0;
      for (int c = 1; c < 3; ++c)
        if (std::abs(d[i][c]) < std::abs(d[i][axis])) axis = c;
      a[i] = Vec3::Unit(axis).cross(d[i]);
      a[i] /= a[i].norm();
      b[i] = d[i].cross(a[i]);
    }
    // Link i's angles (α, β) in u, with their sines and cosines.
    struct LinkAngles {
      double al, be, sa, ca, sb, cb;
    };
    LinkAngles angles(const VecX& u, int i) const {
      LinkAngles t;
      t.al = u[perLink() * i];
      t.be = model.planar ? 0.0 : u[2 * i + 1];
      dm::sincos(t.al, t.sa, t.ca);
      dm::sincos(t.be, t.sb, t.cb);
      return t;
    }
    // Bob positions Σ_{j≤i} link_j(u) for a per-link map link(i, angles).
    template <class Link>
    VecX sumOfLinks(const VecX& u, Link link) const {
      VecX out(3 * model.bobs());
      Vec3 sum = Vec3::Zero();
      for (int i = 0; i < model.bobs(); ++i) {
        sum += link(i, angles(u, i));
        out.segment<3>(3 * i) = sum;
      }
      return out;
    }
    // δ(u) = ψ(u) − ψ(0), with cos α cos β − 1 = −2 sin²(α/2) cos β − 2 sin²(β/2) so that
    // small steps keep their relative precision.
    VecX displacement(const VecX& u) const {
      return sumOfLinks(u, [&](int i, const LinkAngles& t) -> Vec3 {
        const double sh = dm::sin(0.5 * t.al), shb = dm::sin(0.5 * t.be);
        return model.lengths[i] *
               ((-2.0 * sh * sh * t.cb - 2.0 * shb * shb) * d[i] + (t.sa * t.cb) * a[i] + t.sb * b[i]);
      });
    }
    // ψ(u) itself.
    VecX positions(const VecX& u) const {
      return sumOfLinks(u, [&](int i, const LinkAngles& t) -> Vec3 {
        return model.lengths[i] * ((t.ca * t.cb) * d[i] + (t.sa * t.cb) * a[i] + t.sb * b[i]);
      });
    }
    // Dψ(u): link i's derivatives move every bob from i on.
    Eigen::MatrixXd jacobian(const VecX& u) const {
      const int n = model.bobs(), per = perLink();
      Eigen::MatrixXd J = Eigen::MatrixXd::Zero(3 * n, dimension());
      for (int i = 0; i < n; ++i) {
        const LinkAngles t = angles(u, i);
        const double l = model.lengths[i];
        const Vec3 dAlpha = l * ((-t.sa * t.cb) * d[i] + (t.ca * t.cb) * a[i]);
        const Vec3 dBeta = l * ((-t.ca * t.sb) * d[i] + (-t.sa * t.sb) * a[i] + t.cb * b[i]);
        for (int j = i; j < n; ++j) {
          J.block<3, 1>(3 * j, per * i) = dAlpha;
          if (per == 2) J.block<3, 1>(3 * j, 2 * i + 1) = dBeta;
        }
      }
      return J;
    }
  };

  // The Newton problem of stage 2: F(u) = Dψ(0)ᵀ [p_k − M δ(u)/h − (h/2)∇V], with the
  // Jacobian −Dψ(0)ᵀ M Dψ(u)/h.
  struct Problem {
    using Vector = VecX;
    const RestrictedChartStepper& s;
    const Chart& chart;
    const VecX& pk;
    Eigen::MatrixXd P0;  // Dψ(0)
    double scale;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    double ratio = 1;

    Problem(const RestrictedChartStepper& stepper, const Chart& c, const VecX& p)
        : s(stepper), chart(c), pk(p), P0(c.jacobian(VecX::Zero(c.dimension()))) {
      // Angles turned per step: the links' rates times h, plus gravity's h² g / l from rest.
      double rate = 0, shortest = std::numeric_limits<double>::infinity();
      Vec3 vPrev = Vec3::Zero();
      for (int i = 0; i < s.model_.bobs(); ++i) {
        const Vec3 v = p.segment<3>(3 * i) / s.model_.masses[i];
        rate = std::max(rate, (v - vPrev).norm() / s.model_.lengths[i]);
        shortest = std::min(shortest, s.model_.lengths[i]);
        vPrev = v;
      }
      scale = s.h_ * rate + s.h_ * s.h_ * s.model_.g / shortest + std::numeric_limits<double>::min();
    }
    NewtonEval evaluate(const VecX& u, VecX& r, bool linearize) {
      const VecX delta = chart.displacement(u);
      r = P0.transpose() * (pk - s.mass_.cwiseProduct(delta) / s.h_ - (0.5 * s.h_) * s.gradV_);
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        const Eigen::MatrixXd J = -(P0.transpose() * s.mass_.asDiagonal() * chart.jacobian(u)) / s.h_;
        if (!J.allFinite()) return NewtonEval::NonFinite;
        lu.compute(J);
        const auto dg = lu.matrixLU().diagonal().cwiseAbs();
        if (!(dg.minCoeff() > 0)) return NewtonEval::Singular;
        ratio = dg.maxCoeff() / dg.minCoeff();
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return ratio; }
    void solve(VecX& b) const { b = lu.solve(b); }
    double size(const VecX& du) const { return du.cwiseAbs().maxCoeff() / scale; }
  };

 private:
  ChainModel model_;
  double h_;
  VecX gradV_, mass_;  // ∇V and the diagonal of M
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
