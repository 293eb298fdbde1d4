#pragma once
// A Keplerian single-planet orbit and its mid-transit times (uncertain-evidence paper,
// Sec. 4.3, Fig. 5).
//
// Elements: period P (days), eccentricity e, argument of periapsis ω and the angle
// λ = ω + M0 (M0 the mean anomaly at the epoch t = 0); angles in degrees.
// The planet's angle in the orbital plane, measured from the reference direction, is
// θ = ω + f (f the true anomaly); the observer looks along θ = 90°, so a transit happens when
//   f = 90° − ω.
// Its mean anomaly follows from E = 2 atan(√((1 − e)/(1 + e)) tan(f/2)) and Kepler's equation
// M = E − e sin E; the n-th transit after the epoch (n = 0, 1, …) is
//   t_n = P/(2π) · ((M_transit − M0) mod 2π) + n P.
// positionAt() goes the other way (time → position, solving Kepler's equation by Newton's
// method), which is what an independent check of the transit times needs.

#include <array>
#include <vector>

namespace evx::models {

struct OrbitElements {
    double period = 210; // days
    double eccentricity = 0.05;
    double omegaDeg = 100;  // argument of periapsis
    double lambdaDeg = 198; // ω + M0
};

// The first n mid-transit times after t = 0, in days. Throws InvalidParameter unless
// P > 0 and 0 ≤ e < 1.
std::vector<double> transitTimes(const OrbitElements& orbit, int n);
// The same into a caller's buffer without allocating (the sampler's inner loop); no checks.
void transitTimesInto(const OrbitElements& orbit, int n, double* out);

// Eccentric anomaly E solving M = E − e sin E (Newton's method from E = M + e sin M).
double solveKepler(double meanAnomaly, double eccentricity);

// The planet's position (x, y) in the orbital plane at time t, in units of the semi-major
// axis, with the observer along +y (θ = 90°).
std::array<double, 2> positionAt(const OrbitElements& orbit, double t);

} // namespace evx::models
