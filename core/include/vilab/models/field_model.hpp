// A one-dimensional field u(x, t) on a grid as a model: a built-in density (the
// semilinear family of field.hpp: the string, Klein–Gordon, sine-Gordon, φ⁴) or one typed
// as text (field_data.hpp). The canonical state is q = u at the nodes and p the nodes'
// momenta p_i = w_i Δx ∂ℒ/∂u_t (ρ w_i Δx u̇_i for the built-in family), the lumped
// Legendre transform every field integrator loads from and stores to; a fixed end has
// p = 0 and keeps its u.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vilab/limits.hpp"
#include "vilab/models/field.hpp"
#include "vilab/models/field_box.hpp"
#include "vilab/models/field_data.hpp"
#include "vilab/models/field_multi.hpp"
#include "vilab/state.hpp"
#include "vilab/types.hpp"

namespace vilab {

struct FieldModel {
  std::string family = "wave";  // wave, klein-gordon, sine-gordon, phi4, or lagrangian (typed)
  field::Density density;
  std::shared_ptr<const field::DataDensity> typed;  // set for a typed ℒ of one component only
  // A typed ℒ of several components (field_multi.hpp): q and p hold them component-major,
  // component a's nodes at a·N.
  std::shared_ptr<const field::MultiDensity> multi;
  field::Grid grid;
  std::vector<std::pair<std::string, double>> constants;  // named numbers of the texts (ℒ, initial u and u_t)
  mutable field::State scratch_;                          // energy()'s (u, u̇): no state, only storage

  bool isTyped() const { return typed != nullptr || multi != nullptr; }
  int points() const { return grid.points; }
  int components() const { return multi ? multi->components() : 1; }
  // The numbers q (and p) hold: one per node and component.
  int size() const { return components() * grid.points; }
  // The node's share of the length, w_i Δx.
  double length(int i) const { return field::weight(grid, i) * grid.spacing(); }
  bool moves(int i) const { return field::nodeMoves(grid, i); }

  // u_x at a node: centred, one-sided at an end (as the box scheme's Legendre transform).
  template <class Values>
  double slope(const Values& u, int i) const {
    const int n = grid.points;
    const double h = grid.spacing();
    if (grid.ends == field::Ends::Periodic) return (u[(i + 1) % n] - u[(i + n - 1) % n]) / (2 * h);
    if (i == 0) return (u[1] - u[0]) / h;
    if (i == n - 1) return (u[n - 1] - u[n - 2]) / h;
    return (u[i + 1] - u[i - 1]) / (2 * h);
  }

  // The velocity of node i from its momentum; false where ∂ℒ/∂u_t cannot be inverted.
  bool velocity(const VecX& u, double p, int i, double& v) const {
    if (!moves(i)) {
      v = 0;
      return true;
    }
    if (!typed) {
      v = p / (density.rho * length(i));
      return true;
    }
    return field::nodeVelocity(*typed, length(i), u[i], p, slope(u, i), grid.x(i), 0.0, v);
  }
  double momentum(const VecX& u, double v, int i) const {
    if (!moves(i)) return 0;
    if (!typed) return density.rho * length(i) * v;
    return field::nodeMomentum(*typed, length(i), u[i], v, slope(u, i), grid.x(i), 0.0);
  }

  // The canonical state as the integrators' (u, u̇); false where a velocity is undefined.
  bool toField(const State& s, field::State& f) const {
    if (multi) return toFieldMulti(s, f);
    const int n = grid.points;
    f.u.assign(s.q.data(), s.q.data() + n);
    f.v.assign(n, 0.0);
    bool ok = true;
    for (int i = 0; i < n; ++i) ok = velocity(s.q, s.p[i], i, f.v[i]) && ok;
    return ok;
  }
  void toCanonical(const field::State& f, State& s) const {
    if (multi) return toCanonicalMulti(f, s);
    const int n = grid.points;
    s.q.resize(n);
    s.p.resize(n);
    for (int i = 0; i < n; ++i) s.q[i] = f.u[i];
    if (isTyped()) {
      for (int i = 0; i < n; ++i) s.p[i] = momentum(s.q, f.v[i], i);
      return;
    }
    // momentum()'s ρ (w_i Δx) u̇_i with Δx formed once (every step stores); inside, w_i = 1
    // and every node moves, so the product is ρ (1 · Δx) u̇_i = (ρ Δx) u̇_i without branches.
    const double dx = grid.spacing(), rho = density.rho, interior = rho * dx;
    for (int i : {0, n - 1}) s.p[i] = moves(i) ? rho * (field::weight(grid, i) * dx) * f.v[i] : 0.0;
    const double* v = f.v.data();
    double* p = s.p.data();
    for (int i = 1; i + 1 < n; ++i) p[i] = interior * v[i];
  }

  bool forced() const { return false; }

  // The built-in family: field.hpp's discrete energy (kinetic and potential at the nodes,
  // the strain of the cells). A typed ℒ: over each cell, Δx times the mean of the energy
  // density u_t ∂ℒ/∂u_t − ℒ at its two nodes with the cell's own slope — for
  // ℒ = ½ρu_t² − W(u_x) − V(u) the built-in sum (with periodic ends exactly), and a
  // sawtooth's strain is seen (a node's centred slope is blind to it). Not finite where
  // a velocity cannot be recovered.
  double energy(const State& s) const {
    if (!isTyped()) return builtInSums(s).energy;
    field::State& f = scratch_;  // kept: a step computes the energy once, without allocating
    if (!toField(s, f)) return std::numeric_limits<double>::quiet_NaN();
    if (multi) return energyMulti(f);
    const int n = grid.points;
    const double dx = grid.spacing();
    double e = 0, out[10];
    for (int c = 0; c < field::cellCount(grid); ++c) {
      const int ends[2] = {c, (c + 1) % n};
      const double cellSlope = (f.u[ends[1]] - f.u[ends[0]]) / dx;
      for (int i : ends) {
        typed->evaluate(f.u[i], f.v[i], cellSlope, grid.x(i), 0.0, out);
        e += 0.5 * dx * (f.v[i] * out[2] - out[0]);
      }
    }
    return e;
  }

  // One pass over the nodes of the built-in family: the energy, Σ p_i and whether every
  // u_i and p_i is finite and within ±kMaxMagnitude (NaN fails the comparison). A step's
  // checks need all three, and the sum's serial additions leave room for the rest.
  struct NodeSums {
    double energy = 0, momentum = 0;
    bool within = true;
  };
  // The energy is field::energy of toField's (u, u̇) from the canonical (u, p) directly,
  // with the same arithmetic in the same order (the same bits): u̇_i = p_i/(ρ w_i Δx) as
  // velocity() forms it, Δx once, no modulo on the cells, no branches inside (w_i = 1,
  // every node moves), and no call of V when the density has none. Σ p_i adds in node
  // order from 0, as diagnostics() always has.
  NodeSums builtInSums(const State& s) const {
    if (!density.hasPotential()) return builtInSums(s, [](double) { return 0.0; });
    return builtInSums(s, [this](double u) { return density.potential(u); });
  }
  template <class Potential>
  NodeSums builtInSums(const State& s, const Potential& V) const {
    const int n = grid.points;
    const double dx = grid.spacing(), rho = density.rho;
    const double* u = s.q.data();
    const double* p = s.p.data();
    double e = 0, total = 0;
    bool within = true;
    const auto inRange = [](double x) { return std::abs(x) <= limits::kMaxMagnitude; };
    const auto node = [&](int i) {
      const double share = field::weight(grid, i) * dx;
      const double v = moves(i) ? p[i] / (rho * share) : 0.0;
      e += share * (0.5 * rho * v * v + V(u[i]));
      total += p[i];
      within &= inRange(u[i]);
      within &= inRange(p[i]);
    };
    node(0);
    const double interior = rho * dx;  // ρ w_i Δx with w_i = 1: the same product
    for (int i = 1; i + 1 < n; ++i) {
      const double v = p[i] / interior;
      e += dx * (0.5 * rho * v * v + V(u[i]));
      total += p[i];
      within &= inRange(u[i]);
      within &= inRange(p[i]);
    }
    node(n - 1);
    const auto strain = [&](int c, int next) {
      const double ux = (u[next] - u[c]) / dx;
      e += dx * 0.5 * density.kappaOf(c) * ux * ux;
    };
    for (int c = 0; c + 1 < n; ++c) strain(c, c + 1);
    if (grid.ends == field::Ends::Periodic) strain(n - 1, 0);
    NodeSums out;
    out.energy = e;
    out.momentum = total;
    out.within = within;
    return out;
  }

  // Energy and, with periodic ends, the momentum of the translation u ↦ u + c, Σ p_i
  // (field.hpp's momentum): the variational methods keep it to rounding when V = 0.
  Diagnostics diagnostics(const State& s) const {
    bool within;
    return diagnostics(s, within);
  }
  // The same diagnostics, and whether every number of s is finite and within
  // ±kMaxMagnitude: for the built-in family from the same pass over the nodes.
  Diagnostics diagnostics(const State& s, bool& within) const {
    Diagnostics d;
    if (multi) {
      d.energy = energy(s);
      chargesInto(s, d);
      within = withinMagnitude(s);
      return d;
    }
    double p = 0;
    if (isTyped()) {
      d.energy = energy(s);
      if (grid.ends == field::Ends::Periodic)
        for (int i = 0; i < grid.points; ++i) p += s.p[i];
      within = withinMagnitude(s);
    } else {
      const NodeSums sums = builtInSums(s);
      d.energy = sums.energy;
      p = sums.momentum;
      within = sums.within;
    }
    if (grid.ends == field::Ends::Periodic) {
      d.momentumSize = 1;
      d.momentum[0] = p;
    }
    return d;
  }

  // What the renderer draws: u at the nodes (x from the grid), each component's in turn.
  void visual(const State& s, std::vector<double>& out) const { out.assign(s.q.data(), s.q.data() + s.q.size()); }

  // The explicit methods blow up (caught as not finite) rather than converge to a
  // spurious root; the box scheme's Newton starts from the drifted row.
  std::string implausibleStep(const State&, const State&, double, double, double) const { return ""; }

  // A state has one u and one p per node; a fixed end does not move (p = 0).
  void project(State& s, const StateRules&, const std::string& qField, const std::string& pField) const {
    const int n = grid.points;
    if (s.q.size() != size())
      throw InputError(InputErrorCode::Length, qField,
                       multi ? "must hold one u per node and component" : "must hold one u per node");
    if (s.p.size() != size())
      throw InputError(InputErrorCode::Length, pField,
                       multi ? "must hold one momentum per node and component" : "must hold one momentum per node");
    for (int k = 0; k < size(); ++k)
      if (!moves(k % n) && s.p[k] != 0)
        throw InputError(InputErrorCode::OffManifold, pField + "[" + std::to_string(k) + "]",
                         "is a fixed end's momentum: it must be 0");
  }

  // Several components (core/src/models/field_model_multi.cpp): the nodes' momenta from their
  // velocities w (component-major, as q); the first node whose velocities cannot be
  // recovered, or −1; as toCanonical, energy() and the declared symmetries' charges.
  bool momentaMulti(const VecX& q, const std::vector<double>& w, VecX& p) const;
  int toFieldMultiAt(const State& s, field::State& f) const;
  bool toFieldMulti(const State& s, field::State& f) const { return toFieldMultiAt(s, f) < 0; }
  void toCanonicalMulti(const field::State& f, State& s) const;
  double energyMulti(const field::State& f) const;
  void chargesInto(const State& s, Diagnostics& d) const;
  // Node i's values u^a and slopes u_x^a (as slope()) from a component-major vector.
  void nodeValues(const VecX& u, int i, double* values, double* slopes) const;
};

}  // namespace vilab
