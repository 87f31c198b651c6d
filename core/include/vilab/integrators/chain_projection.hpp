// Shared by the O(N) chain integrators (chain_multiplier.hpp, energy_momentum.hpp):
// link vectors, and the projection of momenta onto the tangent space of the links.
#pragma once

#include <vector>

#include "vilab/integrators/tridiagonal.hpp"
#include "vilab/systems/chain.hpp"

namespace vilab {

// Link i's vector d_i = x_i − x_{i−1}, with x_0 the origin.
inline Vec3 chainLink(const double* x, int i) {
  Vec3 d(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  if (i > 0) d -= Vec3(x[3 * i - 3], x[3 * i - 2], x[3 * i - 1]);
  return d;
}

// The tridiagonal matrix Dg(q_b) W Dg(q_a)ᵀ of a chain, W = diag(w_i I₃) per bob, from
// the link normals b_i at q_b and a_i at q_a: link i touches bobs i−1 and i only, so
// row i couples link i to links i ± 1. The Newton matrices of the multiplier solves.
inline void linkCouplingMatrix(const std::vector<Vec3>& b, const std::vector<Vec3>& a, const std::vector<double>& w,
                               Tridiagonal& out) {
  const int n = static_cast<int>(b.size());
  for (int i = 0; i < n; ++i) {
    const double ba = b[i].dot(a[i]);
    out.diag[i] = w[i] * ba + (i > 0 ? w[i - 1] * ba : 0.0);
    if (i > 0) out.lower[i] = -w[i - 1] * b[i].dot(a[i - 1]);
    if (i + 1 < n) out.upper[i] = -w[i] * b[i].dot(a[i + 1]);
  }
}

// Removes the normal part of p: p ← p − Dg(q)ᵀ μ with Dg M⁻¹ (p − Dg(q)ᵀμ) = 0, so
// the velocity M⁻¹p is tangent to every link constraint. The Gram matrix Dg M⁻¹ Dgᵀ
// is tridiagonal (link i shares a bob with links i ± 1), so this costs O(N). Normal
// components carry no angular momentum about z, so J_z is unchanged.
class ChainMomentumProjector {
 public:
  bool project(const ChainModel& m, const VecX& q, VecX& p) {
    const int n = m.bobs();
    if (gram_.size() != n) {
      gram_.resize(n);
      mu_.resize(n);
      a_.resize(n);
    }
    for (int i = 0; i < n; ++i) a_[i] = chainLink(q.data(), i) * (1.0 / m.lengths[i]);
    for (int i = 0; i < n; ++i) {
      const double invM = 1.0 / m.masses[i];
      Vec3 w = invM * Vec3(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      double diag = invM * a_[i].squaredNorm();
      if (i > 0) {
        const double invPrev = 1.0 / m.masses[i - 1];
        w -= invPrev * Vec3(p[3 * i - 3], p[3 * i - 2], p[3 * i - 1]);
        diag += invPrev * a_[i].squaredNorm();
        gram_.lower[i] = -invPrev * a_[i].dot(a_[i - 1]);
      }
      if (i + 1 < n) gram_.upper[i] = -invM * a_[i].dot(a_[i + 1]);
      gram_.diag[i] = diag;
      mu_[i] = a_[i].dot(w);
    }
    if (!gram_.solve(mu_.data(), scratch_)) return false;
    for (int i = 0; i < n; ++i) {
      for (int c = 0; c < 3; ++c) {
        p[3 * i + c] -= mu_[i] * a_[i][c];
        if (i > 0) p[3 * (i - 1) + c] += mu_[i] * a_[i][c];
      }
    }
    return true;
  }

 private:
  Tridiagonal gram_;
  std::vector<double> mu_, scratch_;
  std::vector<Vec3> a_;  // the unit normals ∇_d g_i = d_i / l_i at q
};

}  // namespace vilab
