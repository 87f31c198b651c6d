#include "vilab/csv.hpp"

#include <cstdio>

namespace vilab {

namespace {
void append(std::string& s, double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, ",%.17g", x);
  s += buf;
}
}  // namespace

std::string csvHeader(const Simulation& sim) {
  std::string s = "t";
  for (Eigen::Index i = 0; i < sim.q().size(); ++i) s += ",q" + std::to_string(i);
  for (Eigen::Index i = 0; i < sim.p().size(); ++i) s += ",p" + std::to_string(i);
  s += ",energy";
  const Diagnostics d = sim.diagnostics();
  static const char* axes[] = {"x", "y", "z"};
  if (std::get_if<LagrangianModel>(&sim.scenario().model)) {
    // Systems defined by data: momentum.<symmetry>, then conserved.<name>, as in the history.
    for (const auto& c : sim.history().columns())
      if (c.rfind("momentum.", 0) == 0 || c.rfind("conserved.", 0) == 0) s += "," + c;
  } else {
    if (d.momentumSize == 1) s += ",momentum";
    if (d.momentumSize == 3)
      for (const char* a : axes) s += std::string(",momentum_") + a;
  }
  if (d.hasBodyMomentum)
    for (const char* a : axes) s += std::string(",bodyMomentum_") + a;
  s += ",constraint,iterations";
  return s;
}

std::string csvRow(const Simulation& sim) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", sim.time());
  std::string s = buf;
  for (Eigen::Index i = 0; i < sim.q().size(); ++i) append(s, sim.q()[i]);
  for (Eigen::Index i = 0; i < sim.p().size(); ++i) append(s, sim.p()[i]);
  const Diagnostics d = sim.diagnostics();
  append(s, d.energy);
  for (int i = 0; i < d.momentumSize; ++i) append(s, d.momentum[i]);
  for (int i = 0; i < d.conservedSize; ++i) append(s, d.conserved[i]);
  if (d.hasBodyMomentum)
    for (int i = 0; i < 3; ++i) append(s, d.bodyMomentum[i]);
  append(s, d.constraint);
  s += "," + std::to_string(d.iterations);
  return s;
}

}  // namespace vilab
