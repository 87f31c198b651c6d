// The method-of-lines system of a field as the first-order ODE y = [u; p] the
// project's adaptive baseline (DormandPrince, integrators/runge_kutta.hpp) steps, with
// p_i = ρ w_i Δx u̇_i the canonical momenta of the semi-discrete Lagrangian L_h.
#pragma once
#include <cmath>
#include <memory>

#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/models/field.hpp"

namespace vilab::field {

struct FieldOde {
  static constexpr bool kProjects = false;
  Density density;
  Grid grid;
  std::vector<double> u, a;  // scratch

  int positions() const { return grid.points; }
  int size() const { return 2 * grid.points; }
  double mass(int i) const { return density.rho * weight(grid, i) * grid.spacing(); }
  bool rhs(const VecX& y, VecX& dy) {
    const int n = grid.points;
    u.assign(y.data(), y.data() + n);
    acceleration(density, grid, u, a);
    const auto node = [&](int i) {
      dy[i] = grid.ends == Ends::Fixed && (i == 0 || i == n - 1) ? 0.0 : y[n + i] / mass(i);
      dy[n + i] = mass(i) * a[i];
    };
    node(0);
    // inside, w_i = 1: mass(i) = (ρ · 1) Δx = ρ Δx, formed once (the same bits)
    const double m = density.rho * grid.spacing();
    for (int i = 1; i + 1 < n; ++i) {
      dy[i] = y[n + i] / m;
      dy[n + i] = m * a[i];
    }
    node(n - 1);
    return dy.allFinite();
  }
  const char* undefined() const { return "the field's equations of motion are not finite"; }
  StepOutcome project(VecX&) { return {}; }
};

// A method-of-lines ODE (y = [u; m_k u̇], Ode::mass(k) = m_k) stepped by one of the
// project's ODE methods (DormandPrince, ExplicitRungeKutta), advancing by h per step.
template <class Ode, class Method>
class LinesOnOde {
 public:
  // args: the method's own after the ODE (DormandPrince: h, tol).
  template <class... Args>
  explicit LinesOnOde(const Ode& ode, Args... args) : ode_(ode), method_(Ode(ode), args...) {}
  void load(const State& s) {
    const int n = ode_.positions();
    vilab::State y{VecX(n), VecX(n)};
    for (int i = 0; i < n; ++i) y.q[i] = s.u[i], y.p[i] = ode_.mass(i) * s.v[i];
    method_.load(y);
    t_ = s.t;
  }
  StepOutcome step(double h, State& s) {
    const StepOutcome out = method_.step();
    if (!out.ok) return out;
    vilab::State& y = stored_;  // kept: no allocation per step
    method_.store(y);
    for (int i = 0; i < ode_.positions(); ++i) s.u[i] = y.q[i], s.v[i] = y.p[i] / ode_.mass(i);
    s.t = t_ += h;
    return out;
  }
  const Method& method() const { return method_; }

 private:
  Ode ode_;
  Method method_;
  vilab::State stored_;
  double t_ = 0;
};

// DOPRI5 on the field with atol = rtol = tol, advancing by h per step.
class FieldDormandPrince : public LinesOnOde<FieldOde, DormandPrince<FieldOde>> {
 public:
  FieldDormandPrince(const Density& d, const Grid& g, double h, double tol)
      : LinesOnOde(FieldOde{d, g, {}, {}}, h, tol) {}
  std::uint64_t rejectedSubsteps() const { return method().rejectedSubsteps(); }
};

}  // namespace vilab::field
