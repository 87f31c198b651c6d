// Common types of the vilab core: fixed-size Eigen vectors, input errors.
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

// Bad input (a scenario, link or parameter): the message is "<field>: <problem>".
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& field, const std::string& problem)
      : std::runtime_error(field + ": " + problem), field_(field) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

// A number for messages, in scientific notation with 3 significant digits.
inline std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

// A number for messages with up to 6 significant digits.
inline std::string formatNumber(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace vilab
