// snrm2 / dnrm2 onto AVX-512 (value_control_schedule.h): the three sums split into two registers
// of lanes each by rfactor, each lane's square added to the sum its range chooses by this
// example's own instruction (nrm2_lanes.exo), the lanes added into the sums in lane order, the
// last iterations scalar.
#include <hwlibs/x86/x86.h>

#include "nrm2_lanes_exo_text.h"
#include "value_control_schedule.h"

namespace value_control {

using namespace exocpp;

namespace {

// nrm2_lanes.exo's instructions, parsed once (their registers live in the x86 library's AVX512).
const Module& lane_instructions() {
  static const Module m = [] {
    x86::register_memories();
    return parse_module(EXOCPP_NRM2_LANES_EXO_TEXT, {}, "nrm2_lanes.exo");
  }();
  return m;
}

}  // namespace

Proc schedule_nrm2(Proc p, bool f64) {
  const int w = f64 ? 8 : 16;
  const std::string sfx = f64 ? "pd" : "ps";
  // for io: for l in seq(0, 2 w): (the body, each sum into its lane l); the lanes start at 0
  // and are added into asml, amed and abig after the groups. Two registers of lanes per sum:
  // two independent chains of masked adds per group.
  const int registers = 2;
  p = rfactor(p, "for i in _: _", registers * w);
  // The start and the fold one sum per loop (one instruction each).
  std::vector<std::string> sums;
  const Cursor start = p.find_loop("l").body();
  for (int k = 0; k < start.size(); ++k)
    sums.push_back(start[k].stmt().as<AssignNode>()->name.name());
  for (size_t k = 0; k + 1 < sums.size(); ++k) {
    p = fission(p, p.find(sums[k] + "[_] = _").after());
    const std::string acc = sums[k].substr(0, sums[k].size() - std::string("_lanes").size());
    p = fission(p, p.find(acc + " += " + sums[k] + "[_]").after());
  }
  // Every lane loop as registers: for v in seq(0, 2): for ll in seq(0, w).
  for (Cursor loop : p.find_all("for l in _: _"))
    p = divide_loop(p, loop, w, {"v", "ll"}, {.perfect = true});
  for (const std::string& b : sums) p = divide_dim(p, b, 0, w);
  p = simplify(p);
  // |x| of a register's lanes in a register beside the sums' lanes.
  p = expand_dim(p, "ax", std::to_string(w), "ll");
  p = lift_alloc(p, "ax");
  for (const std::string& b : sums) p = set_memory(p, b, x86::AVX512);
  p = set_memory(p, "ax", x86::AVX512);
  const Module& lanes = lane_instructions();
  p = replace_all(p, f64 ? x86::mm512_setzero_pd.get() : x86::mm512_setzero_ps.get());
  p = replace_all(p, lanes.proc("nrm2_lanes_" + sfx));
  p = replace_all(p, f64 ? x86::mm512_reduce_add_pd.get() : x86::mm512_reduce_add_ps.get());
  for (Cursor v : p.find_all("for v in _: _")) p = unroll_loop(p, v);
  p = simplify(p);
  typecheck(p);  // no plain code left touching a register
  return p;
}

}  // namespace value_control
