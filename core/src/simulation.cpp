#include "vilab/simulation.hpp"

#include <algorithm>

#include "vilab/hash.hpp"

namespace vilab {

void History::configure(std::vector<std::string> columns, int stride, int capacity) {
  columns_ = std::move(columns);
  stride_ = std::max(1, stride);
  capacity_ = std::max(1, capacity);
  data_.clear();  // grows on demand: many short-lived simulations stay small
  total_ = 0;
}

void History::record(const double* row) {
  const std::size_t slot = static_cast<std::size_t>(total_ % static_cast<std::uint64_t>(capacity_));
  if ((slot + 1) * columns_.size() > data_.size()) {
    const std::size_t rows = std::min<std::size_t>(capacity_, std::max<std::size_t>(256, 2 * (slot + 1)));
    data_.resize(rows * columns_.size());
  }
  std::copy(row, row + columns_.size(), data_.begin() + slot * columns_.size());
  ++total_;
}

std::uint64_t History::read(std::uint64_t from, std::vector<double>& out, std::uint64_t& count) const {
  const std::uint64_t start = std::max(from, oldest());
  count = total_ > start ? total_ - start : 0;
  const std::size_t cols = columns_.size();
  out.resize(count * cols);
  for (std::uint64_t k = 0; k < count; ++k) {
    const std::size_t slot = static_cast<std::size_t>((start + k) % static_cast<std::uint64_t>(capacity_));
    for (std::size_t c = 0; c < cols; ++c) out[c * count + k] = data_[slot * cols + c];
  }
  return start;
}

Simulation::Simulation(const Scenario& scenario, SimulationOptions options) : scenario_(scenario) {
  stepper_ = makeStepper(scenario_);
  const SystemEntry* entry = findSystem(scenario_.system);
  maxAdvance_ = entry->maxAdvance(scenario_.params);
  if (options.historyStride < 1 || options.historyStride > 1000000)
    throw InputError("historyStride", "must be an integer in [1, 1000000]");
  if (options.historyCapacity < 1 || options.historyCapacity > (1 << 20))
    throw InputError("historyCapacity", "must be an integer in [1, 1048576]");
  std::vector<std::string> columns = {"t", "energy", "constraint", "iterations"};
  const Diagnostics d = stepper_->diagnostics();
  static const char* axes[] = {"x", "y", "z"};
  if (d.momentumSize == 1) columns.push_back("momentum");
  if (d.momentumSize == 3)
    for (const char* a : axes) columns.push_back(std::string("momentum.") + a);
  if (d.hasBodyMomentum)
    for (const char* a : axes) columns.push_back(std::string("bodyMomentum.") + a);
  history_.configure(columns, options.historyStride, options.historyCapacity);
  row_.resize(columns.size());
  recordHistory();
}

void Simulation::recordHistory() {
  const Diagnostics d = stepper_->diagnostics();
  std::size_t c = 0;
  row_[c++] = time();
  row_[c++] = d.energy;
  row_[c++] = d.constraint;
  row_[c++] = d.iterations;
  for (int i = 0; i < d.momentumSize; ++i) row_[c++] = d.momentum[i];
  if (d.hasBodyMomentum)
    for (int i = 0; i < 3; ++i) row_[c++] = d.bodyMomentum[i];
  history_.record(row_.data());
}

long Simulation::advance(long n) {
  if (n < 0) throw InputError("n", "must be a non-negative integer");
  const long todo = std::min(n, maxAdvance_);
  const std::uint64_t stride = static_cast<std::uint64_t>(history_.stride());
  for (long k = 0; k < todo; ++k) {
    const StepOutcome o = stepper_->step();
    if (!o.ok) throw StepFailure(step_ + 1, o.reason);
    ++step_;
    if (step_ % stride == 0) recordHistory();
  }
  return todo;
}

void Simulation::setState(const VecX& q, const VecX& p) {
  stepper_->setState(q, p);
  step_ = 0;
  history_.clear();
  recordHistory();
}

std::string Simulation::hash() const { return stateHash(stepper_->q(), stepper_->p(), step_); }

}  // namespace vilab
