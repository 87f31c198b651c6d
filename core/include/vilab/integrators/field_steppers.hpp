// The field integrators as registry integrators: each steps a FieldModel's (u, u̇) with
// the methods of models/field*.hpp and loads from / stores to the canonical (u, p).
//  - leapfrog (the trapezoid discrete density: Störmer–Verlet), registry id `trapezoid`;
//  - the box scheme (the midpoint discrete density), `midpoint`, on a built-in or typed ℒ;
//  - RK4 and DOPRI5 on the same method-of-lines system, `rk4` and `dopri5`;
//  - the asynchronous variational integrator, `avi`: the cells of the grid from
//    `from` (a fraction of the length) on take `fine` steps per h, the others one; or,
//    with `cfl` > 0, the cells whose own CFL limit needs them (a stiff segment).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "vilab/integrators/integrator.hpp"
#include "vilab/models/field_avi.hpp"
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

 protected:
  // A new start: methods that carry anything from step to step forget it.
  virtual void restart() {}
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
  Method method_;
};
using FieldLeapfrog = FieldExplicit<field::Leapfrog>;
using FieldRungeKutta4 = FieldExplicit<field::RungeKutta4>;

class FieldBox final : public FieldIntegrator {
 public:
  using FieldIntegrator::FieldIntegrator;
  StepOutcome step() override {
    if (model_.typed) return typed_.step(*model_.typed, model_.grid, s_, h_);
    return builtIn_.step(model_.density, model_.grid, s_, h_);
  }

 private:
  field::BoxScheme builtIn_;
  field::BoxSchemeT<field::DataDensity> typed_;
};

class FieldDopri5 final : public FieldIntegrator {
 public:
  FieldDopri5(const FieldModel& model, double h, double tol)
      : FieldIntegrator(model, h), method_(model.density, model.grid, h, tol) {}
  StepOutcome step() override { return method_.step(h_, s_); }

 private:
  void restart() override { method_.load(s_); }
  field::FieldDormandPrince method_;
};

class FieldAvi final : public FieldIntegrator {
 public:
  // cfl = 0: the cells from `from` on take `fine` steps per h. cfl > 0: the cells whose h
  // exceeds cfl times their own largest stable step take `fine` (`from` is not used).
  FieldAvi(const FieldModel& model, double h, int fine, double from, double cfl)
      : FieldIntegrator(model, h),
        steps_(cfl > 0 ? stepsByLimit(model, h, fine, cfl) : stepsByPosition(model.grid, h, fine, from)) {}
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
  // negative); refused naming options.fine when h/fine is still beyond cfl times a limit.
  static std::vector<double> stepsByLimit(const FieldModel& m, double h, int fine, double cfl) {
    const std::vector<double> limits =
        field::aviLargestSteps(m.density, m.grid, std::max(0.0, m.density.potentialCurvature(0.0)));
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
  // The run restarts at t = 0 from the loaded state (its clock counts steps of h).
  void restart() override {
    field::State start = s_;
    start.t = 0;
    avi_.load(model_.density, model_.grid, start, steps_);
    taken_ = 0;
  }
  std::vector<double> steps_;
  field::Avi avi_;
  std::uint64_t taken_ = 0;
};

}  // namespace vilab
