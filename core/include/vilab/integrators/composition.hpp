// Composition methods (Yoshida 1990; Hairer, Lubich & Wanner §II.4; Marsden–West §2.5):
// a symmetric one-step method Φ_h of order 2 composed with itself over substeps γ_i h,
//     Ψ_h = Φ_{γ_s h} ∘ … ∘ Φ_{γ_1 h},   Σ γ_i = 1,   γ_{s+1−i} = γ_i,
// has order 4 when Σ γ_i³ = 0 (the triple jump: γ_1 = γ_3 = 1/(2 − 2^{1/3}),
// γ_2 = −2^{1/3}/(2 − 2^{1/3}); one substep runs backwards in time) and order 6 with
// Yoshida's seven substeps (solution A). A composition of symplectic maps is
// symplectic, and of symmetric ones in a palindromic order is symmetric; momentum
// maps and constraints that each substep keeps are kept. A non-palindromic order loses
// the cancellation of the odd error terms: the order test catches it.
//
// The substeps are integrators of the same model (the midpoint DEL, RATTLE on the
// constraint manifold, the Lie-group step), one per distinct coefficient, passing the
// canonical state from one to the next.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vilab/registry.hpp"

namespace vilab {

// The substep fractions γ_i of a composition, in the order they are taken.
struct CompositionScheme {
  std::vector<double> gamma;

  // Triple jump (Yoshida 1990, eq. 4.14; Suzuki 1990): order 4 from order 2.
  static CompositionScheme tripleJump() {
    const double cube = 1.2599210498948732;  // 2^{1/3}
    const double outer = 1.0 / (2.0 - cube);
    return {{outer, -cube * outer, outer}};
  }
  // Yoshida 1990, Table 1, solution A: seven substeps, order 6 from order 2.
  static CompositionScheme yoshida6() {
    const double w1 = -1.17767998417887, w2 = 0.235573213359357, w3 = 0.784513610477560;
    const double w0 = 1.0 - 2.0 * (w1 + w2 + w3);
    return {{w3, w2, w1, w0, w1, w2, w3}};
  }
};

class CompositionIntegrator final : public Integrator {
 public:
  // `base` builds the symmetric base method on the model at a given step size.
  CompositionIntegrator(const Model& model, IntegratorFactory base, const CompositionScheme& scheme, double h) : h_(h) {
    // One base integrator per distinct fraction (a palindrome has (s+1)/2 of them).
    for (double g : scheme.gamma) {
      int index = -1;
      for (std::size_t j = 0; j < fractions_.size(); ++j)
        if (fractions_[j] == g) index = static_cast<int>(j);
      if (index < 0) {
        index = static_cast<int>(fractions_.size());
        fractions_.push_back(g);
        bases_.push_back(base(model, Options(), g * h));
      }
      order_.push_back(index);
    }
  }

  void load(const State& s) override { s_ = s; }

  // Φ_{γ_s h} ∘ … ∘ Φ_{γ_1 h}: each substep starts from the state the previous one
  // stored. A refused substep refuses the whole step (s_ is untouched).
  StepOutcome step() override {
    work_ = s_;
    double t = t_;
    int iterations = 0;
    for (std::size_t i = 0; i < order_.size(); ++i) {
      Integrator& sub = *bases_[order_[i]];
      sub.load(work_);
      sub.setTime(t);
      StepOutcome o = sub.step();
      iterations += o.iterations;
      if (!o.ok) {
        o.iterations = iterations;
        o.refusal.reason += " (in substep " + std::to_string(i + 1) + " of " + std::to_string(order_.size()) + ")";
        return o;
      }
      sub.store(work_);
      t += fractions_[order_[i]] * h_;
    }
    s_.q.swap(work_.q);
    s_.p.swap(work_.p);
    StepOutcome out;
    out.iterations = iterations;
    return out;
  }

  void store(State& s) const override { s = s_; }
  void setTime(double t) override { t_ = t; }

 private:
  double h_, t_ = 0;
  std::vector<double> fractions_;
  std::vector<std::unique_ptr<Integrator>> bases_;
  std::vector<int> order_;
  State s_, work_;
};

}  // namespace vilab
