#include "bnn/gaussian_pair_sums.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#define EVX_PAIR_SUMS_X86 1
#include <immintrin.h>
#endif

namespace evx::bnn {
namespace {

constexpr double kLog2e = 1.4426950408889634074;
// ln 2 split so that k·kLn2Hi is exact for |k| < 2^20 (fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kFloor = -700;
// 1/i!, i = 0 … 13.
constexpr double kInvFactorial[] = {
    1.0,        1.0,         1.0 / 2,      1.0 / 6,       1.0 / 24,       1.0 / 120,       1.0 / 720,
    1.0 / 5040, 1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800};

double scalarExp(double t)
{
    return std::exp(std::max(t, kFloor));
}

// The columns j … n−1 of row i that no whole vector covers, then the row's own sums: returns
// the row's Σ_j E_ij. Shared by every code path (plain code, so callable from the AVX2 one).
template <bool Gradient>
inline double finishRow(const double* u, Eigen::Index n, double c, Eigen::Index i, Eigen::Index j, double sum,
                        double moment, double* s0, double* s1)
{
    for (; j < n; ++j) {
        const double d = u[j] - u[i], e = scalarExp(-c * d * d);
        sum += e;
        if constexpr (Gradient) {
            moment += e * u[j];
            s0[j] += e;
            s1[j] += e * u[i];
        }
    }
    if constexpr (Gradient) {
        s0[i] += sum;
        s1[i] += moment;
    }
    return sum;
}

// The row loop for SSE2 or scalar lanes: V supplies load/store/arithmetic and exp. (GCC will
// not inline AVX2 helpers into a template compiled for the baseline, so AVX2 has its own copy.)
template <class V, bool Gradient>
inline double pairSumsWith(const double* u, Eigen::Index n, double c, double* s0, double* s1)
{
    const typename V::T negC = V::set(-c);
    double total = 0;
    for (Eigen::Index i = 0; i + 1 < n; ++i) {
        const typename V::T ui = V::set(u[i]);
        typename V::T rowSum = V::set(0), rowMoment = V::set(0);
        Eigen::Index j = i + 1;
        for (; j + V::kWidth <= n; j += V::kWidth) {
            const typename V::T uj = V::load(u + j);
            const typename V::T d = V::sub(uj, ui);
            const typename V::T e = V::exp(V::mul(negC, V::mul(d, d)));
            rowSum = V::add(rowSum, e);
            if constexpr (Gradient) {
                rowMoment = V::add(rowMoment, V::mul(e, uj));
                V::store(s0 + j, V::add(V::load(s0 + j), e));
                V::store(s1 + j, V::add(V::load(s1 + j), V::mul(e, ui)));
            }
        }
        total += finishRow<Gradient>(u, n, c, i, j, V::sum(rowSum), V::sum(rowMoment), s0, s1);
    }
    return total;
}

struct Scalar {
    using T = double;
    static constexpr int kWidth = 1;
    static T set(double v) { return v; }
    static T load(const double* p) { return *p; }
    static void store(double* p, T v) { *p = v; }
    static T add(T a, T b) { return a + b; }
    static T sub(T a, T b) { return a - b; }
    static T mul(T a, T b) { return a * b; }
    static double sum(T v) { return v; }
    static T exp(T t) { return scalarExp(t); }
};

#ifdef EVX_PAIR_SUMS_X86
// exp(t), t ≤ 0: k = round(t log2 e), r = t − k ln 2 (|r| ≤ ln2/2), e^r by Taylor to degree 13 in
// Estrin's scheme (a tree of depth 4 rather than Horner's chain of 13 dependent steps, which
// bounded the loop), times 2^k built in the exponent bits (k + 1023 ≥ 13 after the clamp).
struct Sse2 {
    using T = __m128d;
    static constexpr int kWidth = 2;
    static T set(double v) { return _mm_set1_pd(v); }
    static T load(const double* p) { return _mm_loadu_pd(p); }
    static void store(double* p, T v) { _mm_storeu_pd(p, v); }
    static T add(T a, T b) { return _mm_add_pd(a, b); }
    static T sub(T a, T b) { return _mm_sub_pd(a, b); }
    static T mul(T a, T b) { return _mm_mul_pd(a, b); }
    static T madd(T a, T b, T x) { return _mm_add_pd(a, _mm_mul_pd(b, x)); } // a + b x
    static double sum(T v) { return _mm_cvtsd_f64(_mm_add_sd(v, _mm_unpackhi_pd(v, v))); }
    static T exp(T t)
    {
        t = _mm_max_pd(t, set(kFloor));
        const __m128i k = _mm_cvtpd_epi32(mul(t, set(kLog2e)));
        const T kd = _mm_cvtepi32_pd(k);
        const T r = sub(sub(t, mul(kd, set(kLn2Hi))), mul(kd, set(kLn2Lo)));
        const T p = estrin<Sse2>(r);
        const __m128i biased = _mm_add_epi32(k, _mm_set1_epi32(1023));
        return mul(p, _mm_castsi128_pd(_mm_slli_epi64(_mm_unpacklo_epi32(biased, _mm_setzero_si128()), 52)));
    }
    template <class W> static typename W::T estrin(typename W::T r)
    {
        const auto c = [](int i) { return W::set(kInvFactorial[i]); };
        const typename W::T r2 = W::mul(r, r), r4 = W::mul(r2, r2), r8 = W::mul(r4, r4);
        typename W::T p[7];
        for (int i = 0; i < 7; ++i)
            p[i] = W::madd(c(2 * i), c(2 * i + 1), r);
        const typename W::T q0 = W::madd(p[0], p[1], r2), q1 = W::madd(p[2], p[3], r2),
                            q2 = W::madd(p[4], p[5], r2);
        return W::madd(W::madd(q0, q1, r4), W::madd(q2, p[6], r4), r8);
    }
};

#define EVX_AVX2 __attribute__((target("avx2,fma")))
struct Avx2 {
    using T = __m256d;
    static constexpr int kWidth = 4;
    EVX_AVX2 static T set(double v) { return _mm256_set1_pd(v); }
    EVX_AVX2 static T load(const double* p) { return _mm256_loadu_pd(p); }
    EVX_AVX2 static void store(double* p, T v) { _mm256_storeu_pd(p, v); }
    EVX_AVX2 static T add(T a, T b) { return _mm256_add_pd(a, b); }
    EVX_AVX2 static T sub(T a, T b) { return _mm256_sub_pd(a, b); }
    EVX_AVX2 static T mul(T a, T b) { return _mm256_mul_pd(a, b); }
    EVX_AVX2 static T madd(T a, T b, T x) { return _mm256_fmadd_pd(b, x, a); }
    EVX_AVX2 static double sum(T v)
    {
        const __m128d half = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
        return _mm_cvtsd_f64(_mm_add_sd(half, _mm_unpackhi_pd(half, half)));
    }
    EVX_AVX2 static T exp(T t)
    {
        t = _mm256_max_pd(t, set(kFloor));
        const __m128i k = _mm256_cvtpd_epi32(mul(t, set(kLog2e)));
        const T kd = _mm256_cvtepi32_pd(k);
        const T r = _mm256_fnmadd_pd(kd, set(kLn2Lo), _mm256_fnmadd_pd(kd, set(kLn2Hi), t));
        const T r2 = mul(r, r), r4 = mul(r2, r2), r8 = mul(r4, r4);
        T p[7];
        for (int i = 0; i < 7; ++i)
            p[i] = madd(set(kInvFactorial[2 * i]), set(kInvFactorial[2 * i + 1]), r);
        const T q0 = madd(p[0], p[1], r2), q1 = madd(p[2], p[3], r2), q2 = madd(p[4], p[5], r2);
        const T poly = madd(madd(q0, q1, r4), madd(q2, p[6], r4), r8);
        const __m256i biased = _mm256_cvtepi32_epi64(_mm_add_epi32(k, _mm_set1_epi32(1023)));
        return mul(poly, _mm256_castsi256_pd(_mm256_slli_epi64(biased, 52)));
    }
};

template <bool Gradient>
EVX_AVX2 double pairSumsAvx2(const double* u, Eigen::Index n, double c, double* s0, double* s1)
{
    using V = Avx2;
    const __m256d negC = V::set(-c);
    double total = 0;
    for (Eigen::Index i = 0; i + 1 < n; ++i) {
        const __m256d ui = V::set(u[i]);
        __m256d rowSum = V::set(0), rowMoment = V::set(0);
        Eigen::Index j = i + 1;
        for (; j + V::kWidth <= n; j += V::kWidth) {
            const __m256d uj = V::load(u + j);
            const __m256d d = V::sub(uj, ui);
            const __m256d e = V::exp(V::mul(negC, V::mul(d, d)));
            rowSum = V::add(rowSum, e);
            if constexpr (Gradient) {
                rowMoment = V::madd(rowMoment, e, uj);
                V::store(s0 + j, V::add(V::load(s0 + j), e));
                V::store(s1 + j, V::madd(V::load(s1 + j), e, ui));
            }
        }
        total += finishRow<Gradient>(u, n, c, i, j, V::sum(rowSum), V::sum(rowMoment), s0, s1);
    }
    return total;
}

bool hasAvx2()
{
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
}
#endif

template <bool Gradient>
double pairSums(const double* u, Eigen::Index n, double c, double* s0, double* s1, SimdLevel level)
{
#ifdef EVX_PAIR_SUMS_X86
    if (level == SimdLevel::Best && hasAvx2())
        return pairSumsAvx2<Gradient>(u, n, c, s0, s1);
    if (level != SimdLevel::Scalar)
        return pairSumsWith<Sse2, Gradient>(u, n, c, s0, s1);
#endif
    (void)level;
    return pairSumsWith<Scalar, Gradient>(u, n, c, s0, s1);
}

} // namespace

double nonPositiveExp(double t)
{
#ifdef EVX_PAIR_SUMS_X86
    return _mm_cvtsd_f64(Sse2::exp(_mm_set1_pd(t)));
#else
    return scalarExp(t);
#endif
}

double gaussianPairSums(const Eigen::ArrayXd& u, double c, Eigen::ArrayXd* s0, Eigen::ArrayXd* s1,
                        SimdLevel level)
{
    if (s0 && s1) {
        s0->setZero(u.size());
        s1->setZero(u.size());
        return pairSums<true>(u.data(), u.size(), c, s0->data(), s1->data(), level);
    }
    return pairSums<false>(u.data(), u.size(), c, nullptr, nullptr, level);
}

} // namespace evx::bnn
