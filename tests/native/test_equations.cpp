// The editor's equations: simplification rules, and the Euler–Lagrange and discrete
// Euler–Lagrange equations equal hand-written ones at random points (both the simplified
// form and its plain text read back by the parser).
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>
#include <random>

#include "vilab/equations.hpp"
#include "vilab/expr/parse.hpp"

using namespace vilab;
using namespace vilab::expr;

namespace {

// x, y, a, b, m, v as variables 0 … 5.
SymbolTable plainNames() {
  SymbolTable t;
  t.infix = {"x", "y", "a", "b", "m", "v"};
  t.latex = {"x", "y", "a", "b", "m", "v"};
  t.rank = {10, 10, 0, 0, 0, 10};
  return t;
}

std::string shown(const std::function<int(Graph&)>& build) {
  Graph g;
  const int node = build(g);
  return toInfix(simplify(g, node, plainNames()), plainNames());
}

std::string latexOf(const std::function<int(Graph&)>& build) {
  Graph g;
  const int node = build(g);
  return toLatex(simplify(g, node, plainNames()), plainNames());
}

}  // namespace

TEST_CASE("the simplifier folds, collects and orders as a person writes", "[equations]") {
  const auto X = [](Graph& g) { return g.variable(0); };
  const auto Y = [](Graph& g) { return g.variable(1); };
  CHECK(shown([&](Graph& g) { return g.mul(g.constant(0), X(g)); }) == "0");
  CHECK(shown([&](Graph& g) { return g.mul(g.constant(1), X(g)); }) == "x");
  CHECK(shown([&](Graph& g) { return g.add(X(g), g.constant(0)); }) == "x");
  // folded constants across nested products: 2·(3·x) = 6x, ½·m·(2·v) = m v
  CHECK(shown([&](Graph& g) { return g.mul(g.constant(2), g.mul(g.constant(3), X(g))); }) == "6*x");
  CHECK(shown([&](Graph& g) {
          return g.mul(g.mul(g.constant(0.5), g.variable(4)), g.mul(g.constant(2), g.variable(5)));
        }) == "m*v");
  // x·x = x², x²/x = x, x/x = 1 (before the graph sees them as equal nodes too)
  CHECK(shown([&](Graph& g) { return g.mul(g.mul(g.constant(2), X(g)), X(g)); }) == "2*x^2");
  CHECK(shown([&](Graph& g) { return g.div(g.powInt(X(g), 2), X(g)); }) == "x");
  CHECK(shown([&](Graph& g) { return g.div(g.mul(X(g), Y(g)), g.mul(Y(g), X(g))); }) == "1");
  // like terms collected, signs collected in front of each term
  CHECK(shown([&](Graph& g) { return g.add(g.mul(g.constant(2), X(g)), g.mul(X(g), g.constant(3))); }) == "5*x");
  CHECK(shown([&](Graph& g) { return g.sub(g.mul(g.constant(2), X(g)), g.mul(g.constant(2), X(g))); }) == "0");
  CHECK(shown([&](Graph& g) {
          const int x = X(g), y = Y(g);
          return g.sub(x, g.neg(y));
        }) == "x + y");
  CHECK(shown([&](Graph& g) { return g.add(g.neg(g.mul(g.variable(2), X(g))), Y(g)); }) == "y - a*x");
  CHECK(shown([&](Graph& g) { return g.mul(g.neg(X(g)), g.neg(Y(g))); }) == "x*y");
  // a single term distributes over a sum; constants come first in a product
  CHECK(shown([&](Graph& g) {
          const int x = X(g), y = Y(g);
          return g.mul(g.add(x, y), g.variable(2));
        }) == "a*x + a*y");
  // two sums stay a product, and a repeated one a power
  CHECK(shown([&](Graph& g) {
          const int x = X(g), y = Y(g), a = g.variable(2), b = g.variable(3);
          const int s = g.add(x, a);
          return g.mul(g.mul(s, g.add(y, b)), s);
        }) == "(x + a)^2*(y + b)");
  // rational coefficients as fractions, denominators after a slash
  CHECK(shown([&](Graph& g) { return g.div(g.mul(g.variable(4), g.powInt(g.variable(5), 2)), g.constant(2)); }) ==
        "m*v^2/2");
  CHECK(shown([&](Graph& g) { return g.div(X(g), g.mul(g.variable(2), Y(g))); }) == "x/(a*y)");
  CHECK(shown([&](Graph& g) { return g.mul(g.constant(9.81), X(g)); }) == "9.81*x");
  CHECK(latexOf([&](Graph& g) { return g.div(g.mul(g.variable(4), g.powInt(g.variable(5), 2)), g.constant(2)); }) ==
        "\\frac{m v^{2}}{2}");
  CHECK(latexOf([&](Graph& g) { return g.mul(g.constant(9.81), X(g)); }) == "9.81 x");
  CHECK(latexOf([&](Graph& g) { return g.powInt(g.unary(Op::Sin, X(g)), 2); }) == "\\sin^{2}\\left(x\\right)");
  CHECK(latexOf([&](Graph& g) { return g.sub(g.constant(1), g.div(X(g), g.constant(3))); }) == "1 - \\frac{x}{3}");
  // a sum as a factor keeps its common coefficient and factors outside: (x/a − y/a)² = (x − y)²/a²
  CHECK(shown([&](Graph& g) {
          const int x = X(g), y = Y(g), a = g.variable(2);
          const int s = g.sub(g.div(x, a), g.div(y, a));
          return g.mul(g.variable(4), g.powInt(s, 2));
        }) == "m*(x - y)^2/a^2");
  CHECK(shown([&](Graph& g) {
          const int x = X(g), y = Y(g);
          return g.unary(Op::Sin, g.mul(g.add(g.div(x, g.constant(2)), g.div(y, g.constant(2))), g.add(x, y)));
        }) == "sin((x + y)^2/2)");
}

namespace {

// Evaluates an equation's plain text (read back by the expression parser, q'' read as a
// coordinate q__dd) and its simplified form at the same point, and compares both with
// the hand-written residual.
struct Point {
  std::map<std::string, double> values;  // by infix name
};

double readBack(const std::string& infix, const SymbolTable& names, const Point& at) {
  std::string text = infix;
  for (std::size_t k; (k = text.find("''")) != std::string::npos;) text.replace(k, 2, "__dd");
  Scope scope;
  std::vector<std::string> all;
  for (const auto& n : names.infix)
    if (!n.empty() && n.find('\'') == std::string::npos) all.push_back(n);
  std::vector<double> vars;
  for (const auto& n : all) {
    if (n == "pi") continue;
    scope.coordinates.push_back(n);
  }
  for (const auto& n : names.infix)
    if (n.size() > 2 && n.compare(n.size() - 2, 2, "''") == 0)
      scope.coordinates.push_back(n.substr(0, n.size() - 2) + "__dd");
  for (const auto& c : scope.coordinates) {
    std::string key = c;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, "__dd") == 0) key = key.substr(0, key.size() - 4) + "''";
    vars.push_back(at.values.at(key));
  }
  for (const auto& c : scope.coordinates) {
    std::string key = c;
    const auto it = at.values.find(key + "'");
    vars.push_back(it == at.values.end() ? 0.0 : it->second);
  }
  scope.time = true;
  vars.push_back(at.values.count("t") ? at.values.at("t") : 0.0);
  Graph g;
  const int node = parseExpression(text, "equation", scope, g).node;
  Program program(g, {node});
  std::vector<double> registers;
  double out = 0;
  program.run(vars.data(), &out, registers);
  return out;
}

double evaluateAt(const SymPtr& s, const SymbolTable& names, const Point& at) {
  std::vector<double> vars(names.infix.size(), 0.0);
  for (std::size_t i = 0; i < names.infix.size(); ++i) {
    const auto it = at.values.find(names.infix[i]);
    if (it != at.values.end()) vars[i] = it->second;
    if (names.infix[i] == "pi") vars[i] = std::acos(-1.0);
  }
  return evaluate(s, vars.data());
}

using Residual = std::function<double(const Point&)>;

// Every equation of `shown` against `expected` at 20 random points of `names`' variables.
void checkAtRandomPoints(const std::vector<ShownEquation>& shown, const std::vector<Residual>& expected,
                         const SymbolTable& names, std::uint32_t seed) {
  REQUIRE(shown.size() == expected.size());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.3, 1.7);
  for (int trial = 0; trial < 20; ++trial) {
    Point at;
    for (const auto& n : names.infix)
      if (!n.empty() && n != "pi") at.values[n] = u(rng);
    for (std::size_t e = 0; e < shown.size(); ++e) {
      const double want = expected[e](at);
      const double scale = 1e-12 * std::max(1.0, std::abs(want));
      INFO("equation " << e << ": " << shown[e].infix << " (" << shown[e].latex << ")");
      CHECK(std::abs(evaluateAt(shown[e].residual, names, at) - want) <= 1e3 * scale);
      CHECK(std::abs(readBack(shown[e].infix, names, at) - want) <= 1e3 * scale);
    }
  }
}

}  // namespace

TEST_CASE("the pendulum's Euler–Lagrange and discrete equations are the hand-written ones", "[equations]") {
  const Json params = {{"coordinates", {"th"}},
                       {"constants", {{"m", 1.5}, {"l", 2}, {"g", 9.81}}},
                       {"lagrangian", "m*l^2/2*th'^2 + m*g*l*cos(th)"}};
  const MotionEquations mid = motionEquations(params, "midpoint", 0.5);
  CHECK(mid.symbolicConstants);
  const auto v = [](const Point& p, const char* k) { return p.values.at(k); };
  // p = m l² θ̇; M = m l²; m l² θ̈ + m g l sin θ = 0
  checkAtRandomPoints(mid.momenta, {[&](const Point& p) { return v(p, "m") * v(p, "l") * v(p, "l") * v(p, "th'"); }},
                      mid.continuous, 1);
  checkAtRandomPoints(mid.mass, {[&](const Point& p) { return v(p, "m") * v(p, "l") * v(p, "l"); }}, mid.continuous, 2);
  checkAtRandomPoints(mid.eulerLagrange, {[&](const Point& p) {
                        return v(p, "m") * v(p, "l") * v(p, "l") * v(p, "th''") +
                               v(p, "m") * v(p, "g") * v(p, "l") * std::sin(v(p, "th"));
                      }},
                      mid.continuous, 3);
  CHECK(mid.momenta[0].latex == "p_{\\theta} = l^{2} m \\dot{\\theta}");
  CHECK(mid.eulerLagrange[0].latex == "g l m \\sin\\left(\\theta\\right) + l^{2} m \\ddot{\\theta} = 0");
  // D2 L_d(q_{k−1}, q_k) + D1 L_d(q_k, q_{k+1}), L_d = h L((q0 + q1)/2, (q1 − q0)/h)
  const auto del = [&](double a, double b) {
    return [&, a, b](const Point& p) {
      const double ml2 = v(p, "m") * v(p, "l") * v(p, "l"), mgl = v(p, "m") * v(p, "g") * v(p, "l"), h = v(p, "h");
      const double q0 = v(p, "th_km1"), q1 = v(p, "th_k"), q2 = v(p, "th_kp1");
      return ml2 * (q1 - q0) / h - ml2 * (q2 - q1) / h -
             h * mgl * (a * std::sin(a * q0 + b * q1) + b * std::sin(a * q1 + b * q2));
    };
  };
  checkAtRandomPoints(mid.discrete, {del(0.5, 0.5)}, mid.discreteNames, 4);
  const MotionEquations alpha = motionEquations(params, "alpha", 0.25);
  // α: L sampled at (1 − α) q0 + α q1: ∂/∂q_k weighs the first step's by α, the second's by 1 − α
  checkAtRandomPoints(alpha.discrete, {[&](const Point& p) {
                        const double ml2 = v(p, "m") * v(p, "l") * v(p, "l"), mgl = v(p, "m") * v(p, "g") * v(p, "l");
                        const double h = v(p, "h"), q0 = v(p, "th_km1"), q1 = v(p, "th_k"), q2 = v(p, "th_kp1");
                        return ml2 * (q1 - q0) / h - ml2 * (q2 - q1) / h -
                               h * mgl *
                                   (0.25 * std::sin(0.75 * q0 + 0.25 * q1) + 0.75 * std::sin(0.75 * q1 + 0.25 * q2));
                      }},
                      alpha.discreteNames, 5);
  const MotionEquations trap = motionEquations(params, "trapezoid", 0.5);
  checkAtRandomPoints(trap.discrete, {[&](const Point& p) {
                        const double ml2 = v(p, "m") * v(p, "l") * v(p, "l"), mgl = v(p, "m") * v(p, "g") * v(p, "l");
                        const double h = v(p, "h"), q0 = v(p, "th_km1"), q1 = v(p, "th_k"), q2 = v(p, "th_kp1");
                        return ml2 * (q1 - q0) / h - ml2 * (q2 - q1) / h - h * mgl * std::sin(q1);
                      }},
                      trap.discreteNames, 6);
  // a negative control: the wrong sign of gravity is told apart
  bool differs = false;
  Point at;
  for (const auto& n : mid.continuous.infix)
    if (!n.empty()) at.values[n] = 0.7;
  const double wrong = v(at, "m") * v(at, "l") * v(at, "l") * v(at, "th''") -
                       v(at, "m") * v(at, "g") * v(at, "l") * std::sin(v(at, "th"));
  differs = std::abs(evaluateAt(mid.eulerLagrange[0].residual, mid.continuous, at) - wrong) > 1e-3;
  CHECK(differs);
}

TEST_CASE("the elastic pendulum's and Kepler's Euler–Lagrange equations are the hand-written ones", "[equations]") {
  const Json elastic = {{"coordinates", {"r", "th"}},
                        {"constants", {{"m", 1}, {"k", 40}, {"l0", 1}, {"g", 9.81}}},
                        {"lagrangian", "m/2*(r'^2 + r^2*th'^2) - k/2*(r - l0)^2 + m*g*r*cos(th)"}};
  const MotionEquations e = motionEquations(elastic, "midpoint", 0.5);
  const auto v = [](const Point& p, const char* k) { return p.values.at(k); };
  checkAtRandomPoints(e.eulerLagrange,
                      {[&](const Point& p) {
                         return v(p, "m") * v(p, "r''") - v(p, "m") * v(p, "r") * v(p, "th'") * v(p, "th'") +
                                v(p, "k") * (v(p, "r") - v(p, "l0")) - v(p, "m") * v(p, "g") * std::cos(v(p, "th"));
                       },
                       [&](const Point& p) {
                         return v(p, "m") * v(p, "r") * v(p, "r") * v(p, "th''") +
                                2 * v(p, "m") * v(p, "r") * v(p, "r'") * v(p, "th'") +
                                v(p, "m") * v(p, "g") * v(p, "r") * std::sin(v(p, "th"));
                       }},
                      e.continuous, 7);
  checkAtRandomPoints(
      e.mass,
      {[&](const Point& p) { return v(p, "m"); }, [](const Point&) { return 0.0; }, [](const Point&) { return 0.0; },
       [&](const Point& p) { return v(p, "m") * v(p, "r") * v(p, "r"); }},
      e.continuous, 8);
  const Json kepler = {{"coordinates", {"x", "y"}},
                       {"constants", {{"m", 1}, {"k", 1}}},
                       {"lagrangian", "m/2*(x'^2 + y'^2) + k*m/sqrt(x^2 + y^2)"}};
  const MotionEquations K = motionEquations(kepler, "midpoint", 0.5);
  const auto radial = [&](const char* acc, const char* c) {
    return [&, acc, c](const Point& p) {
      const double r = std::sqrt(v(p, "x") * v(p, "x") + v(p, "y") * v(p, "y"));
      return v(p, "m") * v(p, acc) + v(p, "k") * v(p, "m") * v(p, c) / (r * r * r);
    };
  };
  checkAtRandomPoints(K.eulerLagrange, {radial("x''", "x"), radial("y''", "y")}, K.continuous, 9);
}

TEST_CASE("constraints bring their multipliers into both sets of equations", "[equations]") {
  // A pendulum in Cartesian coordinates: g = x² + z² − l² = 0.
  const Json params = {{"coordinates", {"x", "z"}},
                       {"constants", {{"m", 2}, {"g", 9.81}, {"l", 1}}},
                       {"lagrangian", "m/2*(x'^2 + z'^2) - m*g*z"},
                       {"constraints", {"x^2 + z^2 - l^2"}},
                       {"damping", 0.3}};
  const MotionEquations e = motionEquations(params, "midpoint", 0.5);
  const auto v = [](const Point& p, const char* k) { return p.values.at(k); };
  // m q̈ (+ m g) = −c q̇ + 2 λ q;  x² + z² − l² = 0
  checkAtRandomPoints(
      e.eulerLagrange,
      {[&](const Point& p) { return v(p, "m") * v(p, "x''") + 0.3 * v(p, "x'") - 2 * v(p, "lambda1") * v(p, "x"); },
       [&](const Point& p) {
         return v(p, "m") * v(p, "z''") + v(p, "m") * v(p, "g") + 0.3 * v(p, "z'") - 2 * v(p, "lambda1") * v(p, "z");
       },
       [&](const Point& p) { return v(p, "x") * v(p, "x") + v(p, "z") * v(p, "z") - v(p, "l") * v(p, "l"); }},
      e.continuous, 10);
  // midpoint DEL with f_d^± = (h/2) F(q̄, v̄), F = −c v̄, and + Dg(q_k)ᵀλ_k
  const auto del = [&](const char* c, double gravity) {
    const std::string s = c;
    return [&, s, gravity](const Point& p) {
      const double h = v(p, "h"), m = v(p, "m");
      const double q0 = v(p, (s + "_km1").c_str()), q1 = v(p, (s + "_k").c_str()), q2 = v(p, (s + "_kp1").c_str());
      return m * (q1 - q0) / h - m * (q2 - q1) / h - gravity * h * m * v(p, "g") - 0.15 * (q1 - q0) - 0.15 * (q2 - q1) +
             2 * v(p, "lambda1") * q1;
    };
  };
  checkAtRandomPoints(e.discrete,
                      {del("x", 0), del("z", 1),
                       [&](const Point& p) {
                         return v(p, "x_kp1") * v(p, "x_kp1") + v(p, "z_kp1") * v(p, "z_kp1") - v(p, "l") * v(p, "l");
                       }},
                      e.discreteNames, 11);
  CHECK(e.latex.find("\\lambda") != std::string::npos);
}

TEST_CASE("the equations refuse a bad rule or definition by field", "[equations]") {
  const Json params = {{"coordinates", {"x"}}, {"lagrangian", "x'^2/2 - x^2/2"}};
  const auto fieldOf = [&](const Json& p, const std::string& rule, double alpha) {
    try {
      motionEquations(p, rule, alpha);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("(accepted)");
  };
  CHECK(fieldOf(params, "midpoint", 0.5) == "(accepted)");
  CHECK(fieldOf(params, "rk4", 0.5) == "rule");
  CHECK(fieldOf(params, "alpha", 1.5) == "alpha");
  CHECK(fieldOf(Json{{"coordinates", {"x"}}, {"lagrangian", "x'^2/2 - y"}}, "midpoint", 0.5) == "params.lagrangian");
}
