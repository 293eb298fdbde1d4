#pragma once
// QCOMPARE with a tolerance: prints both sides and the tolerance when it fails.

#include <QtTest>

#include <cmath>

#define EVX_COMPARE_NEAR(actual, expected, tolerance)                                                        \
    do {                                                                                                     \
        const double a_ = (actual), e_ = (expected), t_ = (tolerance);                                       \
        QVERIFY2(std::abs(a_ - e_) <= t_, qPrintable(QString("%1 = %2, expected %3 = %4 (tolerance %5)")     \
                                                         .arg(#actual)                                       \
                                                         .arg(a_, 0, 'g', 17)                                \
                                                         .arg(#expected)                                     \
                                                         .arg(e_, 0, 'g', 17)                                \
                                                         .arg(t_)));                                         \
    } while (false)
