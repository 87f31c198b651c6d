// LU with partial pivoting for the small dynamic matrices of systems defined by data
// (at most 32×32), unblocked and allocation-free. Eigen's PartialPivLU of a dynamic
// matrix brings its blocked LU, triangular-matrix solves and GEMM kernels into the
// wasm, which these sizes never need. The pivot ratio (largest / smallest |pivot|) is
// the conditioning estimate the Newton policy uses (as DenseLU).
#pragma once

#include <cmath>
#include <limits>

#include "vilab/solver/small_matrix.hpp"

namespace vilab {

class SmallLU {
 public:
  // Factorizes A; false when A is not finite or has a zero pivot.
  bool compute(const SmallMat& A) {
    n_ = static_cast<int>(A.rows());
    lu_ = A;
    ratio_ = std::numeric_limits<double>::infinity();
    if (!lu_.allFinite()) return false;
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    for (int k = 0; k < n_; ++k) {
      int p = k;
      for (int i = k + 1; i < n_; ++i)
        if (std::abs(lu_(i, k)) > std::abs(lu_(p, k))) p = i;
      perm_[k] = p;
      if (p != k)
        for (int j = 0; j < n_; ++j) std::swap(lu_(k, j), lu_(p, j));
      const double pivot = lu_(k, k);
      largest = std::max(largest, std::abs(pivot));
      smallest = std::min(smallest, std::abs(pivot));
      if (pivot == 0) return false;
      for (int i = k + 1; i < n_; ++i) {
        const double f = lu_(i, k) / pivot;
        lu_(i, k) = f;
        for (int j = k + 1; j < n_; ++j) lu_(i, j) -= f * lu_(k, j);
      }
    }
    ratio_ = n_ == 0 ? 1.0 : largest / smallest;
    return true;
  }
  double pivotRatio() const { return ratio_; }
  // Regular within the singularity threshold.
  bool regular(double limit) const { return ratio_ <= limit; }

  // b ← A⁻¹ b.
  void solveInPlace(SmallVec& b) const {
    for (int k = 0; k < n_; ++k)
      if (perm_[k] != k) std::swap(b[k], b[perm_[k]]);
    for (int i = 1; i < n_; ++i) {
      double s = b[i];
      for (int j = 0; j < i; ++j) s -= lu_(i, j) * b[j];
      b[i] = s;
    }
    for (int i = n_ - 1; i >= 0; --i) {
      double s = b[i];
      for (int j = i + 1; j < n_; ++j) s -= lu_(i, j) * b[j];
      b[i] = s / lu_(i, i);
    }
  }
  SmallVec solve(const SmallVec& b) const {
    SmallVec x = b;
    solveInPlace(x);
    return x;
  }
  // A⁻¹ B, column by column.
  SmallMat solve(const SmallMat& B) const {
    SmallMat X(B.rows(), B.cols());
    SmallVec column;
    for (Eigen::Index j = 0; j < B.cols(); ++j) {
      column = B.col(j);
      solveInPlace(column);
      X.col(j) = column;
    }
    return X;
  }
  SmallMat inverse() const { return solve(SmallMat(SmallMat::Identity(n_, n_))); }

 private:
  SmallMat lu_;
  int perm_[kMaxSmallSize] = {};
  int n_ = 0;
  double ratio_ = 1;
};

}  // namespace vilab
