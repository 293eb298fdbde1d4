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
    unpackSymmetric(packed, 1, m);
    return m;
}

void unpackSymmetric(const Eigen::VectorXd& packed, double factor, Eigen::Ref<Eigen::MatrixXd> out)
{
    Eigen::Index c = 0;
    for (Eigen::Index k = 0; k < out.cols(); ++k)
        for (Eigen::Index j = 0; j <= k; ++j)
            out(j, k) = out(k, j) = factor * packed(c++);
}

Eigen::VectorXd packForQuadraticForm(const Eigen::MatrixXd& m)
{
    Eigen::VectorXd out(m.cols() * (m.cols() + 1) / 2);
    packForQuadraticForm(m, out);
    return out;
}

void packForQuadraticForm(const Eigen::Ref<const Eigen::MatrixXd>& m, Eigen::Ref<Eigen::VectorXd> out)
{
    Eigen::Index c = 0;
    for (Eigen::Index k = 0; k < m.cols(); ++k)
        for (Eigen::Index j = 0; j <= k; ++j)
            out(c++) = (j == k ? 1 : 2) * m(j, k);
}

} // namespace evx::genbayes
