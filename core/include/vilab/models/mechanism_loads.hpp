// Loads on a mechanism beyond uniform gravity, typed as text through the one parser,
// Graph and Program of systems defined by data (expr/): a potential V(x, R, t) and, per
// body, an applied torque τ(x, R, t); and per body a linear damping force −c_x ẋ on its
// centre of mass (space frame), velocity-dependent like MechanismBody::damping's torque.
//
// Names: body i's centre x<i>, y<i>, z<i> (space frame) and its rotation matrix's entries
// R<i>_jk (row j, column k, 1 … 3; body → space), i the index in bodies[], and t. Only
// the names an expression uses become the program's variables (at most
// kMaxLoadVariables of them), so a mechanism of many bodies may have a potential in a few.
//
// Generalized forces of V under the variations x ↦ x + δx and R ↦ R exp(η̂):
//   f = −∂V/∂x (space frame),   τ = vee(DᵀR − RᵀD), D = ∂V/∂R (the matrix of ∂V/∂R_jk)
// (body frame; Lee, Leok & McClamroch 2007, the moment M of eq. (8)): with A = DᵀR,
// dV = tr(Dᵀ δR) = tr(A η̂) = −vee(A − Aᵀ)·η, so τ = −∂V/∂η = vee(A − Aᵀ).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vilab/expr/graph.hpp"
#include "vilab/models/mechanism.hpp"
#include "vilab/types.hpp"

namespace vilab {

// One expression over bodies' symbols and t, compiled with its gradient in them.
class MechanismExpression {
 public:
  static constexpr int kMaxLoadVariables = 31;  // t is variable 2n of the scope, below 64

  MechanismExpression() = default;
  // Throws expr::ExpressionError naming `field` for unknown names, bad syntax or more
  // than kMaxLoadVariables distinct symbols.
  MechanismExpression(const std::string& text, const std::string& field, int bodies, bool gradient);

  const std::string& text() const { return text_; }
  bool usesTime() const { return usesTime_; }
  // The value and, with the gradient, ∂/∂x_i into dx[i] and ∂/∂R_i into dR[i] (added).
  double evaluate(const std::vector<Vec3>& x, const std::vector<Mat3>& R, double t, std::vector<Vec3>* dx,
                  std::vector<Mat3>* dR) const;

 private:
  struct Symbol {
    int body, slot;  // slot 0 … 2: x, y, z; 3 + 3j + k: R_(j+1)(k+1)
  };
  std::string text_;
  std::vector<Symbol> symbols_;
  bool usesTime_ = false, gradient_ = false;
  std::shared_ptr<expr::Program> program_;
  mutable std::vector<double> registers_, variables_, out_;
};

// The loads of one mechanism, shared (immutable) by copies of its model.
struct MechanismLoadSet {
  MechanismExpression potential;  // empty text: none
  bool hasPotential = false;
  struct Torque {
    int body = 0;
    bool spaceFrame = false;  // τ given in the space frame (else the body frame)
    MechanismExpression component[3];
  };
  std::vector<Torque> torques;
  // Per body the c_x ≥ 0 (N·s/m) of the force −c_x ẋ; empty when no body gives one.
  std::vector<double> linearDamping;

  bool usesTime() const;
};

// Body i's linear damping c_x (0 without one).
inline double linearDampingOf(const MechanismModel& m, int i) {
  return m.loads && !m.loads->linearDamping.empty() ? m.loads->linearDamping[static_cast<std::size_t>(i)] : 0.0;
}

}  // namespace vilab
