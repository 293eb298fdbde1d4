// The optimiser wrapper (engine/optim/minimise.*): minima known in closed form (a quadratic,
// Rosenbrock's valley, a box-constrained quadratic, x − ln x), and how it reports the iteration
// limit, a failed line search, non-finite regions, a noisy minimum, a minimum flat to rounding,
// bad options and exceptions from f.
#include "compare_near.h"
#include "core/errors.h"
#include "optim/minimise.h"

#include <QtTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

using namespace evx;
using namespace evx::optim;

namespace {

// ½ (x − c)ᵀ diag(a) (x − c): minimum at c, value 0.
struct DiagonalQuadratic {
    Eigen::VectorXd a, c;
    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& g) const
    {
        g = (a.array() * (x - c).array()).matrix();
        return 0.5 * (x - c).dot(g);
    }
};

// Rosenbrock: (1 − x)² + 100 (y − x²)², minimum 0 at (1, 1).
double rosenbrock(const Eigen::VectorXd& x, Eigen::VectorXd& g)
{
    const double r = 1 - x[0], s = x[1] - x[0] * x[0];
    g[0] = -2 * r - 400 * x[0] * s;
    g[1] = 200 * s;
    return r * r + 100 * s * s;
}

// A deterministic stand-in for rounding noise: a value in [−1, 1] from the bits of x (splitmix64).
double noiseAt(const Eigen::VectorXd& x)
{
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        std::uint64_t bits;
        std::memcpy(&bits, &x[i], sizeof bits);
        h ^= bits + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
    }
    return double(h >> 11) * 0x1p-52 - 1;
}

Eigen::VectorXd vec(std::initializer_list<double> v)
{
    Eigen::VectorXd x(Eigen::Index(v.size()));
    Eigen::Index i = 0;
    for (double e : v)
        x[i++] = e;
    return x;
}

} // namespace

class TestOptimMinimise : public QObject {
    Q_OBJECT

private slots:
    void quadratic()
    {
        const DiagonalQuadratic q{vec({1.0, 10.0, 100.0}), vec({0.5, -2.0, 3.0})};
        MinimiseOptions o;
        o.gradientTolerance = 1e-10;
        o.relativeGradientTolerance = 0;
        const MinimiseResult r = minimise(q, vec({5.0, 5.0, 5.0}), o);
        QVERIFY2(r.converged, r.message.c_str());
        // ‖∇f‖ ≤ 1e-10 and the smallest curvature is 1: each |x_i − c_i| ≤ 1e-10.
        for (int i = 0; i < 3; ++i)
            EVX_COMPARE_NEAR(r.x[i], q.c[i], 1e-10);
        EVX_COMPARE_NEAR(r.value, 0.0, 1e-20);
        QVERIFY(r.iterations > 0 && r.evaluations >= r.iterations);
    }

    void rosenbrockValley_data()
    {
        QTest::addColumn<int>("search");
        QTest::newRow("backtracking") << int(LineSearch::Backtracking);
        QTest::newRow("strong Wolfe") << int(LineSearch::StrongWolfe);
    }
    void rosenbrockValley()
    {
        QFETCH(int, search);
        MinimiseOptions o;
        o.lineSearch = LineSearch(search);
        o.gradientTolerance = 1e-9;
        o.relativeGradientTolerance = 0;
        o.maxIterations = 500;
        o.restarts = 3; // the Armijo search needs one (restartsRecoverAFailedLineSearch)
        const MinimiseResult r = minimise(rosenbrock, vec({-1.2, 1.0}), o);
        QVERIFY2(r.converged, r.message.c_str());
        // The Hessian at (1, 1) has smallest eigenvalue ≈ 0.4: ‖x − x*‖ ≲ ‖∇f‖/0.4 ≈ 2.5e-9.
        EVX_COMPARE_NEAR(r.x[0], 1.0, 1e-8);
        EVX_COMPARE_NEAR(r.x[1], 1.0, 1e-8);
        EVX_COMPARE_NEAR(r.value, 0.0, 1e-16);
    }

    void restartsRecoverAFailedLineSearch()
    {
        // From (−1.2, 1) LBFGS++'s first Armijo backtracking search fails; without a restart the
        // answer is the best point that search saw, reported as not converged.
        MinimiseOptions o;
        o.maxIterations = 500;
        const MinimiseResult once = minimise(rosenbrock, vec({-1.2, 1.0}), o);
        QVERIFY(!once.converged);
        QVERIFY2(once.message.find("stopped") != std::string::npos, once.message.c_str());
        QVERIFY2(once.value < 24.2, qPrintable(QString::number(once.value))); // f(−1.2, 1) = 24.2
        o.restarts = 1;
        const MinimiseResult restarted = minimise(rosenbrock, vec({-1.2, 1.0}), o);
        QVERIFY2(restarted.converged, restarted.message.c_str());
        // Default tolerances: ‖∇f‖ ≤ 1e-5, so ‖x − x*‖ ≲ 1e-5/0.4.
        EVX_COMPARE_NEAR(restarted.x[0], 1.0, 3e-5);
        EVX_COMPARE_NEAR(restarted.x[1], 1.0, 6e-5);
    }

    void boxConstraints()
    {
        // The free minimum (0.5, −2, 3) lies outside [0, 1] × [−1, 1] × [−5, 5]: the constrained
        // one clamps each coordinate (the quadratic is separable), x* = (0.5, −1, 3).
        const DiagonalQuadratic q{vec({1.0, 10.0, 100.0}), vec({0.5, -2.0, 3.0})};
        MinimiseOptions o;
        o.lower = vec({0.0, -1.0, -5.0});
        o.upper = vec({1.0, 1.0, 5.0});
        o.gradientTolerance = 1e-10;
        o.relativeGradientTolerance = 0;
        const MinimiseResult r = minimise(q, vec({0.9, 0.9, 0.9}), o);
        QVERIFY2(r.converged, r.message.c_str());
        EVX_COMPARE_NEAR(r.x[0], 0.5, 1e-10);
        EVX_COMPARE_NEAR(r.x[1], -1.0, 0.0); // on its bound exactly (L-BFGS-B projects)
        EVX_COMPARE_NEAR(r.x[2], 3.0, 1e-10);
        EVX_COMPARE_NEAR(r.value, 0.5 * 10 * 1.0, 1e-12);
    }

    void valueTest()
    {
        // Off by default (also for L-BFGS-B, whose own default would stop the box problem above
        // at a relative change of 1e-10, 2e-7 short of its minimum); on request it stops early.
        const DiagonalQuadratic q{vec({1.0, 10.0, 100.0}), vec({0.5, -2.0, 3.0})};
        MinimiseOptions o;
        o.gradientTolerance = 0;
        o.relativeGradientTolerance = 0;
        o.valueTolerance = 1e-3;
        const MinimiseResult r = minimise(q, vec({5.0, 5.0, 5.0}), o);
        QVERIFY2(r.converged, r.message.c_str());
        QVERIFY2(r.value > 1e-12, qPrintable(QString::number(r.value)));
        QVERIFY2(r.iterations < 20, qPrintable(QString::number(r.iterations)));
    }

    void iterationLimitIsNotConvergence()
    {
        MinimiseOptions o;
        o.maxIterations = 3;
        o.lineSearch = LineSearch::StrongWolfe;
        const MinimiseResult r = minimise(rosenbrock, vec({-1.2, 1.0}), o);
        QVERIFY(!r.converged);
        QCOMPARE(r.iterations, 3);
        QVERIFY2(r.message.find("iteration limit") != std::string::npos, r.message.c_str());
        QVERIFY(r.value < 24.2); // f(−1.2, 1) = 24.2: it still made progress
    }

    void failedLineSearchKeepsTheBestPoint()
    {
        // The gradient points the wrong way, so no step along −g decreases f: every line search
        // fails. The answer is the best point evaluated (the start), not a trial step.
        const auto wrong = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            g = -x;
            return 0.5 * x.squaredNorm();
        };
        MinimiseOptions o;
        o.restarts = 3;
        const MinimiseResult r = minimise(wrong, vec({1.0, 2.0}), o);
        QVERIFY(!r.converged);
        QVERIFY2(r.message.find("stopped") != std::string::npos, r.message.c_str());
        EVX_COMPARE_NEAR(r.value, 2.5, 0.0);
        EVX_COMPARE_NEAR(r.x[0], 1.0, 0.0);
        EVX_COMPARE_NEAR(r.x[1], 2.0, 0.0);
    }

    void nonFiniteRegionsAreRejected_data()
    {
        QTest::addColumn<int>("search");
        QTest::newRow("backtracking") << int(LineSearch::Backtracking);
        QTest::newRow("strong Wolfe") << int(LineSearch::StrongWolfe);
    }
    void nonFiniteRegionsAreRejected()
    {
        QFETCH(int, search);
        // x − 0.05 ln x has its minimum at x = 0.05 and is NaN for x < 0. LBFGS++'s first trial
        // step has unit length: from x = 0.5, where f' = 0.9, it lands on −0.5, and both searches
        // must shrink back into the domain (LBFGS++'s own Nocedal–Wright search ended at 0.5).
        const auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            g[0] = 1 - 0.05 / x[0];
            return x[0] - 0.05 * std::log(x[0]);
        };
        MinimiseOptions o;
        o.lineSearch = LineSearch(search);
        o.gradientTolerance = 1e-10;
        o.relativeGradientTolerance = 0;
        const MinimiseResult r = minimise(f, vec({0.5}), o);
        QVERIFY2(r.converged, r.message.c_str());
        // f''(0.05) = 20: |x − 0.05| ≲ |f'|/20 ≤ 5e-12.
        EVX_COMPARE_NEAR(r.x[0], 0.05, 1e-11);
        EVX_COMPARE_NEAR(r.value, 0.05 - 0.05 * std::log(0.05), 1e-15);
    }

    void aNoisyMinimumEndsAtTheResolution()
    {
        // ½‖x‖² with value noise 1e-6 and gradient noise 1e-3: within |x| ≈ 1e-3 of the minimum
        // neither tells up from down, as a GP likelihood past n ≈ 100 cannot (bq-2d-marginal).
        const auto noisy = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            const double e = noiseAt(x);
            g = x.array() + 1e-3 * e;
            return 0.5 * x.squaredNorm() + 1e-6 * e;
        };
        MinimiseOptions o;
        o.lineSearch = LineSearch::StrongWolfe;
        const MinimiseResult chased = minimise(noisy, vec({1.0, -0.5}), o);
        QVERIFY2(!chased.converged, chased.message.c_str()); // no gradient test can hold there
        o.resolution = 1e-4;
        const MinimiseResult r = minimise(noisy, vec({1.0, -0.5}), o);
        QVERIFY2(r.converged, r.message.c_str());
        QVERIFY2(r.message.find("resolution") != std::string::npos, r.message.c_str());
        QVERIFY2(r.x.cwiseAbs().maxCoeff() < 1e-2, qPrintable(QString::number(r.x.norm())));
        QVERIFY2(r.evaluations < chased.evaluations,
                 qPrintable(QStringLiteral("%1 against %2").arg(r.evaluations).arg(chased.evaluations)));
    }

    void flatToRoundingIsConvergence()
    {
        // 1 + 1e-20 (x − 1)² rounds to 1 for |x − 1| < 100, while its gradient does not vanish:
        // no gradient test can hold (both tolerances 0), and no step decreases f. The strong-Wolfe
        // search narrows its bracket until x no longer moves; that is the end, not a failure.
        const auto f = [](const Eigen::VectorXd& x, Eigen::VectorXd& g) {
            g[0] = 2e-20 * (x[0] - 1);
            return 1 + 1e-20 * (x[0] - 1) * (x[0] - 1);
        };
        MinimiseOptions o;
        o.lineSearch = LineSearch::StrongWolfe;
        o.gradientTolerance = 0;
        o.relativeGradientTolerance = 0;
        o.maxLineSearch = 100;
        const MinimiseResult r = minimise(f, vec({50.0}), o);
        QVERIFY2(r.converged, r.message.c_str());
        QVERIFY2(r.message.find("rounding") != std::string::npos, r.message.c_str());
        EVX_COMPARE_NEAR(r.x[0], 50.0, 0.0); // the start: nothing was better
        // That takes 22 trials (a unit step, then each trial a fifth of the bracket, down to
        // 7e-15, the spacing of doubles at 50); with 10 the search fails instead.
        o.maxLineSearch = 10;
        const MinimiseResult short_ = minimise(f, vec({50.0}), o);
        QVERIFY2(!short_.converged, short_.message.c_str());
    }

    void nowhereFinite()
    {
        const auto f = [](const Eigen::VectorXd&, Eigen::VectorXd&) {
            return std::numeric_limits<double>::quiet_NaN();
        };
        const MinimiseResult r = minimise(f, vec({1.0}));
        QVERIFY(!r.converged);
        QVERIFY2(r.message.find("no point") != std::string::npos, r.message.c_str());
    }

    void exceptionsFromTheObjectivePropagate()
    {
        const auto f = [](const Eigen::VectorXd&, Eigen::VectorXd&) -> double {
            throw NumericalError("not factorisable");
        };
        QVERIFY_THROWS_EXCEPTION(NumericalError, minimise(f, vec({1.0})));
        const auto g = [](const Eigen::VectorXd&, Eigen::VectorXd&) -> double { throw Cancelled(); };
        QVERIFY_THROWS_EXCEPTION(Cancelled, minimise(g, vec({1.0})));
    }

    void badOptions()
    {
        MinimiseOptions o;
        o.lower = vec({0.0});
        o.upper = vec({1.0, 2.0});
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, minimise(rosenbrock, vec({0.0, 0.0}), o));
        o.lower = vec({3.0, 0.0});
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, minimise(rosenbrock, vec({0.0, 0.0}), o));
        MinimiseOptions p;
        p.maxIterations = 0;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, minimise(rosenbrock, vec({0.0, 0.0}), p));
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, minimise(rosenbrock, Eigen::VectorXd()));
        MinimiseOptions negative;
        negative.resolution = -1;
        QVERIFY_THROWS_EXCEPTION(InvalidParameter, minimise(rosenbrock, vec({0.0, 0.0}), negative));
    }
};

QTEST_APPLESS_MAIN(TestOptimMinimise)
#include "test_optim_minimise.moc"
