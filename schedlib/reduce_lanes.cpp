// schedlib::reduce_lanes (schedlib.h): a loop's sums in registers of lanes, from rfactor,
// divide_loop, divide_dim, set_memory, vectorize, replace_all and unroll_loop.
#include <set>
#include <stdexcept>

#include "internal.h"
#include "schedlib.h"

namespace schedlib {

using namespace exocpp;

namespace {

// The names of the allocations of `after` that `before` does not have.
std::vector<std::string> new_allocations(const Proc& before, const Proc& after) {
  std::set<std::string> old;
  for (const Cursor& a : before.find_all("_ : _")) old.insert(a.name());
  std::vector<std::string> out;
  for (const Cursor& a : after.find_all("_ : _"))
    if (!old.count(a.name())) out.push_back(a.name());
  return out;
}

}  // namespace

Proc reduce_lanes(Proc p, const CursorLike& loop_like, const VectorUnit& unit,
                  const ReduceLanesOptions& opts) {
  if (opts.registers < 1)
    throw std::invalid_argument("schedlib::reduce_lanes: registers must be >= 1");
  const Cursor loop = internal::resolve(p, loop_like, TargetKind::Loop);
  const int w = unit.width, r = opts.registers;
  const std::string lanes = std::to_string(r * w);
  // acc_lanes[r w] for each sum acc, the loop's iterations in groups of r w.
  Proc q = rfactor(p, loop, r * w, {.outer = "io", .lane = "l"});
  const std::vector<std::string> sums = new_allocations(p, q);
  p = q;
  // One sum per start loop and per fold loop (one instruction each).
  auto acc_of = [](const std::string& lanes_buf) {
    return lanes_buf.substr(0, lanes_buf.size() - std::string("_lanes").size());
  };
  for (size_t k = 0; k + 1 < sums.size(); ++k) {
    p = fission(p, p.find(sums[k] + "[_] = _").after());
    p = fission(p, p.find(acc_of(sums[k]) + " += " + sums[k] + "[_]").after());
  }
  // The r registers of each sum added lane by lane into one before the fold (rfactor of the
  // fold loop: its lanes start at 0, then `merged[fl] += acc_lanes[w fo + fl]` for each register
  // fo), so that only w lanes are added into acc one by one.
  std::vector<std::string> merged;
  if (r > 1)
    for (const std::string& sum : sums) {
      const Cursor fold = p.find(acc_of(sum) + " += " + sum + "[_]").parent();
      q = rfactor(p, fold, w, {.outer = "fo", .lane = "fl", .suffix = "_merged"});
      for (const std::string& m : new_allocations(p, q)) merged.push_back(m);
      p = q;
      // The fold's own tail, over no iteration.
      p = eliminate_dead_code(p, p.forward(fold));
    }
  // Every lane loop as registers: for v in seq(0, r): for ll in seq(0, w).
  for (const Cursor& l : p.find_all("for l in _: _"))
    if (p.forward(l).hi().to_string() == lanes)
      p = divide_loop(p, l, w, {"v", "ll"}, {.perfect = true});
  for (const std::string& s : sums) {
    p = divide_dim(p, s, 0, w);
    p = set_memory(p, s, unit.memory);
  }
  for (const std::string& m : merged) p = set_memory(p, m, unit.memory);
  p = simplify(p);
  p = replace_all(p, unit.zero);
  p = replace_all(p, unit.fold);
  // The lanes of each register (and of each merge) to instructions: vectorize divides each
  // loop by w, one strip, its loop of one iteration unrolled away.
  for (const char* lane_loop : {"for ll in _: _", "for fl in _: _"})
    for (const Cursor& ll : p.find_all(lane_loop)) {
      p = vectorize(p, ll, w, unit.memory, unit.instructions, {.perfect = true});
      p = unroll_loop(p, p.forward(ll));  // the loop over the one strip
    }
  for (const char* registers : {"for v in _: _", "for fo in _: _"})
    for (const Cursor& v : p.find_all(registers)) p = unroll_loop(p, v);
  return simplify(p);
}

}  // namespace schedlib
