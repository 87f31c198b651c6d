// Dense LU with partial pivoting and a cheap condition estimate: the ratio of the
// largest to the smallest pivot of U. It is free once the factorization exists
// (Eigen's rcond() costs another pair of triangular solves), and it is what the
// Newton policy needs: a scale for the rounding floor and a singularity test.
#pragma once

#include <Eigen/LU>
#include <cmath>
#include <limits>

#include "vilab/types.hpp"

namespace vilab {

template <int K>
class DenseLU {
 public:
  using Matrix = Mat<double, K, K>;
  using Vector = Vec<double, K>;

  // Factorizes J; returns false when J is not finite or has a zero pivot.
  bool factorize(const Matrix& J) {
    if (!J.allFinite()) {
      ratio_ = std::numeric_limits<double>::infinity();
      return false;
    }
    lu_.compute(J);
    const auto d = lu_.matrixLU().diagonal().cwiseAbs();
    const double largest = d.maxCoeff(), smallest = d.minCoeff();
    ratio_ = smallest > 0 ? largest / smallest : std::numeric_limits<double>::infinity();
    return smallest > 0;
  }
  double pivotRatio() const { return ratio_; }
  template <class V>
  void solveInPlace(V& b) const {
    b = lu_.solve(b);
  }

 private:
  Eigen::PartialPivLU<Matrix> lu_;
  double ratio_ = 1;
};

}  // namespace vilab
