// Tridiagonal solve (Thomas algorithm), O(n): the multiplier systems of a chain
// couple only neighbouring links. Without pivoting: the chain matrices are
// Dg W Dgᵀ-like (diagonally dominant for links that are not folded back).
#pragma once

#include <cmath>
#include <limits>
#include <vector>

namespace vilab {

struct Tridiagonal {
  std::vector<double> lower, diag, upper;  // lower[0] and upper[n-1] unused
  std::vector<double> scratch;
  double pivotRatio = 1;  // largest / smallest |pivot| of the last solve or factorization

  void resize(int n) {
    lower.assign(n, 0.0);
    diag.assign(n, 0.0);
    upper.assign(n, 0.0);
    scratch.assign(n, 0.0);
    pivots_.assign(n, 0.0);
  }
  int size() const { return static_cast<int>(diag.size()); }

  // Factorizes (keeps the pivots) and records the pivot ratio; false on a zero or
  // non-finite pivot.
  bool factorize() {
    const int n = size();
    double largest = 0, smallest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      double pivot = diag[i];
      if (i > 0) {
        scratch[i] = upper[i - 1] / pivots_[i - 1];
        pivot -= lower[i] * scratch[i];
      }
      if (!(std::abs(pivot) > 0) || !std::isfinite(pivot)) {
        pivotRatio = std::numeric_limits<double>::infinity();
        return false;
      }
      pivots_[i] = pivot;
      largest = std::max(largest, std::abs(pivot));
      smallest = std::min(smallest, std::abs(pivot));
    }
    pivotRatio = largest / smallest;
    return true;
  }

  // Solves with the last factorization, in place (rhs becomes the solution).
  void solveFactorized(double* rhs) const {
    const int n = size();
    rhs[0] /= pivots_[0];
    for (int i = 1; i < n; ++i) rhs[i] = (rhs[i] - lower[i] * rhs[i - 1]) / pivots_[i];
    for (int i = n - 2; i >= 0; --i) rhs[i] -= scratch[i + 1] * rhs[i + 1];
  }

  // Factorizes and solves in place; false on a vanishing pivot.
  bool solve(double* rhs) {
    if (!factorize()) return false;
    solveFactorized(rhs);
    return true;
  }

 private:
  std::vector<double> pivots_;
};

}  // namespace vilab
