// The soak program: runs the random-schedule generator (tests/support/schedule_fuzz.h) with
// fresh seeds for as long as asked, printing the seed of every failure and, at the end, how many
// accepted steps were compared, how many procs were compiled and how many failures were found.
//
//   schedule_soak --seconds 3600 [--start SEED] [--stride K] [--steps 8] [--batch 25]
//   schedule_soak --seed SEED        replays one seed: prints its module, steps and failures
//   schedule_soak --ci 1 --start 1 --count 400   the CI test's options and seeds
//
// Seeds start, start + stride, start + 2 * stride, ... (scripts/soak.sh runs one process per
// core with the same start and stride = number of processes, offset by the process index).
// Exit status: 0 when no failure was found, 1 otherwise.
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "support/schedule_fuzz.h"

using namespace exocpp;

namespace {

void print_failure(const fuzz::Failure& f) {
  std::cout << "FAILURE seed " << f.seed << ": " << f.what << "\n" << std::flush;
}

// The seed being run (or the last of the batch being compiled), for the crash report: a crash
// is a failure too, and without its seed it could not be replayed.
volatile std::sig_atomic_t g_seed_lo = 0, g_seed_hi = 0;
volatile std::sig_atomic_t g_compiling = 0;

// Writes the crash line with async-signal-safe calls only.
void report_crash(const char* why) {
  char buf[160];
  size_t n = 0;
  auto put = [&](const char* t) {
    while (*t && n + 1 < sizeof buf) buf[n++] = *t++;
  };
  put("FAILURE seed ");
  const uint64_t seed = (static_cast<uint64_t>(static_cast<uint32_t>(g_seed_hi)) << 32) |
                        static_cast<uint32_t>(g_seed_lo);
  char digits[24];
  int d = 0;
  uint64_t v = seed;
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v && d < 24);
  while (d > 0 && n + 1 < sizeof buf) buf[n++] = digits[--d];
  put(": the soak crashed (");
  put(why);
  put(g_compiling ? ") compiling the batch that ends with this seed\n" : ") running this seed\n");
  [[maybe_unused]] ssize_t w = write(STDOUT_FILENO, buf, n);
}

void set_current_seed(uint64_t seed) {
  g_seed_lo = static_cast<std::sig_atomic_t>(static_cast<uint32_t>(seed));
  g_seed_hi = static_cast<std::sig_atomic_t>(static_cast<uint32_t>(seed >> 32));
}

extern "C" void on_fatal_signal(int sig) {
  report_crash(sig == SIGSEGV   ? "SIGSEGV"
               : sig == SIGABRT ? "SIGABRT"
               : sig == SIGFPE  ? "SIGFPE"
                                : "SIGBUS");
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_crash_reporter() {
  std::cout << std::flush;
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS}) std::signal(sig, on_fatal_signal);
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 60;
  uint64_t start =
      static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) %
      1000000000ull;
  uint64_t stride = 1, replay = 0;
  bool has_replay = false;
  int batch = 25;
  uint64_t count = UINT64_MAX;  // seeds to run at most
  fuzz::Options opts;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i], v = argv[i + 1];
    if (a == "--seconds")
      seconds = std::atof(v.c_str());
    else if (a == "--start")
      start = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--stride")
      stride = std::max<uint64_t>(1, std::strtoull(v.c_str(), nullptr, 10));
    else if (a == "--steps")
      opts.steps = std::atoi(v.c_str());
    else if (a == "--batch")
      batch = std::max(1, std::atoi(v.c_str()));
    else if (a == "--count")
      count = std::strtoull(v.c_str(), nullptr, 10);
    else if (a == "--ci") {
      if (v == "1") opts = fuzz::ci_options();
    } else if (a == "--seed") {
      replay = std::strtoull(v.c_str(), nullptr, 10);
      has_replay = true;
    } else {
      std::cerr << "unknown option " << a << "\n";
      return 2;
    }
  }
  set_validation(false);  // each step is compared explicitly (validate_step)

  if (has_replay) {
    fuzz::SeedResult r = fuzz::run_seed(replay, opts);
    std::cout << "module:\n"
              << r.source << "\naccepted " << r.accepted << ", refused " << r.refused << ":";
    for (const std::string& t : r.trace) std::cout << " " << t;
    std::cout << "\n";
    if (r.final_proc.defined()) {
      std::cout << "final proc:\n" << r.final_proc << "\n";
      for (const fuzz::Failure& f : fuzz::compile_and_compare({{replay, r.final_proc}}))
        r.failures.push_back(f);
    }
    for (const fuzz::Failure& f : r.failures) print_failure(f);
    return r.failures.empty() ? 0 : 1;
  }

  auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  uint64_t seeds = 0, accepted = 0, refused = 0, compiled_total = 0, failures = 0;
  std::vector<std::pair<uint64_t, Proc>> pending;
  install_crash_reporter();
  auto flush = [&] {
    std::cout << std::flush;
    g_compiling = 1;
    int compiled = 0;
    for (const fuzz::Failure& f : fuzz::compile_and_compare(pending, &compiled)) {
      print_failure(f);
      ++failures;
    }
    compiled_total += static_cast<uint64_t>(compiled);
    pending.clear();
    g_compiling = 0;
  };
  std::cout << "soak: seeds " << start << " + k * " << stride << " for " << seconds << " s\n"
            << std::flush;
  for (uint64_t seed = start, k = 0; elapsed() < seconds && k < count; seed += stride, ++k) {
    set_current_seed(seed);
    fuzz::SeedResult r = fuzz::run_seed(seed, opts);
    ++seeds;
    accepted += static_cast<uint64_t>(r.accepted);
    refused += static_cast<uint64_t>(r.refused);
    for (const fuzz::Failure& f : r.failures) {
      print_failure(f);
      ++failures;
    }
    if (r.failures.empty() && r.final_proc.defined() && r.accepted > 0)
      pending.emplace_back(seed, r.final_proc);
    if (static_cast<int>(pending.size()) >= batch) flush();
  }
  flush();
  double t = elapsed();
  std::cout << "soak done: " << seeds << " seeds, " << accepted << " accepted steps compared ("
            << refused << " refused), " << compiled_total << " procs compiled and compared, "
            << failures << " failures, " << t << " s, "
            << (t > 0 ? static_cast<double>(accepted) / t : 0.0) << " accepted steps/s\n";
  return failures == 0 ? 0 : 1;
}
