// ============================================================================================
// rfactor: split a loop's sums into lanes, each accumulating its own iterations, added into the
// sums after the loop (Halide's rfactor for `+=` reductions).
// ============================================================================================
//
//   for i in seq(lo, hi):           acc_lanes: T[L]                      (for each accumulator)
//       ... acc += e(i) ...  -->    for l in seq(0, L): acc_lanes[l] = 0
//                                   for io in seq(0, (hi - lo) / L):
//                                       for l in seq(0, L):
//                                           body[i -> lo + L io + l, acc -> acc_lanes[l]]
//                                   for l in seq(0, L): acc += acc_lanes[l]
//                                   for i in seq(lo + L ((hi - lo) / L), hi):
//                                       body
//
// An accumulator is a buffer the body reduces into at one place that does not change with the
// loop (`acc`, `acc[c]`). The iterations run in their order, and every statement of the body but
// the accumulations runs as before; only each accumulator's sum is regrouped: acc0 + e1 + e2 + ...
// becomes acc0 + (sum of lane 0's terms) + (sum of lane 1's) + ... + the tail's, equal as reals
// (float sums are regrouped as reals, as in Exo and docs/scheduling.md "Precision") and exactly
// for an integer accumulator of integer terms (modulo 2^bits).
//
// Conditions, each checked (refused with the reason otherwise):
//   - the loop is `seq`; the body reduces into at least one accumulator;
//   - an accumulator is accessed in the body only by those reductions, at one place, through no
//     other name (window) of its storage, and no term reads it (it would see a partial sum);
//   - every term regroups in the accumulator's precision (core's reductions_regroup: not a float
//     term into an integer accumulator, which truncates each sum on its own);
//   - the checker proves lo <= hi, and that the new code changes nothing lo and hi read
//     (rw::LaneSplit, the frame rfactor_argmax shares).
// Forwarding: the loop and everything in it map to the tail loop; the new statements stand
// before it.
#include <map>

#include "checker/queries.h"
#include "core/interpreter.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "core/window_alias.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/lane_split.h"
#include "rewrites/internal/names.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/reduction_uses.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Every reduction into an accumulator redirected to its lane buffer at lane `lane`.
class ToLanes : public IRMutator {
 public:
  ToLanes(const std::map<Sym, Sym>& lanes_of, Expr lane) : lanes_of_(lanes_of), lane_(lane) {}

 protected:
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    auto it = lanes_of_.find(n->name);
    if (it == lanes_of_.end()) return IRMutator::mutate_Reduce(n, s);
    return ReduceNode::make(it->second, n->type, {lane_}, n->rhs, s.srcinfo());
  }

 private:
  const std::map<Sym, Sym>& lanes_of_;
  Expr lane_;
};

bool mentions_any(const Expr& e, const Sym& iter, const std::set<Sym>& bound) {
  for (const Sym& s : uses_of(e).read)
    if (s == iter || bound.count(s)) return true;
  return false;
}

}  // namespace

Proc rfactor(const Proc& p, const CursorLike& loop, int64_t lanes, const RfactorOptions& opts) {
  return rw::run_op("rfactor", [&]() -> Proc {
    // 1. The loop and its accumulators.
    Cursor c = rw::resolve_loop(p, loop);
    const rw::LaneSplit split(p, c, lanes, opts.outer, opts.lane);
    const ForNode* f = &split.loop();
    const rw::ReductionUses acc = rw::reduction_uses(f->body);
    const WindowAliases roots = WindowAliases::of_proc(p);
    std::vector<const ReduceNode*> accumulators;  // one reduction of each, in the body's order
    for (const auto& [buf, use] : acc.uses) {
      if (use.reductions.empty()) continue;
      const ReduceNode* first = use.reductions.front();
      bool fixed = true;
      for (const Expr& i : first->idx) fixed = fixed && !mentions_any(i, f->iter, acc.bound);
      if (!fixed || acc.bound.count(buf)) continue;  // a reduction per iteration: left alone
      if (use.other)
        rw::fail(reason::kStmtForm, first->srcinfo,
                 "the accumulator '" + buf.name() +
                     "' is also read or assigned in the loop: it would see a partial sum");
      for (const ReduceNode* r : use.reductions)
        if (!expr_equal(r->idx, first->idx))
          rw::fail(reason::kStmtForm, r->srcinfo,
                   "the accumulator '" + buf.name() + "' is reduced into at two places");
      for (const Sym& name : roots.names_of(roots.root(buf)))
        if (name != buf && acc.uses.count(name))
          rw::fail(reason::kBufferAliased, c,
                   "the accumulator '" + buf.name() + "' is also accessed through '" + name.name() +
                       "'");
      for (const ReduceNode* r : use.reductions)
        if (!reductions_regroup(r->type, r->rhs))
          rw::fail(reason::kPrecisionRegroup, r->srcinfo,
                   "'" + to_string(r->rhs) + "' (" + to_string(r->rhs.type().base) +
                       ") added into the " + to_string(r->type) + " accumulator '" + buf.name() +
                       "' truncates each sum on its own: the lanes' sums would differ");
      accumulators.push_back(first);
    }
    if (accumulators.empty())
      rw::fail(reason::kStmtForm, c,
               "the loop reduces into nothing that stays in place across its iterations");

    // 2. The lanes.
    const SrcInfo& si = f->srcinfo;
    const Expr& L = split.lanes();
    std::map<Sym, Sym> lanes_of;
    Block before;
    for (const ReduceNode* r : accumulators) {
      const Sym b = rw::fresh_name(p, r->name.name() + opts.suffix, c);
      lanes_of.emplace(r->name, b);
      before.push_back(AllocNode::make(b, Type(r->type, {L}), "DRAM", si));
    }
    Block zero, fold;
    const Sym l_zero = split.lane(), l_fold = split.lane(), lane = split.lane();
    for (const ReduceNode* r : accumulators) {
      const Sym& b = lanes_of.at(r->name);
      const Expr z =
          is_float(r->type) ? ConstNode::make_float(0.0, ScalarKind::R, si) : rw::int_const(0, si);
      zero.push_back(AssignNode::make(b, r->type, {rw::index_var(l_zero, si)}, z, si));
      fold.push_back(
          ReduceNode::make(r->name, r->type, r->idx,
                           ReadNode::make(b, {rw::index_var(l_fold, si)}, Type(r->type), si), si));
    }
    ToLanes to_lanes(lanes_of, rw::index_var(lane, si));
    const Block lane_body = to_lanes.mutate(
        rw::alpha_rename(rw::substitute(f->body, {{f->iter, split.iteration(lane)}})));
    const Block new_code = {split.lane_loop(l_zero, zero), split.groups_loop(lane, lane_body),
                            split.lane_loop(l_fold, fold)};
    before.insert(before.end(), new_code.begin(), new_code.end());
    return split.finish(before, new_code);
  });
}

}  // namespace exocpp
