// LU with partial pivoting, unblocked and allocation-free (after the first factorization
// of a size), over any Eigen matrix type: fixed-size blocks (the chains' Newton blocks;
// the loops have constant bounds), the small dynamic matrices of systems defined by data
// (SmallMat, at most 32×32) and dense dynamic ones (Eigen::MatrixXd). Eigen's
// PartialPivLU of a dynamic matrix brings its blocked LU, triangular-matrix solves and
// GEMM kernels into the wasm, which these sizes never need, and its blocking depends on
// the cache; this does the same operations in the same order in every build. The pivot
// ratio (largest / smallest |pivot|) is the conditioning estimate the Newton policy uses
// (as DenseLU).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "vilab/solver/small_matrix.hpp"

namespace vilab {

// kSmallAtRunTime: a matrix sized at run time that is usually 1×1 to 3×3 (the
// constraints' blocks of systems defined by data) runs the same loops with a constant
// bound for those sizes (opt-in: each size is another copy of the code).
// kDivide: the back substitution divides by each pivot (the default of run-time sizes)
// rather than multiplying by its reciprocal, so that a fixed-size block gives the bits
// of the same block sized at run time.
template <class Matrix, bool kSmallAtRunTime = false, bool kDivide = Matrix::RowsAtCompileTime == Eigen::Dynamic>
class PivotedLU {
  static constexpr int kRows = Matrix::RowsAtCompileTime;
  static constexpr int kMaxRows = Matrix::MaxRowsAtCompileTime;
  using Permutation =
      std::conditional_t<kMaxRows == Eigen::Dynamic, std::vector<int>, std::array<int, (kMaxRows > 0 ? kMaxRows : 1)>>;

 public:
  // Factorizes A; false when A is not finite or has a zero pivot.
  bool compute(const Matrix& A) {
    n_ = static_cast<int>(A.rows());
    if constexpr (kMaxRows == Eigen::Dynamic) perm_.resize(n_);
    ratio_ = std::numeric_limits<double>::infinity();
    if constexpr (kSmallAtRunTime && kRows == Eigen::Dynamic) {
      switch (n_) {
        case 1: return copyAndFactorize<1>(A);
        case 2: return copyAndFactorize<2>(A);
        case 3: return copyAndFactorize<3>(A);
        default: break;
      }
    }
    lu_ = A;
    if (!lu_.allFinite()) return false;
    return factorize < kRows == Eigen::Dynamic ? 0 : kRows > ();
  }
  double pivotRatio() const { return ratio_; }
  // The smallest |pivot| of the last factorization (∞ for an empty matrix).
  double smallestPivot() const { return smallest_; }
  // Regular within the singularity threshold.
  bool regular(double limit) const { return ratio_ <= limit; }

  // b ← A⁻¹ b for a vector, or for each column of a matrix. Any writable Eigen
  // expression (a map, a segment). The columns advance together, row by row, so that
  // their independent chains overlap; each entry sees the same operations in the same
  // order as a vector solved alone (the same bits). Fixed sizes multiply by each
  // pivot's reciprocal, computed beside the back substitution rather than on its chain
  // (a third less time at 8×8), on a local copy the compiler keeps in registers;
  // dynamic sizes divide.
  template <class Rhs>
  void solveInPlace(Rhs&& b) const {
    constexpr int kCols = std::decay_t<Rhs>::ColsAtCompileTime;
    if constexpr (kRows != Eigen::Dynamic && kCols != Eigen::Dynamic) {
      Eigen::Matrix<double, kRows, kCols> x = b;  // local: b might alias the factors
      substitute(x);
      b = x;
    } else {
      substitute(b);
    }
  }
  // A⁻¹ B (a vector or a matrix), in B's own type.
  template <class Derived>
  typename Derived::PlainObject solve(const Eigen::MatrixBase<Derived>& B) const {
    typename Derived::PlainObject x = B;
    solveInPlace(x);
    return x;
  }
  Matrix inverse() const {
    Matrix identity = Matrix::Identity(n_, n_);
    solveInPlace(identity);
    return identity;
  }

 private:
  // lu_ = A and its finiteness in one pass of constant bounds (Eigen's assignment and
  // allFinite() of a run-time size were most of a 1×1 factorization's time), then its
  // factorization.
  template <int N>
  bool copyAndFactorize(const Matrix& A) {
    lu_.resize(N, N);
    bool finite = true;
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < N; ++i) {
        const double x = A(i, j);
        lu_(i, j) = x;
        finite = finite && std::isfinite(x);
      }
    return finite && factorize<N>();
  }

  // The factorization of lu_ (N > 0: N rows, else size()), the same operations in the
  // same order whatever N.
  template <int N>
  bool factorize() {
    const int n = N > 0 ? N : size();
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    for (int k = 0; k < n; ++k) {
      int p = k;
      for (int i = k + 1; i < n; ++i)
        if (std::abs(lu_(i, k)) > std::abs(lu_(p, k))) p = i;
      perm_[k] = p;
      if (p != k)
        for (int j = 0; j < n; ++j) std::swap(lu_(k, j), lu_(p, j));
      const double pivot = lu_(k, k);
      largest = std::max(largest, std::abs(pivot));
      smallest = std::min(smallest, std::abs(pivot));
      if (pivot == 0) return false;
      for (int i = k + 1; i < n; ++i) {
        const double f = lu_(i, k) / pivot;
        lu_(i, k) = f;
        for (int j = k + 1; j < n; ++j) lu_(i, j) -= f * lu_(k, j);
      }
    }
    ratio_ = n == 0 ? 1.0 : largest / smallest;
    smallest_ = smallest;
    return true;
  }

  template <class Rhs>
  void substitute(Rhs& b) const {
    if constexpr (kSmallAtRunTime && kRows == Eigen::Dynamic) {
      switch (n_) {
        case 1: return substituteN<1>(b);
        case 2: return substituteN<2>(b);
        case 3: return substituteN<3>(b);
        default: break;
      }
    }
    substituteN<kRows == Eigen::Dynamic ? 0 : kRows>(b);
  }
  // b ← A⁻¹ b (N > 0: N rows, else size()), the same operations in the same order
  // whatever N.
  template <int N, class Rhs>
  void substituteN(Rhs& b) const {
    const int n = N > 0 ? N : size();
    const int m = static_cast<int>(b.cols());
    for (int k = 0; k < n; ++k)
      if (N != 1 && perm_[k] != k)  // a 1×1 block has no row exchange
        for (int c = 0; c < m; ++c) std::swap(b(k, c), b(perm_[k], c));
    for (int i = 1; i < n; ++i)
      for (int j = 0; j < i; ++j) {
        const double l = lu_(i, j);
        for (int c = 0; c < m; ++c) b(i, c) -= l * b(j, c);
      }
    for (int i = n - 1; i >= 0; --i) {
      for (int j = i + 1; j < n; ++j) {
        const double u = lu_(i, j);
        for (int c = 0; c < m; ++c) b(i, c) -= u * b(j, c);
      }
      if constexpr (kDivide) {
        const double pivot = lu_(i, i);
        for (int c = 0; c < m; ++c) b(i, c) /= pivot;
      } else {
        const double inverse = 1 / lu_(i, i);  // off the chain: a product waits less than a quotient
        for (int c = 0; c < m; ++c) b(i, c) *= inverse;
      }
    }
  }

  // The order: a compile-time constant for fixed-size matrices, so the loops unroll.
  int size() const { return kRows == Eigen::Dynamic ? n_ : kRows; }

  Matrix lu_;
  Permutation perm_{};
  int n_ = 0;
  double ratio_ = 1, smallest_ = 1;
};

// The small dynamic matrices of systems defined by data.
using SmallLU = PivotedLU<SmallMat>;
// Their constraints' c×c blocks (Dg M⁻¹ Dgᵀ, the reduced Newton's matrix).
using ConstraintLU = PivotedLU<SmallMat, true>;

}  // namespace vilab
