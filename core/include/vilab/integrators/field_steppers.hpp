// The field integrators as registry integrators: each steps a FieldModel's (u, u̇) with
// the methods of models/field*.hpp and loads from / stores to the canonical (u, p).
//  - leapfrog (the trapezoid discrete density: Störmer–Verlet), registry id `trapezoid`;
//  - the box scheme (the midpoint discrete density), `midpoint`, on a built-in or typed ℒ;
//  - RK4 and DOPRI5 on the same method-of-lines system, `rk4` and `dopri5`;
//  - on a typed density (one component or several), the leapfrog, RK4 and DOPRI5 on the
//    method-of-lines system of models/field_lines.hpp;
//  - the asynchronous variational integrator, `avi`, on a built-in or typed ℒ: the cells
//    of the grid from `from` (a fraction of the length) on take `fine` steps per h, the
//    others one; or, with `cfl` > 0, the cells whose own CFL limit needs them (a stiff
//    segment); every cell's step below its limit either way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/field_avi.hpp"
#include "vilab/models/field_cells.hpp"
#include "vilab/models/field_lines.hpp"
#include "vilab/models/field_model.hpp"
#include "vilab/models/field_ode.hpp"

namespace vilab {

class FieldIntegrator : public Integrator {
 public:
  FieldIntegrator(const FieldModel& model, double h) : model_(model), h_(h) {}
  void load(const State& s) override {
    model_.toField(s, s_);
    s_.t = 0;
    restart();
  }
  void store(State& s) const override { model_.toCanonical(s_, s); }
  bool storeOverwrites() const override { return true; }
  void setTime(double t) override { s_.t = t; }

  // Rows k, k + 1, k + 2 of the run from the loaded state and of two variations carried
  // by the method's own linearization (a smooth mode in u, one in the rate), and the law
  // on the dual cell of every node of row k + 1 (field_box.hpp).
  bool multisymplecticResiduals(std::vector<double>& perNode, std::string& law, std::string& why) override {
    const char* density = lawDensity();
    if (density == nullptr) {
      why = whyNoLaw();
      return false;
    }
    // One run of the base rows carries both variations (its steps are the run's).
    beginRows();
    std::vector<double> base[3], xi[3], eta[3];
    field::State s = s_, ds[2] = {seed(0), seed(1)};
    for (int k = 0; k < 3; ++k) {
      if (k > 0 && !stepWithTangents(s, ds, 2)) {
        why = "the step from this state is refused";
        return false;
      }
      base[k] = s.u;
      xi[k] = ds[0].u;
      eta[k] = ds[1].u;
    }
    const double t = s_.t;
    field::multisymplecticResiduals(
        model_.grid, model_.components(), base, xi, eta,
        [&](int c, int slab, const double* y, double* h) { cellHessian(c, t + (slab + 0.5) * h_, y, h); }, perNode);
    law = density;
    return true;
  }

 protected:
  // A new start: methods that carry anything from step to step forget it.
  virtual void restart() {}
  // The discrete density whose law the method's rows keep or break: nullptr (with
  // whyNoLaw) for a method whose rows are not one uniform space-time mesh.
  virtual const char* lawDensity() const { return nullptr; }
  virtual const char* whyNoLaw() const { return ""; }
  // One step of s, as the run takes it (the same bits), and of `count` variations ds[k]
  // about it.
  virtual bool stepWithTangents(field::State&, field::State*, int) { return false; }
  // Before the first of those steps from s_: a method whose state holds more than s_ (its
  // own momenta) copies it, so that the rows are the run's.
  virtual void beginRows() {}
  // The Hessian of the law's density on cell c whose centre is at time t, at corners
  // y[k·m + a] (m components): h[(k·m + a)·4m + l·m + b] (field_box.hpp's layout).
  virtual void cellHessian(int, double, const double*, double*) const {}
  // One component's Hessian hook in field_box.hpp's arrays.
  template <class Fill>
  static void oneComponent(const double* y, double* flat, Fill fill) {
    field::CellHessian h;
    fill(field::Corners{y[0], y[1], y[2], y[3]}, h);
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l) flat[k * 4 + l] = h[k][l];
  }

  // The variations the law is checked on: 0 at a fixed end, else cos(πkx/ℓ + φ) (k = 3 in
  // u for the first, k = 1 in the rate for the second; even k with periodic ends); with
  // several components, component a's mode has k + a and its own phase, so every pairing
  // of components is exercised.
  field::State seed(int which) const {
    constexpr double pi = 3.14159265358979323846;
    const field::Grid& g = model_.grid;
    const bool periodic = g.ends == field::Ends::Periodic;
    const int n = g.points, m = model_.components();
    field::State ds;
    ds.u.assign(static_cast<std::size_t>(m * n), 0.0);
    ds.v.assign(static_cast<std::size_t>(m * n), 0.0);
    for (int a = 0; a < m; ++a) {
      const double k = ((which == 0 ? 3 : 1) + a) * (periodic ? 2 : 1);
      const double phase = g.ends == field::Ends::Fixed ? -pi / 2 : (periodic ? 0.3 : 0.0) + 0.7 * a;
      for (int i = 0; i < n; ++i)
        if (model_.moves(i)) (which == 0 ? ds.u : ds.v)[a * n + i] = dm::cos(pi * k * g.x(i) / g.length + phase);
    }
    return ds;
  }

  static constexpr const char* kAdaptiveSubsteps =
      "its substeps adapt to the error, so its rows are not one uniform space-time mesh";

  FieldModel model_;
  field::State s_;
  double h_;
};

// The explicit schemes: one step of Method a step; a new start drops what Method carries
// (the leapfrog's cached accelerations belong to the old state).
template <class Method>
class FieldExplicit final : public FieldIntegrator {
 public:
  using FieldIntegrator::FieldIntegrator;
  StepOutcome step() override {
    method_.step(model_.density, model_.grid, s_, h_);
    return {};
  }

 private:
  void restart() override { method_ = Method(); }
  // Both run the semi-discrete system of the trapezoid density (the leapfrog's).
  const char* lawDensity() const override { return "trapezoid"; }
  bool stepWithTangents(field::State& s, field::State* ds, int count) override {
    Method::stepWithTangents(model_.density, model_.grid, s, ds, count, h_);
    return true;
  }
  void cellHessian(int c, double, const double* y, double* h) const override {
    oneComponent(y, h, [&](const field::Corners& corners, field::CellHessian& cell) {
      field::TrapezoidCell::hessian(model_.density, c, model_.grid.spacing(), h_, corners, cell);
    });
  }
  Method method_;
};
using FieldLeapfrog = FieldExplicit<field::Leapfrog>;
using FieldRungeKutta4 = FieldExplicit<field::RungeKutta4>;

class FieldBox final : public FieldIntegrator {
 public:
  using FieldIntegrator::FieldIntegrator;
  StepOutcome step() override {
    if (model_.multi) {
      if (!multi_) multi_ = field::makeMultiBox(model_.components());
      return multi_->step(*model_.multi, model_.grid, s_, h_);
    }
    if (model_.typed) return typed_.step(*model_.typed, model_.grid, s_, h_);
    return builtIn_.step(model_.density, model_.grid, s_, h_);
  }

 private:
  const char* lawDensity() const override { return "midpoint"; }
  // A fresh scheme's step (the run's bits) and the linearization of its slab, once per
  // variation; each is carried in (δu, δp).
  bool stepWithTangents(field::State& s, field::State* ds, int count) override {
    if (model_.multi) return stepAndLinearize(*field::makeMultiBox(model_.components()), *model_.multi, s, ds, count);
    if (model_.typed) {
      field::BoxSchemeT<field::DataDensity> box;
      return stepAndLinearize(box, *model_.typed, s, ds, count);
    }
    field::BoxScheme box;
    return stepAndLinearize(box, model_.density, s, ds, count);
  }
  template <class Box, class Density>
  bool stepAndLinearize(Box& box, const Density& d, field::State& s, field::State* ds, int count) {
    const std::vector<double> old = s.u;
    const double t = s.t;
    bool ok = box.step(d, model_.grid, s, h_).ok;
    for (int k = 0; k < count && ok; ++k) ok = box.tangent(d, model_.grid, h_, t, old, s.u, ds[k].u, ds[k].v);
    return ok;
  }
  void cellHessian(int c, double t, const double* y, double* h) const override {
    const double dx = model_.grid.spacing(), centre = (c + 0.5) * dx;
    if (model_.multi) {  // ℒ of several components does not depend on t
      std::vector<double> gradient(static_cast<std::size_t>(4 * model_.components()));
      field::multiCell(*model_.multi, dx, h_, centre, y, gradient.data(), h);
      return;
    }
    oneComponent(y, h, [&](const field::Corners& corners, field::CellHessian& cell) {
      if (model_.typed)
        field::cellHessian(*model_.typed, dx, h_, centre, t, corners, cell);
      else
        field::cellHessian(model_.density, dx, h_, centre, t, corners, cell);
    });
  }
  field::BoxScheme builtIn_;
  field::BoxSchemeT<field::DataDensity> typed_;
  std::unique_ptr<field::MultiBox> multi_;
};

class FieldDopri5 final : public FieldIntegrator {
 public:
  FieldDopri5(const FieldModel& model, double h, double tol)
      : FieldIntegrator(model, h), method_(model.density, model.grid, h, tol) {}
  StepOutcome step() override { return method_.step(h_, s_); }

 private:
  void restart() override { method_.load(s_); }
  const char* whyNoLaw() const override { return kAdaptiveSubsteps; }
  field::FieldDormandPrince method_;
};

// The explicit methods on a typed density (models/field_lines.hpp): the leapfrog's kick,
// drift, kick, and RK4 and DOPRI5 through the project's ODE methods.
class FieldMultiLeapfrog final : public FieldIntegrator {
 public:
  FieldMultiLeapfrog(const FieldModel& model, double h)
      : FieldIntegrator(model, h), lines_(linesDensity(model), model.grid, "trapezoid") {}
  StepOutcome step() override {
    method_.step(lines_, s_, h_);
    return {};
  }

 private:
  void restart() override { method_ = field::MultiLeapfrog(); }
  // The trapezoid density of the typed ℒ (MultiLines::cellHessian): its rows keep its law.
  const char* lawDensity() const override { return "trapezoid"; }
  bool stepWithTangents(field::State& s, field::State* ds, int count) override {
    field::MultiLeapfrog::stepWithTangents(lines_, s, ds, count, h_);
    return true;
  }
  void cellHessian(int c, double, const double* y, double* h) const override { lines_.cellHessian(c, h_, y, h); }
  field::MultiLines lines_;
  field::MultiLeapfrog method_;
};

template <class Method>
class FieldMultiOde final : public FieldIntegrator {
 public:
  // id: the method's registry id (for a refusal); args: the method's own after the ODE.
  template <class... Args>
  FieldMultiOde(const FieldModel& model, double h, const char* id, Args... args)
      : FieldIntegrator(model, h),
        lines_(std::make_shared<const field::MultiLines>(linesDensity(model), model.grid, id)),
        method_(field::MultiOde{lines_, {}, {}}, args...) {}
  StepOutcome step() override { return method_.step(h_, s_); }

 private:
  using Lines = field::LinesOnOde<field::MultiOde, Method>;
  // RK4's rows are one uniform mesh of the trapezoid density's semi-discrete system;
  // DOPRI5's substeps are not.
  static constexpr bool kUniformRows = std::is_same_v<Method, ExplicitRungeKutta<field::MultiOde>>;

  void restart() override { method_.load(s_); }
  const char* lawDensity() const override { return kUniformRows ? "trapezoid" : nullptr; }
  const char* whyNoLaw() const override { return kAdaptiveSubsteps; }
  // The rows go on from the run's own [u; w_i Δx u̇] (u̇ = p/m in s_ is rounded).
  void beginRows() override { rows_.emplace(method_); }
  bool stepWithTangents(field::State& s, field::State* ds, int count) override {
    const field::State start = s;
    if (!rows_->step(h_, s).ok) return false;
    for (int k = 0; k < count; ++k) field::rungeKutta4Tangent(*lines_, start, ds[k], h_);
    return true;
  }
  void cellHessian(int c, double, const double* y, double* h) const override { lines_->cellHessian(c, h_, y, h); }

  std::shared_ptr<const field::MultiLines> lines_;
  Lines method_;
  std::optional<Lines> rows_;
};
using FieldMultiRungeKutta4 = FieldMultiOde<ExplicitRungeKutta<field::MultiOde>>;
using FieldMultiDopri5 = FieldMultiOde<DormandPrince<field::MultiOde>>;

class FieldAvi final : public FieldIntegrator {
 public:
  // cfl = 0: the cells from `from` on take `fine` steps per h. cfl > 0: the cells whose h
  // exceeds cfl times their own largest stable step take `fine` (`from` is not used).
  // Either way every cell's step must be below its stability limit (refused naming h, or
  // options.fine for the fine cells, with the limit).
  FieldAvi(const FieldModel& model, double h, int fine, double from, double cfl)
      : FieldIntegrator(model, h),
        cells_(model.isTyped() ? std::make_shared<const field::TypedCells>(linesDensity(model), model.grid) : nullptr),
        steps_(cfl > 0 ? stepsByLimit(model, h, fine, cfl) : stepsByPosition(model.grid, h, fine, from)) {
    requireStable(model, h, steps_);
  }
  StepOutcome step() override {
    ++taken_;
    avi_.advanceTo(static_cast<double>(taken_) * h_);
    const double t = s_.t;
    avi_.synchronize(s_);
    s_.t = t + h_;
    return {};
  }
  std::uint64_t events() const { return avi_.events(); }

  static std::vector<double> stepsByPosition(const field::Grid& g, double h, int fine, double from) {
    std::vector<double> steps;
    for (int c = 0; c < field::cellCount(g); ++c)
      steps.push_back((c + 0.5) * g.spacing() >= from * g.length ? h / fine : h);
    return steps;
  }
  // Each cell's limit from aviLargestSteps, linearized about u = 0 (V''(0), none when
  // negative). A typed density's from the core's per-cell stiffness at rest (field_cells):
  // for a strain energy whose curvature is largest at u_x = 0, as √(1 + |u_x|²)'s (its
  // Hessian's eigenvalues 1/√(1 + s²) and 1/(1 + s²)^{3/2}), a bound over every state.
  static std::vector<double> limitsOf(const FieldModel& m) {
    if (!m.isTyped())
      return field::aviLargestSteps(m.density, m.grid, std::max(0.0, m.density.potentialCurvature(0.0)));
    const field::CellStiffness k = field::cellStiffness(m);
    return field::aviLargestSteps(m.grid, k.speed2, k.curvature, k.inertia);
  }
  // Refuses a cell whose step is not below its limit: naming h for a cell stepping by h,
  // options.fine for one stepping by h/fine.
  static void requireStable(const FieldModel& m, double h, const std::vector<double>& steps) {
    const std::vector<double> limits = limitsOf(m);
    for (std::size_t c = 0; c < limits.size(); ++c) {
      if (steps[c] < limits[c]) continue;
      const bool coarse = steps[c] == h;
      throw InputError(InputErrorCode::Range, coarse ? "h" : "options.fine",
                       std::string(coarse ? "is" : "is too few: h/fine is") + " beyond the stability limit " +
                           formatNumber(limits[c]) +
                           " of the cell at x = " + formatNumber((static_cast<double>(c) + 0.5) * m.grid.spacing()) +
                           " (its step " + formatNumber(steps[c]) + "; " + formatNumber(std::ceil(h / limits[c])) +
                           " steps per h would do, or set cfl)");
    }
  }
  // Refused naming options.fine when h/fine is still beyond cfl times a limit.
  static std::vector<double> stepsByLimit(const FieldModel& m, double h, int fine, double cfl) {
    const std::vector<double> limits = limitsOf(m);
    std::vector<double> steps;
    for (std::size_t c = 0; c < limits.size(); ++c) {
      const double allowed = cfl * limits[c];
      steps.push_back(h <= allowed ? h : h / fine);
      if (steps.back() > allowed)
        throw InputError(InputErrorCode::Range, "options.fine",
                         "is too few: the cell at x = " + formatNumber((c + 0.5) * m.grid.spacing()) + " needs " +
                             formatNumber(std::ceil(h / allowed)) + " steps per h to stay within cfl = " +
                             formatNumber(cfl) + " of its stability limit " + formatNumber(limits[c]));
    }
    return steps;
  }

 private:
  const char* whyNoLaw() const override {
    return "its elements step asynchronously, so the law holds on its own event mesh, not on rows of h";
  }
  // The run restarts at t = 0 from the loaded state (its clock counts steps of h).
  void restart() override {
    field::State start = s_;
    start.t = 0;
    if (cells_)
      avi_.load(cells_, model_.grid, start, steps_);
    else
      avi_.load(model_.density, model_.grid, start, steps_);
    taken_ = 0;
  }
  std::shared_ptr<const field::TypedCells> cells_;  // a typed density's elements, else null
  std::vector<double> steps_;
  field::Avi avi_;
  std::uint64_t taken_ = 0;
};

}  // namespace vilab
