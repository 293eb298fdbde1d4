#include "evidence/readings.h"

#include "core/errors.h"
#include "evidence/banded_jeffrey.h"
#include "stats/densities.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>

namespace evx::evidence {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

std::vector<double> logPriorOn(const BaseModel& model, const UniformGrid& grid)
{
    std::vector<double> lp(grid.size());
    for (int i = 0; i < grid.size(); ++i)
        lp[i] = model.logPrior(grid.at(i));
    return lp;
}

// ln p(y | x_i) for every x_i of a grid at one y: through the model, or from tabulated
// moments when the noise is Gaussian (a multiply-add per cell instead of a virtual call).
class LikelihoodColumn {
public:
    LikelihoodColumn(const BaseModel& model, const UniformGrid& xg) : m_model(model), m_xg(xg)
    {
        if (!model.hasGaussianNoise())
            return;
        const int n = xg.size();
        m_mean.resize(n);
        m_invSd.resize(n);
        m_logNorm.resize(n);
        for (int i = 0; i < n; ++i) {
            const ConditionalMoments m = model.observable(xg.at(i));
            const double sd = std::sqrt(m.variance);
            m_mean[i] = m.mean;
            m_invSd[i] = 1 / sd;
            m_logNorm[i] = -std::log(sd) - stats::kHalfLog2Pi;
        }
    }

    void fill(double y, Eigen::ArrayXd& out) const
    {
        const int n = m_xg.size();
        if (m_mean.size() == 0) {
            for (int i = 0; i < n; ++i)
                out[i] = m_model.logLikelihood(y, m_xg.at(i));
            return;
        }
        const Eigen::ArrayXd z = (y - m_mean) * m_invSd;
        out = m_logNorm - 0.5 * z.square();
    }

private:
    const BaseModel& m_model;
    const UniformGrid& m_xg;
    Eigen::ArrayXd m_mean, m_invSd, m_logNorm;
};

} // namespace

ConsistencyCheck checkConsistency(const BaseModel& model, const EvidenceDensity& q,
                                  const UniformGrid& priorGrid)
{
    const GridDensity prior = normalisedDensity(priorGrid, logPriorOn(model, priorGrid), "prior");
    double meanOfMeans = 0, meanOfVars = 0;
    std::vector<ConditionalMoments> moments(priorGrid.size());
    for (int i = 0; i < priorGrid.size(); ++i) {
        moments[i] = model.observable(priorGrid.at(i));
        const double w = priorGrid.weight(i) * prior.pdf[i];
        meanOfMeans += w * moments[i].mean;
        meanOfVars += w * moments[i].variance;
    }
    double varOfMeans = 0;
    for (int i = 0; i < priorGrid.size(); ++i) {
        const double d = moments[i].mean - meanOfMeans;
        varOfMeans += priorGrid.weight(i) * prior.pdf[i] * d * d;
    }
    return {meanOfVars + varOfMeans, q.variance()};
}

Readings computeReadings(const BaseModel& model, const EvidenceDensity& q, double y0,
                         const ReadingGrids& grids, const RunContext& context)
{
    const UniformGrid& xg = grids.latent;
    const UniformGrid& yg = grids.observable;
    const int nx = xg.size();
    const int ny = yg.size();

    Readings r;
    r.prior = normalisedDensity(grids.prior, logPriorOn(model, grids.prior), "prior");
    r.consistency = checkConsistency(model, q, grids.prior);

    const std::vector<double> lp = logPriorOn(model, xg);
    std::vector<double> logExact(nx);
    for (int i = 0; i < nx; ++i)
        logExact[i] = lp[i] + model.logLikelihood(y0, xg.at(i));
    r.exact = normalisedDensity(xg, logExact, "exact-evidence posterior");

    // q as quadrature weights over y, normalised on the grid so that Jeffrey's rule
    // and distributional evidence average over a proper distribution.
    std::vector<double> logQ(ny);
    double maxLogQ = kNegInf;
    for (int j = 0; j < ny; ++j) {
        logQ[j] = q.logDensity(yg.at(j));
        maxLogQ = std::max(maxLogQ, logQ[j]);
    }
    std::vector<double> qWeight(ny);
    double qTotal = 0;
    for (int j = 0; j < ny; ++j) {
        qWeight[j] = yg.weight(j) * std::exp(logQ[j] - maxLogQ);
        qTotal += qWeight[j];
    }
    for (double& w : qWeight)
        w /= qTotal;

    // Gaussian noise and Gaussian evidence: virtual and distributional evidence are Gaussian
    // integrals over y in closed form, and Jeffrey's rule needs only a band of each column.
    if (model.hasGaussianNoise()) {
        if (const auto* gq = dynamic_cast<const GaussianEvidence*>(&q)) {
            GaussianNoiseRows rows{lp, std::vector<double>(nx), std::vector<double>(nx)};
            for (int i = 0; i < nx; ++i) {
                const ConditionalMoments m = model.observable(xg.at(i));
                rows.mean[i] = m.mean;
                rows.sd[i] = std::sqrt(m.variance);
            }
            if (const auto logJeffrey = bandedJeffrey(rows, xg, yg, qWeight, context)) {
                const double c = gq->centre(), v = gq->variance();
                std::vector<double> logVirtual(nx), logDistributional(nx);
                for (int i = 0; i < nx; ++i) {
                    const double s2 = rows.sd[i] * rows.sd[i], d = c - rows.mean[i];
                    // ∫ N(y; μ, s²) N(ζ; y, σ_q²) dy = N(ζ; μ, s² + σ_q²)
                    logVirtual[i] = lp[i] + stats::normalLogPdf(c, rows.mean[i], std::sqrt(s2 + v));
                    // ∫ N(y; ζ, σ_q²) ln N(y; μ, s²) dy = −ln s − ½ ln 2π − ((ζ − μ)² + σ_q²) / (2 s²)
                    logDistributional[i] =
                        lp[i] - std::log(rows.sd[i]) - stats::kHalfLog2Pi - 0.5 * (d * d + v) / s2;
                }
                r.jeffrey = normalisedDensity(xg, *logJeffrey, "Jeffrey's-rule posterior");
                r.virtualEvidence = normalisedDensity(xg, logVirtual, "virtual-evidence posterior");
                r.distributional =
                    normalisedDensity(xg, logDistributional, "distributional-evidence posterior");
                return r;
            }
        }
    }

    // One exponential per (x, y) cell serves both Jeffrey's rule and virtual evidence:
    // E_ij = p(x_i) p(y_j | x_i) / exp(c_j), scaled by its column maximum c_j.
    Eigen::ArrayXd jeffrey = Eigen::ArrayXd::Zero(nx);
    Eigen::ArrayXd virtualSum = Eigen::ArrayXd::Zero(nx);
    Eigen::ArrayXd expectedLogLik = Eigen::ArrayXd::Zero(nx);
    Eigen::ArrayXd joint(nx);
    Eigen::ArrayXd logLik(nx);
    const Eigen::Map<const Eigen::ArrayXd> logPrior(lp.data(), nx);
    const LikelihoodColumn likelihood(model, xg);
    double virtualLogScale = kNegInf; // virtualSum is stored divided by exp(virtualLogScale)

    for (int j = 0; j < ny; ++j) {
        if ((j & 31) == 0)
            context.checkCancelled();
        likelihood.fill(yg.at(j), logLik);
        expectedLogLik += qWeight[j] * logLik;
        joint = logPrior + logLik;
        const double c = joint.maxCoeff();
        if (!std::isfinite(c)) // this y is impossible under every x on the grid
            continue;
        Eigen::ArrayXd e = (joint - c).exp();
        double norm = 0;
        for (int i = 0; i < nx; ++i)
            norm += xg.weight(i) * e[i];
        jeffrey += (qWeight[j] / norm) * e; // q(y_j) p(x | y_j), normalised for this y
        // Virtual evidence: Σ_j w_j q(y_j) p(x) p(y_j | x), accumulated as a running
        // log-sum-exp over columns so no column has to be kept.
        const double logScale = std::log(yg.weight(j)) + logQ[j] + c;
        if (logScale > virtualLogScale) {
            if (std::isfinite(virtualLogScale))
                virtualSum *= std::exp(virtualLogScale - logScale);
            virtualLogScale = logScale;
        }
        virtualSum += std::exp(logScale - virtualLogScale) * e;
    }
    if (!std::isfinite(virtualLogScale))
        throw NumericalError("the evidence is impossible under the base model on this grid");

    std::vector<double> logJeffrey(nx), logVirtual(nx), logDistributional(nx);
    for (int i = 0; i < nx; ++i) {
        logJeffrey[i] = jeffrey[i] > 0 ? std::log(jeffrey[i]) : kNegInf;
        logVirtual[i] = virtualSum[i] > 0 ? std::log(virtualSum[i]) : kNegInf;
        logDistributional[i] = lp[i] + expectedLogLik[i];
    }
    r.jeffrey = normalisedDensity(xg, logJeffrey, "Jeffrey's-rule posterior");
    r.virtualEvidence = normalisedDensity(xg, logVirtual, "virtual-evidence posterior");
    r.distributional = normalisedDensity(xg, logDistributional, "distributional-evidence posterior");
    return r;
}

} // namespace evx::evidence
