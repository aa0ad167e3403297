// Checker speed: 1,000 representative legality queries (dependence tests on a 3-deep gemm
// nest, fission and commuting on gemm with an initialisation, coverage tests for staging
// windows on a tiled gemm), timed one by one. Reports the per-query median and 90th
// percentile, with the query cache off (every query solved by Z3) and on.
#include <benchmark/benchmark.h>
#include <exocpp/exocpp.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#include "checker/checker.h"

namespace {

using namespace exocpp;
using namespace exocpp::checker;

const char* kSource = R"(
def gemm(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]

def gemm_init(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    for i in seq(0, N):
        for j in seq(0, M):
            C[i, j] = 0.0
            for k in seq(0, K):
                C[i, j] += A[i, k] * B[k, j]

def gemm_tiled(N: size, M: size, K: size, A: f32[N, K] @ DRAM, B: f32[K, M] @ DRAM, C: f32[N, M] @ DRAM):
    assert M % 16 == 0
    for i in seq(0, N):
        for jo in seq(0, M / 16):
            for k in seq(0, K):
                for ji in seq(0, 16):
                    C[i, 16 * jo + ji] += A[i, k] * B[k, 16 * jo + ji]
)";

Stmt find_loop(const Block& b, const std::string& iter) {
  for (const Stmt& s : b) {
    if (const ForNode* f = s.as<ForNode>()) {
      if (f->iter.name() == iter) return s;
      if (Stmt r = find_loop(f->body, iter); r.defined()) return r;
    }
  }
  return Stmt();
}

std::vector<ScopeVar> scope_of(const Context& ctx) {
  std::vector<ScopeVar> vs;
  for (const FnArg& a : ctx.proc().args()) vs.push_back({a.name, a.type});
  for (const Scope& s : ctx.scopes())
    if (s.kind == Scope::Loop) vs.push_back({s.loop->iter, Type(ScalarKind::Index)});
  return vs;
}

// The distinct queries, each a closure returning its answer.
std::vector<std::function<Answer()>> representative_queries() {
  static Module m = parse_module(kSource);
  std::vector<std::function<Answer()>> qs;
  Proc g = m.proc("gemm"), gi = m.proc("gemm_init"), gt = m.proc("gemm_tiled");
  for (const char* it : {"i", "j", "k"}) {
    Stmt l = find_loop(g.body(), it);
    Context c = Context::at(g, l);
    qs.push_back([c, l] { return loop_iterations_commute(c, l); });
    qs.push_back([c, l] { return loop_is_parallelizable(c, l); });
  }
  for (const char* it : {"i", "j"}) {
    Stmt l = find_loop(g.body(), it);
    Context c = Context::at(g, l);
    qs.push_back([c, l] { return loops_can_interchange(c, l); });
  }
  {
    Stmt j = find_loop(gi.body(), "j");
    Context c = Context::at(gi, j);
    qs.push_back([c, j] { return can_fission(c, j, 1); });
    const Block& body = j.as<ForNode>()->body;
    Context cb = Context::at(gi, body[0]);
    qs.push_back([cb, body] { return stmts_commute(cb, body[0], body[1]); });
  }
  struct Cov {
    const char* loop;
    const char* window;
  };
  for (Cov cov : {Cov{"k", "C[i, 16 * jo : 16 * jo + 16]"},
                  Cov{"ji", "B[k, 16 * jo : 16 * jo + 16]"}, Cov{"k", "A[i, 0 : K]"},
                  Cov{"k", "C[i, 16 * jo : 16 * jo + 8]"}, Cov{"jo", "C[i, 0 : M]"}}) {
    Stmt l = find_loop(gt.body(), cov.loop);
    Context c = Context::at(gt, l);
    Expr w = parse_expr(cov.window, scope_of(c), {}, true);
    qs.push_back([c, l, w] { return window_covers(c, w, Block{l}); });
  }
  return qs;
}

void run_queries(benchmark::State& state, bool cache) {
  std::vector<std::function<Answer()>> qs = representative_queries();
  Settings old = settings();
  set_settings({old.timeout_ms, cache});
  clear_query_cache();
  std::vector<double> times;
  double verdicts[3] = {0, 0, 0};
  for (auto _ : state) {
    times.clear();
    verdicts[0] = verdicts[1] = verdicts[2] = 0;
    for (int n = 0; n < 1000; ++n) {
      auto t0 = std::chrono::steady_clock::now();
      Answer a = qs[static_cast<size_t>(n) % qs.size()]();
      auto t1 = std::chrono::steady_clock::now();
      verdicts[a.verdict] += 1;
      times.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  set_settings(old);
  std::sort(times.begin(), times.end());
  state.counters["median_us"] = times[times.size() / 2];
  state.counters["p90_us"] = times[times.size() * 9 / 10];
  state.counters["distinct"] = static_cast<double>(qs.size());
  state.counters["proved"] = verdicts[Answer::Proved];
  state.counters["refuted"] = verdicts[Answer::Refuted];
  state.counters["unknown"] = verdicts[Answer::Unknown];
}

void BM_Checker1000Queries_NoCache(benchmark::State& state) { run_queries(state, false); }
void BM_Checker1000Queries_Cached(benchmark::State& state) { run_queries(state, true); }

BENCHMARK(BM_Checker1000Queries_NoCache)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Checker1000Queries_Cached)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
