// The history ring: what it holds is exactly the diagnostics row of each recorded step
// (the same bits as diagnosticsRow() after that step), for every pair, through wrap-round,
// strides, setState and refused steps; and its arrays are pinned by a fingerprint over
// every pair, so that a faster recording path cannot change one bit of what is read.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>

#include "support.hpp"

using namespace vilab;
using namespace vilab::test;

namespace {

// FNV-1a over bytes, folded into a running fingerprint.
struct Fingerprint {
  std::uint64_t h = 1469598103934665603ull;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  void number(double x) { bytes(&x, sizeof x); }
  void text(const std::string& s) { bytes(s.data(), s.size()); }
};

// Everything a reader of the history sees: columns, counters and every sample.
void fold(Fingerprint& f, const Simulation& sim) {
  for (const auto& c : sim.history().columns()) f.text(c + ",");
  f.number(static_cast<double>(sim.history().total()));
  f.number(static_cast<double>(sim.history().oldest()));
  std::vector<double> data;
  std::uint64_t count = 0;
  f.number(static_cast<double>(sim.history().read(0, data, count)));
  for (double x : data) f.number(x);
}

// Steps one at a time up to n (or the first refusal), checking after each recorded
// step that the newest sample is diagnosticsRow(); returns the number of mismatches.
int stepAndCompare(Simulation& sim, int n) {
  int mismatches = 0;
  std::vector<double> row, data;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t before = sim.history().total();
    try {
      sim.advance(1);
    } catch (const StepFailure&) {
      // A refused step records nothing.
      mismatches += sim.history().total() != before;
      break;
    }
    if (sim.history().total() == before) continue;
    sim.diagnosticsRow(row);
    std::uint64_t count = 0;
    sim.history().read(sim.history().total() - 1, data, count);
    if (count != 1) return mismatches + 1;
    mismatches += std::memcmp(row.data(), data.data(), row.size() * sizeof(double)) != 0;
  }
  return mismatches;
}

// Every pair on its system's default scenario (henon-heiles for the integrators that
// refuse the default definition), in table order.
std::vector<Json> everyPair() {
  std::vector<Json> out;
  for (const auto& pairing : applicabilityTable()) {
    const IntegratorEntry& integrator = pairing.integrator();
    for (const auto& system : systemRegistry()) {
      if (system.model != pairing.model) continue;
      if (acceptsDefault(system.id, integrator.id))
        out.push_back(Json{{"system", system.id}, {"integrator", integrator.id}});
      else if (system.id == "lagrangian") {
        Json j = lagrangianScene("henon-heiles");
        j["integrator"] = integrator.id;
        out.push_back(j);
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every recorded sample is its step's diagnostics row, bit for bit, on every pair", "[history]") {
  int pairs = 0;
  for (const Json& j : everyPair()) {
    INFO(j.dump());
    Simulation sim(parseScenario(j));
    CHECK(stepAndCompare(sim, 60) == 0);
    ++pairs;
  }
  CHECK(pairs >= 40);
}

TEST_CASE("a refused step leaves the history as it was — samples before it are their rows", "[history][failure]") {
  // Refused at step 24 (no root of the discrete equations near the motion), at step 13
  // (Newton diverges on the links) and at step 74 (an implausible energy jump).
  for (const char* text : {R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})",
                           R"({"system":"chain","integrator":"midpoint","h":0.05})",
                           R"({"system":"lagrangian","integrator":"midpoint","h":0.5})"}) {
    INFO(text);
    Simulation sim = simulate(text);
    CHECK(stepAndCompare(sim, 3000) == 0);
    std::vector<double> before, after;
    std::uint64_t n0 = 0, n1 = 0;
    sim.history().read(0, before, n0);
    CHECK_THROWS_AS(sim.advance(5), StepFailure);
    sim.history().read(0, after, n1);
    CHECK(n0 == n1);
    CHECK(before == after);
  }
}

TEST_CASE("the ring keeps the newest samples: a small capacity holds the tail of a large one", "[history]") {
  for (const char* text : {R"({"system":"double-spherical-pendulum"})", R"({"system":"chain"})",
                           R"({"system":"rigid-body"})", R"({"system":"pendulum","integrator":"dopri5"})"}) {
    INFO(text);
    for (int stride : {1, 3}) {
      // Capacities across the ring's blocks: 4096 (four whole blocks, of which 2501 or
      // 834 samples fill three or one), 1100 (a whole block and part of one: wrapped
      // twice at stride 1) and 1.
      Simulation big = simulate(text, stride, 4096), small = simulate(text, stride, 1100),
                 tiny = simulate(text, stride, 1);
      run(big, 2500);
      run(small, 2500);
      run(tiny, 2500);
      std::vector<double> a, b, c;
      std::uint64_t na = 0, nb = 0, nc = 0;
      const std::uint64_t startA = big.history().read(0, a, na);
      const std::uint64_t startB = small.history().read(0, b, nb);
      const std::uint64_t startC = tiny.history().read(5, c, nc);
      CHECK(startA == 0);
      CHECK(na == static_cast<std::uint64_t>(1 + 2500 / stride));
      CHECK(nb == std::min<std::uint64_t>(na, 1100));
      CHECK(startB == na - nb);
      CHECK(small.history().oldest() == startB);
      CHECK(nc == 1);
      CHECK(startC == na - 1);
      const int columns = big.history().columnCount();
      int same = 0;
      for (int col = 0; col < columns; ++col)
        for (std::uint64_t k = 0; k < nb; ++k) same += a[col * na + startB + k] == b[col * nb + k];
      CHECK(same == columns * static_cast<int>(nb));
      for (int col = 0; col < columns; ++col) CHECK(a[col * na + na - 1] == c[col]);
      // Reading from the middle copies [from, total).
      std::vector<double> mid;
      std::uint64_t nm = 0;
      CHECK(big.history().read(na - 10, mid, nm) == na - 10);
      CHECK(nm == 10);
      CHECK(mid[nm + 9] == a[na + na - 1]);
      // Past the end: nothing.
      CHECK(big.history().read(na + 5, mid, nm) == na + 5);
      CHECK(nm == 0);
    }
  }
}

TEST_CASE("the ring's blocks: every read is the rows recorded, across new blocks, wrap-round and clear()",
          "[history]") {
  // History alone, with rows whose every number names its sample and column: capacities
  // below one block, of exactly one, of a block and one row, and of two blocks and part
  // of one (wrapped twice), written through record() and in place (cell(), commit()) in
  // turn, with a deferred column finished on read; clear() midway, inside a block of a
  // wrapped ring. After every sample, reads from the start and from the middle must
  // return exactly the samples held, in order.
  constexpr std::size_t B = History::kBlockRows;
  const std::vector<double> lengths = {0.5, 0.25};
  for (const std::size_t capacity : {std::size_t{1}, std::size_t{5}, B, B + 1, 2 * B + 300}) {
    INFO("capacity " << capacity);
    History h;
    h.configure({"t", "energy", "constraint", "iterations", "momentum"}, 3, static_cast<int>(capacity));
    h.deferLinkLengthError(2, lengths);
    CHECK(h.stride() == 3);
    const std::size_t samples = 3 * capacity + 2 * B + 7, clearAt = 2 * capacity + B / 2 + 3;
    std::vector<std::vector<double>> recorded;  // since the last clear(): named columns, then raw
    int wrong = 0;
    for (std::size_t n = 0; n < samples; ++n) {
      if (n == clearAt) {
        h.clear();
        recorded.clear();
        wrong += h.total() != 0;
      }
      const double id = static_cast<double>(n);
      // |d_1|², |d_2|² with square roots near the lengths (finished: max_i |√r_i − l_i|).
      std::vector<double> row = {id,
                                 id + 0.25,
                                 0,
                                 id + 0.5,
                                 -id,
                                 (0.5 + id * 1e-6) * (0.5 + id * 1e-6),
                                 (0.25 - id * 2e-6) * (0.25 - id * 2e-6)};
      row[2] =
          std::max(std::max(0.0, std::abs(std::sqrt(row[5]) - lengths[0])), std::abs(std::sqrt(row[6]) - lengths[1]));
      if (n % 2 == 0) {
        h.record(row.data(), row.data() + 5);
      } else {
        double* cell = h.cell();
        for (std::size_t c = 0; c < row.size(); ++c)
          if (c != 2) cell[c * h.columnStride()] = row[c];  // the deferred column's cell is not written
        h.commit();
      }
      recorded.push_back(row);
      const std::uint64_t total = recorded.size(), held = std::min<std::uint64_t>(total, capacity);
      wrong += h.total() != total || h.oldest() != total - held;
      for (const std::uint64_t from : {std::uint64_t{0}, total - (held + 1) / 2}) {
        std::vector<double> out;
        std::uint64_t count = 0;
        const std::uint64_t start = h.read(from, out, count);
        const std::uint64_t first = std::max(from, total - held);
        wrong += start != first || count != total - first || out.size() != 5 * count;
        if (start != first || count != total - first || out.size() != 5 * count) continue;
        for (std::size_t c = 0; c < 5; ++c)
          for (std::uint64_t k = 0; k < count; ++k)
            wrong += std::memcmp(&out[c * count + k], &recorded[first + k][c], sizeof(double)) != 0;
      }
    }
    CHECK(wrong == 0);
    CHECK(h.total() == samples - clearAt);
  }
}

TEST_CASE("a short chain's constraint column, finished on read, is each state's link length error", "[history]") {
  // Chains of 1-3 bobs store |d_i|² and take the square roots on read: the column must be
  // ChainModel::linkLengthError of the recorded state, bit for bit, across the ring's wrap,
  // on the fast path (midpoint) and the general one (penalty: positions off the manifold).
  for (const char* text : {R"({"system":"double-spherical-pendulum","integrator":"midpoint"})",
                           R"({"system":"double-spherical-pendulum","integrator":"penalty"})",
                           R"({"system":"pendulum"})", R"({"system":"spherical-pendulum"})",
                           R"({"system":"chain","params":{"masses":[0.1,0.1,0.1],"lengths":[0.25,0.25,0.25]},)"
                           R"("initial":{"angles":[[0.6,0],[0.6,0],[0.6,0]],"rates":[[0,1],[0,1],[0,1]]}})"}) {
    INFO(text);
    Simulation sim = simulate(text, 1, 7);
    const ChainModel& m = std::get<ChainModel>(sim.scenario().model);
    std::vector<double> expected = {m.linkLengthError(sim.q().data())};
    for (int k = 0; k < 25; ++k) {
      run(sim, 1);
      expected.push_back(m.linkLengthError(sim.q().data()));
    }
    std::vector<double> data;
    std::uint64_t count = 0;
    CHECK(sim.history().read(0, data, count) == 19);
    REQUIRE(count == 7);
    CHECK(data.size() == count * sim.history().columns().size());  // the raw columns are not read
    int same = 0;
    for (std::uint64_t k = 0; k < count; ++k) {
      const double a = data[2 * count + k], b = expected[19 + k];
      same += std::memcmp(&a, &b, sizeof a) == 0;
    }
    CHECK(same == 7);
  }
}

TEST_CASE("setState restarts the history with the new state's row, then records as before", "[history]") {
  Simulation sim = simulate(R"({"system":"double-spherical-pendulum"})", 1, 300);
  run(sim, 500);
  State s = sim.state();
  sim.setState(s);
  CHECK(sim.history().total() == 1);
  CHECK(sim.history().oldest() == 0);
  std::vector<double> row;
  sim.diagnosticsRow(row);
  CHECK(column(sim, "energy") == std::vector<double>{row[1]});
  CHECK(stepAndCompare(sim, 400) == 0);
  CHECK(sim.history().total() == 401);
}

TEST_CASE("the history arrays of every pair are pinned (fingerprint over all samples read)", "[history][determinism]") {
  // 200 steps of every pair's default run at stride 1, then runs that wrap the ring,
  // use a stride, and are refused. The fingerprint folds the columns, the counters and
  // every number read; it changes only when a recorded number changes.
  // The mechanism and field systems' pairs are pinned apart (below), so that this
  // fingerprint still vouches for every older pair's bits.
  Fingerprint f, mechanisms, fields;
  for (const Json& j : everyPair()) {
    if (j["system"] == "mechanism" || j["system"] == "field") {
      Simulation sim(parseScenario(j));
      try {
        sim.advance(200);
      } catch (const StepFailure&) {
      }
      fold(j["system"] == "field" ? fields : mechanisms, sim);
      continue;
    }
    Simulation sim(parseScenario(j));
    try {
      sim.advance(200);
    } catch (const StepFailure&) {
    }
    fold(f, sim);
  }
  for (const auto& [text, stride, capacity, steps] : std::vector<std::tuple<std::string, int, int, int>>{
           {R"({"system":"double-spherical-pendulum","integrator":"midpoint","h":0.1})", 1, 1 << 15, 100},
           {R"({"system":"lagrangian","integrator":"midpoint","h":0.5})", 1, 1 << 15, 100},
           {R"({"system":"double-spherical-pendulum"})", 1, 300, 1000},
           {R"({"system":"chain","integrator":"energy-momentum"})", 7, 50, 1000},
           {R"({"system":"rigid-body","integrator":"lie-group"})", 2, 100, 1000},
       }) {
    Simulation sim = simulate(text, stride, capacity);
    try {
      sim.advance(static_cast<std::uint64_t>(steps));
    } catch (const StepFailure&) {
    }
    fold(f, sim);
  }
  // Pinned before the in-place ring (the same bits); re-pinned once when chain
  // energy–momentum's Newton blocks became exact (its last bits moved, not the ring's).
  const std::string expected = "06d47562ca0c041e";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(f.h));
  CHECK(std::string(hex) == expected);
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(mechanisms.h));
  // Re-pinned when the quaternion midpoint joined the mechanism pairs (before it:
  // 90875d33ae198b04), when energy-momentum did (before it: f0e13c849931b1b1), and when
  // point masses came (3e8e15cd1118687d): the energy's ½ΠᵀJ⁻¹Π takes J⁻¹ formed once, not
  // a Cholesky solve, which moves the last bit of the energy column in 1 or 2 rows of 200
  // on four pairs; every state's bits are unchanged (CLI hashes of every scene and pair).
  CHECK(std::string(hex) == "9f887f600e749bc8");
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fields.h));
  CHECK(std::string(hex) == "ca6e6fd88e74f711");
}
