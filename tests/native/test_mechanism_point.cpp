// Point masses in a mechanism (inertia 0: a position only, models/mechanism.hpp): the
// double spherical pendulum built from two point masses on rods equals the built-in one
// (its midpoint, which on chains under uniform gravity is RATTLE, the map the Lie-group
// step of point masses on rods reduces to), the baselines take point masses, and what a
// point mass cannot have is refused naming the field.
#include <catch2/catch.hpp>
#include <sstream>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/models/mechanism_dynamics.hpp"

using namespace vilab;
using namespace vilab::test;
using vilab::testing::bobGap;

namespace {

Json array3(const Vec3& v) { return Json::array({v[0], v[1], v[2]}); }

// The built-in DSP's scenario and, from its initial state, the same pendulum as a
// mechanism: bob 1 on a rod to the world's origin, bob 2 on a rod to bob 1.
Json builtInDsp() { return Json{{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"h", 0.01}}; }

Json dspFromBodies(const State& dsp, const std::string& integrator) {
  const Vec3 x1 = dsp.q.segment<3>(0), x2 = dsp.q.segment<3>(3);
  Json bodies = Json::array();
  for (int i = 0; i < 2; ++i)
    bodies.push_back({{"name", i == 0 ? "bob1" : "bob2"},
                      {"mass", 1},
                      {"inertia", 0},
                      {"position", array3(dsp.q.segment<3>(3 * i))},
                      {"velocity", array3(dsp.p.segment<3>(3 * i))}});  // p/m, m = 1
  Json joints =
      Json::array({{{"type", "ball"}, {"parent", "world"}, {"child", "bob1"}, {"childPoint", array3(-x1)}},
                   {{"type", "ball"}, {"parent", "bob1"}, {"child", "bob2"}, {"childPoint", array3(x1 - x2)}}});
  return Json{{"system", "mechanism"},
              {"integrator", integrator},
              {"h", 0.01},
              {"params", {{"gravity", {0, 0, -9.81}}, {"bodies", bodies}, {"joints", joints}}}};
}

}  // namespace

// Steps the built-in DSP and the mechanism built from its start side by side; the bob
// states' largest difference every `every` steps.
std::vector<double> dspGaps(const Json& dspScenario, int steps, int every) {
  Simulation dsp = simulate(dspScenario.dump());
  Simulation mech = simulate(dspFromBodies(dsp.state(), "lie-group").dump());
  std::vector<double> gaps{bobGap(dsp.state(), mech.state())};
  for (int k = every; k <= steps; k += every) {
    run(dsp, every);
    run(mech, every);
    gaps.push_back(bobGap(dsp.state(), mech.state()));
  }
  const State& s = mech.state();
  for (int i = 0; i < 2; ++i) {
    CHECK(s.q.segment<4>(7 * i + 3) == Vec4(1, 0, 0, 0));  // no orientation
    CHECK(s.p.segment<3>(6 * i + 3) == Vec3::Zero());      // Π = 0
  }
  CHECK(mech.diagnostics().constraint <= 1e-13);
  return gaps;
}

TEST_CASE("mechanism point masses: two on rods equal the built-in DSP over 2000 steps of a regular motion",
          "[mechanism][point]") {
  // Low swings: a regular (not chaotic) motion, on which rounding differences stay rounding.
  Json low = builtInDsp();
  low["initial"] = {{"angles", {{0.3, 0.0}, {0.5, 0.4}}}, {"rates", {{0.0, 0.4}, {0.0, -0.2}}}};
  const std::vector<double> gaps = dspGaps(low, 2000, 500);
  for (std::size_t k = 0; k < gaps.size(); ++k) {
    INFO("DSP from point masses, low swings: after " << 500 * k << " steps the states differ by " << gaps[k]);
    CHECK(gaps[k] <= 1e-12);
  }
}

TEST_CASE("mechanism point masses: two on rods follow the built-in DSP's chaotic default as closely as rounding allows",
          "[mechanism][point]") {
  // The default start is chaotic: the built-in DSP against itself from θ₁ one ulp larger
  // is the gap rounding alone opens; the mechanism's (a different order of operations)
  // must stay within a small multiple of it, where a wrong step (another force split, no
  // tangent projection) differs by O(h²) from the first steps on.
  Json nudged = builtInDsp();
  nudged["initial"] = {{"angles", {{1.6000000000000003, 0.0}, {2.2, 0.8}}}, {"rates", {{0.0, 1.2}, {0.0, -0.6}}}};
  Simulation a = simulate(builtInDsp().dump()), b = simulate(nudged.dump());
  std::vector<double> ulp{0};
  for (int k = 0; k < 4; ++k) {
    run(a, 500);
    run(b, 500);
    ulp.push_back(
        std::max((a.state().q - b.state().q).cwiseAbs().maxCoeff(), (a.state().p - b.state().p).cwiseAbs().maxCoeff()));
  }
  const std::vector<double> gaps = dspGaps(builtInDsp(), 2000, 500);
  std::ostringstream log;
  for (std::size_t k = 0; k < gaps.size(); ++k)
    log << "after " << 500 * k << " steps: " << gaps[k] << " (one ulp of θ₁: " << ulp[k] << "); ";
  INFO("DSP from point masses, default start: " << log.str());
  CHECK(gaps[1] <= 1e-12);
  CHECK(gaps[4] <= 1e3 * ulp[4]);
}

TEST_CASE("mechanism point masses: rk4, dopri5 and the compositions run the DSP from bodies", "[mechanism][point]") {
  Simulation dsp = simulate(builtInDsp().dump());
  const Json base = dspFromBodies(dsp.state(), "lie-group");
  const double e0 = simulate(base.dump()).diagnostics().energy;
  for (const char* integrator : {"rk4", "dopri5", "composition4"}) {
    Json s = base;
    s["integrator"] = integrator;
    Simulation sim = simulate(s.dump());
    run(sim, 200);
    const Diagnostics d = sim.diagnostics();
    INFO(integrator << ": energy drift " << d.energy - e0 << ", constraint " << d.constraint);
    CHECK(std::abs(d.energy - e0) <= 1e-4);
    CHECK(d.constraint <= 1e-10);
    for (int i = 0; i < 2; ++i) CHECK(sim.state().q.segment<4>(7 * i + 3) == Vec4(1, 0, 0, 0));
  }
  Json q = base;
  q["integrator"] = "quaternion";
  std::string field;
  try {
    simulate(q.dump());
  } catch (const InputError& e) {
    field = e.field();
  }
  CHECK(field == "integrator");
}

TEST_CASE("mechanism point masses: what a point mass cannot have is refused naming the field", "[mechanism][point]") {
  const Json bob = {{"name", "bob"}, {"mass", 1}, {"inertia", 0}, {"position", {0, 0, -1}}};
  const auto scenario = [](Json bodies, Json joints) {
    return Json{{"system", "mechanism"},
                {"integrator", "lie-group"},
                {"h", 0.01},
                {"params", {{"bodies", bodies}, {"joints", joints}}}};
  };
  const Json rod = {{"type", "ball"}, {"child", "bob"}, {"childPoint", {0, 0, 1}}};
  CHECK(refusedAt(scenario(Json::array({bob}), Json::array({rod}))) == "");
  // A partly zero inertia is no point mass.
  Json partly = bob;
  partly["inertia"] = {0, 0, 1};
  CHECK(refusedAt(scenario(Json::array({partly}), Json::array({rod}))) == "params.bodies[0].inertia");
  for (const auto& [key, value] : std::vector<std::pair<std::string, Json>>{
           {"orientation", {0.6, 0.8, 0, 0}}, {"omega", {0, 0, 1}}, {"damping", 0.1}, {"torque", {"0", "0", "1"}}}) {
    Json b = bob;
    b[key] = value;
    CHECK(refusedAt(scenario(Json::array({b}), Json::array({rod}))) == "params.bodies[0]." + key);
  }
  Json hinge = rod;
  hinge["type"] = "hinge";
  CHECK(refusedAt(scenario(Json::array({bob}), Json::array({hinge}))) == "params.joints[0].type");
  Json fixed = {{"type", "fixed"}, {"child", "bob"}};
  CHECK(refusedAt(scenario(Json::array({bob}), Json::array({fixed}))) == "params.joints[0].type");
  // A rod of (nearly) zero length.
  Json stub = rod;
  stub["childPoint"] = {0, 0, 1e-12};
  Json near = bob;
  near["position"] = {0, 0, -1e-12};
  CHECK(refusedAt(scenario(Json::array({near}), Json::array({stub}))) == "params.joints[0].childPoint");
  // Three rods from three anchors fix the bob; a fourth repeats them.
  Json rods = Json::array();
  for (const Vec3& anchor : {Vec3(0, 0, 0), Vec3(1, 0, -1), Vec3(0, 1, -1), Vec3(-1, 0, -1)})
    rods.push_back({{"type", "ball"},
                    {"child", "bob"},
                    {"parentPoint", array3(anchor)},
                    {"childPoint", array3(anchor - Vec3(0, 0, -1))}});
  Json three = rods;
  three.erase(3);
  CHECK(refusedAt(scenario(Json::array({bob}), three)) == "");
  CHECK(refusedAt(scenario(Json::array({bob}), rods)) == "params.joints[3]");
  // A point-mass parent's joint point is its centre.
  const Json body = {{"name", "plate"}, {"mass", 1}, {"inertia", {1, 1, 1}}, {"position", {0, 0, -2}}};
  Json offset = {{"type", "ball"},
                 {"parent", "bob"},
                 {"child", "plate"},
                 {"parentPoint", {0, 0, -0.5}},
                 {"childPoint", {0, 0, 0.5}}};
  CHECK(refusedAt(scenario(Json::array({bob, body}), Json::array({rod, offset}))) == "params.joints[1].parentPoint");
}

TEST_CASE("mechanism point masses: a pinned point mass stays put and the state rules hold", "[mechanism][point]") {
  // A point mass on a pin (offset 0) under gravity: three constraints, no motion.
  const Json s = {{"system", "mechanism"},
                  {"integrator", "lie-group"},
                  {"h", 0.01},
                  {"params",
                   {{"bodies", Json::array({{{"name", "bob"}, {"mass", 2}, {"inertia", 0}}})},
                    {"joints", Json::array({{{"type", "ball"}, {"child", "bob"}}})}}}};
  Simulation sim = simulate(s.dump());
  run(sim, 100);
  CHECK(sim.state().q.cwiseAbs().maxCoeff() == 1);  // x = 0, the quaternion (1, 0, 0, 0)
  CHECK(sim.state().p.cwiseAbs().maxCoeff() <= 1e-15);
  // setState keeps a point mass without orientation and Π.
  State turned = sim.state();
  turned.q[4] = 0.6;
  turned.q[3] = 0.8;
  CHECK_THROWS_WITH(sim.setState(turned), Catch::Contains("q[3]"));
  State spinning = sim.state();
  spinning.p[5] = 1;
  CHECK_THROWS_WITH(sim.setState(spinning), Catch::Contains("p[3]"));
}

TEST_CASE("mechanism point masses: a rod's Ġv is the derivative of G v along the motion", "[mechanism][point]") {
  // Bob 1 on a rod to the world, bob 2 on a rod to bob 1, with velocities along the rods'
  // normals: for point masses G depends on x only, so Ġv = d/dt G(x + t v) v at t = 0.
  MechanismModel m;
  m.bodies.resize(2);
  for (MechanismBody& b : m.bodies) b.point = true, b.inertia.setZero();
  m.bodies[0].x = Vec3(0.6, 0, -0.8);
  m.bodies[1].x = Vec3(0.6, 0.8, -1.4);
  m.bodies[0].velocity = Vec3(0.8, 0.3, 0.6);
  m.bodies[1].velocity = Vec3(0.8, 0.3, 0.6) + Vec3(1.0, -0.45, -0.6);
  m.joints.resize(2);
  m.joints[0].child = 0;
  m.joints[0].childPoint = -m.bodies[0].x;
  m.joints[1].parent = 0;
  m.joints[1].child = 1;
  m.joints[1].childPoint = m.bodies[0].x - m.bodies[1].x;
  m.validate();
  REQUIRE(m.joints[0].kind == JointKind::Rod);
  REQUIRE(m.constraintCount() == 2);
  VecX v = VecX::Zero(12);
  v.segment<3>(0) = m.bodies[0].velocity;
  v.segment<3>(6) = m.bodies[1].velocity;
  const auto Gv = [&](double t) {
    std::vector<Vec3> x = m.positions();
    for (int i = 0; i < 2; ++i) x[i] += t * Vec3(v.segment<3>(6 * i));
    Eigen::MatrixXd G(2, 12);
    m.constraintJacobian(x, m.orientations(), G);
    return VecX(G * v);
  };
  VecX exact(2);
  constraintVelocityProduct(m, m.positions(), m.orientations(), v, exact);
  const double eps = 1e-5;
  const VecX numeric = (Gv(eps) - Gv(-eps)) / (2 * eps);
  INFO("rod Ġv: " << exact.transpose() << " vs central differences " << numeric.transpose());
  CHECK((exact - numeric).cwiseAbs().maxCoeff() <= 1e-8);
  CHECK(exact.cwiseAbs().minCoeff() >= 0.1);  // not trivially zero
}
