// ============================================================================================
// lift_reduce_constant: pull a constant factor out of a reduction loop.
// ============================================================================================
//
//   x = 0.0                      x = 0.0
//   for i in _:          -->     for i in _:
//       x += c * y[i]                x += y[i]
//                                x = c * x
//
// The target is a block of two statements: an assignment of zero to x (any indices) and a
// loop. Every access of x's buffer in the loop must be a reduction into the same indices whose
// right-hand side is `c * y` with the same c (syntactically); c must not mention anything the
// loop binds (its iterator, inner loops, allocations) nor read anything the loop writes; no other
// name of x's storage (a window onto it, or x's buffer when x is a window) is used in the loop.
// Then sum(c * y) = c * sum(y). Forwarding: cursors to the two statements stay; the new
// statement follows the loop; cursors into the old factors `c *` become invalid.
#include <set>

#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/reduction_uses.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// Drops the factor from every reduction into x.
class DropFactor : public IRMutator {
 public:
  explicit DropFactor(Sym x) : x_(std::move(x)) {}

 protected:
  Stmt mutate_Reduce(const ReduceNode* n, const Stmt& s) override {
    if (n->name != x_) return IRMutator::mutate_Reduce(n, s);
    const BinOpNode* m = n->rhs.as<BinOpNode>();
    return ReduceNode::make(n->name, n->type, n->idx, m->rhs, s.srcinfo());
  }

 private:
  Sym x_;
};

bool is_zero(const Expr& e) {
  const ConstNode* k = e.as<ConstNode>();
  return k && k->val == 0.0;
}

}  // namespace

Proc lift_reduce_constant(const Proc& p, const CursorLike& block) {
  return rw::run_op("lift_reduce_constant", [&]() -> Proc {
    // 1. The zero assignment and the loop.
    Cursor c = rw::resolve_block(p, block);
    if (c.size() != 2)
      rw::fail(reason::kTargetWrongKind, c,
               "expected a block of two statements (an assignment of zero and a loop), but the "
               "block has " +
                   std::to_string(c.size()));
    const AssignNode* init = c[0].stmt().as<AssignNode>();
    if (!init || !is_zero(init->rhs))
      rw::fail(reason::kStmtForm, c[0],
               "the first statement must assign zero to the accumulator, but it is '" +
                   c[0].to_string() + "'");
    const ForNode* loop = c[1].stmt().as<ForNode>();
    if (!loop)
      rw::fail(reason::kStmtForm, c[1],
               "the second statement must be a loop, but it is '" + c[1].to_string() + "'");

    // 2. Every access of x in the loop is `x[idx] += c * y` with one c.
    const rw::ReductionUses body_uses = rw::reduction_uses(loop->body);
    rw::BufferUse acc;
    if (auto it = body_uses.uses.find(init->name); it != body_uses.uses.end()) acc = it->second;
    std::set<Sym> bound = body_uses.bound;
    bound.insert(loop->iter);
    if (acc.other)
      rw::fail(
          reason::kStmtForm, c[1],
          "the loop reads or assigns '" + init->name.name() + "' other than by reductions into it");
    if (acc.reductions.empty())
      rw::fail(reason::kStmtForm, c[1],
               "the loop does not reduce into '" + init->name.name() + "'");
    Expr factor;
    for (const ReduceNode* r : acc.reductions) {
      if (r->idx.size() != init->idx.size())
        rw::fail(
            reason::kStmtForm, c[1],
            "a reduction into '" + init->name.name() + "' has other indices than the assignment");
      for (size_t i = 0; i < r->idx.size(); ++i)
        if (!expr_equal(r->idx[i], init->idx[i]))
          rw::fail(
              reason::kStmtForm, r->srcinfo,
              "a reduction into '" + init->name.name() + "' has other indices than the assignment");
      const BinOpNode* m = r->rhs.as<BinOpNode>();
      if (!m || m->op != BinOpKind::Mul)
        rw::fail(reason::kStmtForm, r->srcinfo,
                 "the reduction into '" + init->name.name() + "' does not add a product `c * y`");
      if (!factor.defined())
        factor = m->lhs;
      else if (!expr_equal(factor, m->lhs))
        rw::fail(reason::kStmtForm, r->srcinfo,
                 "the reductions into '" + init->name.name() + "' are scaled by different factors");
    }
    const std::set<Sym> in_factor = uses_of(factor).read;
    std::set<Sym> used = in_factor;
    for (const ReduceNode* r : acc.reductions)
      for (const Sym& s : uses_of(r->rhs.as<BinOpNode>()->rhs).read) used.insert(s);
    if (used.count(init->name))
      rw::fail(
          reason::kDepReadWritten, c[1],
          "a reduction into '" + init->name.name() + "' reads '" + init->name.name() + "' itself");
    for (const Sym& s : in_factor)
      if (bound.count(s))
        rw::fail(reason::kDepLoopVariant, c[1],
                 "the factor mentions '" + s.name() + "', which changes inside the loop");
    WindowAliases roots = WindowAliases::of_proc(p);
    const Sym init_root = roots.root(init->name);
    // Another name of x's storage is another way to read or change the partial sums: a window
    // onto it anywhere, or — when x is itself a window — its buffer read or written in the loop.
    const Uses in_loop = uses_of(loop->body);
    for (const Sym& w : roots.names_of(init_root)) {
      if (w == init->name) continue;
      if (w == init_root && !in_loop.read.count(w) && !in_loop.written.count(w)) continue;
      rw::fail(reason::kBufferAliased, c[1],
               "'" + init->name.name() + "' is also accessed through " +
                   (w == init_root ? "the buffer '" : "the window '") + w.name() + "'");
    }
    rw::Access body = rw::accesses(loop->body, roots);
    // Precision (internal/precision.h): c * sum(y) = sum(c * y) regroups the products in the
    // accumulator's arithmetic, which holds when c and every y are operands of it (rw::operand_of:
    // float accumulators as reals, as in Exo; integer ones modulo 2^bits). An operand of another
    // precision would make `c * y` round, wrap or truncate at other points than `c * x`.
    for (const Expr& operand : [&] {
           std::vector<Expr> all = {factor};
           for (const ReduceNode* r : acc.reductions) all.push_back(r->rhs.as<BinOpNode>()->rhs);
           return all;
         }())
      if (!rw::operand_of(operand, init->type))
        rw::fail(reason::kPrecisionRegroup, c[1],
                 "'" + to_string(operand) + "' (" + to_string(operand.type().base) +
                     ") is not computed in the arithmetic of the accumulator '" +
                     init->name.name() + "' (" + to_string(init->type) +
                     "): c * sum(y) would round or wrap at other points than sum(c * y)");
    rw::Access f = rw::accesses(factor, roots);
    for (const Sym& b : f.reads)
      if (body.writes.count(b))
        rw::fail(reason::kDepReadWritten, c[1],
                 "the factor reads '" + b.name() + "', which the loop writes");
    for (const std::string& cf : f.config_reads)
      if (body.config_writes.count(cf) || body.config_writes.count("*"))
        rw::fail(reason::kDepReadWritten, c[1],
                 "the factor reads config field '" + cf + "', which the loop may write");

    // 3. The rewrite.
    DropFactor drop(init->name);
    Stmt new_loop = drop.mutate(c[1].stmt());
    Type xt = init->type;
    Expr read_x = ReadNode::make(init->name, init->idx, xt, init->srcinfo);
    Expr scaled = rw::exact_binop(BinOpKind::Mul, factor, read_x, factor.srcinfo());
    Stmt scale = AssignNode::make(init->name, init->type, init->idx, scaled, loop->srcinfo);
    const Loc& l = c.loc();
    // Statements keep their places; a new one follows the loop; expression cursors inside the
    // rewritten right-hand sides become invalid.
    return rw::Edit(p)
        .rewrite_exprs(l.block, l.lo + 1, l.lo + 2, {new_loop})
        .insert(l.block, l.lo + 2, {scale})
        .done();
  });
}

}  // namespace exocpp
