// Procs and helpers that the tests of more than one operation share (each is defined here once;
// a test file includes this header when it uses one).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rewrites/rewrite_test_util.h"

namespace exocpp::testing {

// Exo's new_config_f32, new_control_config and new_config_ld.
inline const char* kConfigAB = R"(
config ConfigAB:
    a: f32
    b: f32
)";

inline const char* kConfigControl = R"(
config ConfigControl:
    i: index
    s: stride
    b: bool
)";

inline const char* kConfigLoad = R"(
config ConfigLoad:
    scale: f32
    src_stride: stride
)";

// A proc printed back, without the config declarations in front of it.
inline std::string printed(const Proc& p) { return to_string(p); }

inline const char* kTensorsAndWindows = R"(def bar(n: size, x: [i8][n]):
    pass

def foo(n: size, y: i8[n]):
    assert n > 1
    a = y[0:n - 1]
    bar(n, y)
    bar(n - 1, y[0:n - 1])
)";

inline const char* kMaybeNegativeRange = R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N - 8):
        A[i + 8] = 1.0
)";

inline const char* kNonNegativeRange = R"(
def f(N: size, A: f32[N] @ DRAM):
    assert N >= 8
    for i in seq(0, N - 8):
        A[i + 8] = 1.0
)";

inline Proc proc_of(const std::string& src, const std::string& name) {
  return parse_module(src).proc(name);
}

inline const char* kEvalOnceConfig = R"(
config C:
    n: index
    k: index
)";

inline Proc eval_once_proc(const std::string& body) {
  return parse_proc(std::string(kEvalOnceConfig) + body);
}

inline const char* kEvalOncePhrase = "has the same value where the rewritten proc evaluates it";

inline const char* kNamesSrc = R"(
def f(N: size, A: f32[N] @ DRAM):
    for i in seq(0, N):
        A[i] = 1.0
)";

inline const char* kNamesTwoLoops = R"(
def g(N: size, A: f32[N, 8] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, 8):
            A[i, j] = 1.0
)";

// Each bad name, with a phrase its refusal must contain.
struct BadName {
  std::string name, phrase;
};

inline const std::vector<BadName> kBadNames = {
    {"for", "keyword"},    {"if", "keyword"},          {"True", "keyword"},
    {"def", "keyword"},    {"and", "keyword"},         {"a b", "not a name"},
    {"c\n", "not a name"}, {"", "cannot be empty"},    {"1abc", "not a name"},
    {"x-y", "not a name"}, {"\xc3\xa9", "not a name"}, {"a.b", "not a name"},
};

// Runs `op` with every bad name; each must be refused by `op_name`, naming the name.
inline void expect_all_refused(const std::string& op_name,
                               const std::function<void(const std::string&)>& op) {
  for (const BadName& b : kBadNames) {
    SCOPED_TRACE("name '" + b.name + "'");
    expect_refused([&] { op(b.name); }, op_name, b.phrase);
  }
}

inline const char* kNamesCaller = R"(
def leaf(A: f32[4] @ DRAM):
    A[0] = 1.0

def mid(A: f32[4] @ DRAM):
    leaf(A)

def top(A: f32[4] @ DRAM):
    mid(A)
    A[1] = 2.0
)";

// Integer inputs near the limits of i8 (products and sums overflow i8 but not i32).
inline CompareProcsOptions near_limits(int lo = 64, int hi = 120) {
  CompareProcsOptions o;
  o.trials = 4;
  o.inputs.lo = lo;
  o.inputs.hi = hi;
  return o;
}

inline const char* kCallWritesScalar = R"(
config Cfg:
    v: f32

def sub(s: f32 @ DRAM):
    s = 2.0

def f(s: f32 @ DRAM):
    sub(s)
)";

inline const char* kParLoopNeedle = "a par loop, are independent";

inline const char* kTmpRows = R"(def f(N: size, A: f32[N, 4] @ DRAM, B: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        t: f32[4] @ DRAM
        for k in seq(0, 4):
            t[k] = A[i, k] * 2.0
        for k in seq(0, 4):
            B[i, k] = t[k]
)";

inline Cursor tmp_alloc(const Proc& p) { return p.body_cursor()[0].body()[0]; }

inline const char* kMatTmp = R"(def g(N: size, A: f32[N, 4] @ DRAM):
    t: f32[N, 3, 4] @ DRAM
    for i in seq(0, N):
        for k in seq(0, 4):
            t[i, 1, k] = A[i, k]
    for i in seq(0, N):
        for k in seq(0, 4):
            A[i, k] = t[i, 1, k] * 3.0
)";

inline const char* kSinkOk = R"(def h(N: size, A: f32[N] @ DRAM):
    t: f32 @ DRAM
    for i in seq(0, N):
        t = A[i]
        A[i] = t * t
)";

}  // namespace exocpp::testing
