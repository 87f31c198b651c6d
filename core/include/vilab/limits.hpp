// Every limit of the library in one place. The registry publishes the public ones
// (registryJson()["limits"]), and the JS API reads them from there.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vilab::limits {

// Initial data and setState: data off the constraint manifold by more than this is an
// error; within it, data is projected onto the manifold exactly.
constexpr double kManifoldTolerance = 1e-9;

// Scenario documents.
constexpr std::size_t kMaxScenarioBytes = 4u << 20;
constexpr int kMaxScenarioDepth = 32;
constexpr std::size_t kMaxMessageField = 32;  // bytes of user text quoted in messages
// Whole messages, in bytes of UTF-8 (so also in UTF-16 units): with the "vilab: " prefix
// a message stays under 300 characters; a field name stays under 100.
constexpr std::size_t kMaxMessageBytes = 292;
constexpr std::size_t kMaxFieldBytes = 96;

// Magnitudes of initial data (SI units).
constexpr double kMaxRate = 1e4;        // rad/s, angular rates and body angular velocity
constexpr double kMaxAngle = 1e4;       // rad
constexpr double kMaxSpeed = 1e4;       // m/s
constexpr double kMaxCoordinate = 1e6;  // m (oscillator position), m/s (oscillator velocity)

// Every number the core reports (state, diagnostics, history, CSV) is within ±this: a
// step beyond it is refused as overflowing, so that sums and squares of what it reports
// (kinetic + potential, norms) stay finite for its readers.
constexpr double kMaxMagnitude = 1e300;

// Systems.
constexpr int kMaxLinks = 64;

// History of diagnostics recorded in C++.
constexpr int kMinHistoryStride = 1;
constexpr int kMaxHistoryStride = 1000000;
constexpr int kMinHistoryCapacity = 1;
constexpr int kMaxHistoryCapacity = 1 << 20;
constexpr int kDefaultHistoryCapacity = 1 << 15;

// Bounded interactive stepping (Simulation::advanceFor).
constexpr double kMinBudgetMs = 0.1;
constexpr double kMaxBudgetMs = 60000;

// Steps of one call or one CLI run: every whole number up to 2^53 − 1 is exact in JS
// and in a double clock.
constexpr std::uint64_t kMaxSteps = (std::uint64_t{1} << 53) - 1;

// A trajectory of one integrate() call: at most this many numbers (samples × columns,
// 64 MiB of doubles), so that one call cannot exhaust the WebAssembly heap.
constexpr std::uint64_t kMaxTrajectoryValues = std::uint64_t{1} << 23;

// The exact free rigid body is evaluated for |t| up to this (s).
constexpr double kMaxExactTime = 1e9;

// setState: the most numbers q or p may hold.
constexpr int kMaxStateSize = 1 << 16;

// Newton: iterations per solve, and the pivot ratio beyond which a matrix counts as singular.
constexpr int kMaxNewtonIterations = 50;
constexpr double kSingularPivotRatio = 1e13;

// Adaptive baselines (dopri5): the most substeps, accepted or rejected, one step may take.
constexpr int kMaxSubstepsPerStep = 100000;

// Mechanisms defined by data (models/mechanism.hpp): the most bodies and joints one may hold.
constexpr int kMaxMechanismBodies = 32;
constexpr int kMaxMechanismJoints = 64;

}  // namespace vilab::limits
