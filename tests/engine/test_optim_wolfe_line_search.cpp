// The safeguarded strong-Wolfe line search (engine/optim/wolfe_line_search.h), on functions of one
// variable where each condition can be checked by hand: the point it ends on satisfies both
// strong-Wolfe conditions, a far end up a wall does not make it creep (LBFGS++'s own search on
// the same function, as the reference), and running out of trials or of the precision of x is an
// exception of its own.
#include "optim/wolfe_line_search.h"

#include <LBFGSpp/LineSearchNocedalWright.h>
#include <QtTest>

#include <cmath>
#include <functional>
#include <stdexcept>

using evx::optim::WolfeLineSearch;

namespace {

using Phi = std::function<double(double, double&)>; // value and derivative at a point

// f(x) = φ(x₀) for a one-element x, with its derivative; counts the calls.
struct Counted {
    Phi phi;
    int calls = 0;
    double operator()(const Eigen::VectorXd& x, Eigen::VectorXd& g)
    {
        ++calls;
        g.resize(1);
        return phi(x[0], g[0]);
    }
};

struct Outcome {
    double step, value, slope;
    int trials;
};

// One search from x = x0 along d = +1 with LBFGS++'s defaults (ftol 1e-4, wolfe 0.9).
template <class Search> Outcome search(const Phi& phi, double step, int maxTrials = 20, double x0 = 0)
{
    LBFGSpp::LBFGSParam<double> param;
    param.max_linesearch = maxTrials;
    param.linesearch = LBFGSpp::LBFGS_LINESEARCH_BACKTRACKING_STRONG_WOLFE; // LBFGS++ checks it
    Counted f{phi};
    Eigen::VectorXd xp = Eigen::VectorXd::Constant(1, x0), x = xp, grad(1), d = Eigen::VectorXd::Ones(1);
    double fx = f(xp, grad);
    f.calls = 0;
    Search::LineSearch(f, fx, x, grad, step, d, xp, param);
    if (x[0] != x0 + step)
        throw std::logic_error("the search left x away from xp + step·d");
    return {step, fx, grad[0], f.calls};
}

const Outcome& verifyStrongWolfe(const Outcome& o, const Phi& phi)
{
    double slope0 = 0;
    const double f0 = phi(0, slope0);
    if (!(o.value <= f0 + 1e-4 * o.step * slope0))
        throw std::logic_error("no sufficient decrease at " + std::to_string(o.step));
    if (!(std::abs(o.slope) <= 0.9 * std::abs(slope0)))
        throw std::logic_error("the curvature condition fails at " + std::to_string(o.step));
    return o;
}

// ½(x − 1)²: the minimum at 1.
double quadratic(double x, double& g)
{
    g = x - 1;
    return 0.5 * g * g;
}

// Moré & Thuente's first test function (ACM TOMS 20, 1994), −x/(x² + β) with β = 2: a minimum at
// √2, and flat far beyond it.
double moreThuente1(double x, double& g)
{
    const double b = 2;
    g = (x * x - b) / ((x * x + b) * (x * x + b));
    return -x / (x * x + b);
}

// (x − 0.3)² up to 0.5, then 1e300 with a zero slope: optim::minimise's stand-in for a rejected
// point (a GP likelihood that cannot be factorised), a wall for an interpolating search.
double wall(double x, double& g)
{
    if (x > 0.5) {
        g = 0;
        return 1e300;
    }
    g = 2 * (x - 0.3);
    return (x - 0.3) * (x - 0.3);
}

// A value that never decreases, with a slope of −1 that says it should: f's rounding near an
// optimum, where f and ∇f disagree. Counts its calls.
Phi disagreeing(int& calls)
{
    return [&calls](double, double& g) {
        ++calls;
        g = -1;
        return 1.0;
    };
}

} // namespace

class TestOptimWolfeLineSearch : public QObject {
    Q_OBJECT

private slots:
    void endsOnAStrongWolfePoint_data()
    {
        QTest::addColumn<int>("function");
        QTest::addColumn<double>("step");
        // Initial steps far too short (bracketing doubles them), about right, and far too long
        // (the zoom works back), as in Moré & Thuente's tables.
        for (const double step : {1e-3, 1e-1, 1.0, 10.0, 1e3}) {
            QTest::addRow("quadratic, step %g", step) << 0 << step;
            QTest::addRow("More-Thuente 1, step %g", step) << 1 << step;
            QTest::addRow("wall, step %g", step) << 2 << step;
        }
    }
    void endsOnAStrongWolfePoint()
    {
        QFETCH(int, function);
        QFETCH(double, step);
        const Phi phi = function == 0 ? Phi(quadratic) : function == 1 ? Phi(moreThuente1) : Phi(wall);
        try {
            const Outcome o = verifyStrongWolfe(search<WolfeLineSearch<double>>(phi, step), phi);
            // Doubling from 1e-3 to the minima near 1 takes 10 trials; 12 leaves room for a zoom
            // of two more.
            QVERIFY2(o.trials <= 12, qPrintable(QString::number(o.trials)));
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }

    void aWallDoesNotMakeItCreep()
    {
        // From a unit step onto the wall, the quadratic through f(0), f'(0) and 1e300 has its
        // minimum within 1e-300 of 0. LBFGS++'s search takes it (or the midpoint), then every
        // next trial within a few per cent of the near end: it creeps towards 0.3. The
        // safeguarded one keeps each trial a tenth of the bracket inside it.
        const Phi phi = wall;
        const Outcome ours = verifyStrongWolfe(search<WolfeLineSearch<double>>(phi, 1.0), phi);
        int theirs = 0;
        try {
            theirs = search<LBFGSpp::LineSearchNocedalWright<double>>(phi, 1.0).trials;
        } catch (const std::runtime_error&) {
            theirs = 21; // gave up
        }
        qInfo("trials to a strong-Wolfe point: %d (LBFGS++'s Nocedal–Wright: %d)", ours.trials, theirs);
        QVERIFY2(ours.trials <= 4, qPrintable(QString::number(ours.trials)));
        QVERIFY(ours.trials < theirs);
    }

    void runningOutOfTrialsThrows()
    {
        // The search must not hand back a point as if it were a strong-Wolfe one.
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 search<WolfeLineSearch<double>>(disagreeing(calls), 1.0, 7));
        QCOMPARE(calls, 1 + 7); // the start point, then every trial allowed
    }

    void aBracketNarrowerThanXEndsAtItsPrecision()
    {
        // f and its slope disagree as above, now from x₀ = 1. The cubic through two equal values
        // with slope −1 at both ends puts each trial at 0.21 of the bracket, so after 24 trials
        // (0.21²⁴ ≈ 6e-17) 1 + s rounds to 1, with f the same on both sides of the bracket.
        int calls = 0;
        QVERIFY_THROWS_EXCEPTION(evx::optim::StepBelowPrecision,
                                 search<WolfeLineSearch<double>>(disagreeing(calls), 1.0, 40, 1.0));
        QVERIFY2(calls >= 1 + 22 && calls <= 1 + 26, qPrintable(QString::number(calls)));
    }

    void aBracketNarrowedOntoAWallIsAFailure()
    {
        // −x up to 0.5, rejected beyond: its minimum along the line is the wall's edge, where the
        // slope is −1, not a point the precision of x stops at.
        const Phi edge = [](double x, double& g) {
            g = x > 0.5 ? 0 : -1;
            return x > 0.5 ? 1e300 : -x;
        };
        try {
            search<WolfeLineSearch<double>>(edge, 1.0, 200);
            QFAIL("the search ended on the wall's edge as if on a strong-Wolfe point");
        } catch (const evx::optim::StepBelowPrecision&) {
            QFAIL("a jump of 1e300 was taken for rounding");
        } catch (const std::runtime_error&) {
        }
    }

    void anAscentDirectionIsRefused()
    {
        const Phi rising = [](double x, double& g) {
            g = 1;
            return x;
        };
        QVERIFY_THROWS_EXCEPTION(std::logic_error, search<WolfeLineSearch<double>>(rising, 1.0));
    }
};

QTEST_APPLESS_MAIN(TestOptimWolfeLineSearch)
#include "test_optim_wolfe_line_search.moc"
