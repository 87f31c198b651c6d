// Run fingerprint: FNV-1a 64 over the exact little-endian bytes of the state
// (q as doubles, then p as doubles, then the step count as uint64). The native
// CLI (`vilab hash`) and the wasm module (`sim.hash()`) print the same digest.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "vilab/types.hpp"

namespace vilab {

class Fnv1a64 {
 public:
  void addBytes(const unsigned char* bytes, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      state_ ^= bytes[i];
      state_ *= 0x100000001b3ULL;
    }
  }
  // Little-endian bytes whatever the host order.
  void addU64(std::uint64_t x) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(x >> (8 * i));
    addBytes(b, 8);
  }
  void addDouble(double x) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, 8);
    addU64(bits);
  }
  std::uint64_t value() const { return state_; }
  std::string hex() const {
    static const char* digits = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 0; i < 16; ++i) s[15 - i] = digits[(state_ >> (4 * i)) & 0xf];
    return s;
  }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

inline std::string stateHash(const VecX& q, const VecX& p, std::uint64_t step) {
  Fnv1a64 h;
  for (Eigen::Index i = 0; i < q.size(); ++i) h.addDouble(q[i]);
  for (Eigen::Index i = 0; i < p.size(); ++i) h.addDouble(p[i]);
  h.addU64(step);
  return h.hex();
}

}  // namespace vilab
