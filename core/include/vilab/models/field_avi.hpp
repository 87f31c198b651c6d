// The asynchronous variational integrator (AVI) of Lew, Marsden, Ortiz & West (2003, LMOW;
// surveyed with the multisymplectic integrators in M–W §5.2) on the semi-discretization of
// field.hpp: every cell of the grid is an element with its own time step, and the
// elements' events are taken in time order from a priority queue.
//
// Elements. Cell c joins the nodes i = c and j = c + 1 (mod N with periodic ends) and
// carries the energy
//   E_c = ½κ_c (u_j − u_i)²/Δx + ½Δx (V(u_i) + V(u_j))   (κ_c: the cell's κ, field.hpp),
// so that Σ_c E_c is the potential part of L_h in field.hpp: a node inside the grid or on
// a periodic ring lies in two cells and gets ½ + ½ of its Δx V(u), a free end (weight ½)
// lies in one and gets its ½. The node potential is shared into the cells rather than
// made an element of its own so that a stiff cell's small step also integrates the
// reaction of its nodes to V, and the queue holds one kind of event. Kinetic energy stays
// with the nodes (the lumped masses m_i = ρ w_i Δx), as in LMOW's elastodynamics.
//
// The action. Element c has event times t_c^k = t₀ + k h_c (k = 0, 1, …; computed from k,
// not accumulated). Its potential enters the discrete action by the trapezoid rule in time
// on each of its intervals, −½h_c (E_c(u(t_c^k)) + E_c(u(t_c^{k+1}))), and each node moves
// on a straight line between the events of the cells it belongs to (the kinetic term
// ½m_i (Δu_i)²/Δt of every such interval; LMOW's discrete action with element times). The
// discrete Euler–Lagrange equations in u_i(t_c^k) are then LMOW's AVI update:
//   at t_c^k the nodes of c are drifted to t_c^k with their momenta, and c gives its nodes
//   the impulse −h_c ∂E_c/∂u (½h_c at k = 0: only the interval after t₀ is in the action);
// the momenta are constant between events. With one step h for all cells the events of a
// time row are a kick of the whole grid, and the scheme is the leapfrog of field.hpp
// (velocity Verlet: half kick, drift, half kick), the trapezoid discrete Lagrangian
// (Marsden & West 2001, §2.5 and §5.2).
//
// Output. synchronize() gives the state at the present time t without changing the
// trajectory (nothing it computes is kept): every node drifted to t with its momentum, and
// the velocity of the momentum at t, p + (θ_c − ½) h_c (−∂E_c/∂u) from each cell c whose
// last event was at t − θ_c h_c. The interval's momentum p is the trapezoid action's value
// at its middle; θ_c = 1 for a cell whose next event falls at t (within 1e-9 of its step,
// a time the user reached by adding steps: that event waits) adds the half impulse that
// closes the interval, the discrete Legendre transform p = ∂S/∂u(t) of the action up to t,
// and with one common step the leapfrog's synchronized velocity. For 0 < θ_c < 1 it is the
// same rule's linear interpolation, so the energy shown at any t is off by O(h²), not by
// the O(h) of LMOW's piecewise constant velocity. A run advanced in one call and one
// stopped at every output time have the same bits.
//
// Conservation. Each cell's strain impulses on its two nodes are ±h_c κ_c(u_j − u_i)/Δx, equal
// and opposite to the last bit, so with periodic ends and V = 0 the total momentum Σp_i is
// kept to the rounding of its sum (LMOW's discrete Noether theorem for translations, per
// element). The impulse each element gave the moving nodes is recorded: the change of Σp_i
// over any interval equals their sum (fixed ends and V take momentum out of the string).
//
// Stability. Each element's step must be within its own CFL limit (LMOW; the element
// eigenvalue bound λ_max(M⁻¹K) ≤ max_c λ_max(M_c⁻¹K_c) for M = ΣM_c, K = ΣK_c, with M_c the
// cell's share of the lumped masses). With one common step that bound is the leapfrog's
// (up to O(1/N²)); with two steps AVIs have weak resonances at a dense set of step
// ratios (Fong, Darve & Lew 2008, conjectured from their measurements), which this bound
// does not exclude.
//
// Accuracy. With one common step it is the leapfrog (order 2). With two steps it is the
// multiple-time-step impulse method at the interface node (r-RESPA's form when the steps'
// ratio is an integer): order 2 in time on a fixed grid, but each cell's force is O(κu_x),
// 1/Δx larger than the sum that moves a node, and the two clocks sample the interface's two
// forces at different times: refining Δx with the steps at fixed Courant numbers, the
// error is O(Δx) (measured in test_field_avi.cpp), carried by the waves over the string.
//
// Cost: O(log N) per event. Cells with the same step share a clock (their events fall at
// the same times); the queue is a binary heap of the clocks keyed by (time, element index)
// of each clock's next cell, so ties go to the lower index and the order of events is the
// one of a queue of all cells, deterministic; with all steps different it is that queue.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "vilab/models/field.hpp"

namespace vilab::field {

// The largest stable step of every cell: h_c < 2/ω_c with ω_c² the top eigenvalue of the
// cell's stiffness over its share of the lumped masses (½ρΔx at each node: half of an
// inner node's mass, all of a free end's), linearized with V'' ≤ curvatureBound:
//   both nodes moving:       ω_c² = 4κ_c/(ρΔx²) + V''/ρ,
//   one node fixed:          ω_c² = 2κ_c/(ρΔx²) + V''/ρ,
// infinite for a cell between two fixed ends, zero where ω_c² ≤ 0 (the linearization grows
// at any step), as leapfrogLargestStep does for the whole grid.
inline std::vector<double> aviLargestSteps(const Density& d, const Grid& g, double curvatureBound = 0) {
  const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
  const double h = g.spacing();
  std::vector<double> out(cells);
  for (int c = 0; c < cells; ++c) {
    const int j = (c + 1) % n;
    const bool fixedI = g.ends == Ends::Fixed && c == 0, fixedJ = g.ends == Ends::Fixed && j == n - 1;
    if (fixedI && fixedJ) {
      out[c] = std::numeric_limits<double>::infinity();
      continue;
    }
    const double top = (fixedI || fixedJ ? 2 : 4) * d.kappaOf(c) / (d.rho * h * h) + curvatureBound / d.rho;
    out[c] = top > 0 ? 2 / std::sqrt(top) : 0.0;
  }
  return out;
}

class Avi {
 public:
  // Takes the field, its state at s.t and one step per cell (N − 1 cells, N with periodic
  // ends). Empty when loaded; else "field: problem" by field, and the previous load is kept.
  std::string load(const Density& d, const Grid& g, const State& s, const std::vector<double>& steps) {
    if (std::string bad = validate(d, g); !bad.empty()) return bad;
    const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
    if (static_cast<int>(s.u.size()) != n) return "state.u: must have " + std::to_string(n) + " values";
    if (static_cast<int>(s.v.size()) != n) return "state.v: must have " + std::to_string(n) + " values";
    for (int i = 0; i < n; ++i) {
      if (!std::isfinite(s.u[i])) return "state.u[" + std::to_string(i) + "]: must be a finite number";
      if (!std::isfinite(s.v[i])) return "state.v[" + std::to_string(i) + "]: must be a finite number";
    }
    if (!std::isfinite(s.t)) return "state.t: must be a finite number";
    if (static_cast<int>(steps.size()) != cells)
      return "avi.steps: must have " + std::to_string(cells) + " values (one per cell), not " +
             std::to_string(steps.size());
    for (int c = 0; c < cells; ++c)
      if (!(std::isfinite(steps[c]) && steps[c] > 0))
        return "avi.steps[" + std::to_string(c) + "]: must be a finite number > 0";

    d_ = d, g_ = g, dx_ = g.spacing(), t0_ = now_ = s.t;
    mass_.resize(n), u_.resize(n), p_.resize(n), at_.resize(n), atClock_.assign(n, -1), atCount_.assign(n, 0);
    for (int i = 0; i < n; ++i) {
      mass_[i] = d.rho * weight(g, i) * dx_;
      u_[i] = s.u[i];
      p_[i] = moves(i) ? mass_[i] * s.v[i] : 0.0;  // a fixed end does not move, whatever its v
      at_[i] = s.t;
    }
    // One clock per distinct step (bitwise), numbered by its first cell; its cells in index
    // order. Sorting by (step, cell) groups them in O(N log N).
    std::vector<int> order(cells);
    for (int c = 0; c < cells; ++c) order[c] = c;
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return steps[a] < steps[b] || (steps[a] == steps[b] && a < b); });
    std::vector<Clock> groups;
    for (int k = 0; k < cells; ++k) {
      if (k == 0 || steps[order[k]] != steps[order[k - 1]]) groups.push_back(Clock{steps[order[k]], s.t, 0, {}, 0});
      groups.back().cells.push_back(order[k]);
    }
    std::sort(groups.begin(), groups.end(), [](const Clock& a, const Clock& b) { return a.cells[0] < b.cells[0]; });
    clocks_ = std::move(groups);
    clockOf_.assign(cells, -1);
    for (int k = 0; k < static_cast<int>(clocks_.size()); ++k)
      for (const int c : clocks_[k].cells) clockOf_[c] = k;
    heap_.clear();  // all clocks at t₀, by first cell: already a heap
    for (int k = 0; k < static_cast<int>(clocks_.size()); ++k) heap_.push_back({s.t, clocks_[k].cells[0], k});
    impulse_.assign(cells, 0.0);
    impulseSize_ = 0;
    events_ = 0;
    return {};
  }

  // Takes every event before t (those at t, within 1e-9 of their step, wait: synchronize
  // shows their closing half). Refuses a t before the present or not finite, state kept.
  std::string advanceTo(double t) {
    if (mass_.empty()) return "avi: nothing loaded";
    if (!(std::isfinite(t) && t >= now_)) return "avi.time: must be a finite number ≥ the present time";
    while (!heap_.empty()) {
      const int id = heap_[0].clock;
      Clock& k = clocks_[id];
      if (!(k.time < t - kCoincide * k.step)) break;
      fire(heap_[0].cell, id);
      if (++k.next == static_cast<int>(k.cells.size())) {
        k.next = 0;
        ++k.count;
        k.time = t0_ + static_cast<double>(k.count) * k.step;
      }
      siftDown({k.time, k.cells[k.next], id});
    }
    now_ = t;
    return {};
  }

  // The state at the present time (see the header's comment): s.u drifted, s.v the momenta
  // plus (θ_c − ½)h_c times each cell's force (θ_c = 1: the closing half impulse of a cell
  // whose event is now), over the masses. Reads the run, changes nothing.
  void synchronize(State& s) const {
    if (mass_.empty()) {  // nothing loaded: no state
      s = State{};
      return;
    }
    const int n = g_.points, cells = static_cast<int>(clockOf_.size());
    s.u.resize(n), s.v.resize(n);
    s.t = now_;
    std::vector<double> p = p_;
    for (int i = 0; i < n; ++i) s.u[i] = u_[i] + (now_ - at_[i]) * p_[i] / mass_[i];
    const auto closing = [&](int c) {
      const Clock& k = clocks_[clockOf_[c]];
      return k.count > 0 && std::abs(k.time - now_) <= kCoincide * k.step;
    };
    for (int c = 0; c < cells; ++c)
      if (closing(c))
        for (const int a : {c, (c + 1) % n}) s.u[a] = u_[a] + drift(a, clockOf_[c], now_) * p_[a] / mass_[a];
    for (int c = 0; c < cells; ++c) {
      const Clock& k = clocks_[clockOf_[c]];
      if (k.count == 0) continue;  // nothing taken yet: now is t₀ (within 1e-9 of the step)
      const double theta = closing(c) ? 1.0 : (now_ - (t0_ + static_cast<double>(k.count - 1) * k.step)) / k.step;
      double gi, gj;
      force(c, s.u, gi, gj);
      const int i = c, j = (c + 1) % n;
      const double w = (theta - 0.5) * k.step;
      if (moves(i)) p[i] += w * gi;
      if (moves(j)) p[j] += w * gj;
    }
    for (int i = 0; i < n; ++i) s.v[i] = p[i] / mass_[i];
  }

  double time() const { return now_; }
  // Σ p_i: the nodes' momenta between events (what the impulses change).
  double momentum() const {
    double sum = 0;
    for (double p : p_) sum += p;
    return sum;
  }
  // The impulse each element has given its moving nodes since load, and Σ|impulse| over
  // all events (the scale of the momentum balance's rounding).
  const std::vector<double>& impulses() const { return impulse_; }
  double impulseSize() const { return impulseSize_; }
  std::uint64_t events() const { return events_; }

 private:
  static constexpr double kCoincide = 1e-9;

  // Cells whose steps are equal share their event times t₀ + k h: one clock holds them,
  // and the queue one entry per clock, its next cell (index order). The events come in the
  // order of a queue of all cells keyed by (time, index) — with all steps different it is
  // that queue — at O(log #clocks) each.
  struct Clock {
    double step = 0, time = 0;
    std::int64_t count = 0;  // events of each cell so far: the clock is at t₀ + count·step
    std::vector<int> cells;
    int next = 0;  // the first of `cells` not yet taken at `time`
  };
  struct Entry {  // the key (time, cell) and the clock
    double time;
    int cell, clock;
  };

  bool moves(int i) const { return !(g_.ends == Ends::Fixed && (i == 0 || i == g_.points - 1)); }

  // How long node a drifts to time t at an event of clock k: counted on k's clock when
  // the node was last moved by the same clock (exact multiples of the step: one common
  // step drifts by h itself, as the leapfrog does), else the difference of the times.
  double drift(int a, int k, double t) const {
    if (atClock_[a] == k) return static_cast<double>(clocks_[k].count - atCount_[a]) * clocks_[k].step;
    return t - at_[a];
  }

  // The forces −∂E_c/∂u_i, −∂E_c/∂u_j of cell c at positions u.
  void force(int c, const std::vector<double>& u, double& gi, double& gj) const {
    const int i = c, j = (c + 1) % g_.points;
    const double strain = d_.kappaOf(c) * (u[j] - u[i]) / dx_;
    gi = strain - 0.5 * dx_ * d_.potentialSlope(u[i]);
    gj = -strain - 0.5 * dx_ * d_.potentialSlope(u[j]);
  }

  void fire(int c, int id) {
    const Clock& k = clocks_[id];
    const int n = g_.points, nodes[2] = {c, (c + 1) % n};
    for (const int a : nodes) {
      if (!moves(a)) continue;
      u_[a] += drift(a, id, k.time) * p_[a] / mass_[a];
      at_[a] = k.time, atClock_[a] = id, atCount_[a] = k.count;
    }
    double g[2];
    force(c, u_, g[0], g[1]);
    const double w = (k.count == 0 ? 0.5 : 1.0) * k.step;
    for (int e = 0; e < 2; ++e) {
      if (!moves(nodes[e])) continue;
      const double j = w * g[e];
      p_[nodes[e]] += j;
      impulse_[c] += j;
      impulseSize_ += std::abs(j);
    }
    ++events_;
  }

  static bool before(const Entry& a, const Entry& b) {
    return a.time < b.time || (a.time == b.time && a.cell < b.cell);
  }
  // The top's key grew to `top`'s: move it down to its place.
  void siftDown(const Entry top) {
    const int size = static_cast<int>(heap_.size());
    int k = 0;
    for (;;) {
      int child = 2 * k + 1;
      if (child >= size) break;
      child += child + 1 < size && before(heap_[child + 1], heap_[child]);
      if (!before(heap_[child], top)) break;
      heap_[k] = heap_[child];
      k = child;
    }
    heap_[k] = top;
  }

  Density d_;
  Grid g_;
  double dx_ = 1, t0_ = 0, now_ = 0, impulseSize_ = 0;
  std::vector<double> mass_, u_, p_, at_, impulse_;
  std::vector<int> atClock_, clockOf_;
  std::vector<std::int64_t> atCount_;
  std::vector<Clock> clocks_;
  std::vector<Entry> heap_;
  std::uint64_t events_ = 0;
};

}  // namespace vilab::field
