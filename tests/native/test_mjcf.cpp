// MJCF import (mjcf.hpp): four models of tests/native/mjcf/ imported and run with the
// Lie-group integrator against what they must equal — the free body against the
// built-in rigid body, the hinge pendulum against Jacobi's exact pendulum, the ball-joint
// plate against its hand-written scene, the DSP (its bobs imported as point masses)
// against the built-in DSP, and the gap ∝ ε of bobs of inertia ε kept rigid — and the malformed or unsupported files of
// tests/native/mjcf/bad/, each refused at its line.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "mechanisms.hpp"
#include "support.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/mjcf.hpp"

using namespace vilab;
using namespace vilab::test;
using vilab::testing::bobGap;

namespace {

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string mjcfFile(const std::string& name) {
  return readText(std::string(VILAB_SCENES_DIR) + "/../tests/native/mjcf/" + name);
}

Json imported(const std::string& name) { return importMjcf(mjcfFile(name)); }

// The largest difference of two states' q and p.
double stateGap(const State& a, const State& b) {
  REQUIRE(a.q.size() == b.q.size());
  REQUIRE(a.p.size() == b.p.size());
  return std::max((a.q - b.q).cwiseAbs().maxCoeff(), (a.p - b.p).cwiseAbs().maxCoeff());
}

// The DSP's MuJoCo model (tests/native/mjcf/dsp.xml's form, bench/mujoco.mjs dspModel) with
// the key of a DSP state: each link's rotation takes −z to it without spin.
std::string dspMjcf(const State& dsp) {
  const auto hangTo = [](const Vec3& e) { return Vec4(Vec4(1 - e[2], e[1], -e[0], 0).normalized()); };
  const Vec3 x1 = dsp.q.segment<3>(0), x2 = dsp.q.segment<3>(3), v1 = dsp.p.segment<3>(0), v2 = dsp.p.segment<3>(3);
  const Vec3 e1 = x1.normalized(), e2 = (x2 - x1).normalized();
  const Vec3 w1 = e1.cross(v1), w2 = e2.cross(v2 - v1);  // unit links, masses 1: ω = e × ė
  const Vec4 q1 = hangTo(e1), q2 = hangTo(e2), q2rel = quat::mul(quat::conj(q1), q2);
  const Vec3 r1 = quat::matrix(q1).transpose() * w1, r2 = quat::matrix(q2).transpose() * (w2 - w1);
  std::ostringstream key;
  key.precision(17);
  key << "<key qpos=\"" << q1[0] << ' ' << q1[1] << ' ' << q1[2] << ' ' << q1[3] << ' ' << q2rel[0] << ' ' << q2rel[1]
      << ' ' << q2rel[2] << ' ' << q2rel[3] << "\" qvel=\"" << r1[0] << ' ' << r1[1] << ' ' << r1[2] << ' ' << r2[0]
      << ' ' << r2[1] << ' ' << r2[2] << "\"/>";
  std::string xml = mjcfFile("dsp.xml");
  const std::size_t from = xml.find("<key "), to = xml.find("/>", from) + 2;
  return xml.replace(from, to - from, key.str());
}

}  // namespace

TEST_CASE("mjcf: the free body equals the built-in rigid body", "[mjcf]") {
  const Json s = imported("free-body.xml");
  CHECK(s["h"] == 0.01);
  CHECK(s["about"]["title"] == "Free body (Dzhanibekov)");
  CHECK(s["params"]["joints"].empty());
  CHECK(s["params"]["gravity"] == Json::array({0.0, 0.0, 0.0}));
  Simulation mechanism = simulate(s.dump());
  Simulation body = simulate(Json{{"system", "rigid-body"},
                                  {"integrator", "lie-group"},
                                  {"h", 0.01},
                                  {"params", {{"inertia", {1, 2, 3}}}},
                                  {"initial", {{"orientation", {1, 0, 0, 0}}, {"omega", {0.02, 2, 0.02}}}}}
                                 .dump());
  run(mechanism, 2000);  // 20 s: past the first flip
  run(body, 2000);
  const State& m = mechanism.state();
  const State& b = body.state();
  Vec4 qm = m.q.segment<4>(3), qb = b.q.segment<4>(0);
  if (qm.dot(qb) < 0) qm = -qm;
  const double gap = std::max((qm - qb).cwiseAbs().maxCoeff(), (m.p.segment<3>(3) - b.p).cwiseAbs().maxCoeff());
  INFO("free body: |Δq|, |ΔΠ| after 2000 steps = " << gap);
  CHECK(gap <= 1e-13);
  CHECK(m.q.segment<3>(0).cwiseAbs().maxCoeff() == 0);  // the centre of mass stays at rest
}

TEST_CASE("mjcf: the hinge pendulum follows the exact pendulum with the h² error", "[mjcf]") {
  // A ball of radius r = 0.1 m 1 m below the pivot: the simple pendulum of length
  // L = (m + 0.4 m r²)/m = 1.004 m.
  const Json s = imported("hinge-pendulum.xml");
  REQUIRE(s["params"]["joints"].size() == 1);
  CHECK(s["params"]["joints"][0]["type"] == "hinge");
  CHECK(s["params"]["bodies"][0]["inertia"][0] == Approx(0.004).epsilon(1e-14));
  const exact::Pendulum exact(9.81, 1.004, 1.0, 0.0);
  const double T = 5.0;
  std::vector<double> hs, errors;
  for (double h : {0.01, 0.005, 0.0025}) {
    Json sh = s;
    sh["h"] = h;
    Simulation sim = simulate(sh.dump());
    run(sim, std::lround(T / h));
    const Vec3 x = sim.state().q.segment<3>(0);
    const double theta = dm::atan2(-x[0], -x[2]);  // the hinge turns about +y: x = (−sin θ, 0, −cos θ)
    hs.push_back(h);
    errors.push_back(std::abs(theta - exact.theta(T)));
    INFO("h = " << h << ": |θ − θ_exact| at t = 5 s = " << errors.back());
    CHECK(std::abs(x.norm() - 1.0) <= 1e-12);
  }
  const double order = fittedOrder(hs, errors);
  INFO("hinge pendulum: angle error " << errors[0] << " at h = 0.01; order " << order);
  CHECK(errors[0] <= 1e-2);
  CHECK(std::abs(order - 2) <= 0.1);
}

TEST_CASE("mjcf: the ball-joint plate equals its hand-written scene", "[mjcf]") {
  const Json s = imported("physical-pendulum.xml");
  Json scene = Json::parse(readText(std::string(VILAB_SCENES_DIR) + "/mechanisms/physical-pendulum.json"));
  scene.erase("about");
  Simulation a = simulate(s.dump());
  Simulation b = simulate(scene.dump());
  const double start = stateGap(a.state(), b.state());
  INFO("physical pendulum: the initial states differ by " << start);
  CHECK(start <= 1e-15);
  run(a, 2000);
  run(b, 2000);
  const double gap = stateGap(a.state(), b.state());
  INFO("physical pendulum: after 2000 steps (10 s) the states differ by " << gap);
  CHECK(gap <= 1e-12);
  CHECK(s["params"]["bodies"][0]["shape"]["type"] == "box");
}

TEST_CASE("mjcf: the DSP's MuJoCo model imports as two point masses and equals the built-in DSP", "[mjcf]") {
  const Json s = imported("dsp.xml");
  // Its bobs' inertia 1e-6 kg·m² is 1e-6 m L² (MuJoCo refuses 0): point masses, and said so.
  REQUIRE(s["about"]["notes"].size() == 2);
  CHECK(s["about"]["notes"][0].get<std::string>().find("imported as a point mass") != std::string::npos);
  for (const Json& b : s["params"]["bodies"]) {
    CHECK(b["inertia"] == 0);
    CHECK_FALSE(b.contains("orientation"));
  }
  // The built-in DSP's default integrator (midpoint: on chains under uniform gravity the
  // same map as RATTLE, to which the Lie-group step of a point mass on a rod reduces).
  const Json dsp = {{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"h", 0.01}};
  {
    // A regular motion (low swings), its key written from the DSP's state.
    Json low = dsp;
    low["initial"] = {{"angles", {{0.3, 0.0}, {0.5, 0.4}}}, {"rates", {{0.0, 0.4}, {0.0, -0.2}}}};
    Simulation reference = simulate(low.dump());
    Simulation sim = simulate(importMjcf(dspMjcf(reference.state())).dump());
    const double start = bobGap(reference.state(), sim.state());
    run(reference, 2000);
    run(sim, 2000);
    const double gap = bobGap(reference.state(), sim.state());
    INFO("DSP from MJCF, low swings: the states differ by " << start << " at t = 0, " << gap << " after 2000 steps");
    CHECK(start <= 1e-15);
    CHECK(gap <= 1e-12);
  }
  // The default start (dsp.xml's key) is chaotic: the import's start differs by rounding
  // (its key has 16 digits), and the DSP itself, from θ₁ one ulp larger, shows what
  // rounding grows to.
  Simulation reference = simulate(dsp.dump());
  Simulation sim = simulate(s.dump());
  Json nudged = dsp;
  nudged["initial"] = {{"angles", {{1.6000000000000003, 0.0}, {2.2, 0.8}}}, {"rates", {{0.0, 1.2}, {0.0, -0.6}}}};
  Simulation ulp = simulate(nudged.dump());
  const double start = bobGap(reference.state(), sim.state());
  run(reference, 500);
  run(sim, 500);
  const double early = bobGap(reference.state(), sim.state());
  run(reference, 1500);
  run(sim, 1500);
  run(ulp, 2000);
  const double late = bobGap(reference.state(), sim.state());
  const double sensitivity = std::max((ulp.state().q - reference.state().q).cwiseAbs().maxCoeff(),
                                      (ulp.state().p - reference.state().p).cwiseAbs().maxCoeff());
  INFO("DSP from dsp.xml: the states differ by " << start << " at t = 0, " << early << " after 500 steps, " << late
                                                 << " after 2000 (one ulp of θ₁: " << sensitivity << ")");
  CHECK(start <= 2e-15);
  CHECK(early <= 1e-12);
  CHECK(late <= 1e2 * sensitivity);
}

TEST_CASE("mjcf: a body of diaginertia 0 on any joint imports as a point mass", "[mjcf]") {
  std::string xml = mjcfFile("dsp.xml");
  for (std::size_t at = xml.find("1e-06 1e-06 1e-06"); at != std::string::npos; at = xml.find("1e-06 1e-06 1e-06"))
    xml.replace(at, 17, "0 0 0");
  const Json s = importMjcf(xml);
  CHECK(s["params"]["bodies"][0]["inertia"] == 0);
  CHECK(s["params"]["bodies"][1]["inertia"] == 0);
}

TEST_CASE("mjcf: the DSP's MuJoCo model with rigid bobs approaches the built-in DSP ∝ their inertia", "[mjcf]") {
  const std::string xml = mjcfFile("dsp.xml");
  Json dsp = Json{{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"h", 0.01}};
  Simulation reference = simulate(dsp.dump());
  const int steps = 100;
  run(reference, steps);
  std::vector<double> gaps;
  // Above the point-mass threshold (1e-6 m L²) the bobs stay rigid bodies.
  for (const char* eps : {"1e-04", "1e-05"}) {
    std::string text = xml;
    for (std::size_t at = text.find("1e-06"); at != std::string::npos; at = text.find("1e-06", at + 1))
      text.replace(at, 5, eps);
    Simulation sim = simulate(importMjcf(text).dump());
    run(sim, steps);
    // The bobs' positions (the bodies' centres of mass).
    const State& s = sim.state();
    double gap = 0;
    for (int i = 0; i < 2; ++i)
      gap = std::max(gap, (s.q.segment<3>(7 * i) - reference.state().q.segment<3>(3 * i)).cwiseAbs().maxCoeff());
    gaps.push_back(gap);
    INFO("DSP: ε = " << eps << ": bob positions differ by " << gap << " after " << steps << " steps");
    CHECK(gap <= 1e-3);
  }
  // ∝ ε: a wrong anchor, axis or velocity would leave an O(1) gap at every ε.
  INFO("DSP: gap ratio (ε 1e-4 / 1e-5) " << gaps[0] / gaps[1]);
  CHECK(gaps[0] / gaps[1] >= 8);
  CHECK(gaps[0] / gaps[1] <= 12);
}

TEST_CASE("mjcf: the importer's output is a scenario the parser accepts as is", "[mjcf]") {
  for (const char* name : {"free-body.xml", "hinge-pendulum.xml", "physical-pendulum.xml", "dsp.xml"}) {
    const Json s = imported(name);
    INFO(name);
    Simulation sim = simulate(s.dump());
    run(sim, 100);
    CHECK(sim.diagnostics().constraint <= 1e-12);
  }
}

TEST_CASE("mjcf: malformed and unsupported files are refused at their line", "[mjcf]") {
  struct Case {
    const char* file;
    int line;
    const char* says;
  };
  const Case cases[] = {
      {"tendon.xml", 5, "<tendon> is not supported"},
      {"actuator.xml", 6, "<actuator> is not supported"},
      {"slide.xml", 4, "<joint type=\"slide\"> is not supported"},
      {"two-joints.xml", 5, "several joints"},
      {"damping.xml", 6, "attribute damping of <joint> is not supported"},
      {"bad-number.xml", 3, "attribute pos of <body>: is not a list of numbers, got \"0 x 0\""},
      {"short-vector.xml", 5, "attribute pos of <geom>: must be 3 numbers"},
      {"mismatched.xml", 6, "</bdy> closes <body> of line 3"},
      {"doctype.xml", 2, "DOCTYPE is not supported"},
      {"cdata.xml", 3, "CDATA is not supported"},
      {"entity.xml", 3, "unknown entity"},
      {"unterminated-comment.xml", 3, "unterminated comment"},
      {"root.xml", 2, "not <mujoco>"},
      {"triangle.xml", 3, "triangle inequality"},
      {"massless.xml", 6, "positive mass"},
      {"key-length.xml", 9, "qpos of <key> has 3 numbers; the model has nq = 4"},
      {"nested-free.xml", 7, "a free joint belongs to a body of the worldbody only"},
      {"mesh.xml", 5, "<geom type=\"mesh\"> is not supported"},
      {"default.xml", 2, "<default> is not supported"},
      {"wind.xml", 3, "attribute wind of <option> is not supported"},
      {"two-orientations.xml", 3, "has both quat and euler"},
      {"disconnected.xml", 4, "body \"b\": is not connected to body \"a\""},
      {"timestep.xml", 2, "timestep"},
      {"too-many-bodies.xml", 35, "more than 32 moving bodies"},
  };
  for (const Case& c : cases) {
    INFO(c.file);
    std::string field, message;
    try {
      importMjcf(mjcfFile(std::string("bad/") + c.file));
    } catch (const InputError& e) {
      field = e.field();
      message = e.message();
    }
    CHECK(field == "mjcf line " + std::to_string(c.line));
    CHECK_THAT(message, Catch::Contains(c.says));
  }
}
