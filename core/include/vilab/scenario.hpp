// The scenario: one schema shared by the native CLI, the JS API and share links,
//   { "system": "double-spherical-pendulum", "integrator": "midpoint", "h": 0.01,
//     "params": {...}, "initial": {...}, "options": {...} }
// parsed and validated once into typed values: the registry entries, h, the model,
// the integrator's options and the canonical initial state. Nothing past the parser
// reads JSON; `normalized` is the normalized document, kept only to echo it.
#pragma once

#include <string>

#include "vilab/registry.hpp"

namespace vilab {

struct Scenario {
  const SystemEntry* system = nullptr;
  const IntegratorEntry* integrator = nullptr;
  const Pairing* pairing = nullptr;
  double h = 0.01;
  Model model;
  Options options;
  State initial;           // canonical, on the manifold
  std::string normalized;  // JSON text: every default filled in
};

Scenario parseScenario(const std::string& text);
Scenario parseScenario(const Json& j);

// A new integrator for the scenario, loaded with `state`.
std::unique_ptr<Integrator> makeIntegrator(const Scenario& s);

}  // namespace vilab
