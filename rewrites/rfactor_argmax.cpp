// ============================================================================================
// rfactor_argmax: split an argmax (or argmin) loop into lanes, each with its own best value and
// index, folded together after the loop (Halide's rfactor, for the (value, index) reduction).
// ============================================================================================
//
//   for i in seq(lo, hi):               values: T[L]; indices: U[L]
//       if E(i) > A:             -->    for l in seq(0, L): values[l] = A; indices[l] = I
//           A = E(i)                    for io in seq(0, (hi - lo) / L):
//           I = i                           for l in seq(0, L):
//                                               if E(k) > values[l]:     (k = lo + L io + l)
//                                                   values[l] = E(k)
//                                                   indices[l] = k
//                                       for l in seq(0, L):
//                                           if values[l] > A: A = values[l]; I = indices[l]
//                                           else: if values[l] == A:
//                                               if indices[l] < I: A = values[l]; I = indices[l]
//                                       for i in seq(lo + L ((hi - lo) / L), hi):
//                                           if E(i) > A: A = E(i); I = i
//
// (`<` in place of `>` is the argmin, folded with `<`.) Why the result is the loop's, for every
// input: the loop leaves (A, I) unchanged unless some E(i) > A0 (A0, I0 the values before it),
// and then holds the largest such E(i) at the first i reaching it (a later equal value is not
// `>`; a NaN never is, and A never becomes NaN unless A0 was). Each lane computes the same over
// its own iterations, starting from (A0, I0); a lane that moved holds a value > A0, one that
// did not holds (A0, I0) exactly. The fold takes a strictly better lane, and among equal values
// (IEEE `==`: +0 equals -0, so the lane's own value is taken with its index) the lowest index —
// the first i overall; lanes that did not move never win against one that did (their value is
// not `>` it, nor `==`), and when none moved, (A, I) stays (A0, I0). The iterations past the last
// full group of L then run as the loop ran them, from the folded (A, I).
//
// With merge_width W (dividing L), lane W g + l is first merged into lane l by the fold's own
// step (its pair taken when better), for g = 1 .. L / W - 1, and only lanes 0 .. W - 1 are folded.
// The fold's result is the best pair (value, then lowest index) among the lanes that moved, or
// (A0, I0) when none did; a merge keeps the better of two pairs, a moved lane beats an unmoved
// one, and two unmoved ones are the same pair: the W lanes hold the same best pair.
//
// Conditions, each checked (refused with the reason otherwise):
//   - the loop is `seq`; its body is exactly `if E > A:` (or `<`) with no else, holding exactly
//     the two assignments `A = E` (the same E and the same location as the condition's A) and
//     `I = i` (the loop variable), in either order;
//   - A and I are two different storages (root buffers), their indices do not depend on i, and
//     E reads neither (nor anything through another name of them): E has the same value in the
//     condition and in the assignment, and in the lane as in the loop;
//   - A is compared in its own precision (the comparison's operand precision is A's), so that the
//   lane's stored value is the value the loop compared and stored; I is integer
//     data, and the checker proves every index of the loop converts to I's type exactly (the
//     fold compares the stored indices, which must order as the iterations do);
//   - the checker proves lo <= hi (the group count and the tail start assume it), and that the
//     lanes and the fold change nothing lo and hi read (they are evaluated again after them):
//     rw::LaneSplit, the frame rfactor shares.
// Forwarding: the loop and everything in it map to the tail loop (the loop itself, run over
// its last iterations); the new statements stand before it.
#include "checker/queries.h"
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
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// The loop `for i: if E op A: A = E; I = i`, taken apart.
struct ArgmaxLoop {
  const ForNode* loop = nullptr;
  const IfNode* branch = nullptr;
  BinOpKind op = BinOpKind::Gt;  // Gt (argmax) or Lt (argmin)
  Expr value;                    // E
  const ReadNode* best = nullptr;
  const AssignNode* best_store = nullptr;
  const AssignNode* index_store = nullptr;
};

ArgmaxLoop take_apart(const Cursor& c) {
  ArgmaxLoop a;
  a.loop = rw::as_loop(c);
  const std::string shape =
      "the loop body must be `if E > A:` (or `<`) holding `A = E` and `I = " + a.loop->iter.name() +
      "`";
  if (a.loop->body.size() != 1 || !(a.branch = a.loop->body[0].as<IfNode>()))
    rw::fail(reason::kStmtForm, c, shape + ", but it is not one if statement");
  if (!a.branch->orelse.empty()) rw::fail(reason::kStmtForm, c, shape + ", but the if has an else");
  const BinOpNode* cmp = a.branch->cond.as<BinOpNode>();
  if (!cmp || (cmp->op != BinOpKind::Gt && cmp->op != BinOpKind::Lt) ||
      !(a.best = cmp->rhs.as<ReadNode>()) || !is_data(cmp->rhs.type().base))
    rw::fail(reason::kStmtForm, c,
             shape + ", but the condition is '" + to_string(a.branch->cond) + "'");
  a.op = cmp->op;
  a.value = cmp->lhs;
  if (a.branch->body.size() != 2)
    rw::fail(reason::kStmtForm, c,
             shape + ", but the if holds " + std::to_string(a.branch->body.size()) + " statements");
  for (const Stmt& s : a.branch->body) {
    const AssignNode* w = s.as<AssignNode>();
    if (!w)
      rw::fail(reason::kStmtForm, s.srcinfo(), shape + ", but it holds '" + to_string(s) + "'");
    if (w->name == a.best->name)
      a.best_store = w;
    else
      a.index_store = w;
  }
  if (!a.best_store || !a.index_store)
    rw::fail(reason::kStmtForm, c, shape + ", but the if does not assign both");
  if (!expr_equal(a.best_store->idx, a.best->idx) || !expr_equal(a.best_store->rhs, a.value))
    rw::fail(reason::kStmtForm, a.best_store->srcinfo,
             shape + ", but '" + to_string(a.branch->body[0]) +
                 "' does not store the compared value at the compared place");
  const ReadNode* iv = a.index_store->rhs.as<ReadNode>();
  if (!iv || iv->name != a.loop->iter || !iv->idx.empty())
    rw::fail(reason::kStmtForm, a.index_store->srcinfo,
             shape + ", but the index stored is '" + to_string(a.index_store->rhs) + "'");
  return a;
}

}  // namespace

Proc rfactor_argmax(const Proc& p, const CursorLike& loop, int64_t lanes,
                    const RfactorArgmaxOptions& opts) {
  return rw::run_op("rfactor_argmax", [&]() -> Proc {
    // 1. The loop's form.
    Cursor c = rw::resolve_loop(p, loop);
    const rw::LaneSplit split(p, c, lanes, opts.outer, opts.lane);
    const ArgmaxLoop a = take_apart(c);
    const ForNode* f = a.loop;
    const Sym& best = a.best->name;
    const Sym& index = a.index_store->name;
    const ScalarKind value_type = a.best_store->type, index_type = a.index_store->type;

    // 2. The storages: two, fixed for the loop, not read by E.
    const WindowAliases roots = WindowAliases::of_proc(p);
    if (roots.root(best) == roots.root(index))
      rw::fail(reason::kBufferAliased, c,
               "'" + best.name() + "' and '" + index.name() + "' are one storage ('" +
                   roots.root(best).name() + "')");
    for (const AssignNode* w : {a.best_store, a.index_store})
      for (const Expr& i : w->idx)
        if (mentions(i, f->iter))
          rw::fail(reason::kDepLoopVariant, w->srcinfo,
                   "'" + w->name.name() + "' is stored at an index that changes with '" +
                       f->iter.name() + "': each iteration would keep its own best");
    const rw::Access in_value = rw::accesses(a.value, roots);
    for (const Sym& b : in_value.reads)
      if (roots.root(b) == roots.root(best) || roots.root(b) == roots.root(index))
        rw::fail(reason::kDepReadWritten, c,
                 "the compared value '" + to_string(a.value) + "' reads '" + b.name() +
                     "', which the loop writes");

    // 3. Precision: the lane compares and stores what the loop compared and stored.
    if (data_operand_type(a.value, a.branch->cond.as<BinOpNode>()->rhs) != value_type)
      rw::fail(reason::kPrecisionStore, c,
               "the best value '" + best.name() + "' (" + to_string(value_type) +
                   ") must be compared in its own precision, but '" + to_string(a.branch->cond) +
                   "' compares in " +
                   to_string(data_operand_type(a.value, a.branch->cond.as<BinOpNode>()->rhs)));
    if (!is_int_precision(index_type))
      rw::fail(reason::kPrecisionStore, a.index_store->srcinfo,
               "the index '" + index.name() + "' must be integer data, but it is " +
                   to_string(index_type));
    const checker::Context& ctx = split.context();
    const auto [lo_limit, hi_limit] = int_precision_limits(index_type);
    rw::require_proved(
        c,
        checker::always_true(
            ctx,
            rw::mk_or(rw::mk_cmp(BinOpKind::Ge, f->lo, f->hi),
                      rw::mk_and(rw::mk_cmp(BinOpKind::Ge, f->lo, rw::int_const(lo_limit)),
                                 rw::mk_cmp(BinOpKind::Le, f->hi, rw::int_const(hi_limit + 1))))),
        [&] {
          return "every index of the loop fits '" + index.name() + "' (" + to_string(index_type) +
                 ": " + std::to_string(lo_limit) + " to " + std::to_string(hi_limit) +
                 "), so that the stored indices order as the iterations do";
        },
        reason::kPrecisionStore);

    // 4. The new code.
    const SrcInfo& si = f->srcinfo;
    const std::string values_name = opts.values.empty() ? best.name() + "_lanes" : opts.values;
    const std::string indices_name = opts.indices.empty() ? index.name() + "_lanes" : opts.indices;
    if (values_name == indices_name)
      rw::fail(reason::kArgName, c,
               "the two new buffers must differ, both are '" + values_name + "'");
    const Sym values = rw::fresh_name(p, values_name, c);
    const Sym indices = rw::fresh_name(p, indices_name, c);
    if (opts.merge_outer == opts.lane || opts.merge_outer == opts.outer)
      rw::fail(reason::kArgName, c,
               "the merge loop's name '" + opts.merge_outer + "' must differ from '" + opts.outer +
                   "' and '" + opts.lane + "'");
    const Expr& L = split.lanes();
    auto lane_at = [&](const Sym& l, const Sym& b, ScalarKind t) {
      return ReadNode::make(b, {rw::index_var(l, si)}, Type(t), si);
    };
    auto store = [&](const Sym& b, ScalarKind t, std::vector<Expr> idx, const Expr& rhs) {
      return AssignNode::make(b, t, std::move(idx), rhs, si);
    };
    auto best_read = [&] { return Expr(ReadNode::make(best, a.best->idx, a.best->type, si)); };
    auto index_read = [&] {
      return Expr(ReadNode::make(index, a.index_store->idx, Type(index_type), si));
    };
    // The two stores in the loop's order, with a new destination and stored values.
    auto stores_like_loop = [&](const Stmt& best_to, const Stmt& index_to) {
      return a.branch->body[0].as<AssignNode>() == a.best_store ? Block{best_to, index_to}
                                                                : Block{index_to, best_to};
    };

    // for l: values[l] = A; indices[l] = I
    Stmt start;
    {
      const Sym l = split.lane();
      start =
          split.lane_loop(l, {store(values, value_type, {rw::index_var(l, si)}, best_read()),
                              store(indices, index_type, {rw::index_var(l, si)}, index_read())});
    }
    // for io: for l: if E(k) > values[l]: values[l] = E(k); indices[l] = k
    Stmt groups_loop;
    {
      const Sym l = split.lane();
      const Expr k = split.iteration(l);
      const Expr e = rw::substitute(a.value, {{f->iter, k}});
      const Expr li = rw::index_var(l, si);
      Stmt body = IfNode::make(
          rw::mk_cmp(a.op, e, lane_at(l, values, value_type), si),
          stores_like_loop(store(values, value_type, {li}, e), store(indices, index_type, {li}, k)),
          {}, si);
      groups_loop = split.groups_loop(l, {body});
    }
    // "If (v, at) is better than (cur_v, cur_at): take it": a larger (smaller) value, or an equal
    // one with a lower index. Both folds below are this step.
    auto take_if_better = [&](const Expr& v, const Expr& at, const Expr& cur_v, const Expr& cur_at,
                              const Block& take) {
      Stmt tie = IfNode::make(
          rw::mk_cmp(BinOpKind::Eq, v, cur_v, si),
          {IfNode::make(rw::mk_cmp(BinOpKind::Lt, at, cur_at, si), take, {}, si)}, {}, si);
      return IfNode::make(rw::mk_cmp(a.op, v, cur_v, si), take, {tie}, si);
    };
    // With opts.merge_width = W: for g in seq(1, L / W): for l in seq(0, W): lane W g + l
    // merged into lane l (each then holds the better of the two), so that W lanes are folded.
    Block merge;
    const int64_t folded = opts.merge_width > 0 ? opts.merge_width : lanes;
    if (opts.merge_width > 0) {
      rw::check_int_arg(c, "the merge width", opts.merge_width, 1, lanes);
      if (lanes % opts.merge_width != 0)
        rw::fail(reason::kArgInvalid, c,
                 "the merge width " + std::to_string(opts.merge_width) +
                     " does not divide the lane count " + std::to_string(lanes));
      const Sym g = rw::fresh_name(p, opts.merge_outer, c, rw::NameScope::Statements);
      const Sym l = split.lane();
      const Expr li = rw::index_var(l, si);
      const Expr from = rw::mk_add(rw::mk_mul(rw::int_const(folded, si), rw::index_var(g, si)), li);
      auto at_lane = [&](const Sym& b, ScalarKind t, const Expr& i) {
        return ReadNode::make(b, {i}, Type(t), si);
      };
      const Expr v = at_lane(values, value_type, from), at = at_lane(indices, index_type, from);
      const Block take = stores_like_loop(store(values, value_type, {li}, v),
                                          store(indices, index_type, {li}, at));
      merge = {
          ForNode::make(g, rw::int_const(1, si), rw::int_const(lanes / folded, si),
                        {ForNode::make(l, rw::int_const(0, si), rw::int_const(folded, si),
                                       {take_if_better(v, at, at_lane(values, value_type, li),
                                                       at_lane(indices, index_type, li), take)},
                                       LoopMode::Seq, si)},
                        LoopMode::Seq, si)};
    }
    // for l: the better lane, the lower index among equal ones, into (A, I)
    Stmt fold;
    {
      const Sym l = split.lane();
      const Expr v = lane_at(l, values, value_type), at = lane_at(l, indices, index_type);
      const Block take = stores_like_loop(store(best, value_type, a.best->idx, v),
                                          store(index, index_type, a.index_store->idx, at));
      fold = ForNode::make(l, rw::int_const(0, si), rw::int_const(folded, si),
                           {take_if_better(v, at, best_read(), index_read(), take)}, LoopMode::Seq,
                           si);
    }
    Block before = {AllocNode::make(values, Type(value_type, {L}), "DRAM", si),
                    AllocNode::make(indices, Type(index_type, {L}), "DRAM", si), start,
                    groups_loop};
    before.insert(before.end(), merge.begin(), merge.end());
    before.push_back(fold);
    return split.finish(before, Block(before.begin() + 2, before.end()));
  });
}

}  // namespace exocpp
