// A simulation: a validated scenario, its stepper, the clock and a history of
// diagnostics recorded in C++ at a chosen stride (so plots never need one JS call
// per step).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vilab/registry.hpp"

namespace vilab {

// A refused step: the state stays at the last good step.
class StepFailure : public std::runtime_error {
 public:
  StepFailure(std::uint64_t step, const std::string& reason)
      : std::runtime_error("step " + std::to_string(step) + " refused: " + reason +
                           " (the state stays at step " + std::to_string(step - 1) + ")"),
        step_(step),
        reason_(reason) {}
  std::uint64_t step() const { return step_; }
  const std::string& reason() const { return reason_; }

 private:
  std::uint64_t step_;
  std::string reason_;
};

// Diagnostic time series in a ring buffer: columns t, energy, constraint,
// iterations, then the momentum components, then Π (rigid bodies).
class History {
 public:
  void configure(std::vector<std::string> columns, int stride, int capacity);
  void record(const double* row);
  int stride() const { return stride_; }
  int capacity() const { return capacity_; }
  int columnCount() const { return static_cast<int>(columns_.size()); }
  const std::vector<std::string>& columns() const { return columns_; }
  // Samples recorded since the start (monotone), and the oldest still held.
  std::uint64_t total() const { return total_; }
  std::uint64_t oldest() const { return total_ > static_cast<std::uint64_t>(capacity_) ? total_ - capacity_ : 0; }
  // Copies samples [from, total) (clamped to what is held) column-major into out;
  // returns the first sample index copied.
  std::uint64_t read(std::uint64_t from, std::vector<double>& out, std::uint64_t& count) const;
  void clear() { total_ = 0; }

 private:
  std::vector<std::string> columns_;
  int stride_ = 1, capacity_ = 0;
  std::vector<double> data_;  // capacity rows × columns, row-major ring
  std::uint64_t total_ = 0;
};

struct SimulationOptions {
  int historyStride = 1;
  int historyCapacity = 1 << 15;
};

class Simulation {
 public:
  explicit Simulation(const Scenario& scenario, SimulationOptions options = {});

  // Advances min(n, maxAdvance()) steps; returns the steps taken. A refused step
  // throws StepFailure after the good steps before it were kept.
  long advance(long n);
  long maxAdvance() const { return maxAdvance_; }

  const Scenario& scenario() const { return scenario_; }
  std::uint64_t step() const { return step_; }
  double time() const { return static_cast<double>(step_) * scenario_.h; }
  const VecX& q() const { return stepper_->q(); }
  const VecX& p() const { return stepper_->p(); }
  Diagnostics diagnostics() const { return stepper_->diagnostics(); }
  void visualState(std::vector<double>& out) const { stepper_->visualState(out); }
  // Replaces (q, p); the step count and history restart from zero.
  void setState(const VecX& q, const VecX& p);
  std::string hash() const;
  const History& history() const { return history_; }

 private:
  void recordHistory();

  Scenario scenario_;
  std::unique_ptr<Stepper> stepper_;
  std::uint64_t step_ = 0;
  long maxAdvance_ = 100000;
  History history_;
  std::vector<double> row_;
};

}  // namespace vilab
