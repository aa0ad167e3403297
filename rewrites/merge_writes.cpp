// ============================================================================================
// merge_writes: make two consecutive writes to one location a single write.
// ============================================================================================
//
//   a = b  ; a = c    -->   a = c
//   a += b ; a = c    -->   a = c
//   a = b  ; a += c   -->   a = b + c
//   a += b ; a += c   -->   a += b + c
//
// The target is a block of two assignments/reductions to the same buffer (or the first of
// them). The indices must be provably equal (checker::always_true under the context), and `c`
// must not read the buffer `a` (it would see the first write). Precision (internal/precision.h):
// the two writes add b and c in a's arithmetic; the merged sum computes in the arithmetic of
// b + c. The merge needs b and c to be operands of a's arithmetic (rw::sum_regroups_in: of a's
// float type or literals alone; integer arithmetic in an integer buffer, whose sums wrap alike),
// or every value exact in a's type, and the merged statement must type-check. Forwarding: the block
// maps to the merged statement; cursors inside the two statements become invalid.
#include <optional>

#include "checker/queries.h"
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

struct Write {
  bool reduce;
  Sym name;
  ScalarKind type;
  const std::vector<Expr>* idx;
  Expr rhs;
};

std::optional<Write> as_write(const Stmt& s) {
  if (auto a = s.as<AssignNode>()) return Write{false, a->name, a->type, &a->idx, a->rhs};
  if (auto r = s.as<ReduceNode>()) return Write{true, r->name, r->type, &r->idx, r->rhs};
  return std::nullopt;
}

}  // namespace

Proc merge_writes(const Proc& p, const CursorLike& block) {
  return rw::run_op("merge_writes", [&]() -> Proc {
    // 1. The two writes.
    Cursor c = rw::resolve_block(p, block);
    if (c.is_block() && c.size() == 1) c = c[0];
    if (c.is_stmt()) {
      if (!c.next().is_valid())
        rw::fail(reason::kStmtNoNext, c,
                 "there is no statement after '" + c.to_string() + "' to merge it with");
      c = c.as_block().expand(0, 1);
    }
    if (!c.is_block() || c.size() != 2)
      rw::fail(reason::kTargetWrongKind, c, "expected a block of two statements");
    Stmt s1 = c[0].stmt(), s2 = c[1].stmt();
    std::optional<Write> w1 = as_write(s1), w2 = as_write(s2);
    if (!w1 || !w2)
      rw::fail(reason::kStmtForm, c,
               "both statements must be assignments or reductions ('" + c[w1 ? 1 : 0].to_string() +
                   "' is not)");
    if (w1->name != w2->name)
      rw::fail(reason::kStmtForm, c,
               "the statements write different buffers ('" + w1->name.name() + "' and '" +
                   w2->name.name() + "')");

    // 2. Legality: one location, and c does not see the first write.
    const Loc& l = c.loc();
    checker::Context ctx = checker::Context::at(p, l.block, l.lo);
    rw::require_same_location(c, ctx, *w1->idx, *w2->idx,
                              "the two statements write the same location");
    WindowAliases roots = WindowAliases::of_proc(p);
    Sym root = roots.root(w1->name);
    if (rw::accesses(w2->rhs, roots).reads.count(root))
      rw::fail(reason::kDepReadWritten, c[1],
               "the second statement's right-hand side reads '" + w1->name.name() +
                   "', which the first statement writes");

    if (w2->reduce) {
      if (!rw::sum_regroups_in(w1->rhs, w2->rhs, w1->type))
        rw::fail(reason::kPrecisionRegroup, c,
                 "'" + w1->name.name() + "' (" + to_string(w1->type) + ") adds '" +
                     to_string(w1->rhs) + "' and '" + to_string(w2->rhs) + "' in " +
                     to_string(w1->type) + " arithmetic, but '" + to_string(w1->rhs) + " + " +
                     to_string(w2->rhs) + "' would compute in " +
                     to_string(rw::arithmetic_of(
                         rw::exact_binop(BinOpKind::Add, w1->rhs, w2->rhs, {}).type().base)) +
                     " (an operand of another precision rounds or wraps there)");
    }

    // 3. The merged statement.
    Stmt merged;
    if (!w2->reduce) {
      merged = s2;
    } else {
      Expr sum = rw::exact_binop(BinOpKind::Add, w1->rhs, w2->rhs, w1->rhs.srcinfo());
      merged = w1->reduce ? ReduceNode::make(w1->name, w1->type, *w1->idx, sum, s1.srcinfo())
                          : AssignNode::make(w1->name, w1->type, *w1->idx, sum, s1.srcinfo());
    }
    rw::Edit edit(p);
    edit.replace(l.block, l.lo, l.lo + 2, {merged});
    if (w2->reduce) {
      const SrcInfo at = s1.srcinfo();
      rw::typecheck_candidate(edit.node(), "the merged statement is ill-typed", &at);
    }
    return edit.done();
  });
}

}  // namespace exocpp
