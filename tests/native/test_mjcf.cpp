// MJCF import (mjcf.hpp): four models of tests/native/mjcf/ imported and run with the
// Lie-group integrator against what they must equal — the free body against the
// built-in rigid body, the hinge pendulum against Jacobi's exact pendulum, the ball-joint
// plate against its hand-written scene, the DSP against the built-in DSP as the bobs'
// inertia ε → 0 — and the malformed or unsupported files of tests/native/mjcf/bad/, each
// refused at its line.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "support.hpp"
#include "vilab/exact/pendulum.hpp"
#include "vilab/mjcf.hpp"

using namespace vilab;
using namespace vilab::test;

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

TEST_CASE("mjcf: the DSP's MuJoCo model approaches the built-in DSP as the bobs' inertia vanishes", "[mjcf]") {
  const std::string xml = mjcfFile("dsp.xml");
  // The built-in DSP's default integrator (midpoint: on chains under uniform gravity the
  // same map as RATTLE, to which the Lie-group step of a point mass on a rod reduces).
  Json dsp = Json{{"system", "double-spherical-pendulum"}, {"integrator", "midpoint"}, {"h", 0.01}};
  Simulation reference = simulate(dsp.dump());
  const int steps = 100;
  run(reference, steps);
  std::vector<double> gaps;
  for (const char* eps : {"1e-06", "1e-08"}) {
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
    CHECK(gap <= 1e-5);
  }
  // ∝ ε: a wrong anchor, axis or velocity would leave an O(1) gap at every ε.
  INFO("DSP: gap ratio (ε 1e-6 / 1e-8) " << gaps[0] / gaps[1]);
  CHECK(gaps[0] / gaps[1] >= 80);
  CHECK(gaps[0] / gaps[1] <= 120);
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
