// The multisymplectic law's pieces for a typed density's explicit methods
// (models/field_lines.hpp): the trapezoid cell of the typed ℒ, whose discrete
// Euler–Lagrange equations on three rows are the leapfrog's step and whose Hessian is its
// gradient's derivative; the leapfrog's and RK4's steps carried along a variation against
// finite differences of the steps themselves. On the nonlinear string (one component), the
// whirling string (two) and its periodic helix (the wrapping cell).
#include <catch2/catch.hpp>

#include "field_scenes.hpp"
#include "support.hpp"
#include "vilab/models/field_box.hpp"
#include "vilab/models/field_lines.hpp"
#include "vilab/models/field_model.hpp"
#include "vilab/models/field_ode.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// A scene's model and its method-of-lines system, with the state after 50 leapfrog steps
// (not a rest state: every term of ℒ is exercised).
struct Lines {
  FieldModel model;
  field::MultiLines lines;
  field::State s;
  double h;
};
Lines linesOf(Json scene) {
  scene["integrator"] = "trapezoid";
  Simulation sim = simulate(scene.dump());
  run(sim, 50);
  const FieldModel& m = std::get<FieldModel>(sim.scenario().model);
  Lines out{m, field::MultiLines(linesDensity(m), m.grid, "trapezoid"), {}, scene["h"].get<double>()};
  m.toField(sim.state(), out.s);
  return out;
}

std::vector<Json> typedScenes() {
  return {fieldSceneFile("nonlinear-string"), fieldSceneFile("whirling-string"), whirlingHelix()};
}

// A variation: a smooth mode per component, 0 at a fixed end.
std::vector<double> variation(const Lines& l, double k) {
  const int n = l.model.grid.points;
  std::vector<double> d(static_cast<std::size_t>(l.lines.size()), 0.0);
  for (int i = 0; i < l.lines.size(); ++i)
    if (l.lines.moves(i)) d[i] = dm::cos(3.14159265358979323846 * (k + i / n) * l.model.grid.x(i % n) + 0.4 * (i / n));
  return d;
}

double largest(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}
double largestDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// Corners y[k·m + a] of cell c between rows `old` and `next` (field_box.hpp's layout).
std::vector<double> cornersOf(const Lines& l, int c, const std::vector<double>& old, const std::vector<double>& next) {
  const int n = l.model.grid.points, m = l.lines.components(), node[4] = {c, (c + 1) % n, c, (c + 1) % n};
  std::vector<double> y(static_cast<std::size_t>(4 * m));
  for (int k = 0; k < 4; ++k)
    for (int a = 0; a < m; ++a) y[k * m + a] = (k < 2 ? old : next)[a * n + node[k]];
  return y;
}

}  // namespace

namespace {

// The discrete Euler–Lagrange equations on three rows: at each moving node of row 1, the sum
// over the cells around it of ∂L_c/∂(its corner), over the sum of the terms' magnitudes;
// the largest.
double eulerLagrangeResidual(const Lines& l, const std::vector<double>* rows) {
  const int n = l.model.grid.points, m = l.lines.components();
  std::vector<double> sum(static_cast<std::size_t>(m * n), 0.0), scale(sum.size(), 0.0), g(4 * m);
  for (int slab = 0; slab < 2; ++slab)
    for (int c = 0; c < field::cellCount(l.model.grid); ++c) {
      const std::vector<double> y = cornersOf(l, c, rows[slab], rows[slab + 1]);
      l.lines.cellGradient(c, l.h, y.data(), g.data());
      const int node[4] = {c, (c + 1) % n, c, (c + 1) % n};
      for (int k = 2 - 2 * slab; k < 4 - 2 * slab; ++k)  // the corners on row 1
        for (int a = 0; a < m; ++a) {
          sum[a * n + node[k]] += g[k * m + a];
          scale[a * n + node[k]] += std::abs(g[k * m + a]);
        }
    }
  double worst = 0;
  for (int i = 0; i < m * n; ++i)
    if (l.lines.moves(i)) worst = std::max(worst, std::abs(sum[i]) / scale[i]);
  return worst;
}

using LinesRk4 = field::LinesOnOde<field::MultiOde, ExplicitRungeKutta<field::MultiOde>>;
LinesRk4 rk4Of(const Lines& l) {
  return LinesRk4(field::MultiOde{std::make_shared<const field::MultiLines>(l.lines), {}, {}}, RungeKuttaMethod::RK4,
                  l.h);
}

}  // namespace

TEST_CASE("field lines law: the typed trapezoid cell's discrete Euler-Lagrange equations are the leapfrog's step",
          "[field][field-lines][field-law]") {
  for (const Json& scene : typedScenes()) {
    Lines l = linesOf(scene);
    std::vector<double> rows[3];
    field::State s = l.s;
    rows[0] = s.u;
    for (int k = 1; k < 3; ++k) {
      field::MultiLeapfrog::stepWithTangents(l.lines, s, nullptr, 0, l.h);
      rows[k] = s.u;
    }
    const double leapfrog = eulerLagrangeResidual(l, rows);
    // Not for a third row of RK4's.
    LinesRk4 rk4 = rk4Of(l);
    s = l.s;
    rk4.load(s);
    rk4.step(l.h, s);
    rk4.step(l.h, s);
    rows[2] = s.u;
    const double other = eulerLagrangeResidual(l, rows);
    INFO(scene["params"]["density"]["lagrangian"] << " (" << scene["params"]["grid"]["ends"]
                                                  << "): largest |Σ ∂L_c/∂y| / Σ|∂L_c/∂y| on the leapfrog's rows "
                                                  << leapfrog << ", with RK4's third row " << other);
    CHECK(leapfrog <= 1e-12);
    CHECK(other >= 1e-9);
  }
}

TEST_CASE("field lines law: the typed trapezoid cell's Hessian is its gradient's derivative",
          "[field][field-lines][field-law]") {
  for (const Json& scene : typedScenes()) {
    Lines l = linesOf(scene);
    const int m = l.lines.components(), corners = 4 * m, cells = field::cellCount(l.model.grid);
    field::State next = l.s;
    field::MultiLeapfrog::stepWithTangents(l.lines, next, nullptr, 0, l.h);
    double worst = 0, asymmetry = 0;
    for (int c : {0, cells / 3, cells - 1}) {
      std::vector<double> y = cornersOf(l, c, l.s.u, next.u), h(corners * corners), up(corners), down(corners);
      l.lines.cellHessian(c, l.h, y.data(), h.data());
      const double eps = 1e-6, size = largest(h);
      for (int l2 = 0; l2 < corners; ++l2) {
        const double keep = y[l2];
        y[l2] = keep + eps;
        l.lines.cellGradient(c, l.h, y.data(), up.data());
        y[l2] = keep - eps;
        l.lines.cellGradient(c, l.h, y.data(), down.data());
        y[l2] = keep;
        for (int k = 0; k < corners; ++k)
          worst = std::max(worst, std::abs((up[k] - down[k]) / (2 * eps) - h[k * corners + l2]) / size);
      }
      // Symmetric: the Hessian of one function.
      for (int k = 0; k < corners; ++k)
        for (int j = 0; j < corners; ++j)
          asymmetry = std::max(asymmetry, std::abs(h[k * corners + j] - h[j * corners + k]));
    }
    INFO(scene["params"]["density"]["lagrangian"] << ": largest |H − Δg/Δy| / max|H| " << worst);
    CHECK(worst <= 1e-6);
    CHECK(asymmetry == 0);
  }
}

TEST_CASE("field lines law: the typed trapezoid cell of ½u_t² − ½u_x² is the built-in TrapezoidCell",
          "[field][field-lines][field-law]") {
  Json scene = fieldSceneFile("plucked-string");
  const field::Density builtIn = std::get<FieldModel>(simulate(scene.dump()).scenario().model).density;
  scene["params"]["density"] = {{"lagrangian", "0.5*u_t^2 - 0.5*u_x^2"}};
  Lines l = linesOf(scene);
  field::State next = l.s;
  field::MultiLeapfrog::stepWithTangents(l.lines, next, nullptr, 0, l.h);
  double worst = 0;
  for (int c = 0; c < field::cellCount(l.model.grid); ++c) {
    const std::vector<double> y = cornersOf(l, c, l.s.u, next.u);
    double h[16];
    field::CellHessian built;
    l.lines.cellHessian(c, l.h, y.data(), h);
    field::TrapezoidCell::hessian(builtIn, c, l.model.grid.spacing(), l.h, {y[0], y[1], y[2], y[3]}, built);
    for (int k = 0; k < 4; ++k)
      for (int j = 0; j < 4; ++j) worst = std::max(worst, std::abs(h[k * 4 + j] - built[k][j]) / std::abs(built[0][0]));
  }
  INFO("largest difference of the cells' Hessians over |H_00| " << worst);
  CHECK(worst <= 1e-14);
}

TEST_CASE(
    "field lines law: the acceleration's tangent, the leapfrog's and RK4's linearized steps against finite "
    "differences",
    "[field][field-lines][field-law]") {
  for (const Json& scene : typedScenes()) {
    Lines l = linesOf(scene);
    const std::vector<double> du = variation(l, 3), dv = variation(l, 1);
    const double eps = 1e-6;
    const auto shifted = [&](double by) {
      field::State s = l.s;
      for (std::size_t i = 0; i < s.u.size(); ++i) s.u[i] += by * du[i], s.v[i] += by * dv[i];
      return s;
    };
    // δü = (∂ü/∂u) δu.
    std::vector<double> da, up, down;
    l.lines.accelerationTangent(l.s.u, du, da);
    l.lines.acceleration(shifted(eps).u, up);
    l.lines.acceleration(shifted(-eps).u, down);
    std::vector<double> fd(da.size());
    for (std::size_t i = 0; i < fd.size(); ++i) fd[i] = (up[i] - down[i]) / (2 * eps);
    const double acceleration = largestDifference(da, fd) / largest(da);
    // Both steps along (δu, δu̇) against the step's central difference.
    const auto stepError = [&](const auto& step, const auto& tangent) {
      field::State ds{du, dv, 0}, s = l.s, plus = shifted(eps), minus = shifted(-eps);
      tangent(s, ds);
      step(plus);
      step(minus);
      std::vector<double> fdu(du.size()), fdv(du.size());
      for (std::size_t i = 0; i < du.size(); ++i)
        fdu[i] = (plus.u[i] - minus.u[i]) / (2 * eps), fdv[i] = (plus.v[i] - minus.v[i]) / (2 * eps);
      return std::max(largestDifference(ds.u, fdu) / largest(ds.u), largestDifference(ds.v, fdv) / largest(ds.v));
    };
    const double leapfrog = stepError(
        [&](field::State& s) { field::MultiLeapfrog::stepWithTangents(l.lines, s, nullptr, 0, l.h); },
        [&](field::State& s, field::State& ds) { field::MultiLeapfrog::stepWithTangents(l.lines, s, &ds, 1, l.h); });
    const auto rk4Step = [&](field::State& s) {
      LinesRk4 rk4 = rk4Of(l);
      rk4.load(s);
      rk4.step(l.h, s);
    };
    const double rk4 = stepError(rk4Step, [&](field::State& s, field::State& ds) {
      const field::State start = s;
      field::rungeKutta4Tangent(l.lines, start, ds, l.h);
    });
    INFO(scene["params"]["density"]["lagrangian"]
         << " (" << scene["params"]["grid"]["ends"] << "): relative error of the tangent against central differences "
         << "(ε = 1e-6): acceleration " << acceleration << ", leapfrog " << leapfrog << ", RK4 " << rk4);
    CHECK(acceleration <= 1e-6);
    CHECK(leapfrog <= 1e-6);
    CHECK(rk4 <= 1e-6);
  }
}
