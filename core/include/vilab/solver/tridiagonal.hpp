// Tridiagonal solve (Thomas algorithm), O(n): the multiplier systems of a chain
// couple only neighbouring links. Without pivoting: the chain matrices are
// Dg W Dgᵀ-like (diagonally dominant for links that are not folded back).
//
// N ≥ 0 fixes the size at compile time (std::array storage, loops the compiler can
// unroll: the short chains' hot path); N = −1 (Eigen::Dynamic) sizes it at run time.
// Both run the same arithmetic in the same order, so they give the same bits.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace vilab {

// Per-link storage: std::array<T, N> for a size fixed at compile time, else std::vector<T>.
template <class T, int N>
using LinkArray = std::conditional_t<(N < 0), std::vector<T>, std::array<T, (N < 0 ? 0 : N)>>;

// Sizes a LinkArray to n (a no-op for a fixed size, which must equal n).
template <class T, int N>
void resizeLinks(LinkArray<T, N>& a, int n, const T& value = T()) {
  if constexpr (N < 0)
    a.assign(static_cast<std::size_t>(n), value);
  else
    a.fill(value);
}

template <int N = -1>
struct TridiagonalT {
  LinkArray<double, N> lower{}, diag{}, upper{};  // lower[0] and upper[n-1] unused
  LinkArray<double, N> scratch{};
  double pivotRatio = 1;  // largest / smallest |pivot| of the last solve or factorization

  void resize(int n) {
    resizeLinks<double, N>(lower, n, 0.0);
    resizeLinks<double, N>(diag, n, 0.0);
    resizeLinks<double, N>(upper, n, 0.0);
    resizeLinks<double, N>(scratch, n, 0.0);
    resizeLinks<double, N>(pivots_, n, 0.0);
  }
  int size() const {
    if constexpr (N < 0)
      return static_cast<int>(diag.size());
    else
      return N;
  }

  // Factorizes (keeps the pivots) and records the pivot ratio; false on a zero or
  // non-finite pivot.
  bool factorize() {
    return eliminate([](int, double) {});
  }

  // Solves with the last factorization, in place (rhs becomes the solution).
  void solveFactorized(double* rhs) const {
    const int n = size();
    rhs[0] /= pivots_[0];
    for (int i = 1; i < n; ++i) rhs[i] = (rhs[i] - lower[i] * rhs[i - 1]) / pivots_[i];
    for (int i = n - 2; i >= 0; --i) rhs[i] -= scratch[i + 1] * rhs[i + 1];
  }

  // Factorizes and solves in place; false on a vanishing pivot (rhs then holds no answer).
  // factorize() and solveFactorized()'s forward sweep in one loop, the same operations in
  // the same order: a long chain's two recurrences (each waits on a division a link)
  // overlap instead of following each other.
  bool solve(double* rhs) {
    if (!eliminate(
            [&](int i, double pivot) { rhs[i] = i > 0 ? (rhs[i] - lower[i] * rhs[i - 1]) / pivot : rhs[i] / pivot; }))
      return false;
    for (int i = size() - 2; i >= 0; --i) rhs[i] -= scratch[i + 1] * rhs[i + 1];
    return true;
  }

 private:
  // The elimination, forward(i, pivot_i) called after each pivot is accepted.
  template <class Forward>
  bool eliminate(const Forward& forward) {
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
      forward(i, pivot);
    }
    pivotRatio = largest / smallest;
    return true;
  }

  LinkArray<double, N> pivots_{};
};

using Tridiagonal = TridiagonalT<>;

}  // namespace vilab
