// Common types of the vilab core: fixed-size Eigen vectors, errors.
#pragma once

#include <Eigen/Dense>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace vilab {

template <class S, int N>
using Vec = Eigen::Matrix<S, N, 1>;
template <class S, int R, int C>
using Mat = Eigen::Matrix<S, R, C>;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;

// Initial-data tolerance: data off the constraint manifold by more than this is an error.
constexpr double kManifoldTolerance = 1e-9;

// Bad input (a scenario, link or parameter): the message is "<field>: <problem>".
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& field, const std::string& problem)
      : std::runtime_error(field + ": " + problem), field_(field) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// Why a step was refused; the state stays at the last good step.
struct StepOutcome {
  bool ok = true;
  int iterations = 0;
  std::string reason;  // empty when ok

  // This outcome, turned into a refusal for `why`.
  StepOutcome refused(const std::string& why) const {
    StepOutcome out = *this;
    out.ok = false;
    out.reason = why;
    return out;
  }
};

// A number for messages, in scientific notation with 3 significant digits.
inline std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

}  // namespace vilab
