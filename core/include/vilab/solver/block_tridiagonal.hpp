// Block tridiagonal solve (block Thomas algorithm), O(n) in the number of blocks: the
// Newton systems of chains couple each link's unknowns to its neighbours' only. The
// energy–momentum chain step eliminates its 4×4 blocks by a cheaper structured
// recursion and is tested against this general one.
//
// Block row i reads  L_i z_{i−1} + D_i z_i + U_i z_{i+1} = r_i,  with B unknowns per
// block. Block LU, without pivoting between blocks:
//     S_0 = D_0,   S_i = D_i − L_i X_{i−1},   X_i = S_i⁻¹ U_i,
// then forward w_i = S_i⁻¹ (r_i − L_i w_{i−1}) and back z_i = w_i − X_i z_{i+1}.
// For B ≤ 4, S_i⁻¹ is kept explicitly: Eigen inverts by cofactors, which is cheaper than
// an LU followed by B + 1 pairs of triangular solves. Larger blocks are factorized by
// the fixed-size pivoted LU (solver/small_lu.hpp) and every S_i⁻¹ is a solve: X_i by
// B column solves, w_i by one (a general inverse then a product costs about twice as
// much at B = 8). Without pivoting between blocks the S_i must stay well conditioned
// (block diagonally dominant matrices, or Newton matrices near an identity-like part).
//
// Condition estimate for the Newton policy: the pivots of a block LU are the blocks S_i,
// so the ratio of the largest to the smallest pivot becomes
//     max_i ‖S_i‖ · max_i ‖S_i⁻¹‖   (‖·‖ the largest entry)
// with the explicit inverses, and with the LUs max_i ‖S_i‖ / min_i min_k |u_kk(S_i)| (1/|u_kk|
// is an entry of U⁻¹: the smallest pivot estimates ‖S_i⁻¹‖); both are max|s_i| / min|s_i|
// for 1×1 blocks and see a block singular in itself.
// The blocks should be scaled to be dimensionless, or the ratio mixes units.
#pragma once

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vilab/solver/small_lu.hpp"

namespace vilab {

template <int B>
class BlockTridiagonal {
 public:
  using Block = Eigen::Matrix<double, B, B>;
  using Segment = Eigen::Matrix<double, B, 1>;

  // Sizes the storage for n blocks; factorize and solve allocate nothing afterwards.
  void resize(int n) {
    lower_.assign(n, Block::Zero());
    diag_.assign(n, Block::Zero());
    upper_.assign(n, Block::Zero());
    if constexpr (kExplicitInverse)
      inverse_.assign(n, Block::Zero());
    else
      factors_.assign(n, PivotedLU<Block>());
    coupling_.assign(n, Block::Zero());
  }
  int size() const { return static_cast<int>(diag_.size()); }

  // L_i (row i, unknowns i−1; unused for i = 0), D_i, U_i (unknowns i+1; unused for
  // i = n−1). Set them, then factorize.
  Block& lower(int i) { return lower_[i]; }
  Block& diag(int i) { return diag_[i]; }
  Block& upper(int i) { return upper_[i]; }
  const Block& lower(int i) const { return lower_[i]; }
  const Block& diag(int i) const { return diag_[i]; }
  const Block& upper(int i) const { return upper_[i]; }

  // Factorizes; false when a block S_i is singular or not finite (pivotRatio() is then ∞).
  bool factorize() {
    const int n = size();
    double largest = 0, largestInverse = 0;
    Block S;
    for (int i = 0; i < n; ++i) {
      S = diag_[i];
      if (i > 0) subtractProduct(S, lower_[i], coupling_[i - 1]);
      const double norm = S.cwiseAbs().maxCoeff();
      double normInverse;
      if constexpr (kExplicitInverse) {
        invert(S, inverse_[i]);
        normInverse = inverse_[i].cwiseAbs().maxCoeff();
      } else {
        // A non-finite entry or a zero pivot fails compute().
        normInverse = factors_[i].compute(S) ? 1 / factors_[i].smallestPivot() : kInfinity;
      }
      if (!(normInverse < kInfinity) || !(norm < kInfinity)) {
        pivotRatio_ = kInfinity;
        return false;
      }
      largest = std::max(largest, norm);
      largestInverse = std::max(largestInverse, normInverse);
      if (i + 1 < n) {
        if constexpr (kExplicitInverse) {
          coupling_[i].noalias() = inverse_[i].lazyProduct(upper_[i]);
        } else {
          coupling_[i] = upper_[i];
          factors_[i].solveInPlace(coupling_[i]);
        }
      }
    }
    pivotRatio_ = largest * largestInverse;
    return true;
  }

  double pivotRatio() const { return pivotRatio_; }

  // Solves with the last factorization, in place: rhs holds B·n numbers, block i at
  // rhs[B·i], and becomes the solution.
  void solve(double* rhs) const {
    const int n = size();
    if constexpr (!kExplicitInverse) {
      // On local copies: rhs might alias the blocks, which would be reloaded at every store.
      Segment v, w;
      for (int i = 0; i < n; ++i) {
        v = Eigen::Map<const Segment>(rhs + B * i);
        if (i > 0) subtractProductVector(v, lower_[i], w);
        factors_[i].solveInPlace(v);
        Eigen::Map<Segment>(rhs + B * i) = w = v;
      }
      for (int i = n - 2; i >= 0; --i) {
        v = Eigen::Map<const Segment>(rhs + B * i);
        subtractProductVector(v, coupling_[i], w);
        Eigen::Map<Segment>(rhs + B * i) = w = v;
      }
      return;
    }
    Segment v;
    for (int i = 0; i < n; ++i) {
      Eigen::Map<Segment> z(rhs + B * i);
      v = z;
      if (i > 0) v.noalias() -= lower_[i] * Eigen::Map<const Segment>(rhs + B * (i - 1));
      z.noalias() = inverse_[i] * v;
    }
    for (int i = n - 2; i >= 0; --i)
      Eigen::Map<Segment>(rhs + B * i).noalias() -= coupling_[i] * Eigen::Map<const Segment>(rhs + B * (i + 1));
  }

 private:
  static constexpr bool kExplicitInverse = B <= 4;
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  // S −= L X, coefficient by coefficient (fixed B: the loops unroll). The large blocks'
  // L is mostly zeros (a link couples few of a bob's unknowns to its neighbour's): their
  // product skips them, term by term.
  static void subtractProduct(Block& S, const Block& L, const Block& X) {
    if constexpr (!kExplicitInverse) {
      for (int k = 0; k < B; ++k)
        for (int r = 0; r < B; ++r) {
          const double l = L(r, k);
          if (l == 0) continue;
          for (int c = 0; c < B; ++c) S(r, c) -= l * X(k, c);
        }
      return;
    }
    for (int r = 0; r < B; ++r)
      for (int c = 0; c < B; ++c) {
        double sum = 0;
        for (int k = 0; k < B; ++k) sum += L(r, k) * X(k, c);
        S(r, c) -= sum;
      }
  }

  // v −= M w, column by column (the rows' chains overlap).
  static void subtractProductVector(Segment& v, const Block& M, const Segment& w) {
    for (int k = 0; k < B; ++k)
      for (int r = 0; r < B; ++r) v[r] -= M(r, k) * w[k];
  }

  // Cofactor inverse (Eigen's for B ≤ 4); a singular S gives non-finite entries.
  static void invert(const Block& S, Block& out) {
    if constexpr (B == 3) {
      const double c00 = S(1, 1) * S(2, 2) - S(1, 2) * S(2, 1);
      const double c01 = S(1, 2) * S(2, 0) - S(1, 0) * S(2, 2);
      const double c02 = S(1, 0) * S(2, 1) - S(1, 1) * S(2, 0);
      const double f = 1 / (S(0, 0) * c00 + S(0, 1) * c01 + S(0, 2) * c02);
      out(0, 0) = c00 * f;
      out(1, 0) = c01 * f;
      out(2, 0) = c02 * f;
      out(0, 1) = (S(0, 2) * S(2, 1) - S(0, 1) * S(2, 2)) * f;
      out(1, 1) = (S(0, 0) * S(2, 2) - S(0, 2) * S(2, 0)) * f;
      out(2, 1) = (S(0, 1) * S(2, 0) - S(0, 0) * S(2, 1)) * f;
      out(0, 2) = (S(0, 1) * S(1, 2) - S(0, 2) * S(1, 1)) * f;
      out(1, 2) = (S(0, 2) * S(1, 0) - S(0, 0) * S(1, 2)) * f;
      out(2, 2) = (S(0, 0) * S(1, 1) - S(0, 1) * S(1, 0)) * f;
    } else {
      out = S.inverse();
    }
  }

  std::vector<Block> lower_, diag_, upper_;
  std::vector<Block> inverse_, coupling_;  // S_i⁻¹ (B ≤ 4) and X_i = S_i⁻¹ U_i
  std::vector<PivotedLU<Block>> factors_;  // S_i's LU (B > 4)
  double pivotRatio_ = 1;
};

}  // namespace vilab
