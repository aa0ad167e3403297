// Procs of Exo's tests/test_precision.py and tests/test_window.py that both ports use: the
// type-check/interpreter port (core/exo_precision_window_port_test.cpp) and the codegen port
// (codegen/exo_window_codegen_port_test.cpp). One text each, so the two check the same proc.
#pragma once

namespace exocpp::exo_port {

inline constexpr char kGoodPrec1[] = R"(
def good_prec1(n: size, m: size, x: f32[n, m] @ DRAM, y: f32[n, m] @ DRAM, res: f64[n, m] @ DRAM):
    for i in seq(0, n):
        rloc: f64[m] @ DRAM
        xloc: f32[m] @ DRAM
        yloc: f32[m] @ DRAM
        for j in seq(0, m):
            xloc[j] = x[i, j]
        for j in seq(0, m):
            yloc[j] = y[i, j]
        for j in seq(0, m):
            rloc[j] = xloc[j] + yloc[j]
        for j in seq(0, m):
            res[i, j] = rloc[j]
)";

inline constexpr char kWindow[] = R"(
def window(n: size, m: size, src: [i8][n, m] @ DRAM, dst: [i8][n, 16] @ DRAM):
    assert n <= 16
    assert m <= 16
    for i in seq(0, n):
        for j in seq(0, m):
            dst[i, j] = src[i, j]
)";

inline constexpr char kWindowStmt[] = R"(
def window_stmt(n: size, m: size, x: f32[n, m] @ DRAM):
    y = x[:, 0]
    z: f32[n] @ DRAM
    for i in seq(0, n):
        z[i] = y[i]
)";

inline constexpr char kWindowsOfWindows[] = R"(
def copy22(a: [f32][2, 2] @ DRAM, b: [f32][2, 2] @ DRAM):
    for i in seq(0, 2):
        for j in seq(0, 2):
            b[i, j] = a[i, j] + 1.0

def strides(n: size, m: size, x: f32[n, m] @ DRAM, out: f32[n, m] @ DRAM, s: f32[2] @ DRAM):
    assert n >= 4
    assert m >= 4
    col = x[0:n, 1]
    sub = col[1:n]
    blk = x[1:4, 1:4]
    inner = blk[1:3, 0:2]
    copy22(inner, out[0:2, 2:4])
    for i in seq(0, n - 1):
        if stride(sub, 0) == stride(x, 0):
            out[i + 1, 0] = sub[i]
    if stride(inner, 1) == 1:
        s[0] = 1.0
    if stride(blk, 0) == m:
        s[1] = 2.0
)";

}  // namespace exocpp::exo_port
