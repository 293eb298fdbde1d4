#pragma once
// A base model p(y, x) = p(y | x) p(x) with a scalar latent x and a scalar observable y
// (METHODS.md §1). The interpretations of uncertain evidence are written against this
// interface only, so a new base model plugs in without touching them.

namespace evx::evidence {

struct ConditionalMoments {
    double mean = 0;
    double variance = 0;
};

class BaseModel {
public:
    virtual ~BaseModel() = default;

    // ln p(x) up to a constant.
    virtual double logPrior(double x) const = 0;
    // ln p(y | x), normalised over y (Jeffrey's rule normalises p(x | y) per y, so
    // the constant matters whenever it depends on x).
    virtual double logLikelihood(double y, double x) const = 0;
    // E[y | x] and Var[y | x], used by the consistency check Var[y] ≥ E[Var[y | ζ]].
    virtual ConditionalMoments observable(double x) const = 0;
    // True when p(y | x) = N(y; E[y | x], Var[y | x]) exactly: the grid computations then
    // tabulate the moments once per x instead of calling logLikelihood per (x, y) cell.
    virtual bool hasGaussianNoise() const { return false; }
};

// The external density q that encodes the uncertain evidence, as a function of y.
// Jeffrey's rule reads it as q(y | ζ) (a distribution of y), virtual evidence as
// q(ζ | y) (a likelihood of y), distributional evidence as q(y) (the distribution of
// y given x). The three share one functional form in y, as in the paper's experiments.
class EvidenceDensity {
public:
    virtual ~EvidenceDensity() = default;
    virtual double logDensity(double y) const = 0; // normalised over y
    // E[Var[y | ζ]] under Jeffrey's reading.
    virtual double variance() const = 0;
    // An interval outside which q is negligible (below ~1e-20 of its peak).
    virtual double supportLo() const = 0;
    virtual double supportHi() const = 0;
};

// q(y) = N(y; centre, sd²), symmetric in y and centre, which is what lets the paper
// "flip" it between the three readings.
class GaussianEvidence final : public EvidenceDensity {
public:
    GaussianEvidence(double centre, double sd); // throws InvalidParameter for sd ≤ 0 or NaN
    double centre() const { return m_centre; }
    double sd() const { return m_sd; }
    double logDensity(double y) const override;
    double variance() const override { return m_sd * m_sd; }
    double supportLo() const override { return m_centre - 10 * m_sd; }
    double supportHi() const override { return m_centre + 10 * m_sd; }

private:
    double m_centre, m_sd;
};

} // namespace evx::evidence
