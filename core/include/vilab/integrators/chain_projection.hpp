// Shared by the O(N) chain integrators: the tridiagonal link-coupling matrices, and
// the projection of momenta onto the tangent space of the links.
#pragma once

#include <vector>

#include "vilab/models/chain.hpp"
#include "vilab/solver/tridiagonal.hpp"

namespace vilab {

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

// The normal part of a covector p at q: Dg(q)ᵀμ with Dg M⁻¹ (p − Dg(q)ᵀμ) = 0, i.e.
// what must be removed for the velocity M⁻¹p to be tangent to every link. The Gram
// matrix Dg M⁻¹ Dgᵀ is tridiagonal (link i shares a bob with links i ± 1), so this
// costs O(N). Normal components are central pairs of forces along the links: they
// carry no angular momentum about z.
class ChainMomentumProjector {
 public:
  // μ for p at q (normals() then holds the unit normals d_i/l_i at q).
  bool normalMultipliers(const ChainModel& m, const VecX& q, const VecX& p) {
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
    return gram_.solve(mu_.data());
  }

  // p ← p − scale·Dg(q)ᵀμ with the last μ and normals.
  void subtractNormal(VecX& p, double scale = 1.0) const {
    const int n = static_cast<int>(mu_.size());
    for (int i = 0; i < n; ++i) {
      const double mu = scale * mu_[i];
      for (int c = 0; c < 3; ++c) {
        p[3 * i + c] -= mu * a_[i][c];
        if (i > 0) p[3 * (i - 1) + c] += mu * a_[i][c];
      }
    }
  }

  // Removes the normal part of p; J_z is unchanged.
  bool project(const ChainModel& m, const VecX& q, VecX& p) {
    if (!normalMultipliers(m, q, p)) return false;
    subtractNormal(p);
    return true;
  }

  const std::vector<double>& multipliers() const { return mu_; }
  const std::vector<Vec3>& normals() const { return a_; }

 private:
  Tridiagonal gram_;
  std::vector<double> mu_;
  std::vector<Vec3> a_;  // the unit normals ∇_d g_i = d_i / l_i at q
};

}  // namespace vilab
