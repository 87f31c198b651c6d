// Tests for vilab/detmath.hpp: accuracy against the platform libm (glibc natively)
// and a golden table of exact output bits that must be reproduced by every build
// (native and WebAssembly) -- that is the cross-platform determinism contract.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vilab/detmath.hpp>

namespace dm = vilab::dm;

namespace {

using u64 = std::uint64_t;

u64 bits(double x) {
  u64 u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
double from_bits(u64 u) {
  double x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}
std::string hex(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a (0x%016llx)", x, static_cast<unsigned long long>(bits(x)));
  return buf;
}

constexpr u64 kCanonicalNaN = 0x7ff8000000000000ULL;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kDenormMin = std::numeric_limits<double>::denorm_min();
constexpr double kMin = std::numeric_limits<double>::min();
constexpr double kMax = std::numeric_limits<double>::max();

// Deterministic PRNG (splitmix64): identical sequence on every platform.
struct Rng {
  u64 s;
  explicit Rng(u64 seed) : s(seed) {}
  u64 next() {
    u64 z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // uniform in [a, b)
  double uniform(double a, double b) { return a + (b - a) * (static_cast<double>(next() >> 11) * 0x1p-53); }
  // |x| = m * 2^e with e uniform in [emin, emax], random sign if both_signs
  double logu(int emin, int emax, bool both_signs = true) {
    const int e = emin + static_cast<int>(next() % static_cast<u64>(emax - emin + 1));
    double m = 1.0 + static_cast<double>(next() >> 12) * 0x1p-52;
    double x = std::ldexp(m, e);
    if (both_signs && (next() & 1)) x = -x;
    return x;
  }
  // any finite double with random bits (random exponent incl. subnormals)
  double anyfinite() {
    for (;;) {
      const double x = from_bits(next());
      if (std::isfinite(x)) return x;
    }
  }
};

// Order-preserving map of doubles onto integers; +0 and -0 both map to 0.
std::int64_t ordered(double x) {
  const u64 u = bits(x);
  const std::int64_t mag = static_cast<std::int64_t>(u & 0x7fffffffffffffffULL);
  return (u >> 63) ? -mag : mag;
}

// Distance in ulps (integer distance of the ordered bit patterns).  Both NaN -> 0,
// exactly one NaN -> huge; zeros/infinities of different sign -> huge.
u64 ulp_dist(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return (std::isnan(a) && std::isnan(b)) ? 0 : ~0ULL;
  if ((a == 0.0 && b == 0.0) || std::isinf(a) || std::isinf(b)) return bits(a) == bits(b) ? 0 : ~0ULL;
  const std::int64_t d = ordered(a) - ordered(b);
  return static_cast<u64>(d < 0 ? -d : d);
}

struct Stats {
  const char* name;
  u64 max_ulp = 0;
  double worst_x = 0.0, worst_y = 0.0, worst_got = 0.0, worst_ref = 0.0;
  long count = 0;
  long differing = 0;  // results whose bits differ from std at all
  long noncanonical_nans = 0;

  explicit Stats(const char* n) : name(n) {}

  void add(double x, double y, double got, double ref) {
    ++count;
    if (std::isnan(got) && bits(got) != kCanonicalNaN) ++noncanonical_nans;
    const u64 d = ulp_dist(got, ref);
    if (d != 0) ++differing;
    if (d > max_ulp || count == 1) {
      if (d > max_ulp) max_ulp = d;
      worst_x = x;
      worst_y = y;
      worst_got = got;
      worst_ref = ref;
    }
  }
  void report_and_check(u64 allowed = 1) const {
    const std::string msg = std::string(name) + ": " + std::to_string(count) + " inputs, " + std::to_string(differing) +
                            " differ from std, max ulp vs std = " + std::to_string(max_ulp) +
                            " (worst at x=" + hex(worst_x) + ", y=" + hex(worst_y) + ": dm=" + hex(worst_got) +
                            " std=" + hex(worst_ref) + ")";
    WARN(msg);
    INFO(msg);
    CHECK(noncanonical_nans == 0);
    CHECK(max_ulp <= allowed);
  }
};

template <class F, class G>
void run1(Stats& st, F f, G g, double x) {
  st.add(x, 0.0, f(x), g(x));
}
template <class F, class G>
void run2(Stats& st, F f, G g, double x, double y) {
  st.add(x, y, f(x, y), g(x, y));
}

// Values of k*pi/2 rounded to double, plus neighbours: worst cases for reduction.
template <class F, class G>
void near_pio2_multiples(Stats& st, F f, G g, Rng& rng, int n) {
  for (int i = 0; i < n; ++i) {
    const double k = static_cast<double>(rng.next() % 2000000) - 1000000.0;
    double x = k * (dm::pi / 2);
    const int step = static_cast<int>(rng.next() % 7) - 3;
    for (int s = 0; s < (step < 0 ? -step : step); ++s) x = std::nextafter(x, step < 0 ? -kInf : kInf);
    run1(st, f, g, x);
  }
  for (int k = -64; k <= 64; ++k) {  // small multiples exactly, these hit the medium path checks
    const double x = k * (dm::pi / 2);
    run1(st, f, g, x);
    run1(st, f, g, std::nextafter(x, kInf));
    run1(st, f, g, std::nextafter(x, -kInf));
  }
}

template <class F, class G>
void trig_suite(Stats& st, F f, G g, u64 seed) {
  Rng rng(seed);
  const int n = 20000;
  for (int i = 0; i < n; ++i) run1(st, f, g, rng.uniform(-dm::pi / 4, dm::pi / 4));
  for (int i = 0; i < n; ++i) run1(st, f, g, rng.uniform(-10.0, 10.0));
  for (int i = 0; i < n; ++i) run1(st, f, g, rng.uniform(-1e3, 1e3));
  for (int i = 0; i < n; ++i) run1(st, f, g, rng.uniform(-1e6, 1e6));
  for (int i = 0; i < n; ++i) run1(st, f, g, rng.logu(-1074, 1023));  // tiny .. huge (rem_pio2_large)
  for (int i = 0; i < 5000; ++i) run1(st, f, g, rng.logu(20, 1023));  // large only
  near_pio2_multiples(st, f, g, rng, n);
  for (double x : {0.0,
                   -0.0,
                   kDenormMin,
                   -kDenormMin,
                   kMin,
                   -kMin,
                   kMax,
                   -kMax,
                   kInf,
                   -kInf,
                   kNaN,
                   0x1p-27,
                   0x1p-26,
                   0x1.6a09e667f3bcdp-27,
                   1e22,
                   1e300,
                   0x1.921fb54442d18p+0,
                   0x1.921fb54442d18p+20,
                   0x1.921fb54442d18p+21,
                   3.0 * dm::pi / 4,
                   5.0 * dm::pi / 4,
                   7.0 * dm::pi / 4,
                   9.0 * dm::pi / 4})
    run1(st, f, g, x);
}

}  // namespace

TEST_CASE("detmath: sin vs std::sin", "[detmath]") {
  Stats st("sin");
  trig_suite(
      st, [](double x) { return dm::sin(x); }, [](double x) { return std::sin(x); }, 1);
  st.report_and_check();
  CHECK(bits(dm::sin(-0.0)) == bits(-0.0));
  CHECK(bits(dm::sin(0.0)) == bits(0.0));
  CHECK(bits(dm::sin(kInf)) == kCanonicalNaN);
  CHECK(bits(dm::sin(-kNaN)) == kCanonicalNaN);
}

TEST_CASE("detmath: cos vs std::cos", "[detmath]") {
  Stats st("cos");
  trig_suite(
      st, [](double x) { return dm::cos(x); }, [](double x) { return std::cos(x); }, 2);
  st.report_and_check();
  CHECK(dm::cos(-0.0) == 1.0);
  CHECK(bits(dm::cos(-kInf)) == kCanonicalNaN);
}

TEST_CASE("detmath: sincos equals sin and cos bitwise", "[detmath]") {
  Rng rng(4);
  long mism = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = (i % 2) ? rng.uniform(-1e4, 1e4) : rng.logu(-1074, 1023);
    double s, c;
    dm::sincos(x, s, c);
    if (bits(s) != bits(dm::sin(x)) || bits(c) != bits(dm::cos(x))) ++mism;
  }
  for (double x : {0.0, -0.0, kInf, -kInf, kNaN, kDenormMin, 1e300}) {
    double s, c;
    dm::sincos(x, s, c);
    if (bits(s) != bits(dm::sin(x)) || bits(c) != bits(dm::cos(x))) ++mism;
  }
  CHECK(mism == 0);
}

TEST_CASE("detmath: atan2 vs std::atan2", "[detmath]") {
  Stats st("atan2");
  Rng rng(6);
  auto f = [](double y, double x) { return dm::atan2(y, x); };
  auto g = [](double y, double x) { return std::atan2(y, x); };
  for (int i = 0; i < 40000; ++i) run2(st, f, g, rng.uniform(-10.0, 10.0), rng.uniform(-10.0, 10.0));
  for (int i = 0; i < 40000; ++i) run2(st, f, g, rng.logu(-1074, 1023), rng.logu(-1074, 1023));
  for (int i = 0; i < 20000; ++i) {  // similar magnitudes, all quadrants
    const double y = rng.logu(-20, 20);
    run2(st, f, g, y, std::ldexp(rng.uniform(-2.0, 2.0), std::ilogb(y)));
  }
  for (int i = 0; i < 1000; ++i) run2(st, f, g, rng.logu(-10, 10), 1.0);  // x == 1 shortcut
  // special values: every pair from a list (signed zeros, infinities, NaN, quadrants)
  const double sp[] = {0.0, -0.0, 1.0, -1.0, 2.5, -2.5, kDenormMin, -kDenormMin, kMax, -kMax, kInf, -kInf, kNaN};
  long sign_mism = 0;
  for (double y : sp)
    for (double x : sp) {
      run2(st, f, g, y, x);
      const double a = dm::atan2(y, x), b = std::atan2(y, x);
      if (!std::isnan(b) && std::signbit(a) != std::signbit(b)) ++sign_mism;
    }
  st.report_and_check();
  CHECK(sign_mism == 0);
  CHECK(bits(dm::atan2(-0.0, 0.0)) == bits(-0.0));
  CHECK(bits(dm::atan2(0.0, -0.0)) == bits(dm::pi));
  CHECK(bits(dm::atan2(-0.0, -0.0)) == bits(-dm::pi));
  CHECK(bits(dm::atan2(-0.0, -1.0)) == bits(-dm::pi));
  CHECK(bits(dm::atan2(kInf, -kInf)) == bits(3 * dm::pi / 4));
}

TEST_CASE("detmath: exp vs std::exp", "[detmath]") {
  Stats st("exp");
  Rng rng(8);
  auto f = [](double x) { return dm::exp(x); };
  auto g = [](double x) { return std::exp(x); };
  for (int i = 0; i < 40000; ++i) run1(st, f, g, rng.uniform(-745.2, 709.8));
  for (int i = 0; i < 20000; ++i) run1(st, f, g, rng.uniform(-1.0, 1.0));
  for (int i = 0; i < 20000; ++i) run1(st, f, g, rng.logu(-1074, 10));
  for (int i = 0; i < 10000; ++i) run1(st, f, g, rng.uniform(-745.2, -708.0));  // subnormal results
  for (int i = 0; i < 10000; ++i) run1(st, f, g, rng.uniform(705.0, 709.79));   // near overflow
  for (double x : {0.0,
                   -0.0,
                   1.0,
                   -1.0,
                   709.782712893384,
                   709.7827128933841,
                   710.0,
                   -745.1332191019411,
                   -745.1332191019412,
                   -746.0,
                   -708.3964185322641,
                   512.0,
                   -512.0,
                   1024.0,
                   -1024.0,
                   0x1p-54,
                   -0x1p-54,
                   kMax,
                   -kMax,
                   kInf,
                   -kInf,
                   kNaN,
                   kDenormMin})
    run1(st, f, g, x);
  st.report_and_check();
  CHECK(dm::exp(kInf) == kInf);
  CHECK(bits(dm::exp(-kInf)) == bits(0.0));
  CHECK(dm::exp(710.0) == kInf);
  CHECK(bits(dm::exp(-746.0)) == bits(0.0));
}

TEST_CASE("detmath: hypot vs std::hypot", "[detmath]") {
  Stats st("hypot");
  Rng rng(13);
  auto f = [](double x, double y) { return dm::hypot(x, y); };
  auto g = [](double x, double y) { return std::hypot(x, y); };
  for (int i = 0; i < 40000; ++i) run2(st, f, g, rng.uniform(-10.0, 10.0), rng.uniform(-10.0, 10.0));
  for (int i = 0; i < 40000; ++i) run2(st, f, g, rng.logu(-1074, 1023), rng.logu(-1074, 1023));
  for (int i = 0; i < 20000; ++i) {  // similar magnitudes incl. near overflow/underflow
    const double x = rng.logu(-1074, 1023);
    run2(st, f, g, x, x * rng.uniform(-1.0, 1.0));
  }
  const double sp[] = {0.0, -0.0, 1.0, -3.0, kDenormMin, kMin, kMax, -kMax, kInf, -kInf, kNaN};
  for (double x : sp)
    for (double y : sp) run2(st, f, g, x, y);
  st.report_and_check();
  CHECK(dm::hypot(kMax, kMax) == kInf);
  CHECK(dm::hypot(kNaN, -kInf) == kInf);
  CHECK(dm::hypot(3.0, 4.0) == 5.0);
  CHECK(dm::hypot(0x1.8p+1001, 0x1p+1002) == 0x1.4p+1002);             // 3:4:5 near overflow
  CHECK(dm::hypot(3 * kDenormMin, 4 * kDenormMin) == 5 * kDenormMin);  // 3:4:5 subnormal
}

TEST_CASE("detmath: sqrt fabs floor are exact", "[detmath]") {
  Rng rng(14);
  long mism = 0;
  for (int i = 0; i < 100000; ++i) {
    const double x = rng.anyfinite();
    const double ax = std::fabs(x);
    if (bits(dm::sqrt(ax)) != bits(std::sqrt(ax))) ++mism;
    if (bits(dm::fabs(x)) != bits(std::fabs(x))) ++mism;
    if (bits(dm::floor(x)) != bits(std::floor(x))) ++mism;
    const double y = rng.uniform(-1e6, 1e6);
    if (bits(dm::floor(y)) != bits(std::floor(y))) ++mism;
  }
  CHECK(mism == 0);
  CHECK(bits(dm::sqrt(-1.0)) == kCanonicalNaN);
  CHECK(bits(dm::sqrt(-0.0)) == bits(-0.0));
  CHECK(bits(dm::floor(-0.5)) == bits(-1.0));
  CHECK(bits(dm::pi) == 0x400921fb54442d18ULL);
}

// Golden output bits of musl's algorithms, generated natively (x86-64, g++ 12).
// The wasm build must reproduce every entry exactly; any difference means the
// build is not deterministic (e.g. FMA contraction, excess precision, fast-math).
TEST_CASE("detmath: golden bits", "[detmath][golden]") {
  enum Fn { Sin, Cos, Atan2, Exp, Hypot, SinCosS, SinCosC };
  struct Golden {
    Fn fn;
    double x, y;
    u64 expected;
  };
  // clang-format off
    static const Golden table[] = {
        {Sin, 0x1p-1, 0x0p+0, 0x3fdeaee8744b05f0ULL},
        {Sin, 0x1.921fb54442d18p+0, 0x0p+0, 0x3ff0000000000000ULL},
        {Sin, 0x1.e240c9fbe76c9p+16, 0x0p+0, 0xbfeff50e60ab53f9ULL},
        {Sin, 0x1.0f0cf064dd592p+73, 0x0p+0, 0xbfeb453ab76bf397ULL},
        {Sin, -0x1.7e43c8800759cp+996, 0x0p+0, 0x3fea2c16b010e385ULL},
        {Cos, 0x1p+0, 0x0p+0, 0x3fe14a280fb5068cULL},
        {Cos, 0x1.2d97c7f3321d2p+2, 0x0p+0, 0xbcaa79394c9e8a0aULL},
        {Cos, 0x1.e84808p+19, 0x0p+0, 0x3fefd0a79db83ee8ULL},
        {Cos, 0x1p+1000, 0x0p+0, 0x3fef9785160c8815ULL},
        {Atan2, 0x1p+0, -0x1p+0, 0x4002d97c7f3321d2ULL},
        {Atan2, -0x1.8p+1, -0x1p-1, 0xbffbc66e44cbc074ULL},
        {Atan2, 0x1.56e1fc2f8f359p-997, 0x1.7e43c8800759cp+996, 0x0000000000000000ULL},
        {Exp, 0x1p+0, 0x0p+0, 0x4005bf0a8b145769ULL},
        {Exp, -0x1.72p+9, 0x0p+0, 0x0000000000000055ULL},
        {Exp, 0x1.5ep+9, 0x0p+0, 0x7f0d945df4f8ec8eULL},
        {Hypot, 0x1.25eed8ffb39c1p-663, 0x1.b8e6457f8d6a2p-663, 0x16908f29785887feULL},
        {Hypot, 0x1.1ccf385ebc8ap+1023, 0x1.1ccf385ebc8ap+1023, 0x7fe92c80954c51f5ULL},
        {Hypot, 0x1p+0, 0x1.b7cdfd9d7bdbbp-34, 0x3ff0000000000000ULL},
        {SinCosS, 0x1.9p+6, 0x0p+0, 0xbfe03425b78c4db8ULL},
        {SinCosC, 0x1.9p+6, 0x0p+0, 0x3feb981dbf665fdfULL},
    };
  // clang-format on
  for (const Golden& g : table) {
    double r = 0.0, s = 0.0, c = 0.0;
    switch (g.fn) {
      case Sin: r = dm::sin(g.x); break;
      case Cos: r = dm::cos(g.x); break;
      case Atan2: r = dm::atan2(g.x, g.y); break;
      case Exp: r = dm::exp(g.x); break;
      case Hypot: r = dm::hypot(g.x, g.y); break;
      case SinCosS:
        dm::sincos(g.x, s, c);
        r = s;
        break;
      case SinCosC:
        dm::sincos(g.x, s, c);
        r = c;
        break;
    }
    INFO("fn #" << static_cast<int>(g.fn) << " x=" << hex(g.x) << " y=" << hex(g.y) << " got " << hex(r));
    CHECK(bits(r) == g.expected);
  }
}
