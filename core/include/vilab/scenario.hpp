// The scenario: one schema shared by the native CLI, the JS API and share links.
//   { "system": "double-spherical-pendulum", "integrator": "midpoint", "h": 0.01,
//     "params": {...}, "initial": {...}, "options": {...} }
// parseScenario validates everything and fills defaults; the normalized form is
// what Simulation::scenario() returns.
#pragma once

#include <string>
#include <variant>

#include "vilab/json.hpp"
#include "vilab/systems/chain.hpp"
#include "vilab/systems/oscillator.hpp"
#include "vilab/systems/rigid_body_model.hpp"

namespace vilab {

struct Scenario {
  std::string system;
  std::string integrator;
  double h = 0.01;
  Json params = Json::object();
  Json initial = Json::object();
  Json options = Json::object();
  Json toJson() const;
};

// A system ready to integrate: typed constant model and Cartesian initial data
// (on the constraint manifold). Oscillator: q0 = [x], v0 = [v]. Chains: q0 = bob
// positions (3n), v0 = bob velocities. Rigid bodies: q0 = orientation quaternion
// [w,x,y,z], v0 = body angular velocity ω.
struct SystemInstance {
  std::variant<OscillatorModel, ChainModel, RigidBodyModel> model;
  VecX q0, v0;
  // Angles of the links and their rates when the scenario gave them ([θ] or [θ, φ]
  // per link); the generalized-coordinate integrator starts from these exactly.
  bool hasAngles = false;
  VecX angles, rates;
};

Scenario parseScenario(const std::string& text);
Scenario parseScenario(const Json& j);
SystemInstance instantiateSystem(const Scenario& s);

}  // namespace vilab
