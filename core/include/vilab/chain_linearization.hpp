// The Jacobian of a chain's multiplier step (W–M §4, midpoint = trapezoid = RATTLE for
// uniform gravity, c1 = c2 = h/2), in a symplectic basis of the tangent space of the
// constrained phase space T*N = {g(q) = 0, Dg(q) M⁻¹ p = 0} (Simulation::linearize).
//
// The step (q, p) ↦ (q', p'):  M(q' − q)/h + c1 ∇V − p − Dg(q)ᵀλ = 0,  g(q') = 0,
//     p̃ = p + Dg(q)ᵀλ − h ∇V,  p' = p̃ − Dg(q')ᵀμ with Dg(q') M⁻¹ p' = 0.
// Differentiated (H_λ = Σ λ_i ∇²g_i, each ∇²g_i constant):
//     [M/h  −Dg(q)ᵀ; Dg(q')  0] [dq'; dλ] = [(M/h + H_λ) dq + dp; 0],
//     dp̃ = dp + H_λ dq + Dg(q)ᵀ dλ,
//     S dμ = K dq' + Dg(q') M⁻¹ (dp̃ − H_μ dq'),  S = Dg M⁻¹ Dgᵀ,  K_i = (∇²g_i M⁻¹ p')ᵀ,
//     dp' = dp̃ − H_μ dq' − Dg(q')ᵀ dμ.
// The ambient Jacobian (6B × 6B) is then written in bases of T(T*N) at both ends, built
// from each link's turns (chain_linearization.cpp) and symplectic, BᵀΩB = Ω_2n, so that
// a symplectic step has
// J_t = B'⁺ J B with J_tᵀ Ω_2n J_t = Ω_2n, det J_t = 1 (2n × 2n, n = 2B degrees of freedom, B for
// the planar pendulum, which also keeps y = 0 and p_y = 0).
#pragma once

#include <string>

#include "vilab/models/chain.hpp"
#include "vilab/state.hpp"

namespace vilab {

// The 6B × 2n basis B of T(T*N) at s, a smooth function of s: the turns of each link
// about two axes perpendicular to it (the bobs below carried along), lifted onto the hidden
// constraint, and the momenta M t; symplectic (BᵀΩB = [[0, I], [−I, 0]]).
Eigen::MatrixXd chainTangentBasis(const ChainModel& m, const State& s);

// The ambient Jacobian ∂(q', p')/∂(q, p) of the multiplier step from a to b (b the step's
// result), or false with `why`.
bool chainStepJacobian(const ChainModel& m, double h, const State& a, const State& b, Eigen::MatrixXd& jacobian,
                       std::string& why);

// Coordinates of the ambient vectors (columns of v, tangent at s) in the basis at s.
Eigen::MatrixXd chainTangentCoordinates(const Eigen::MatrixXd& basis, const Eigen::MatrixXd& v);

}  // namespace vilab
