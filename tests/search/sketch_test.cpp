// The template-free space (search/sketch.h): what its decisions do to a nest, that every
// candidate it builds computes what the plain proc computes, and that its recorded calls name
// the loops a script would.
#include "search/sketch.h"

#include <exocpp/exocpp.h>
#include <gtest/gtest.h>

#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::search;
using namespace exocpp::testing;

namespace {

const char* kMatmul =
    R"(def mm(A: f32[64, 64] @ DRAM, B: f32[64, 64] @ DRAM, C: f32[64, 64] @ DRAM):
    for i in seq(0, 64):
        for j in seq(0, 64):
            for k in seq(0, 64):
                C[i, j] += A[i, k] * B[k, j]
)";

const char* kTwoNests = R"(def two(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM, z: f32[N] @ DRAM):
    for i in seq(0, N):
        y[i] = x[i] * 2.0
    for i in seq(0, N):
        z[i] = y[i] + x[i]
)";

// Two stages: t is computed over the whole range, then read three times per output.
const char* kTwoStages = R"(def blur(N: size, x: f32[N + 2] @ DRAM, y: f32[N] @ DRAM):
    t: f32[N + 2] @ DRAM
    for i in seq(0, N + 2):
        t[i] = x[i] * 0.5
    for j in seq(0, N):
        y[j] = t[j] + t[j + 1] + t[j + 2]
)";

TEST(SketchSpace, OffersEachProducerAPlacement) {
  Proc p = parse_proc(kTwoStages);
  Choices c = Choices::random(1);
  sketch_space()(p, c);
  const Decision* at = c.trace().find("t_at");
  ASSERT_NE(at, nullptr) << c.trace().to_string();
  EXPECT_EQ(at->options, (std::vector<std::string>{"root", "inline", "j"}));
}

TEST(SketchSpace, InlinesAProducer) {
  Proc p = parse_proc(kTwoStages);
  Choices c = Choices::guided({{"t_at", "inline"}, {"n0_tile_j", "0"}, {"n0_par", "0"}}, 1);
  Proc q = sketch_space()(p, c);
  EXPECT_EQ(to_string(q).find("t["), std::string::npos) << to_string(q);
  EXPECT_EQ(compare_procs(p, q, {{"N", 9}}), "");
  EXPECT_EQ(c.script().front(), "p = compute_inline(p, \"i\");");
}

TEST(SketchSpace, ComputesAProducerAtAConsumerLoop) {
  Proc p = parse_proc(kTwoStages);
  Choices c = Choices::guided({{"t_at", "j"}, {"n0_tile_j", "0"}, {"n0_par", "0"}}, 1);
  Proc q = sketch_space()(p, c);
  // One top-level loop (the consumer), computing what it reads of t inside.
  int loops = 0;
  for (int i = 0; i < q.body_cursor().size(); ++i)
    loops += q.body_cursor()[i].stmt().as<ForNode>() != nullptr;
  EXPECT_EQ(loops, 1) << to_string(q);
  EXPECT_EQ(compare_procs(p, q, {{"N", 9}}), "");
  EXPECT_EQ(c.script().front(), "p = compute_and_store_at(p, \"i\", {\"j\"});");
}

TEST(SketchSpace, TilesAPerfectNestAndMovesTheTileLoopsOut) {
  Proc p = parse_proc(kMatmul);
  Choices c =
      Choices::replay(parse_trace("n0_tile_i=16 n0_tile_j=32 n0_tile_k=0 n0_order=0,1,2 n0_par=0"));
  Proc q = sketch_space()(p, c);
  EXPECT_TRUE(has(q, R"(for io in seq(0, 4):
        for jo in seq(0, 2):
            for ii in seq(0, 16):
                for ji in seq(0, 32):
                    for k in seq(0, 64):)"))
      << q;
  expect_equivalent(p, q);
  EXPECT_EQ(c.script(), (std::vector<std::string>{
                            "p = divide_loop(p, \"i\", 16, {\"io\", \"ii\"}, {.perfect = true});",
                            "p = divide_loop(p, \"j\", 32, {\"jo\", \"ji\"}, {.perfect = true});",
                            "p = reorder_loops(p, \"ii jo\");"}));
}

TEST(SketchSpace, OrdersThePointLoops) {
  Proc p = parse_proc(kMatmul);
  Choices c =
      Choices::replay(parse_trace("n0_tile_i=0 n0_tile_j=0 n0_tile_k=0 n0_order=0,2,1 n0_par=0"));
  Proc q = sketch_space()(p, c);
  EXPECT_TRUE(has(q, R"(for i in seq(0, 64):
        for k in seq(0, 64):
            for j in seq(0, 64):)"))
      << q;
  expect_equivalent(p, q);
  EXPECT_EQ(c.script(), (std::vector<std::string>{"p = reorder_loops(p, \"j k\");"}));
}

TEST(SketchSpace, AutoScheduleReturnsAProcThatComputesTheSame) {
  Proc p = parse_proc(kMatmul);
  TuneOptions o;
  o.trials = 3;
  o.population = 3;
  o.measure.min_repeats = 2;
  o.measure.max_repeats = 3;
  TuneResult r = auto_schedule(p, {}, o);
  EXPECT_EQ(compare_procs(p, r.best, {}), "");
  EXPECT_EQ(r.timed.size(), 3u);
}

// Decisions are named after the top-level statement of their nest: here n0 and n1, so a trace
// naming n2 misses n1's decisions.
TEST(SketchSpace, NestsAreNumberedByTheirStatement) {
  Proc p = parse_proc(kTwoNests);
  Choices c = Choices::replay(parse_trace("n0_tile_i=0 n0_par=0 n2_tile_i=0 n2_par=0"));
  EXPECT_THROW(sketch_space()(p, c), SearchError);
}

TEST(SketchSpace, GuardsATileOfAnExtentNotProvedDivisible) {
  Proc p = parse_proc(kTwoNests);
  Choices d = Choices::replay(
      parse_trace("n0_tile_i=8 n0_tail_i=guard n0_unroll=0 n0_par=0 n1_tile_i=0 n1_par=0"));
  Proc q = sketch_space()(p, d);
  EXPECT_TRUE(has(q, "if 8 * io + ii < N:")) << q;
  expect_equivalent(p, q, {{"N", 19}});
}

TEST(SketchSpace, CutsOffThePartialTileOfAnExtentNotProvedDivisible) {
  Proc p = parse_proc(kTwoNests);
  Choices d = Choices::replay(
      parse_trace("n0_tile_i=8 n0_tail_i=cut n0_unroll=0 n0_par=0 n1_tile_i=0 n1_par=0"));
  Proc q = sketch_space()(p, d);
  EXPECT_FALSE(has(q, "if 8 * io + ii < N:")) << q;
  EXPECT_TRUE(has(q, "for ii in seq(0, N % 8):")) << q;
  expect_equivalent(p, q, {{"N", 19}});
}

TEST(SketchSpace, NamesTheLaterOfTwoLoopsOverOneIteratorByItsOccurrence) {
  Proc p = parse_proc(kTwoNests);
  Choices c =
      Choices::replay(parse_trace("n0_tile_i=0 n0_par=0 n1_tile_i=16 n1_tail_i=guard n1_par=1"));
  Proc q = sketch_space()(p, c);
  EXPECT_EQ(c.script(),
            (std::vector<std::string>{"p = divide_loop(p, \"i #1\", 16, {\"io\", \"ii\"});",
                                      "p = set_loop_mode(p, \"io\", \"par\");"}));
  expect_equivalent(p, q, {{"N", 35}});
}

TEST(SketchSpace, UnrollsASmallInnermostLoop) {
  Proc p = parse_proc(R"(def f(N: size, A: f32[N, 4] @ DRAM):
    for i in seq(0, N):
        for k in seq(0, 4):
            A[i, k] = A[i, k] * 3.0
)");
  Choices c =
      Choices::replay(parse_trace("n0_tile_i=0 n0_tile_k=0 n0_order=0,1 n0_unroll=1 n0_par=0"));
  Proc q = sketch_space()(p, c);
  EXPECT_FALSE(has(q, "for k in")) << q;
  expect_equivalent(p, q, {{"N", 3}});
}

// Every candidate the space builds from random decisions is accepted or refused; each accepted
// one computes what the plain proc computes.
TEST(SketchSpace, EveryRandomCandidateIsEquivalentOrRefused) {
  for (const char* src : {kMatmul, kTwoNests, kTwoStages}) {
    Proc p = parse_proc(src);
    const std::map<std::string, int64_t> sizes = src == kMatmul
                                                     ? std::map<std::string, int64_t>{}
                                                     : std::map<std::string, int64_t>{{"N", 21}};
    int accepted = 0;
    for (uint64_t seed = 1; seed <= 24; ++seed) {
      Choices c = Choices::random(seed);
      try {
        Proc q = sketch_space()(p, c);
        ++accepted;
        EXPECT_EQ(compare_procs(p, q, sizes), "") << c.trace().to_string();
      } catch (const SchedulingError&) {
      }
    }
    EXPECT_GT(accepted, 0);
  }
}

TEST(SketchSpace, TuneReturnsTheBestScheduleAsCalls) {
  Proc p = parse_proc(kMatmul);
  TuneOptions o;
  o.seed = 3;
  o.trials = 4;
  o.population = 4;
  o.measure.min_repeats = 2;
  o.measure.max_repeats = 3;
  TuneResult r = tune(p, sketch_space(), o);
  std::string s = r.script();
  EXPECT_NE(s.find("Proc schedule_mm(Proc p) {"), std::string::npos) << s;
  if (!r.best_trace.decisions.empty()) {
    Choices c = Choices::replay(r.best_trace);
    sketch_space()(p, c);
    EXPECT_EQ(r.best_script, c.script());
  }
}

}  // namespace
