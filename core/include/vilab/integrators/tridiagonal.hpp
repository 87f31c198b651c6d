// Tridiagonal solve (Thomas algorithm), O(n): the multiplier systems of a chain
// couple only neighbouring links.
#pragma once

#include <cmath>
#include <vector>

namespace vilab {

struct Tridiagonal {
  std::vector<double> lower, diag, upper;  // lower[0] and upper[n-1] unused
  void resize(int n) {
    lower.assign(n, 0.0);
    diag.assign(n, 0.0);
    upper.assign(n, 0.0);
  }
  int size() const { return static_cast<int>(diag.size()); }

  // Solves in place (rhs becomes the solution). Returns false on a vanishing pivot.
  bool solve(double* rhs, std::vector<double>& scratch) const {
    const int n = size();
    scratch.resize(n);
    double pivot = diag[0];
    if (!(std::abs(pivot) > 1e-300) || !std::isfinite(pivot)) return false;
    double inverse = 1.0 / pivot;
    rhs[0] *= inverse;
    for (int i = 1; i < n; ++i) {
      scratch[i] = upper[i - 1] * inverse;
      pivot = diag[i] - lower[i] * scratch[i];
      if (!(std::abs(pivot) > 1e-300) || !std::isfinite(pivot)) return false;
      inverse = 1.0 / pivot;
      rhs[i] = (rhs[i] - lower[i] * rhs[i - 1]) * inverse;
    }
    for (int i = n - 2; i >= 0; --i) rhs[i] -= scratch[i + 1] * rhs[i + 1];
    return true;
  }
};

}  // namespace vilab
