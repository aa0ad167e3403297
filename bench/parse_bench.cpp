// Front-end throughput: parse + type-check + print a generated proc of N statements.
// The cost must stay linear in N (compare the per-statement times of the 2,000 and 20,000 runs).
#include <benchmark/benchmark.h>
#include <exocpp/exocpp.h>

#include <string>

namespace {

// A proc of about `n` statements mixing loops, ifs, allocations, reductions and calls-free
// arithmetic, in the shape of a long unrolled schedule.
std::string generated_source(int n) {
  std::string s =
      "def big(N: size, A: f32[N, 16] @ DRAM, B: f32[N, 16] @ DRAM, x: f32 @ DRAM):\n"
      "    assert N >= 4\n";
  int stmts = 0;
  for (int k = 0; stmts < n; ++k) {
    std::string i = "i" + std::to_string(k);
    std::string t = "t" + std::to_string(k);
    s += "    for " + i + " in seq(0, N):\n";
    s += "        " + t + ": f32[16] @ DRAM\n";
    s += "        for j in seq(0, 16):\n";
    s += "            " + t + "[j] = A[" + i + ", j] * 2.0 + B[" + i + ", j]\n";
    s += "        if " + i + " < N - 1:\n";
    s += "            B[" + i + " + 1, " + std::to_string(k % 16) + "] += " + t + "[" +
         std::to_string((k * 7) % 16) + "]\n";
    s += "        else:\n";
    s += "            x += " + t + "[0]\n";
    stmts += 8;
  }
  return s;
}

void BM_ParseCheck(benchmark::State& state) {
  std::string src = generated_source(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    exocpp::Module m = exocpp::parse_module(src);
    benchmark::DoNotOptimize(m.procs.size());
  }
  state.SetComplexityN(state.range(0));
  state.counters["stmts"] = static_cast<double>(state.range(0));
}

void BM_Print(benchmark::State& state) {
  exocpp::Module m = exocpp::parse_module(generated_source(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    std::string out = exocpp::to_string(m.procs[0]);
    benchmark::DoNotOptimize(out.size());
  }
  state.SetComplexityN(state.range(0));
}

void BM_ParseCheckPrint(benchmark::State& state) {
  std::string src = generated_source(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    exocpp::Module m = exocpp::parse_module(src);
    std::string out = exocpp::to_string(m.procs[0]);
    benchmark::DoNotOptimize(out.size());
  }
  state.SetComplexityN(state.range(0));
  state.counters["per_stmt_ns"] = benchmark::Counter(
      static_cast<double>(state.range(0)),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_ParseCheck)->Arg(2000)->Arg(20000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_Print)->Arg(2000)->Arg(20000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_ParseCheckPrint)->Arg(2000)->Arg(20000)->Unit(benchmark::kMillisecond)->Complexity();

}  // namespace

BENCHMARK_MAIN();
