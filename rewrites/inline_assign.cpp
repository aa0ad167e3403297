// ============================================================================================
// inline_assign: replace a scalar by the expression assigned to it.
// ============================================================================================
//
//   x = e ; s   -->   s[ x -> e ]
//
// The target is the assignment. x must be a scalar buffer allocated earlier in the same
// statement list (so nothing after the list reads it), and the rest of the list `s` must
// neither write x nor write anything e reads (buffers, also through windows, and config
// fields; a call counts as writing every buffer it is passed and every config field), so that
// e has the same value wherever x was read. Precision: x holds e rounded or wrapped to x's type,
// so e may stand for x only when that store keeps e's value (rw::store_keeps_value,
// rewrites/internal/precision.h: `t: i8; t = x[i] * 2` wraps, `x[i] * 2` does not), and the result
// must type-check (e's precision where x's was used). Forwarding: the assignment's cursors become
// invalid; the statements after it shift up.
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/config_fields.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

class ReplaceReads : public IRMutator {
 public:
  ReplaceReads(Sym x, Expr with) : x_(std::move(x)), with_(std::move(with)) {}

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    if (n->name == x_ && n->idx.empty()) return with_;
    return IRMutator::mutate_Read(n, e);
  }

 private:
  Sym x_;
  Expr with_;
};

}  // namespace

Proc inline_assign(const Proc& p, const CursorLike& assign) {
  const std::string op = "inline_assign";
  return rw::run_op(op, [&]() -> Proc {
    // 1. The assignment and the scalar it writes.
    Cursor c = rw::resolve_stmt(op, p, assign);
    const AssignNode* a = rw::stmt_as<AssignNode>(op, c, "an assignment");
    const Loc& l = c.loc();
    const Block& list = c.list();
    const AllocNode* alloc = nullptr;
    for (int i = 0; i < l.lo; ++i)
      if (auto al = list[static_cast<size_t>(i)].as<AllocNode>(); al && al->name == a->name)
        alloc = al;
    if (!alloc)
      rw::fail(op, c,
               "'" + a->name.name() +
                   "' is not allocated earlier in the same block, so it may be read after "
                   "the block and the assignment cannot be removed");
    if (!alloc->type.is_scalar() || !a->idx.empty())
      rw::fail(op, c,
               "'" + a->name.name() + "' is not a scalar; only scalar assignments can be inlined");

    if (!rw::store_keeps_value(a->rhs, alloc->type.base))
      rw::fail(
          op, c,
          "'" + a->name.name() + "' (" + to_string(alloc->type.base) +
              ") does not hold the value of '" + to_string(a->rhs) + "' (of type " +
              to_string(a->rhs.type().base) +
              ") exactly: the store rounds or wraps it, so the expression cannot stand for it");

    // 2. Legality: x and what e reads keep their values in the rest of the block.
    Block rest(list.begin() + l.lo + 1, list.end());
    auto roots = rw::window_roots(p);
    rw::Access in_rest = rw::accesses(rest, roots);
    rw::Access in_e = rw::accesses(a->rhs, roots);
    if (in_rest.writes.count(a->name))
      rw::fail(op, c, "'" + a->name.name() + "' is written again later in the block");
    for (const Sym& b : in_e.reads)
      if (in_rest.writes.count(b))
        rw::fail(
            op, c,
            "the right-hand side reads '" + b.name() + "', which is written later in the block");
    for (const std::string& f : in_e.config_reads)
      if (in_rest.config_writes.count(f) || in_rest.config_writes.count("*"))
        rw::fail(op, c,
                 "the right-hand side reads config field '" + f +
                     "', which may be written later in the block");

    // 3. The rewrite: drop the assignment, substitute e for x after it.
    ReplaceReads sub(a->name, a->rhs);
    Block new_rest = sub.mutate(rest);
    rw::Edit edit(p);
    edit.remove(l.block, l.lo, l.lo + 1)
        .rewrite(l.block, l.lo, l.lo + static_cast<int>(new_rest.size()), new_rest);
    if (a->rhs.type().base != alloc->type.base) {
      const SrcInfo at = c.stmt().srcinfo();
      rw::typecheck_candidate(
          op, edit.node(), "'" + to_string(a->rhs) + "' cannot stand for '" + a->name.name() + "'",
          &at);
    }
    return edit.done();
  });
}

}  // namespace exocpp
