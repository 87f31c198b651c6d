// Shared helpers for the native tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "vilab/simulation.hpp"

namespace vilab::test {

inline Simulation simulate(const std::string& json, int stride = 1, int capacity = 1 << 15) {
  SimulationOptions o;
  o.historyStride = stride;
  o.historyCapacity = capacity;
  return Simulation(parseScenario(json), o);
}

// Advances n steps in chunks of at most maxAdvance.
inline void run(Simulation& sim, long n) {
  while (n > 0) n -= sim.advance(std::min(n, sim.maxAdvance()));
}

// A recorded diagnostic column (all samples held).
inline std::vector<double> column(const Simulation& sim, const std::string& name) {
  const auto& cols = sim.history().columns();
  const auto c = static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
  std::vector<double> data;
  std::uint64_t count = 0;
  sim.history().read(0, data, count);
  return std::vector<double>(data.begin() + static_cast<long>(c * count),
                             data.begin() + static_cast<long>((c + 1) * count));
}

// Secular drift check: max |E − E0| over the last 10% of the samples divided by
// the same over the first 10% (after the first sample). Bounded oscillation gives
// about 1; a drift gives about the run length over the window length.
inline double driftRatio(const std::vector<double>& e) {
  const std::size_t n = e.size(), w = std::max<std::size_t>(1, n / 10);
  double first = 0, last = 0;
  for (std::size_t i = 1; i <= w; ++i) first = std::max(first, std::abs(e[i] - e[0]));
  for (std::size_t i = n - w; i < n; ++i) last = std::max(last, std::abs(e[i] - e[0]));
  return last / first;
}

inline double maxAbsDeviation(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v - x[0]));
  return m;
}

inline double maxAbs(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

// Observed order from errors at h, h/2, h/4, ...: log2 of successive ratios.
inline std::vector<double> observedOrders(const std::vector<double>& errors) {
  std::vector<double> orders;
  for (std::size_t i = 1; i < errors.size(); ++i) orders.push_back(std::log2(errors[i - 1] / errors[i]));
  return orders;
}

}  // namespace vilab::test
