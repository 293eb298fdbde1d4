#include "genbayes/outer_products.h"

namespace evx::genbayes {

Eigen::MatrixXd packedOuterProducts(const Eigen::MatrixXd& z)
{
    const Eigen::Index p = z.cols();
    Eigen::MatrixXd out(z.rows(), p * (p + 1) / 2);
    Eigen::Index c = 0;
    for (Eigen::Index k = 0; k < p; ++k)
        for (Eigen::Index j = 0; j <= k; ++j)
            out.col(c++) = z.col(j).cwiseProduct(z.col(k));
    return out;
}

Eigen::MatrixXd unpackSymmetric(const Eigen::VectorXd& packed, Eigen::Index p)
{
    Eigen::MatrixXd m(p, p);
    Eigen::Index c = 0;
    for (Eigen::Index k = 0; k < p; ++k)
        for (Eigen::Index j = 0; j <= k; ++j)
            m(j, k) = m(k, j) = packed(c++);
    return m;
}

Eigen::VectorXd packForQuadraticForm(const Eigen::MatrixXd& m)
{
    const Eigen::Index p = m.cols();
    Eigen::VectorXd out(p * (p + 1) / 2);
    Eigen::Index c = 0;
    for (Eigen::Index k = 0; k < p; ++k)
        for (Eigen::Index j = 0; j <= k; ++j)
            out(c++) = (j == k ? 1 : 2) * m(j, k);
    return out;
}

} // namespace evx::genbayes
