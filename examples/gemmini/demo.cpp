// gemmini_demo: runs each scheduled Gemmini kernel as emitted C on the functional model, checks
// its output byte for byte against the plain proc compiled as ordinary C on the same inputs,
// and prints one line per kernel:
//   RESULT <kernel> <shape> correct=<yes|no> macs=<n> cycles=<n> utilization=<f> config_writes=<n>
// `cycles` is the model's dependence-aware timeline (decoupled load, execute and store units
// that wait for the local rows they touch; gemmini_cycles_timeline), `utilization` MACs per
// cycle over 256. A second line gives the bound without dependences, the serial sum and the
// instruction counts. Exit status 1 when a kernel is wrong.
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "gemmini_model.h"
#include "gemmini_schedule.h"
#include "hwlibs/gemmini/gemmini.h"

using namespace exocpp;
namespace g = exocpp::gemmini;

namespace {

struct Kernel {
  std::string name, shape;
  Proc plain, scheduled;
  std::map<std::string, int64_t> sizes;
  std::string output;  // the argument compared byte for byte
};

// The values the plain proc's data arguments get: int8 data over its whole range, a scale that
// keeps most outputs inside int8 (some saturate), ReLU on.
std::vector<ArgValue> inputs(const Kernel& k, double scale) {
  std::vector<ArgValue> args = random_args(k.plain, k.sizes, 2026, {.lo = -128, .hi = 127});
  for (size_t i = 0; i < k.plain.args().size(); ++i) {
    const std::string& n = k.plain.args()[i].name.name();
    if (n == "scale") std::get<Buffer>(args[i]).set_flat(0, scale);
    if (n == "act") args[i] = true;
  }
  return args;
}

bool run(const Kernel& k, double scale) {
  std::vector<ArgValue> want = inputs(k, scale);
  // The scheduled proc's arguments by name (partial_eval may have fixed some sizes).
  std::map<std::string, ArgValue> named = by_name(k.plain, deep_copy(want));
  std::vector<ArgValue> got;
  for (const FnArg& a : k.scheduled.args()) got.push_back(named.at(a.name.name()));
  CompiledLibrary plain({k.plain}, "plain_" + k.name);
  plain.call(k.plain.name(), want);

  CompiledLibrary accel({k.scheduled}, "gemmini_" + k.name, g::model_compile_options());
  auto reset = reinterpret_cast<void (*)()>(accel.symbol("gemmini_reset"));
  auto counters =
      reinterpret_cast<const gemmini_counters* (*)()>(accel.symbol("gemmini_get_counters"));
  auto overlapped = reinterpret_cast<uint64_t (*)()>(accel.symbol("gemmini_cycles_overlapped"));
  auto serial = reinterpret_cast<uint64_t (*)()>(accel.symbol("gemmini_cycles_serial"));
  auto timeline = reinterpret_cast<uint64_t (*)()>(accel.symbol("gemmini_cycles_timeline"));
  auto utilization = reinterpret_cast<double (*)()>(accel.symbol("gemmini_utilization"));
  auto config_writes = reinterpret_cast<uint64_t (*)()>(accel.symbol("gemmini_config_writes"));
  reset();
  accel.call(k.scheduled.name(), got);

  std::string diff =
      compare_buffers(std::get<Buffer>(by_name(k.scheduled, got).at(k.output)),
                      std::get<Buffer>(by_name(k.plain, want).at(k.output)), k.output);
  const gemmini_counters& c = *counters();
  // The headline figure is the dependence-aware timeline; the bound without dependences and
  // the serial sum bracket it.
  const uint64_t cycles = timeline();
  const double busy = 256.0 * static_cast<double>(cycles ? cycles : 1);
  std::printf("RESULT %s %s correct=%s macs=%llu cycles=%llu utilization=%.3f config_writes=%llu\n",
              k.name.c_str(), k.shape.c_str(), diff.empty() ? "yes" : "no",
              static_cast<unsigned long long>(c.macs), static_cast<unsigned long long>(cycles),
              static_cast<double>(c.macs) / busy, static_cast<unsigned long long>(config_writes()));
  std::printf(
      "  bound_cycles=%llu (utilization %.3f) serial_cycles=%llu mvin=%llu (zeroing %llu) "
      "mvout=%llu preload=%llu compute=%llu load/exec/store busy=%llu/%llu/%llu\n",
      static_cast<unsigned long long>(overlapped()), utilization(),
      static_cast<unsigned long long>(serial()), static_cast<unsigned long long>(c.mvin),
      static_cast<unsigned long long>(c.mvin_zero), static_cast<unsigned long long>(c.mvout),
      static_cast<unsigned long long>(c.preload), static_cast<unsigned long long>(c.compute),
      static_cast<unsigned long long>(c.load_cycles),
      static_cast<unsigned long long>(c.exec_cycles_overlapped),
      static_cast<unsigned long long>(c.store_cycles));
  if (!diff.empty()) std::printf("  %s\n", diff.c_str());
  return diff.empty();
}

}  // namespace

int main() {
  try {
    Proc matmul = gemmini_example::plain_matmul();
    Proc matmul_scheduled = gemmini_example::schedule_matmul();
    bool ok = true;
    for (int64_t n : {64, 512}) {
      std::string s = std::to_string(n);
      Kernel k;
      k.name = "matmul";
      k.shape = s + "x" + s + "x" + s;
      k.plain = matmul;
      // At 512, the sizes fixed (partial_eval) let 256-row blocks of A halve B's loads.
      k.scheduled = n < 512 ? matmul_scheduled
                            : gemmini_example::schedule_matmul(
                                  partial_eval(matmul, {{"N", n}, {"M", n}, {"K", n}}), 256);
      k.sizes = {{"N", n}, {"M", n}, {"K", n}};
      k.output = "C";
      ok = run(k, n <= 64 ? 1.0 / 256 : 1.0 / 2048) && ok;
    }
    Kernel conv;
    conv.name = "conv";
    conv.shape = "4x58x58x64->64";
    conv.plain = gemmini_example::plain_conv();
    conv.scheduled = gemmini_example::schedule_conv();
    conv.sizes = {{"batch", 4}, {"OH", 56}, {"OW", 56}, {"CI", 64}, {"CO", 64}};
    conv.output = "out";
    ok = run(conv, 1.0 / 1024) && ok;
    return ok ? 0 : 1;
  } catch (const Error& e) {
    std::fprintf(stderr, "gemmini_demo: %s\n", e.what());
    return 1;
  }
}
