#pragma once
// Prior draws of a mixing measure G ~ DP(α, N(0, 1)) in standardised units (structures.h) by
// truncated stick-breaking (Sethuraman 1994; BQ paper Sec. 1.7, METHODS.md §2b):
//   v_j ~ Beta(1, α), π_j = v_j Π_{l<j} (1 − v_l), u_j ~ N(0, 1),
// stopped once the mass left, Π (1 − v_l), is below kDpStickTolerance or after kDpMaxSticks
// sticks; the mass left goes to one last atom drawn from the base, so the weights sum to 1.
// The measure's mass left out by the truncation is therefore 0 by construction; the error is
// that of replacing the tail by a single atom, of weight < 1e-8 away from the cap.

#include "bq/structured/structures.h"

#include <cstdint>
#include <random>
#include <vector>

namespace evx::bq::structured {

inline constexpr double kDpStickTolerance = 1e-8;
inline constexpr int kDpMaxSticks = 4000;

MixingMeasure drawDpPriorMeasure(double alpha, std::mt19937_64& rng);

// `count` draws from a generator seeded with `seed`: the same seed gives the same draws.
std::vector<MixingMeasure> drawDpPriorMeasures(double alpha, int count, std::uint64_t seed);

} // namespace evx::bq::structured
