#!/usr/bin/env python3
"""sincos-coefficients.py: derives the polynomial coefficients of c/sincos.h and measures
their error. Not run by the build or the tests; run it to check or change the constants.

Method: near-minimax polynomials by Chebyshev interpolation. For sin the fitted part is
S(z) = (sin r - r) / r^3 and for cos C(z) = (cos r - 1 + z/2) / z^2, both as functions of
z = r^2, interpolated at n+1 Chebyshev nodes of [0, R^2]. The interpolating polynomial is
solved in exact rational arithmetic (fractions) from the Taylor series of S and C (exact
rationals too), then rounded to float64. The error is measured by evaluating the float64
polynomial exactly as sincos.h does (Horner, float64) at 2001 points of [0, R] against a
60-digit reference, so it includes float64 rounding.
"""
from decimal import Decimal, getcontext
from fractions import Fraction as F
import math

getcontext().prec = 60


def reference(x, cos):
    x = Decimal(x)
    total, term, k = Decimal(0), (Decimal(1) if cos else x), (0 if cos else 1)
    while abs(term) > Decimal(10) ** -55:
        total += term
        term = -term * x * x / ((k + 1) * (k + 2))
        k += 2
    return total


def S(z):  # (sin r - r) / r^3 = sum_{k>=1} (-1)^k z^(k-1) / (2k+1)!
    return sum(F((-1) ** k, math.factorial(2 * k + 1)) * z ** (k - 1) for k in range(1, 30))


def C(z):  # (cos r - 1 + z/2) / z^2 = sum_{k>=2} (-1)^k z^(k-2) / (2k)!
    return sum(F((-1) ** k, math.factorial(2 * k)) * z ** (k - 2) for k in range(2, 30))


def fit(f, n, R):
    L = F(R) ** 2
    nodes = [(L / 2) * (1 + F(math.cos(math.pi * (2 * j + 1) / (2 * (n + 1))))) for j in range(n + 1)]
    A = [[x ** i for i in range(n + 1)] for x in nodes]
    b = [f(x) for x in nodes]
    for c in range(n + 1):  # Gauss-Jordan, exact
        for r in range(n + 1):
            if r != c and A[r][c] != 0:
                g = A[r][c] / A[c][c]
                A[r] = [A[r][k] - g * A[c][k] for k in range(n + 1)]
                b[r] -= g * b[c]
    return [float(b[i] / A[i][i]) for i in range(n + 1)]


def horner(q, z):
    p = q[-1]
    for c in reversed(q[:-1]):
        p = c + z * p
    return p


def error(q, R, cos):
    worst = 0
    for j in range(2001):
        r = R * j / 2000
        z = r * r
        v = 1.0 + z * (-0.5 + z * horner(q, z)) if cos else r + r * z * horner(q, z)
        worst = max(worst, abs(Decimal(v) - reference(r, cos)))
    return float(worst)


for label, f, n, R, cos in [
    ('full sin, r^3..r^11 (PS_S*)', S, 4, math.pi / 4, False),
    ('full cos, r^4..r^12 (PS_C*)', C, 4, math.pi / 4, True),
    ('float32-result sin, r^3..r^7 (PS_F*)', S, 2, math.pi / 4, False),
    ('float32-result cos, r^4..r^8 (PS_G*)', C, 2, math.pi / 4, True),
    ('ps_cos on |r| <= pi/2, r^4..r^14 (PS_H*)', C, 5, math.pi / 2, True),
]:
    q = fit(f, n, R)
    print(f'{label}: max error {error(q, R, cos):.2e}')
    print('   ', ', '.join(repr(c) for c in q))
