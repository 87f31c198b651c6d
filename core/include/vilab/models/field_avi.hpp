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
// A typed density ℒ = ½ u_tᵀ M u_t − U(u, u_x, x) of one or several components
// (field_avi_typed.hpp): E_c is Δx times the mean of U at the cell's two nodes with its own
// slope, the split of the method of lines (field_lines.hpp), each node holds all its
// components, its mass w_i Δx M, and a cell's event moves both nodes' components.
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
// Conservation. A linear symmetry u ↦ e^{sG}u of ℒ (the whirling string's rotation) leaves
// each E_c invariant, so each event's impulses have Σ_nodes g·Gu = 0, and with GᵀM + MG = 0
// a drift keeps p·Gu: the charge Σ p_i·Gu_i is kept to rounding per element, whatever the
// steps (LMOW's discrete Noether theorem; measured in test_field_avi_typed.cpp).
// Each cell's strain impulses on its two nodes are ±h_c κ_c(u_j − u_i)/Δx, equal
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
#include <memory>
#include <string>
#include <vector>

#include "vilab/models/field.hpp"
#include "vilab/models/field_avi_typed.hpp"

namespace vilab::field {

// The largest stable step of every cell: h_c < 2/ω_c with ω_c² the top eigenvalue of the
// cell's stiffness over its share of the lumped masses (½ρΔx at each node: half of an
// inner node's mass, all of a free end's), linearized with V'' ≤ curvatureBound:
//   both nodes moving:       ω_c² = 4κ_c/(ρΔx²) + V''/ρ,
//   one node fixed:          ω_c² = 2κ_c/(ρΔx²) + V''/ρ,
// infinite for a cell between two fixed ends, zero where ω_c² ≤ 0 (the linearization grows
// at any step), as leapfrogLargestStep does for the whole grid.
// top(c, k) gives ω_c² with k = 4 (both nodes moving) or 2 (one fixed).
template <class Top>
std::vector<double> aviLargestStepsOf(const Grid& g, const Top& top) {
  const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
  std::vector<double> out(cells);
  for (int c = 0; c < cells; ++c) {
    const int j = (c + 1) % n;
    const bool fixedI = g.ends == Ends::Fixed && c == 0, fixedJ = g.ends == Ends::Fixed && j == n - 1;
    if (fixedI && fixedJ) {
      out[c] = std::numeric_limits<double>::infinity();
      continue;
    }
    const double w2 = top(c, fixedI || fixedJ ? 2 : 4);
    out[c] = w2 > 0 ? 2 / std::sqrt(w2) : 0.0;
  }
  return out;
}
inline std::vector<double> aviLargestSteps(const Density& d, const Grid& g, double curvatureBound = 0) {
  const double h = g.spacing();
  return aviLargestStepsOf(g,
                           [&](int c, int k) { return k * d.kappaOf(c) / (d.rho * h * h) + curvatureBound / d.rho; });
}
// The same from each cell's squared wave speed c_c², curvature V''_c and inertia ρ_c
// (field_cells.hpp's per-cell stiffness of a typed density): ω_c² = k c_c²/Δx² + V''_c/ρ_c,
// V''_c < 0 taken as 0 (as curvatureBound).
inline std::vector<double> aviLargestSteps(const Grid& g, const std::vector<double>& speed2,
                                           const std::vector<double>& curvature, const std::vector<double>& inertia) {
  const double h = g.spacing();
  return aviLargestStepsOf(g, [&](int c, int k) {
    const std::size_t at = static_cast<std::size_t>(c);
    return k * speed2[at] / (h * h) + std::max(0.0, curvature[at]) / inertia[at];
  });
}

class Avi {
 public:
  // Takes the field, its state at s.t and one step per cell (N − 1 cells, N with periodic
  // ends). Empty when loaded; else "field: problem" by field, and the previous load is kept.
  std::string load(const Density& d, const Grid& g, const State& s, const std::vector<double>& steps) {
    if (std::string bad = validate(d, g); !bad.empty()) return bad;
    if (std::string bad = check(g, 1, s, steps); !bad.empty()) return bad;
    d_ = d, typed_ = nullptr, m_ = 1;
    begin(g, s, steps);
    for (int i = 0; i < g.points; ++i) {
      mass_[i] = d.rho * weight(g, i) * dx_;
      p_[i] = moves(i) ? mass_[i] * s.v[i] : 0.0;  // a fixed end does not move, whatever its v
    }
    return {};
  }
  // A typed density's elements (field_avi_typed.hpp): s.u and s.v component-major, the
  // nodes' masses w_i Δx M (mass_ keeps w_i Δx, the momenta p = w_i Δx M u̇).
  std::string load(std::shared_ptr<const TypedCells> cells, const Grid& g, const State& s,
                   const std::vector<double>& steps) {
    if (std::string bad = validate(Density{}, g); !bad.empty()) return bad;
    const int m = cells->components(), n = g.points;
    if (std::string bad = check(g, m, s, steps); !bad.empty()) return bad;
    typed_ = std::move(cells), m_ = m;
    begin(g, s, steps);
    const Eigen::MatrixXd& M = typed_->mass();
    for (int i = 0; i < n; ++i) {
      mass_[i] = weight(g, i) * dx_;
      for (int b = 0; b < m; ++b) {
        double sum = 0;
        for (int e = 0; e < m; ++e) sum += M(b, e) * s.v[static_cast<std::size_t>(e * n + i)];
        p_[static_cast<std::size_t>(b * n + i)] = moves(i) ? mass_[i] * sum : 0.0;
      }
    }
    return {};
  }

 private:
  // The state's and the steps' sizes and values (m components per node).
  static std::string check(const Grid& g, int m, const State& s, const std::vector<double>& steps) {
    const int n = g.points * m, cells = g.ends == Ends::Periodic ? g.points : g.points - 1;
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
    return {};
  }

  // The grid, the positions, the clocks and the queue of a new load (masses and momenta
  // are the caller's).
  void begin(const Grid& g, const State& s, const std::vector<double>& steps) {
    const int n = g.points, cells = g.ends == Ends::Periodic ? n : n - 1;
    g_ = g, dx_ = g.spacing(), t0_ = now_ = s.t;
    mass_.resize(n), u_ = s.u, p_.resize(u_.size()), at_.assign(n, s.t), atClock_.assign(n, -1), atCount_.assign(n, 0);
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
    impulse_.assign(static_cast<std::size_t>(cells * m_), 0.0);
    impulseSize_ = 0;
    events_ = 0;
  }

 public:
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
    s.u.resize(u_.size()), s.v.resize(u_.size());
    s.t = now_;
    std::vector<double> p = p_;
    for (int i = 0; i < n; ++i) place(i, now_ - at_[i], s.u);
    const auto closing = [&](int c) {
      const Clock& k = clocks_[clockOf_[c]];
      return k.count > 0 && std::abs(k.time - now_) <= kCoincide * k.step;
    };
    for (int c = 0; c < cells; ++c)
      if (closing(c))
        for (const int a : {c, (c + 1) % n}) place(a, drift(a, clockOf_[c], now_), s.u);
    for (int c = 0; c < cells; ++c) {
      const Clock& k = clocks_[clockOf_[c]];
      if (k.count == 0) continue;  // nothing taken yet: now is t₀ (within 1e-9 of the step)
      const double theta = closing(c) ? 1.0 : (now_ - (t0_ + static_cast<double>(k.count - 1) * k.step)) / k.step;
      double g[2 * kMaxFieldComponents];
      force(c, s.u, g);
      const int nodes[2] = {c, (c + 1) % n};
      const double w = (theta - 0.5) * k.step;
      for (int e = 0; e < 2; ++e)
        if (moves(nodes[e]))
          for (int b = 0; b < m_; ++b) p[static_cast<std::size_t>(b * n + nodes[e])] += w * g[e * m_ + b];
    }
    for (int i = 0; i < n; ++i)
      for (int b = 0; b < m_; ++b) s.v[static_cast<std::size_t>(b * n + i)] = inertial(p, b, i) / mass_[i];
  }

  double time() const { return now_; }
  int components() const { return m_; }
  // Σ p_i of component b: the nodes' momenta between events (what the impulses change).
  double momentum(int b = 0) const {
    const int n = g_.points;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += p_[static_cast<std::size_t>(b * n + i)];
    return sum;
  }
  // The nodes' momenta between events, component-major.
  const std::vector<double>& momenta() const { return p_; }
  // The impulse each element has given its moving nodes since load (component b of cell
  // c at b·cells + c), and Σ|impulse| over all events (the scale of the momentum
  // balance's rounding).
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

  // The forces −∂E_c/∂u of cell c at positions u: g[e·m + b] at its node e (0: i, 1: j).
  void force(int c, const std::vector<double>& u, double* g) const {
    if (typed_) return typed_->force(c, u, g);
    const int i = c, j = (c + 1) % g_.points;
    const double strain = d_.kappaOf(c) * (u[j] - u[i]) / dx_;
    g[0] = strain - 0.5 * dx_ * d_.potentialSlope(u[i]);
    g[1] = -strain - 0.5 * dx_ * d_.potentialSlope(u[j]);
  }
  // Node a's momentum in component b times M⁻¹ (p_a itself for the built-in family): its
  // velocity times the node's mass_.
  double inertial(const std::vector<double>& p, int b, int a) const {
    if (!typed_) return p[a];
    const int n = g_.points;
    const Eigen::MatrixXd& inverse = typed_->inverseMass();
    double sum = 0;
    for (int e = 0; e < m_; ++e) sum += inverse(b, e) * p[static_cast<std::size_t>(e * n + a)];
    return sum;
  }
  // Node a's components drifted by dt from u_ with the momenta p_, into u.
  void place(int a, double dt, std::vector<double>& u) const {
    const int n = g_.points;
    for (int b = 0; b < m_; ++b) {
      const std::size_t k = static_cast<std::size_t>(b * n + a);
      u[k] = u_[k] + dt * inertial(p_, b, a) / mass_[a];
    }
  }

  void fire(int c, int id) {
    const Clock& k = clocks_[id];
    const int n = g_.points, nodes[2] = {c, (c + 1) % n};
    for (const int a : nodes) {
      if (!moves(a)) continue;
      place(a, drift(a, id, k.time), u_);
      at_[a] = k.time, atClock_[a] = id, atCount_[a] = k.count;
    }
    double g[2 * kMaxFieldComponents];
    force(c, u_, g);
    const double w = (k.count == 0 ? 0.5 : 1.0) * k.step;
    const int cells = static_cast<int>(clockOf_.size());
    for (int e = 0; e < 2; ++e) {
      if (!moves(nodes[e])) continue;
      for (int b = 0; b < m_; ++b) {
        const double j = w * g[e * m_ + b];
        p_[static_cast<std::size_t>(b * n + nodes[e])] += j;
        impulse_[static_cast<std::size_t>(b * cells + c)] += j;
        impulseSize_ += std::abs(j);
      }
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
  std::shared_ptr<const TypedCells> typed_;  // a typed density's elements; null: the built-in d_
  int m_ = 1;                                // components per node
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
