// Random two-stage stencils scheduled the Halide way — strips of rows (divide_loop), the
// producer computed per strip with its halo (compute_and_store_at), sliding down the strip into
// a folded buffer (sliding_window) — each accepted result compared with the plain proc on
// random inputs, sizes 1 and up included; a consumer reading past what the producer computes
// must be refused.
#include <random>
#include <sstream>

#include "rewrites/composites.h"
#include "rewrites/loops.h"
#include "rewrites/rewrite_test_util.h"

using namespace exocpp;
using namespace exocpp::testing;

namespace {

struct Stencil {
  int ky = 0;               // rows of halo the producer computes beyond the output
  std::vector<int> dx, dy;  // the producer's column taps, the consumer's row taps
  bool u16 = false;         // uint16 with wrapping sums, else f32
  int extra_rows = 0;       // rows the consumer reads beyond the producer (0: none)
};

std::string source(const Stencil& s) {
  const std::string t = s.u16 ? "ui16" : "f32";
  int max_dx = 0;
  for (int d : s.dx) max_dx = std::max(max_dx, d);
  std::ostringstream o;
  o << "def st(H: size, W: size, inp: " << t << "[H + " << s.ky + s.extra_rows << ", W + " << max_dx
    << "] @ DRAM, out: " << t << "[H, W] @ DRAM):\n"
    << "    f: " << t << "[H + " << s.ky + s.extra_rows << ", W] @ DRAM\n"
    << "    for y in seq(0, H + " << s.ky << "):\n"
    << "        for x in seq(0, W):\n";
  std::string sum;
  for (int d : s.dx)
    sum += (sum.empty() ? "" : " + ") + std::string("inp[y, x + ") + std::to_string(d) + "]";
  if (s.u16) {
    o << "            a: ui16 @ DRAM\n            a = " << sum << "\n            f[y, x] = a / 3\n";
  } else {
    o << "            f[y, x] = " << sum << "\n";
  }
  o << "    for y in seq(0, H):\n        for x in seq(0, W):\n";
  std::string rows;
  for (int d : s.dy)
    rows += (rows.empty() ? "" : " + ") + std::string("f[y + ") + std::to_string(d) + ", x]";
  o << "            out[y, x] = " << rows << "\n";
  return o.str();
}

Stencil draw(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Stencil s;
  s.ky = pick(0, 3);
  for (int d = 0, n = pick(1, 3); d < n; ++d) s.dx.push_back(pick(0, 2));
  s.dy.push_back(s.ky);  // the last row of the halo is read
  for (int d = 0, n = pick(0, 2); d < n; ++d) s.dy.push_back(pick(0, s.ky));
  s.u16 = pick(0, 1) == 1;
  return s;
}

TEST(StencilScheduleRandom, AcceptedSchedulesComputeThePlainStencil) {
  std::mt19937 rng(20261126);
  for (int trial = 0; trial < 40; ++trial) {
    const Stencil s = draw(rng);
    const Proc plain = parse_proc(source(s));
    const int rows = std::uniform_int_distribution<int>(2, 5)(rng);
    const bool slide = trial % 2 == 0;
    // The tail behind `if H % rows > 0`: with no halo its rows may be none.
    Proc p =
        divide_loop(plain, "for y in _: _ #1", rows, {"yo", "yi"}, {.tail = Tail::CutAndGuard});
    p = compute_and_store_at(p, "for y in _: _ #0",
                             {"for yo in _: _", p.find("for yi in _: _ #1").as_block()});
    if (slide) p = sliding_window(p, p.find("for i0 in _: _"), p.find("for yi in _: _"));
    SCOPED_TRACE(source(s) + "strips of " + std::to_string(rows) + (slide ? ", sliding" : "") +
                 "\n" + to_string(p));
    CompareProcsOptions o;
    o.trials = 2;
    if (s.u16) {
      o.inputs.lo = 0;
      o.inputs.hi = 65535;
    }
    for (auto [h, w] :
         std::vector<std::pair<int64_t, int64_t>>{{1, 1}, {rows, 2}, {2 * rows + 1, 3}})
      expect_equivalent(plain, p, {{"H", h}, {"W", w}}, o);
  }
}

// The consumer reads one row past the producer's: whatever the strips, the schedule is refused.
TEST(StencilScheduleRandom, ReadingPastTheProducerIsRefused) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 10; ++trial) {
    Stencil s = draw(rng);
    s.extra_rows = 1;
    s.dy.push_back(s.ky + 1);
    const Proc plain = parse_proc(source(s));
    Proc p = divide_loop(plain, "for y in _: _ #1", 4, {"yo", "yi"}, {.tail = Tail::Cut});
    expect_refused(
        [&] {
          compute_and_store_at(p, "for y in _: _ #0",
                               {"for yo in _: _", p.find("for yi in _: _ #1").as_block()});
        },
        "compute_inline", ErrorCode::NotProved, "checker.refuted", "lies in the produced range");
  }
}

}  // namespace
