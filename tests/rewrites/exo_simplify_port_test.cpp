// Ports of the `simplify` cases of Exo's tests/test_schedules.py: each proc simplified and
// printed must equal Exo's golden text exactly (the normal form of core/index_normal_form.h),
// and compute what the input computes. Each test names the Exo case it ports.
#include "rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

// The simplified proc prints as Exo's golden and agrees with the input in the interpreter
// (size arguments drawn, including the smallest the asserts admit).
void expect_exo_golden(const std::string& src, const std::string& golden) {
  Proc p = parse_proc(src);
  Proc q = simplify(p);
  EXPECT_EQ(to_string(q), golden);
  expect_equivalent(p, q);
}

// test_simplify
TEST(ExoSimplifyPort, Simplify) {
  expect_exo_golden(R"(def foo(n: size, m: size):
    x: R[n, 16 * (n + 1) - n * 16, (10 + 2) * m - m * 12 + 10]
    for i in seq(0, 4 * (n + 2) - n * 4 + n * 5):
        pass
    y: R[10]
    y[n * 4 - n * 4 + 1] = 0.0
)",
                    R"(def foo(n: size, m: size):
    x: R[n, 16, 10] @ DRAM
    for i in seq(0, 8 + 5 * n):
        pass
    y: R[10] @ DRAM
    y[1] = 0.0
)");
}

// test_simplify4
TEST(ExoSimplifyPort, Simplify4) {
  expect_exo_golden(R"(def bar():
    for i in seq(0, 3):
        for j in seq(0, i * 16 + 16 - i * 16):
            pass
)",
                    R"(def bar():
    for i in seq(0, 3):
        for j in seq(0, 16):
            pass
)");
}

// test_simplify_loop_bounds
TEST(ExoSimplifyPort, SimplifyLoopBounds) {
  expect_exo_golden(R"(def foo(n: size):
    for i in seq(2 + 5 + n, 9 + 8 + n):
        pass
)",
                    R"(def foo(n: size):
    for i in seq(7 + n, 17 + n):
        pass
)");
}

// test_simplify_nested_div
TEST(ExoSimplifyPort, SimplifyNestedDiv) {
  expect_exo_golden(R"(def foo(n: size):
    x: f32
    for i in seq(0, (n / 4) / 3 / 2):
        x = 0.0
)",
                    R"(def foo(n: size):
    x: f32 @ DRAM
    for i in seq(0, n / 24):
        x = 0.0
)");
}

// test_simplify_index_div
TEST(ExoSimplifyPort, SimplifyIndexDiv) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 3) / 3] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(3 + 2 * j + 8 * i) / 3] = 1.0
)");
}

// test_simplify_index_div1
TEST(ExoSimplifyPort, SimplifyIndexDiv1) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 3) / 2] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[1 + j + 4 * i] = 1.0
)");
}

// test_simplify_index_div2
TEST(ExoSimplifyPort, SimplifyIndexDiv2) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 24) / 2] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[12 + j + 4 * i] = 1.0
)");
}

// test_simplify_index_mod
TEST(ExoSimplifyPort, SimplifyIndexMod) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 3) % 5] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(3 + 2 * j + 8 * i) % 5] = 1.0
)");
}

// test_simplify_index_mod1
TEST(ExoSimplifyPort, SimplifyIndexMod1) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 3) % 3] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(2 * j + 8 * i) % 3] = 1.0
)");
}

// test_simplify_index_mod2
TEST(ExoSimplifyPort, SimplifyIndexMod2) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 4 + 2 * j + 3) % 2] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[1] = 1.0
)");
}

// test_simplify_index_mod3
TEST(ExoSimplifyPort, SimplifyIndexMod3) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(i * 4 + i * 3 + 2 * j + 3) % 2] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(3 + 7 * i) % 2] = 1.0
)");
}

// test_simplify_index_mod4
TEST(ExoSimplifyPort, SimplifyIndexMod4) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[((i * 6 + i * 4 + 5 * j + 9) % 5 + 2 * i + 2) / 2] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[3 + i] = 1.0
)");
}

// test_simplify_index_nested_div_mod
TEST(ExoSimplifyPort, SimplifyIndexNestedDivMod) {
  expect_exo_golden(R"(def bar(x: R[1000]):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[((((i * 4 + i * 12 + 2 * j + 2) % 2) + (20 * i + 40 * j) / 5) / 2 + (3 + 8 * j)) % 4] = 1.0
)",
                    R"(def bar(x: R[1000] @ DRAM):
    for i in seq(0, 4):
        for j in seq(0, 5):
            x[(3 + 2 * i) % 4] = 1.0
)");
}

// test_simplify_index_div3
TEST(ExoSimplifyPort, SimplifyIndexDiv3) {
  expect_exo_golden(R"(def bar(N: size, x: R[N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[(io * 4 + ii) / 4] = 1.0
)",
                    R"(def bar(N: size, x: R[N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[io] = 1.0
)");
}

// test_simplify_index_div4
TEST(ExoSimplifyPort, SimplifyIndexDiv4) {
  expect_exo_golden(R"(def bar(N: size, x: R[N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[(io * 4 + ii + 8) / 4] = 1.0
)",
                    R"(def bar(N: size, x: R[N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[2 + io] = 1.0
)");
}

// test_simplify_index_mod5
TEST(ExoSimplifyPort, SimplifyIndexMod5) {
  expect_exo_golden(R"(def bar(N: size, x: R[N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[(io * 4 + ii) % 4] = 1.0
)",
                    R"(def bar(N: size, x: R[N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[ii] = 1.0
)");
}

// test_simplify_index_div_fail
TEST(ExoSimplifyPort, SimplifyIndexDivFail) {
  expect_exo_golden(R"(def bar(N: size, x: R[1 + N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[(io * 4 + ii + 1) / 4] = 1.0
)",
                    R"(def bar(N: size, x: R[1 + N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 4):
            x[(1 + ii + 4 * io) / 4] = 1.0
)");
}

// test_simplify_index_div_fail1
TEST(ExoSimplifyPort, SimplifyIndexDivFail1) {
  expect_exo_golden(R"(def bar(N: size, x: R[1 + N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 5):
            x[(io * 4 + ii) / 4] = 1.0
)",
                    R"(def bar(N: size, x: R[1 + N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 5):
            x[(ii + 4 * io) / 4] = 1.0
)");
}

// test_simplify_index_div_fail2
TEST(ExoSimplifyPort, SimplifyIndexDivFail2) {
  expect_exo_golden(R"(def bar(N: size, x: R[2 * N]):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 5):
            x[(N + ii + 4 * io) / 2] = 1.0
)",
                    R"(def bar(N: size, x: R[2 * N] @ DRAM):
    assert N >= 1
    assert N % 4 == 0
    for io in seq(0, N / 4):
        for ii in seq(0, 5):
            x[(N + ii + 4 * io) / 2] = 1.0
)");
}

// test_simplify_index_div6
TEST(ExoSimplifyPort, SimplifyIndexDiv6) {
  expect_exo_golden(R"(def bar(N: size):
    for i in seq(0, N):
        for j in seq(0, 4):
            if (i * 4 + j) / 16 > 0:
                pass
)",
                    R"(def bar(N: size):
    for i in seq(0, N):
        for j in seq(0, 4):
            if i / 4 > 0:
                pass
)");
}

// test_simplify_logical
TEST(ExoSimplifyPort, SimplifyLogical) {
  expect_exo_golden(R"(def foo(n: size):
    if (n > 0 and True) or (False and n == 1):
        pass
    if n > 4 or True:
        pass
)",
                    R"(def foo(n: size):
    if n > 0:
        pass
    pass
)");
}

}  // namespace
