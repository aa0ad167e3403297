// tile2d (rewrites/tile2d.cpp): its results, its refusals and the interpreter
// equivalence of what it accepts. A test ported from Exo names the Exo case in its comment.
#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "rewrite_test_util.h"
#include "rewrites/composites.h"
#include "rewrites/fixtures.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

const char* kGemm = R"(def gemm(N: size, M: size, A: f32[N, M] @ DRAM, B: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            B[i, j] = A[i, j] + 1.0
)";

// Trust (new names): every introduced name goes through rw::check_new_name.
TEST(Tile2d, Tile2dRefusesBadNames) {
  Proc p = parse_proc(kNamesTwoLoops);
  expect_all_refused("divide_loop", [&](const std::string& n) {
    try {
      tile2d(p, "i j", {2, 2}, {n, "jo", "ii", "ji"});
    } catch (const SchedulingError& e) {
      // tile2d runs divide_loop: the refusal names the primitive that refused.
      throw SchedulingError("divide_loop", e, e.reason());
    }
  });
}

TEST(Tile2d, TilesWithGuards) {
  Proc p = parse_proc(kGemm);
  Proc q = tile2d(p, "i j", {4, 8}, {"io", "jo", "ii", "ji"});
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 6}, {"M", 11}});
  expect_equivalent(p, q);
}

// The partial tiles cut out as their own loops: the full tiles run without a test.
TEST(Tile2d, TilesWithCutTails) {
  for (Tail tail : {Tail::Cut, Tail::CutAndGuard}) {
    Proc p = parse_proc(kGemm);
    Proc q = tile2d(p, "i j", {4, 8}, {"io", "jo", "ii", "ji"}, {.tail = tail});
    const std::string text = to_string(q);
    EXPECT_NE(text.find(R"(    for io in seq(0, N / 4):
        for jo in seq(0, M / 8):
            for ii in seq(0, 4):
                for ji in seq(0, 8):
                    B[4 * io + ii, 8 * jo + ji] = A[4 * io + ii, 8 * jo + ji] + 1.0)"),
              std::string::npos)
        << q;
    EXPECT_EQ(text.find("if 4 * io + ii < N"), std::string::npos) << q;
    EXPECT_EQ(text.find("if ") == std::string::npos, tail == Tail::Cut) << q;
    for (auto [n, m] : {std::pair{6, 11}, {8, 16}, {3, 5}, {1, 1}, {9, 17}})
      expect_equivalent(p, q, {{"N", n}, {"M", m}});
  }
}

TEST(Tile2d, TilesPerfectly) {
  Proc p = parse_proc(R"(def f(N: size, M: size, A: f32[N, M] @ DRAM):
    assert N % 4 == 0
    assert M % 2 == 0
    for i in seq(0, N):
        for j in seq(0, M):
            A[i, j] = 1.0
)");
  Proc q = tile2d(p, p.body_cursor()[0], {4, 2}, {"io", "jo", "ii", "ji"}, {.perfect = true});
  expect_golden(to_string(q));
  expect_equivalent(p, q, {{"N", 8}, {"M", 6}});
}

TEST(Tile2d, RefusesImperfectSizesWhenPerfectIsAsked) {
  Proc p = parse_proc(kGemm);
  expect_refused(
      [&] {
        tile2d(p, "i j", {4, 8}, {"io", "jo", "ii", "ji"}, {.perfect = true});
      },
      "divide_loop", ErrorCode::NotProved, "checker.refuted", "divisible");
}

TEST(Tile2d, RefusesAMissingLoopPair) {
  Proc p = parse_proc(kGemm);
  expect_refused(
      [&] {
        tile2d(p, "j i", {4, 8}, {"io", "jo", "ii", "ji"});
      },
      "tile2d", ErrorCode::NotFound, "target.no_match",
      "no loop over j whose only statement is a loop over i");
}

TEST(Tile2d, RefusesTheWrongNumberOfNames) {
  Proc p = parse_proc(kGemm);
  expect_refused(
      [&] {
        tile2d(p, "i j", {4, 8}, {"io", "jo"});
      },
      "tile2d", ErrorCode::BadArgument, "arg.invalid", "four new loop names");
}

}  // namespace
