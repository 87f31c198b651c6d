// Forcing, damping and time on systems defined by data: the discrete Lagrange–d'Alembert
// principle (M–W §3.2) in the DEL of the α-family, the forced Euler–Lagrange ODE of the
// baselines, and time-dependent Lagrangians (M–W Part 4). Orders against exact
// solutions, the forced discrete Noether theorem, bit-for-bit agreement with the
// unforced path, the Kapitza pendulum and the errors.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "support.hpp"
#include "vilab/expr/parse.hpp"
#include "vilab/integrators/lagrangian_del.hpp"
#include "vilab/integrators/lagrangian_ode.hpp"
#include "vilab/integrators/runge_kutta.hpp"
#include "vilab/models/lagrangian.hpp"
#include "vilab/scenario.hpp"

// Its own namespace: in a unity batch its helpers keep their names apart from the
// other files'.
namespace test_lagrangian_forcing {

using namespace vilab;
using vilab::test::observedOrders;
using vilab::test::simulate;

namespace {

std::shared_ptr<const LagrangianProblem> compileParams(const std::string& params) {
  Json normalized;
  return compileLagrangian(Json::parse(params), normalized);
}

Json sceneFile(const std::string& id) {
  std::ifstream in(std::string(VILAB_SCENES_DIR) + "/lagrangian/" + id + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

// Steps a LagrangianDel from (q, p) at t = 0 for `steps` steps of size h, the clock set
// before every step as the Simulation does.
struct DelRun {
  LagrangianDel del;
  VecX q, p;
  double h;
  long k = 0;
  void advance(long steps) {
    for (long i = 0; i < steps; ++i, ++k) {
      del.setTime(static_cast<double>(k) * h);
      const StepOutcome o = del.step(q, p);
      REQUIRE(o.ok);
    }
  }
};

DelRun delRun(std::shared_ptr<const LagrangianProblem> problem, DiscreteRule rule, double h, const VecX& q,
              const VecX& p, ForceSplit split = ForceSplit::Symmetric) {
  LagrangianDel del(std::move(problem), rule, h, split);
  State s{q, p};
  del.prepare(s);
  return DelRun{std::move(del), q, p, h};
}

// The damped oscillator m x'' + c x' + k x = 0, underdamped (ζ = 0.1, ω = 2).
const char* kDamped = R"j({"coordinates":["x"],"constants":{"m":1,"k":4},
  "lagrangian":"m/2*x'^2 - k/2*x^2","damping":0.4})j";
constexpr double kM = 1, kK = 4, kC = 0.4, kX0 = 1, kV0 = 0.5;

// Its exact solution x(t) = e^{−ζωt}(x0 cos ω_d t + (v0 + ζω x0)/ω_d sin ω_d t) and m x'(t).
void dampedExact(double t, double& x, double& p) {
  const double w = std::sqrt(kK / kM), zeta = kC / (2 * kM * w), wd = w * std::sqrt(1 - zeta * zeta);
  const double decay = std::exp(-zeta * w * t), B = (kV0 + zeta * w * kX0) / wd;
  const double c = std::cos(wd * t), s = std::sin(wd * t);
  x = decay * (kX0 * c + B * s);
  p = kM * (-zeta * w * x + decay * (-kX0 * wd * s + B * wd * c));
}

// Error in (x, p) at T = 5 of the DEL on the damped oscillator.
double dampedError(DiscreteRule rule, ForceSplit split, double h) {
  const long steps = std::lround(5.0 / h);
  DelRun r = delRun(compileParams(kDamped), rule, h, VecX::Constant(1, kX0), VecX::Constant(1, kM * kV0), split);
  r.advance(steps);
  double x, p;
  dampedExact(static_cast<double>(steps) * h, x, p);
  return std::max(std::abs(r.q[0] - x), std::abs(r.p[0] - p));
}

// The harmonically driven oscillator L = ½q̇² − ½q² + q A cos(Ωt): q'' + q = A cos Ωt.
const char* kDriven = R"j({"coordinates":["x"],"constants":{"A":1,"W":2},
  "lagrangian":"x'^2/2 - x^2/2 + x*A*cos(W*t)"})j";
constexpr double kA = 1, kW = 2, kDX0 = 0.3, kDV0 = -0.4;

void drivenExact(double t, double& x, double& v) {
  const double forced = kA / (1 - kW * kW), C = kDX0 - forced;
  x = C * std::cos(t) + kDV0 * std::sin(t) + forced * std::cos(kW * t);
  v = -C * std::sin(t) + kDV0 * std::cos(t) - forced * kW * std::sin(kW * t);
}

std::string drivenScenario(const std::string& integrator, double h, const std::string& options = "{}") {
  return R"j({"system":"lagrangian","integrator":")j" + integrator + R"j(","h":)j" + std::to_string(h) +
         R"j(,"params":)j" + kDriven + R"j(,"initial":{"q":[0.3],"qdot":[-0.4]},"options":)j" + options + "}";
}

// Error in (x, p = ẋ) at T = 4 of a registry integrator on the driven oscillator.
double drivenError(const std::string& integrator, double h, const std::string& options = "{}") {
  const long steps = std::lround(4.0 / h);
  Simulation sim = simulate(drivenScenario(integrator, h, options), 1, 4);
  sim.advance(static_cast<std::uint64_t>(steps));
  double x, v;
  drivenExact(sim.time(), x, v);
  return std::max(std::abs(sim.q()[0] - x), std::abs(sim.p()[0] - v));
}

// The Kapitza scene's params with the drive frequency replaced.
std::string kapitzaScenario(double omega) {
  Json scene = sceneFile("kapitza");
  scene.erase("about");
  scene["params"]["constants"]["w"] = omega;
  return scene.dump();
}

// How far the Kapitza pendulum strays from the inverted position over `seconds`
// (max |θ − π|, stopping once it exceeds 1).
double kapitzaExcursion(double omega, double seconds) {
  Simulation sim = simulate(kapitzaScenario(omega), 1000, 4);
  const long steps = std::lround(seconds / sim.scenario().h);
  double worst = 0;
  for (long k = 0; k < steps && worst <= 1; ++k) {
    sim.advance(1);
    worst = std::max(worst, std::abs(sim.q()[0] - dm::pi));
  }
  return worst;
}

struct Failure {
  std::string field, message;
};
Failure failureOf(const std::string& scenario) {
  try {
    makeIntegrator(parseScenario(scenario));
  } catch (const InputError& e) {
    return {e.field(), e.what()};
  }
  return {"", "no error"};
}

}  // namespace

TEST_CASE("forcing: damped oscillator, midpoint order 2 and the one-sided split order 1",
          "[lagrangian-forcing][lagrangian]") {
  std::vector<double> symmetric, oneSided;
  for (double h : {0.02, 0.01, 0.005}) {
    symmetric.push_back(dampedError(DiscreteRule::midpoint(), ForceSplit::Symmetric, h));
    oneSided.push_back(dampedError(DiscreteRule::midpoint(), ForceSplit::OneSided, h));
  }
  const auto orderSymmetric = observedOrders(symmetric), orderOneSided = observedOrders(oneSided);
  INFO("symmetric errors " << symmetric[0] << " " << symmetric[1] << " " << symmetric[2] << " orders "
                           << orderSymmetric[0] << " " << orderSymmetric[1]);
  INFO("one-sided errors " << oneSided[0] << " " << oneSided[1] << " " << oneSided[2] << " orders " << orderOneSided[0]
                           << " " << orderOneSided[1]);
  for (double o : orderSymmetric) CHECK(std::abs(o - 2) <= 0.1);
  for (double o : orderOneSided) CHECK(std::abs(o - 1) <= 0.1);
  // The trapezoid's symmetric split (F at q_k and q_{k+1}) is second order too.
  std::vector<double> trapezoid;
  for (double h : {0.02, 0.01, 0.005})
    trapezoid.push_back(dampedError(DiscreteRule::trapezoid(), ForceSplit::Symmetric, h));
  for (double o : observedOrders(trapezoid)) CHECK(std::abs(o - 2) <= 0.1);
  // The energy decays (the discrete forcing dissipates): |x| at T far below x0.
  CHECK(symmetric[2] < 1e-3);
}

TEST_CASE("forcing: the forced ODE of the baselines (RK4 order 4 on the damped oscillator)",
          "[lagrangian-forcing][lagrangian]") {
  const auto problem = compileParams(kDamped);
  std::vector<double> errors;
  for (double h : {0.1, 0.05, 0.025}) {
    ExplicitRungeKutta<LagrangianOde> rk(LagrangianOde(LagrangianModel(problem)), RungeKuttaMethod::RK4, h);
    rk.load(State{VecX::Constant(1, kX0), VecX::Constant(1, kM * kV0)});
    const long steps = std::lround(5.0 / h);
    for (long k = 0; k < steps; ++k) REQUIRE(rk.step().ok);
    State s;
    rk.store(s);
    double x, p;
    dampedExact(static_cast<double>(steps) * h, x, p);
    errors.push_back(std::max(std::abs(s.q[0] - x), std::abs(s.p[0] - p)));
  }
  const auto orders = observedOrders(errors);
  INFO("RK4 damped errors " << errors[0] << " " << errors[1] << " " << errors[2] << " orders " << orders[0] << " "
                            << orders[1]);
  for (double o : orders) CHECK(std::abs(o - 4) <= 0.2);
}

TEST_CASE("forcing: damping 0 and zero forces reproduce the unforced midpoint bit for bit",
          "[lagrangian-forcing][lagrangian]") {
  // A nonlinear L (the full Newton) and a linear one (the reduced Newton).
  const char* unforced[] = {
      R"j({"coordinates":["x","y"],"lagrangian":"(x'^2 + y'^2)/2 + x'*y'/4 - (x^2 + y^2)^2/4 - x*y/3"})j",
      R"j({"coordinates":["x","y"],"lagrangian":"(x'^2 + y'^2)/2 - (x^2 + 2*y^2)/2 - x*y/3"})j"};
  for (const char* text : unforced) {
    Json params = Json::parse(text);
    const auto plain = compileParams(params.dump());
    params["damping"] = 0;
    params["forces"] = Json::array({"0", "0*x'"});
    const auto zero = compileParams(params.dump());
    REQUIRE(!plain->forced());
    REQUIRE(zero->forced());  // the forced code path runs, with F ≡ 0
    const VecX q0 = (VecX(2) << 0.7, -0.3).finished(), p0 = (VecX(2) << 0.2, 0.5).finished();
    DelRun a = delRun(plain, DiscreteRule::midpoint(), 0.01, q0, p0);
    DelRun b = delRun(zero, DiscreteRule::midpoint(), 0.01, q0, p0);
    a.advance(1000);
    b.advance(1000);
    INFO(text);
    for (int i = 0; i < 2; ++i) {
      CHECK(a.q[i] == b.q[i]);
      CHECK(a.p[i] == b.p[i]);
    }
  }
}

TEST_CASE("forcing: the forced discrete Noether theorem, J_{k+1} − J_k = <f−, ξ(q_k)> + <f+, ξ(q_{k+1})>",
          "[lagrangian-forcing][lagrangian]") {
  // A rotation-invariant L, damped; ξ(q) = (−y, x), J = p·ξ(q) (M–W §3.2).
  const auto problem = compileParams(R"j({"coordinates":["x","y"],"constants":{"c":0.3},
    "lagrangian":"(x'^2 + y'^2)/2 - (x^2 + y^2)^2/4","damping":0.3})j");
  const auto xi = [](const VecX& q) { return SmallVec((SmallVec(2) << -q[1], q[0]).finished()); };
  const VecX q0 = (VecX(2) << 1.0, 0.2).finished(), p0 = (VecX(2) << -0.1, 0.9).finished();
  struct Case {
    DiscreteRule rule;
    ForceSplit split;
    const char* name;
  };
  for (const Case& c : {Case{DiscreteRule::midpoint(), ForceSplit::Symmetric, "midpoint"},
                        Case{DiscreteRule::midpoint(), ForceSplit::OneSided, "midpoint one-sided"},
                        Case{DiscreteRule::trapezoid(), ForceSplit::Symmetric, "trapezoid"},
                        Case{DiscreteRule::alphaFamily(0.3), ForceSplit::Symmetric, "alpha 0.3"}}) {
    DelRun r = delRun(problem, c.rule, 0.02, q0, p0, c.split);
    double worst = 0, change = 0;
    SmallVec fMinus, fPlus;
    for (int k = 0; k < 300; ++k) {
      const VecX q = r.q, p = r.p;
      const double J0 = p.dot(VecX(xi(q)));
      r.advance(1);
      const double J1 = r.p.dot(VecX(xi(r.q)));
      r.del.setTime(static_cast<double>(k) * r.h);
      r.del.discreteForces(q, SmallVec(r.q - q), fMinus, fPlus);
      const double predicted = fMinus.dot(xi(q)) + fPlus.dot(xi(r.q));
      worst = std::max(worst, std::abs((J1 - J0) - predicted));
      change += std::abs(J1 - J0);
    }
    INFO(c.name << ": largest |ΔJ − <f−, ξ(q_k)> − <f+, ξ(q_k+1)>| = " << worst << ", Σ|ΔJ| = " << change);
    CHECK(worst <= 1e-13);
    CHECK(change > 0.1);  // the forcing does change J: the identity is not 0 = 0
  }
}

TEST_CASE("forcing: the symmetric split is time-reversible, the one-sided one is not",
          "[lagrangian-forcing][lagrangian]") {
  // A step of h from t_k, then one of −h from t_{k+1}, returns to the start (M–W §2.5:
  // the adjoint of the forced midpoint is itself), so compositions raise its order.
  const auto problem = compileParams(R"j({"coordinates":["x","y"],
    "lagrangian":"(x'^2 + y'^2)/2 + x'*y'/5 - (x^2 + y^2)^2/4","damping":0.2,
    "forces":["-x'*(x^2 + y^2) + sin(t)*y", "cos(x*y') + t*x"]})j");
  for (const DiscreteRule& rule : {DiscreteRule::midpoint(), DiscreteRule::trapezoid()})
    for (ForceSplit split : {ForceSplit::Symmetric, ForceSplit::OneSided}) {
      LagrangianDel forward(problem, rule, 0.05, split), backward(problem, rule, -0.05, split);
      VecX q = (VecX(2) << 0.8, -0.4).finished(), p = (VecX(2) << 0.3, 0.6).finished();
      const VecX q0 = q, p0 = p;
      forward.setTime(0.7);
      REQUIRE(forward.step(q, p).ok);
      backward.setTime(0.75);
      REQUIRE(backward.step(q, p).ok);
      const double back = std::max((q - q0).cwiseAbs().maxCoeff(), (p - p0).cwiseAbs().maxCoeff());
      INFO("rule " << static_cast<int>(rule.kind) << " one-sided " << (split == ForceSplit::OneSided) << ": " << back);
      if (split == ForceSplit::Symmetric)
        CHECK(back <= 1e-14);
      else
        CHECK(back > 1e-4);
    }
}

TEST_CASE("forcing: the Newton matrix includes ∂f−/∂q_{k+1}", "[lagrangian-forcing][lagrangian]") {
  // A nonlinear, time-dependent force: its Jacobian against finite differences.
  const auto problem = compileParams(R"j({"coordinates":["x","y"],
    "lagrangian":"(x'^2 + y'^2)/2 + x'*y'/5 - (x^2 + y^2)^2/4","damping":0.2,
    "forces":["-x'*(x^2 + y^2) + sin(t)*y", "cos(x*y') + t*x"]})j");
  for (const DiscreteRule& rule : {DiscreteRule::midpoint(), DiscreteRule::trapezoid(), DiscreteRule::alphaFamily(0.3)})
    for (ForceSplit split : {ForceSplit::Symmetric, ForceSplit::OneSided}) {
      DelRun r =
          delRun(problem, rule, 0.05, (VecX(2) << 0.8, -0.4).finished(), (VecX(2) << 0.3, 0.6).finished(), split);
      r.advance(3);
      r.del.setTime(0.7);
      SmallVec x(2);
      x << 0.02, 0.035;
      CHECK(vilab::test::newtonJacobianDefect(r.del, x) < 1e-7);
    }
}

TEST_CASE("time: a driven oscillator L(q, q̇, t), midpoint order 2 and RK4 order 4",
          "[lagrangian-forcing][lagrangian]") {
  REQUIRE(compileParams(kDriven)->timeDependent);
  std::vector<double> midpoint, trapezoid, rk4;
  for (double h : {0.04, 0.02, 0.01}) {
    midpoint.push_back(drivenError("midpoint", h));
    trapezoid.push_back(drivenError("trapezoid", h));
  }
  for (double h : {0.1, 0.05, 0.025}) rk4.push_back(drivenError("rk4", h));
  const auto om = observedOrders(midpoint), ot = observedOrders(trapezoid), o4 = observedOrders(rk4);
  INFO("midpoint errors " << midpoint[0] << " " << midpoint[1] << " " << midpoint[2] << " orders " << om[0] << " "
                          << om[1]);
  INFO("trapezoid orders " << ot[0] << " " << ot[1]);
  INFO("rk4 errors " << rk4[0] << " " << rk4[1] << " " << rk4[2] << " orders " << o4[0] << " " << o4[1]);
  for (double o : om) CHECK(std::abs(o - 2) <= 0.1);
  for (double o : ot) CHECK(std::abs(o - 2) <= 0.1);
  for (double o : o4) CHECK(std::abs(o - 4) <= 0.2);
  // DOPRI5's stages are timed too: to its tolerance, not O(1) off.
  const double dopri = drivenError("dopri5", 0.05, R"j({"tol":1e-10})j");
  INFO("dopri5 error " << dopri);
  CHECK(dopri < 1e-7);
  // The energy diagnostic is H(q, p, t) = ½p² + ½q² − q A cos(Ωt) at the simulation's time.
  Simulation sim = simulate(drivenScenario("midpoint", 0.01), 1, 4);
  sim.advance(123);
  const double t = sim.time(), q = sim.q()[0], p = sim.p()[0];
  CHECK(std::abs(sim.diagnostics().energy - (0.5 * p * p + 0.5 * q * q - q * kA * dm::cos(kW * t))) <= 1e-14);
}

TEST_CASE("time: the Kapitza pendulum stays inverted above a²ω² = 2gl and falls below",
          "[lagrangian-forcing][lagrangian]") {
  const Json scene = sceneFile("kapitza");
  const Json& k = scene["params"]["constants"];
  const double a = k["a"].get<double>(), w = k["w"].get<double>(), g = k["g"].get<double>(), l = k["l"].get<double>();
  REQUIRE(a * a * w * w > 1.5 * 2 * g * l);  // above the threshold with margin
  REQUIRE(scene["integrator"] == "midpoint");
  const double up = kapitzaExcursion(w, 100);
  INFO("max |θ − π| over 100 s at ω = " << w << ": " << up);
  CHECK(up < 0.3);
  // Negative control: ω with a²ω² = 0.5 · 2gl, below the threshold.
  const double slow = std::sqrt(0.5 * 2 * g * l) / a;
  const double down = kapitzaExcursion(slow, 100);
  INFO("max |θ − π| at ω = " << slow << ": " << down);
  CHECK(down > 1);
}

TEST_CASE("forcing: the driven damped pendulum scene runs with midpoint", "[lagrangian-forcing][lagrangian]") {
  Json scene = sceneFile("driven-damped-pendulum");
  scene.erase("about");
  Json normalized;
  const auto problem = compileLagrangian(scene["params"], normalized);
  REQUIRE(problem->forced());
  REQUIRE(problem->forcesUseTime);
  REQUIRE(normalized["damping"] == scene["params"]["damping"]);
  REQUIRE(normalized["forces"] == scene["params"]["forces"]);
  const double h = scene["h"].get<double>();
  const double q0 = scene["initial"]["q"][0].get<double>(), v0 = scene["initial"]["qdot"][0].get<double>();
  // Against RK4 at a small step over one drive period (before chaos separates them).
  DelRun r = delRun(problem, DiscreteRule::midpoint(), h, VecX::Constant(1, q0), VecX::Constant(1, v0));
  const long steps = std::lround(3 * dm::pi / h);  // one drive period 2π/ω_D
  r.advance(steps);
  ExplicitRungeKutta<LagrangianOde> rk(LagrangianOde(LagrangianModel(problem)), RungeKuttaMethod::RK4, h / 10);
  rk.load(State{VecX::Constant(1, q0), VecX::Constant(1, v0)});
  for (long k = 0; k < 10 * steps; ++k) REQUIRE(rk.step().ok);
  State s;
  rk.store(s);
  INFO("midpoint " << r.q[0] << " rk4 " << s.q[0]);
  CHECK(std::abs(r.q[0] - s.q[0]) < 1e-3);
}

TEST_CASE("forcing and time: errors name the field", "[lagrangian-forcing][lagrangian][errors]") {
  const std::string head = R"j({"system":"lagrangian","integrator":"midpoint","h":0.01,"params":)j";
  const std::string tail = R"j(,"initial":{"q":[1,0],"qdot":[0,1]}})j";
  // t in a constraint: constraints stay time-independent.
  const Failure inConstraint = failureOf(
      head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","constraints":["x^2 + y^2 - 1 - t"]})j" + tail);
  CHECK(inConstraint.field == "params.constraints[0]");
  CHECK(inConstraint.message.find("time t is not allowed") != std::string::npos);
  // t in a symmetry generator.
  CHECK(failureOf(head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","symmetries":{"r":["-y*t","x"]}})j" +
                  tail)
            .field == "params.symmetries.r[0]");
  // forces of the wrong length, or not a list.
  const Failure length =
      failureOf(head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","forces":["-x'"]})j" + tail);
  CHECK(length.field == "params.forces");
  CHECK(length.message.find("one expression per coordinate (2)") != std::string::npos);
  CHECK(failureOf(head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","forces":"-x'"})j" + tail).field ==
        "params.forces");
  // a bad force expression points at its element; a negative damping at the field.
  CHECK(failureOf(head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","forces":["-x'","z"]})j" + tail)
            .field == "params.forces[1]");
  CHECK(failureOf(head + R"j({"coordinates":["x","y"],"lagrangian":"(x'^2+y'^2)/2","damping":-1})j" + tail).field ==
        "params.damping");
  // t in L is accepted; the energy–momentum integrator refuses a time-dependent L.
  CHECK_NOTHROW(parseScenario(drivenScenario("midpoint", 0.01)));
  const Failure em = failureOf(drivenScenario("energy-momentum", 0.01));
  CHECK(em.field == "integrator");
  CHECK(em.message.find("depends on t") != std::string::npos);
}

}  // namespace test_lagrangian_forcing
