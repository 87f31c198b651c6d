// Steppers: integrators bound to systems behind the Stepper interface.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "vilab/integrators/chain_multiplier.hpp"
#include "vilab/integrators/energy_momentum.hpp"
#include "vilab/integrators/odes.hpp"
#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/integrators/variational.hpp"
#include "vilab/stepper.hpp"
#include "vilab/systems/chain.hpp"
#include "vilab/systems/oscillator.hpp"

namespace vilab {

// ---- chain diagnostics, shared by every treatment ------------------------------
// Energy ½ Σ |p_i|²/m_i + V + extra, J_z (unless planar), and the link-length error.
inline Diagnostics chainDiagnostics(const ChainModel& m, const double* x, const double* p, double extraPotential = 0) {
  Diagnostics d;
  double T = 0;
  for (int i = 0; i < m.bobs(); ++i)
    T += 0.5 * (p[3 * i] * p[3 * i] + p[3 * i + 1] * p[3 * i + 1] + p[3 * i + 2] * p[3 * i + 2]) / m.masses[i];
  d.energy = T + m.potential(x) + extraPotential;
  if (!m.planar) {
    d.momentumSize = 1;
    d.momentum[0] = verticalAngularMomentum(m.bobs(), x, p);
  }
  d.constraint = linkLengthError(m, x);
  return d;
}

// Checks Cartesian chain data against the constraint manifold (tolerance 1e-9) and
// projects it there exactly: link vectors rescaled to their lengths, relative
// velocities made orthogonal to their links. Throws InputError naming the field.
void projectChainState(const ChainModel& m, VecX& x, VecX& v, const std::string& positionsField,
                       const std::string& velocitiesField);

inline void requireSize(const VecX& a, Eigen::Index n, const char* field) {
  if (a.size() != n)
    throw InputError(field, "expected " + std::to_string(n) + " numbers, got " + std::to_string(a.size()));
  if (!a.allFinite()) throw InputError(field, "must contain finite numbers only");
}

// ---- chain, structured O(N) paths ------------------------------------------------
// Binds a chain integrator with an O(N) step (ChainMultiplierIntegrator,
// ChainEnergyMomentumIntegrator) to Cartesian state q = positions, p = M ẋ.
template <class Integrator>
class ChainStructuredStepper : public Stepper {
 public:
  ChainStructuredStepper(Integrator integrator, const VecX& x0, const VecX& v0) : integrator_(std::move(integrator)) {
    q_ = x0;
    p_ = massTimes(v0);
    integrator_.projectMomentum(q_, p_);
  }
  StepOutcome step() override {
    const StepOutcome o = integrator_.step(q_, p_);
    if (o.ok) iterations_ = o.iterations;
    return o;
  }
  const VecX& q() const override { return q_; }
  const VecX& p() const override { return p_; }
  // q within 1e-9 of the manifold (then projected onto it). p: tangent within 1e-9 (then
  // projected) for integrators that keep it tangent; taken as given otherwise.
  void setState(const VecX& q, const VecX& p) override {
    const ChainModel& m = integrator_.model();
    requireSize(q, 3 * m.bobs(), "q");
    requireSize(p, 3 * m.bobs(), "p");
    VecX x = q, v = p;
    for (int i = 0; i < m.bobs(); ++i) v.segment<3>(3 * i) /= m.masses[i];
    if constexpr (Integrator::kTangentMomentum) {
      projectChainState(m, x, v, "q", "p");
      q_ = x;
      p_ = massTimes(v);
      integrator_.projectMomentum(q_, p_);
    } else {
      VecX still = VecX::Zero(v.size());
      projectChainState(m, x, still, "q", "p");
      for (int i = 0; m.planar && i < m.bobs(); ++i)
        if (!(std::abs(p[3 * i + 1]) <= kManifoldTolerance))
          throw InputError("p[" + std::to_string(i) + "][1]",
                           "the planar pendulum moves in the x–z plane: the y momentum must be 0");
      q_ = x;
      p_ = p;
      for (int i = 0; m.planar && i < m.bobs(); ++i) p_[3 * i + 1] = 0;
    }
    iterations_ = 0;
  }
  Diagnostics diagnostics() const override {
    Diagnostics d = chainDiagnostics(integrator_.model(), q_.data(), p_.data());
    d.iterations = iterations_;
    return d;
  }
  void visualState(std::vector<double>& out) const override { out.assign(q_.data(), q_.data() + q_.size()); }

 private:
  VecX massTimes(const VecX& v) const {
    VecX p = v;
    for (int i = 0; i < integrator_.model().bobs(); ++i) p.segment<3>(3 * i) *= integrator_.model().masses[i];
    return p;
  }
  Integrator integrator_;
  VecX q_, p_;
  int iterations_ = 0;
};

// The variational integrators of a chain with multipliers (chain_multiplier.hpp).
class ChainMultiplierStepper final : public ChainStructuredStepper<ChainMultiplierIntegrator> {
 public:
  ChainMultiplierStepper(const ChainModel& m, DiscreteRule rule, double h, const VecX& x0, const VecX& v0)
      : ChainStructuredStepper(ChainMultiplierIntegrator(m, rule, h), x0, v0) {}
};

// The energy–momentum scheme on a chain (energy_momentum.hpp).
class ChainEnergyMomentumStepper final : public ChainStructuredStepper<ChainEnergyMomentumIntegrator> {
 public:
  ChainEnergyMomentumStepper(const ChainModel& m, double h, const VecX& x0, const VecX& v0)
      : ChainStructuredStepper(ChainEnergyMomentumIntegrator(m, h), x0, v0) {}
};

// ---- chain baselines: RK4 / Euler on the index-1 multiplier form ----------------
class ChainOdeStepper final : public Stepper {
 public:
  ChainOdeStepper(const ChainModel& m, RungeKuttaMethod method, double h, const VecX& x0, const VecX& v0)
      : rk_(ChainIndex1Ode(m), method, h) {
    setCartesian(x0, v0);
  }
  StepOutcome step() override {
    const StepOutcome o = rk_.step(y_);
    if (o.ok) syncQP();
    return o;
  }
  const VecX& q() const override { return q_; }
  const VecX& p() const override { return p_; }
  void setState(const VecX& q, const VecX& p) override {
    const ChainModel& m = model();
    requireSize(q, 3 * m.bobs(), "q");
    requireSize(p, 3 * m.bobs(), "p");
    VecX x = q, v = p;
    for (int i = 0; i < m.bobs(); ++i) v.segment<3>(3 * i) /= m.masses[i];
    projectChainState(m, x, v, "q", "p");
    setCartesian(x, v);
  }
  Diagnostics diagnostics() const override { return chainDiagnostics(model(), q_.data(), p_.data()); }
  void visualState(std::vector<double>& out) const override { out.assign(q_.data(), q_.data() + q_.size()); }

 private:
  const ChainModel& model() const { return rk_.ode().model; }
  void setCartesian(const VecX& x, const VecX& v) {
    y_.resize(x.size() + v.size());
    y_ << x, v;
    syncQP();
  }
  void syncQP() {
    const Eigen::Index n = y_.size() / 2;
    q_ = y_.head(n);
    p_ = y_.tail(n);
    for (int i = 0; i < model().bobs(); ++i) p_.segment<3>(3 * i) *= model().masses[i];
  }
  RungeKutta<ChainIndex1Ode> rk_;
  VecX y_, q_, p_;
};

// ---- generic dense variational stepper ------------------------------------------
// Traits<System> supplies diagnostics(system, q, p) and visual(system, q, out).
template <class System, class Traits>
class DenseVariationalStepper final : public Stepper {
 public:
  static constexpr int N = System::N;
  using VecN = Vec<double, N>;

  DenseVariationalStepper(const System& s, DiscreteRule rule, double h, const VecN& q0, const VecN& p0)
      : integrator_(s, rule, h), q_(q0), p_(p0) {
    sync();
  }
  StepOutcome step() override {
    const StepOutcome o = integrator_.step(q_, p_);
    if (o.ok) {
      iterations_ = o.iterations;
      sync();
    }
    return o;
  }
  const VecX& q() const override { return qx_; }
  const VecX& p() const override { return px_; }
  void setState(const VecX& q, const VecX& p) override {
    requireSize(q, N, "q");
    requireSize(p, N, "p");
    VecN qn = q, pn = p;
    Traits::validateState(integrator_.system(), qn, pn);
    q_ = qn;
    p_ = pn;
    sync();
  }
  Diagnostics diagnostics() const override {
    Diagnostics d = Traits::diagnostics(integrator_.system(), q_, p_);
    d.iterations = iterations_;
    return d;
  }
  void visualState(std::vector<double>& out) const override { Traits::visual(integrator_.system(), q_, out); }
  const VariationalIntegrator<System>& integrator() const { return integrator_; }

 private:
  void sync() {
    qx_ = q_;
    px_ = p_;
  }
  VariationalIntegrator<System> integrator_;
  VecN q_, p_;
  VecX qx_, px_;
  int iterations_ = 0;
};

// ---- generic RK stepper on y = [q; v] for unconstrained Lagrangian systems -------
template <class System, class Traits>
class LagrangianOdeStepper final : public Stepper {
 public:
  static constexpr int N = System::N;
  using VecN = Vec<double, N>;
  LagrangianOdeStepper(const System& s, RungeKuttaMethod method, double h, const VecN& q0, const VecN& v0)
      : rk_(LagrangianOde<System>{s}, method, h) {
    y_.resize(2 * N);
    y_ << q0, v0;
    sync();
  }
  StepOutcome step() override {
    const StepOutcome o = rk_.step(y_);
    if (o.ok) sync();
    return o;
  }
  const VecX& q() const override { return q_; }
  const VecX& p() const override { return p_; }
  void setState(const VecX& q, const VecX& p) override {
    requireSize(q, N, "q");
    requireSize(p, N, "p");
    VecN qn = q, pn = p, v;
    Traits::validateState(system(), qn, pn);
    if (!Mechanics<System>::velocity(system(), qn, pn, v)) throw InputError("p", "the Legendre transform is singular here");
    y_ << qn, v;
    sync();
  }
  Diagnostics diagnostics() const override { return Traits::diagnostics(system(), VecN(q_), VecN(p_)); }
  void visualState(std::vector<double>& out) const override { Traits::visual(system(), VecN(q_), out); }

 private:
  const System& system() const { return rk_.ode().system; }
  void sync() {
    const VecN q = y_.head<N>(), v = y_.tail<N>();
    q_ = q;
    p_ = Mechanics<System>::momentum(system(), q, v);
  }
  RungeKutta<LagrangianOde<System>> rk_;
  VecX y_, q_, p_;
};

// ---- traits ---------------------------------------------------------------------
struct OscillatorTraits {
  static Diagnostics diagnostics(const OscillatorSystem& s, const Vec<double, 1>& q, const Vec<double, 1>& p) {
    Diagnostics d;
    d.energy = 0.5 * p[0] * p[0] / s.model.mass + 0.5 * s.model.stiffness * q[0] * q[0];
    return d;
  }
  static void visual(const OscillatorSystem&, const Vec<double, 1>& q, std::vector<double>& out) {
    out.assign({q[0], 0.0, 0.0});
  }
  static void validateState(const OscillatorSystem&, Vec<double, 1>&, Vec<double, 1>&) {}
};

template <int Links, bool Planar>
struct ChainAnglesTraits {
  using System = ChainAngles<Links, Planar>;
  static constexpr int N = System::N;
  static Diagnostics diagnostics(const System& s, const Vec<double, N>& u, const Vec<double, N>& pu) {
    Vec<double, N> du;
    Mechanics<System>::velocity(s, u, pu, du);
    Vec<double, 3 * Links> x, v;
    s.cartesian(u, du, x, v);
    Vec<double, 3 * Links> p;
    for (int i = 0; i < Links; ++i) p.template segment<3>(3 * i) = s.model.masses[i] * v.template segment<3>(3 * i);
    Diagnostics d = chainDiagnostics(s.model, x.data(), p.data());
    if (!Planar) {  // discrete Noether quantity: Σ p_φ (W–M §3.3)
      double J = 0;
      for (int i = 0; i < Links; ++i) J += pu[2 * i + 1];
      d.momentum[0] = J;
    }
    return d;
  }
  static void visual(const System& s, const Vec<double, N>& u, std::vector<double>& out) {
    Vec<double, 3 * Links> x, v;
    s.cartesian(u, Vec<double, N>::Zero().eval(), x, v);
    out.assign(x.data(), x.data() + x.size());
  }
  static void validateState(const System&, Vec<double, N>&, Vec<double, N>&) {}
};

template <int Bobs>
struct ChainPenaltyTraits {
  using System = ChainPenalty<Bobs>;
  static constexpr int N = System::N;
  static Diagnostics diagnostics(const System& s, const Vec<double, N>& q, const Vec<double, N>& p) {
    const Vec<double, Bobs> g = s.rigid.constraints(q);
    return chainDiagnostics(s.rigid.model, q.data(), p.data(), 0.5 * s.stiffness * g.squaredNorm());
  }
  static void visual(const System&, const Vec<double, N>& q, std::vector<double>& out) {
    out.assign(q.data(), q.data() + N);
  }
  static void validateState(const System&, Vec<double, N>&, Vec<double, N>&) {}
};

}  // namespace vilab
