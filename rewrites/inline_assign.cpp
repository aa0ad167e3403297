// ============================================================================================
// inline_assign: replace a buffer element by the expression assigned to it.
// ============================================================================================
//
//   x = e ; s            -->   s[ x -> e ]
//   x[idx] = e ; s       -->   s[ x[idx] -> e ]      (reads with the same index expressions)
//
// The target is the assignment. x must be allocated earlier in the same statement list (so
// nothing after the list reads it), and the rest of the list `s` must neither write x nor write
// anything e or idx reads (buffers, also through windows, and config fields; a call counts as
// writing every buffer it is passed and every config field), so that e has the same value
// wherever x[idx] was read. For a tensor, the assignment's removal must not be seen: every
// other read of x in s is proved (checker) to touch another element than x[idx], and s may not
// window x, pass it to a call or ask its stride. Precision: x holds e rounded or wrapped to x's
// type, so e may stand for x only when that store keeps e's value (rw::store_keeps_value,
// rewrites/internal/precision.h: `t: i8; t = x[i] * 2` wraps, `x[i] * 2` does not), and the result
// must type-check, and every operator or extern around a replaced read keeps its arithmetic
// (rw::require_arithmetic_kept: `x: f32 = a_i8[i]; c = x / 2.0` would become an integer division).
// Forwarding: the assignment's cursors become invalid; the statements after it shift up.
#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// `code` with the reads x[idx] (the same index expressions; none for a scalar) replaced by `with`.
Block replace_reads(const Block& code, const Sym& x, const std::vector<Expr>& idx,
                    const Expr& with) {
  return map_exprs(code, [&](const Expr& e) -> std::optional<Expr> {
    const ReadNode* r = e.as<ReadNode>();
    if (r && r->name == x && expr_equal(r->idx, idx)) return with;
    return std::nullopt;
  });
}

std::string index_text(const std::vector<Expr>& idx) {
  std::string out;
  for (size_t d = 0; d < idx.size(); ++d) out += (d ? ", " : "") + to_string(idx[d]);
  return out;
}

// "some dimension of a differs from b's": (a0 < b0 or a0 > b0) or ...
Expr any_index_differs(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  Expr out;
  for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
    Expr ne =
        rw::mk_or(rw::mk_cmp(BinOpKind::Lt, a[d], b[d]), rw::mk_cmp(BinOpKind::Gt, a[d], b[d]));
    out = rw::mk_or(out, ne);
  }
  return out;
}

// How many reads of x `b` makes (anywhere inside it).
int count_reads(const Block& b, const Sym& x) {
  int n = 0;
  for_each_expr(b, [&](const Expr& e) {
    const ReadNode* r = e.as<ReadNode>();
    n += r && r->name == x;
  });
  return n;
}

}  // namespace

Proc inline_assign(const Proc& p, const CursorLike& assign) {
  return rw::run_op("inline_assign", [&]() -> Proc {
    // 1. The assignment and the scalar it writes.
    Cursor c = rw::resolve_stmt(p, assign);
    const AssignNode* a = rw::stmt_as<AssignNode>(c, "an assignment");
    const Loc& l = c.loc();
    const Block& list = c.list();
    // The allocation: in this list before the assignment, or (a tensor) in an enclosing one.
    const AllocNode* alloc = nullptr;
    bool same_list = true;
    for (Cursor at = c; !alloc; at = at.parent(), same_list = false) {
      for (int i = 0; i < at.loc().lo && !alloc; ++i)
        if (auto al = at.list()[static_cast<size_t>(i)].as<AllocNode>(); al && al->name == a->name)
          alloc = al;
      if (alloc || at.loc().block.empty() || a->idx.empty()) break;
    }
    if (!alloc)
      rw::fail(reason::kBufferOtherUse, c,
               "'" + a->name.name() +
                   "' is not allocated earlier in the same block (nor, for a tensor, in an "
                   "enclosing one), so it may be read after the block and the assignment cannot "
                   "be removed");

    rw::require_store_keeps_value(c, a->name, a->rhs, alloc->type.base);

    // 2. Legality: x and what e reads keep their values in the rest of the block.
    Block rest(list.begin() + l.lo + 1, list.end());
    WindowAliases roots = WindowAliases::of_proc(p);
    if (rw::accesses(rest, roots).writes.count(a->name))
      rw::fail(reason::kBufferOtherUse, c,
               "'" + a->name.name() + "' is written again later in the block");
    std::vector<Expr> inputs = {a->rhs};  // the index is evaluated again at every replaced read
    inputs.insert(inputs.end(), a->idx.begin(), a->idx.end());
    rw::require_inputs_unwritten(c, p, rest, inputs, "later in the block");

    // 3. A tensor keeps its other elements: no read left in the rest may touch x[idx], whose
    // assignment goes away.
    if (!a->idx.empty()) {
      rw::BufferUses uses = rw::buffer_uses(rest, a->name);
      const rw::BufferUses anywhere = rw::buffer_uses(p.body(), a->name);
      uses.window = uses.window || (!same_list && anywhere.window);
      uses.whole = uses.whole || (!same_list && anywhere.whole);
      uses.stride = uses.stride || (!same_list && anywhere.stride);
      const std::string why = ", so its reads cannot all be replaced";
      if (uses.window)
        rw::fail(reason::kBufferLayoutUse, c,
                 "a window of '" + a->name.name() + "' is taken later" + why);
      if (uses.whole)
        rw::fail(reason::kBufferLayoutUse, c,
                 "'" + a->name.name() + "' is passed whole to a call later" + why);
      if (uses.stride)
        rw::fail(reason::kBufferLayoutUse, c,
                 "the stride of '" + a->name.name() + "' is taken later" + why);
      const std::string written = a->name.name() + "[" + index_text(a->idx) + "]";
      // Allocated outside this list: other iterations and later code could read what the
      // assignment wrote, so every read of x must be one of those replaced here.
      if (!same_list) {
        if (rw::buffer_uses(replace_reads(rest, a->name, a->idx, a->rhs), a->name).read ||
            rw::buffer_uses(Block(list.begin(), list.begin() + l.lo), a->name).read ||
            count_reads(p.body(), a->name) != count_reads(rest, a->name))
          rw::fail(reason::kBufferOtherUse, c,
                   "'" + a->name.name() +
                       "' is allocated outside this block and read elsewhere than as " + written +
                       " after the assignment in it, so removing the assignment could be seen");
      }
      for (const Stmt& s : uses.stmts)
        for (const std::vector<Expr>& r : rw::own_reads(s, a->name)) {
          if (expr_equal(r, a->idx)) continue;  // replaced
          Expr differs = any_index_differs(r, a->idx);
          rw::require_proved(c, checker::always_true(checker::Context::at(p, s), differs), [&] {
            return "the read " + a->name.name() + "[" + index_text(r) + "]" +
                   " touches another element than " + written +
                   ", whose assignment inlining removes";
          });
        }
    }

    // 4. The rewrite: drop the assignment, substitute e for x[idx] after it.
    Block new_rest = replace_reads(rest, a->name, a->idx, a->rhs);
    rw::Edit edit(p);
    edit.remove(l.block, l.lo, l.lo + 1)
        .rewrite(l.block, l.lo, l.lo + static_cast<int>(new_rest.size()), new_rest);
    rw::require_arithmetic_kept(
        c, rest, new_rest,
        "putting '" + to_string(a->rhs) + "' where '" + a->name.name() + "' was read");
    rw::typecheck_substituted(c, edit, a->name, a->rhs, alloc->type.base);
    return edit.done();
  });
}

}  // namespace exocpp
