#include "genbayes/coarse_grid.h"

#include "core/errors.h"

namespace evx::genbayes {

CoarseGrid coarseGrid(const ParameterBox& box, int stride)
{
    const int d = box.dimension();
    CoarseGrid c;
    c.stride = stride;
    for (int n : box.gridPoints)
        if (stride < 1 || (n - 1) % stride != 0)
            c.stride = 1;
    Eigen::Index total = 1;
    for (int n : box.gridPoints) {
        c.counts.push_back((n - 1) / c.stride + 1);
        total *= c.counts.back();
    }
    c.fineRows.reserve(std::size_t(total));
    for (Eigen::Index row = 0; row < total; ++row) {
        Eigen::Index rest = row, fine = 0, scale = 1;
        for (int k = d - 1; k >= 0; --k) {
            const Eigen::Index i = rest % c.counts[std::size_t(k)];
            rest /= c.counts[std::size_t(k)];
            fine += i * c.stride * scale;
            scale *= box.gridPoints[std::size_t(k)];
        }
        c.fineRows.push_back(fine);
    }
    return c;
}

Eigen::VectorXd interpolateToGrid(const ParameterBox& box, const CoarseGrid& coarse,
                                  const Eigen::VectorXd& values)
{
    const int d = box.dimension();
    if (values.size() != Eigen::Index(coarse.fineRows.size()))
        throw InvalidParameter("one value per coarse grid point is needed");
    Eigen::Index total = 1;
    for (int n : box.gridPoints)
        total *= n;
    Eigen::VectorXd out(total);
    std::vector<Eigen::Index> lower(static_cast<std::size_t>(d));
    std::vector<double> t(static_cast<std::size_t>(d));
    for (Eigen::Index row = 0; row < total; ++row) {
        Eigen::Index rest = row;
        for (int k = d - 1; k >= 0; --k) {
            const Eigen::Index i = rest % box.gridPoints[std::size_t(k)];
            rest /= box.gridPoints[std::size_t(k)];
            lower[std::size_t(k)] = i / coarse.stride;
            t[std::size_t(k)] = double(i % coarse.stride) / coarse.stride;
        }
        // The 2^d corners of the coarse cell; a corner past the last point has weight 0.
        double sum = 0;
        for (int corner = 0; corner < (1 << d); ++corner) {
            double w = 1;
            Eigen::Index index = 0;
            for (int k = 0; k < d && w != 0; ++k) {
                const bool up = (corner >> k) & 1;
                w *= up ? t[std::size_t(k)] : 1 - t[std::size_t(k)];
                index = index * coarse.counts[std::size_t(k)] + lower[std::size_t(k)] + (up ? 1 : 0);
            }
            if (w != 0)
                sum += w * values(index);
        }
        out(row) = sum;
    }
    return out;
}

} // namespace evx::genbayes
