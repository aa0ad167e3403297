// ?rotmg (the modified Givens rotation H, with rescaled d1, d2 and x1, that zeroes the second
// component of (sqrt(d1) x1, sqrt(d2) y1)) against the reference BLAS: a table covering every
// branch (flags -2, -1, 0 and 1, negative d1 or d2, zero x1, y1, d1 or d2) and the rescaling of
// d1 and d2 by 4096^2 in each direction; and repeated rescaling, where LAPACK 3.11's H is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "level1_checks.h"

namespace exoblas_test {
namespace {

struct Inputs {
  double d1, d2, x1, y1;
};

// At most one rescaling step in all, where LAPACK 3.11 and its fixed successors agree. The
// values keep |d1 x1^2| and |d2 y1^2| apart (or exactly equal), and d1, d2 away from the
// thresholds 4096^2 and 4096^-2, so that rounding cannot switch branches.
const Inputs kTable[] = {
    {1, 1, 1, 1},            // |q1| == |q2| exactly: flag 1
    {2, 1, 3, 0.5},          // |q1| > |q2|: flag 0
    {0.5, 4, 1, 2},          // |q1| < |q2|: flag 1
    {0.3, 0.7, -1.9, 0.45},  // flag 1, non-dyadic
    {1.3, 0.2, 2.1, -0.6},   // flag 0, non-dyadic
    {1, -0.25, 2, 1},        // flag 0 with d2 < 0: u = 1 - h12*h21 = 0.9375
    {-1, 2, 3, 4},           // d1 < 0: flag -1, H, d1, d2 and x1 zeroed
    {-1, 0, 3, 4},           // d1 < 0 before d2*y1 == 0
    {1, -2, 1, 1},           // |q1| < |q2| with q2 < 0: flag -1, all zeroed
    {1, 0, 2, 3},            // d2*y1 == 0: flag -2, nothing else written
    {1, 2, 3, 0},            // the same through y1
    {0, 2, 3, 4},            // d1 == 0: flag 1, d2' = 0
    {1, 2, 0, 3},            // x1 == 0: flag 1, h11 = h22 = 0
    {0, 0, 1, 1},            // flag -2
    {1e-10, 1e-6, 1000, 1},  // flag 0, d1 rescaled up once
    {1e8, 1, 1, 1},          // flag 0, d1 rescaled down once
    {1, 1e-3, 1e-3, 1e-3},   // flag 0, d2 in range
    {1, 1e-10, 1, 1},        // flag 0, d2 rescaled up once
    {1, -1e8, 1e5, 1},       // flag 0, d2 < 0 rescaled down once
    {1, 1e-10, 1e-3, 1e3},   // flag 1, d1 (= d2 / u) rescaled up once
    {1e-9, 1, 1, 1},         // flag 1, d2 (= d1 / u) rescaled up once
    {1e9, 1, 1, 1},          // flag 0, d1 rescaled down once
    {1, 1e9, 1e-3, 1},       // flag 1, d1 rescaled down once
};

template <class T>
void table() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (const Inputs& in : kTable) {
    compare_rotmg<T>(p, m, T(in.d1), T(in.d2), T(in.x1), T(in.y1));
    compare_rotmg<T>(p, m, T(in.d1), T(in.d2), T(-in.x1), T(in.y1));
    compare_rotmg<T>(p, m, T(in.d1), T(in.d2), T(in.x1), T(-in.y1));
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotmg, SrotmgMatchesReferenceOnTable) { table<float>(); }
TEST(Level1Rotmg, DrotmgMatchesReferenceOnTable) { table<double>(); }

// What any correct H satisfies, read from param by its flag: H (x1, y1) = (x1', 0) and
// H^T diag(d1', d2') H = diag(d1, d2) (the weighted rotation D'^(1/2) H D^(-1/2) is
// orthogonal). Each side has a few products of values carrying at most six roundings each:
// 32 eps of the terms' magnitude is ample, and a 4096-fold error in one entry is not close.
template <class T>
void check_rotmg_invariants(Mismatches& m, const std::string& call, const Inputs& in,
                            const RotmgResult<T>& r) {
  const double flag = r.param[0];
  double h11 = r.param[1], h21 = r.param[2], h12 = r.param[3], h22 = r.param[4];
  if (flag == 0) {
    h11 = h22 = 1;
  } else if (flag == 1) {
    h12 = 1;
    h21 = -1;
  } else if (flag != -1) {
    m.add(call + ": flag " + show(r.param[0]) + ", expected -1, 0 or 1");
    return;
  }
  const double tol = 32 * kEps<T>;
  auto expect_near = [&](const char* what, double lhs, double rhs, double magnitude) {
    if (!(std::fabs(lhs - rhs) <= tol * magnitude)) {
      char s[160];
      std::snprintf(s, sizeof s,
                    ": %s: %.9g against %.9g (flag %g, h11 %g, h21 %g, h12 %g, h22 %g)", what, lhs,
                    rhs, flag, h11, h21, h12, h22);
      m.add(call + s);
    }
  };
  const double x1 = T(in.x1), y1 = T(in.y1), d1 = T(in.d1), d2 = T(in.d2);
  expect_near("first component of H (x1, y1) against x1'", h11 * x1 + h12 * y1, r.x1,
              std::fabs(h11 * x1) + std::fabs(h12 * y1));
  expect_near("second component of H (x1, y1)", h21 * x1 + h22 * y1, 0,
              std::fabs(h21 * x1) + std::fabs(h22 * y1));
  const double e1 = r.d1, e2 = r.d2;
  expect_near("(H^T D' H)[0][0] against d1", h11 * e1 * h11 + h21 * e2 * h21, d1,
              std::fabs(h11 * e1 * h11) + std::fabs(h21 * e2 * h21));
  expect_near("(H^T D' H)[1][1] against d2", h12 * e1 * h12 + h22 * e2 * h22, d2,
              std::fabs(h12 * e1 * h12) + std::fabs(h22 * e2 * h22));
  expect_near("(H^T D' H)[0][1] against 0", h11 * e1 * h12 + h21 * e2 * h22, 0,
              std::fabs(h11 * e1 * h12) + std::fabs(h21 * e2 * h22));
}

// d1 or d2 that need several rescaling steps, or one each. LAPACK 3.11's loops reset h21 = -1
// and h12 = 1 on every step after the first (`ELSE` where `ELSE IF (SFLAG.EQ.ONE)` is meant:
// Reference-LAPACK issue #244, fixed upstream after 3.12; OpenBLAS fixed the same in 2018,
// issues #365 and #1452), so its H is wrong here. The library's H must satisfy the invariants;
// d1', d2' and x1', which the defect does not touch, must match the reference's.
const Inputs kRepeatedRescaling[] = {
    {1e-20, 1, 1, 1e-3},   // flag 1, d2 rescaled twice
    {1e20, 1e20, 1, 1},    // flag 1, d1 and d2 twice each
    {1, 1e-30, 1, 1e10},   // flag 0, d2 four times
    {1e-10, 1e-12, 1, 1},  // flag 0, d1 once and then d2 once
    {1e8, 1e-10, 1, 1},    // flag 0, d1 down once, d2 up once
    {1e-25, 1e-25, 1, 2},  // flag 1, three times each
    {1e30, 1, 1e-10, 1},   // flag 0, d1 down four times
};

template <class T>
void repeated_rescaling() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (const Inputs& in : kRepeatedRescaling) {
    const std::string call = call_text(
        name_of(p, "rotmg"), {{"d1", in.d1}, {"d2", in.d2}, {"x1", in.x1}, {"y1", in.y1}});
    check_rotmg_invariants<T>(m, call, in,
                              run_rotmg(p.lib, T(in.d1), T(in.d2), T(in.x1), T(in.y1)));
    compare_rotmg<T>(p, m, T(in.d1), T(in.d2), T(in.x1), T(in.y1), /*with_h=*/false);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotmg, SrotmgRescalesRepeatedlyToACorrectRotation) { repeated_rescaling<float>(); }
TEST(Level1Rotmg, DrotmgRescalesRepeatedlyToACorrectRotation) { repeated_rescaling<double>(); }

// The invariants hold for the reference's H wherever it rescales at most once (the table),
// so the check above tests H and not itself.
template <class T>
void invariants_hold_for_reference() {
  const Pair<T> p = fortran_pair<T>();
  Mismatches m;
  for (const Inputs& in : kTable) {
    const RotmgResult<T> r = run_rotmg(p.ref, T(in.d1), T(in.d2), T(in.x1), T(in.y1));
    const double flag = r.param[0];
    if (flag == -2 || (flag == -1 && r.d1 == 0 && r.d2 == 0)) continue;  // no rotation
    check_rotmg_invariants<T>(
        m,
        call_text("reference " + name_of(p, "rotmg"),
                  {{"d1", in.d1}, {"d2", in.d2}, {"x1", in.x1}, {"y1", in.y1}}),
        in, r);
  }
  EXPECT_TRUE(m.empty()) << m;
}
TEST(Level1Rotmg, SrotmgInvariantsHoldForTheReferenceOnTable) {
  invariants_hold_for_reference<float>();
}
TEST(Level1Rotmg, DrotmgInvariantsHoldForTheReferenceOnTable) {
  invariants_hold_for_reference<double>();
}

}  // namespace
}  // namespace exoblas_test
