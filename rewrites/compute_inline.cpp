// ============================================================================================
// compute_inline: a producer loop nest disappears into the reads of what it computed (Halide's
// compute_inline).
// ============================================================================================
//
//   f : T[..]
//   for x0 in seq(lo0, hi0):            s[ f[r0, .., rk] -> e[x_d := r_d - c_d] ]
//       ..                      -->
//           f[x0 + c0, .., xk + ck] = e
//   s
//
// The target is the producer: a perfect loop nest around one assignment whose index in each
// dimension is one of the nest's iterators plus an offset free of them (in any order), with
// bounds that mention none of the nest's iterators and read no config field. f is allocated
// earlier in the same list, is not an argument, and its only other uses are reads in the rest
// of the list `s`. Legality:
//   - every read f[r] in s lies in the produced region: lo_d <= r_d - c_d < hi_d (checker, in the
//     read's context), so it reads a value the producer wrote;
//   - s writes neither f nor anything e reads (buffers, also through windows, and config
//     fields; a call counts as writing every buffer it is passed and every config field), so e
//     has at the read the value it had when the producer ran;
//   - the store to f keeps e's value (rw::store_keeps_value: f = e does not round or wrap) and
//     every operator or extern around a read keeps its arithmetic with e in the read's place
//     (rw::require_arithmetic_kept), or every read is a copy (below);
//   - e does not read f.
//
// Copies. A read that is a whole assignment `g[i] = f[r]` with g of f's precision (a "copy", as
// stage_mem makes) stores the value exactly as f's store did, so there the producer's body may
// be more than one assignment: the innermost loop's body
//
//   t : T'              (local allocations)
//   t = e1 ; ..         (assignments and reductions to them)
//   f[x0 + c0, ..] = e
//
// replaces the copy, instantiated at x_d := r_d - c_d, its locals renamed, its last statement
// writing g[i] = e. The store to f may then round or wrap: g's store does the same. Every read
// must then be a copy, and s must write nothing the body reads.
//
// The producer and f's allocation are removed. Forwarding: cursors inside the producer become
// invalid; the statements after it shift up.
#include <algorithm>

#include "checker/context.h"
#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/uses.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/expr_build.h"
#include "rewrites/internal/inline_expr.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/precision.h"
#include "rewrites/internal/targets.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

// One dimension of the producer's index: iterator `loop` of the nest plus `offset`.
struct IndexForm {
  size_t loop = 0;
  Expr offset;
};

bool mentions_any(const Expr& e, const std::vector<const ForNode*>& nest) {
  for (const ForNode* f : nest)
    if (mentions(e, f->iter)) return true;
  return false;
}

// `e` as `x + c`, `c + x` or `x - c` with x an iterator of `nest` and c free of them.
std::optional<IndexForm> index_form(const Expr& e, const std::vector<const ForNode*>& nest) {
  auto iterator = [&](const Expr& x) -> std::optional<size_t> {
    const ReadNode* r = x.as<ReadNode>();
    if (!r || !r->idx.empty()) return std::nullopt;
    for (size_t k = 0; k < nest.size(); ++k)
      if (nest[k]->iter == r->name) return k;
    return std::nullopt;
  };
  if (auto k = iterator(e)) return IndexForm{*k, rw::int_const(0)};
  const BinOpNode* b = e.as<BinOpNode>();
  if (!b) return std::nullopt;
  if (b->op == BinOpKind::Add) {
    if (auto k = iterator(b->lhs); k && !mentions_any(b->rhs, nest)) return IndexForm{*k, b->rhs};
    if (auto k = iterator(b->rhs); k && !mentions_any(b->lhs, nest)) return IndexForm{*k, b->lhs};
  }
  if (b->op == BinOpKind::Sub)
    if (auto k = iterator(b->lhs); k && !mentions_any(b->rhs, nest))
      return IndexForm{*k, USubNode::make(b->rhs)};
  return std::nullopt;
}

// The substitution of the producer's iterators at a read f[r]: x_k := r_d - c_d.
rw::SymMap iterators_at(const std::vector<Expr>& r, const std::vector<const ForNode*>& nest,
                        const std::vector<IndexForm>& forms) {
  rw::SymMap env;
  for (size_t d = 0; d < forms.size(); ++d)
    env.emplace(nest[forms[d].loop]->iter, rw::mk_sub(r[d], forms[d].offset));
  return env;
}

// `g[i] = f[r]` with g of precision `t` (f's) and i free of f: a copy of one element of f.
const AssignNode* as_copy(const Stmt& s, const Sym& f, ScalarKind t) {
  const AssignNode* a = s.as<AssignNode>();
  if (!a || a->name == f || a->type != t) return nullptr;
  const ReadNode* r = a->rhs.as<ReadNode>();
  if (!r || r->name != f) return nullptr;
  for (const Expr& i : a->idx)
    if (uses_of(i).read.count(f)) return nullptr;
  return a;
}

// Replaces every read f[r] by e with each iterator x_k := r_d - c_d; with `body` set (the
// producer's innermost body ending in f's write), every copy `g[i] = f[r]` by that body
// instantiated at r, locals renamed, writing g[i] instead of f.
class InlineReads : public IRMutator {
 public:
  InlineReads(Sym f, ScalarKind t, Expr e, const std::vector<const ForNode*>& nest,
              const std::vector<IndexForm>& forms, const Block* body)
      : f_(std::move(f)), t_(t), e_(std::move(e)), nest_(nest), forms_(forms), body_(body) {}

  bool expanded_copies = false;

 protected:
  Expr mutate_Read(const ReadNode* n, const Expr& e) override {
    if (n->name != f_) return IRMutator::mutate_Read(n, e);
    return rw::substitute(e_, iterators_at(mutate(n->idx), nest_, forms_));
  }

  Block mutate_to_block(const Stmt& s) override {
    const AssignNode* copy = body_ ? as_copy(s, f_, t_) : nullptr;
    if (!copy) return IRMutator::mutate_to_block(s);
    expanded_copies = true;
    const auto& r = copy->rhs.as<ReadNode>()->idx;
    Block inst = rw::alpha_rename(rw::substitute(*body_, iterators_at(r, nest_, forms_)));
    const AssignNode* last = inst.back().as<AssignNode>();
    inst.back() = AssignNode::make(copy->name, copy->type, copy->idx, last->rhs, copy->srcinfo);
    return inst;
  }

 private:
  Sym f_;
  ScalarKind t_;
  Expr e_;
  const std::vector<const ForNode*>& nest_;
  const std::vector<IndexForm>& forms_;
  const Block* body_;
};

// The statements before the producer's write of f in its innermost body may only compute
// locals: allocations, and assignments or reductions to buffers allocated there.
void require_local_prefix(const Cursor& c, const Block& body) {
  std::vector<Sym> locals;
  for (size_t k = 0; k + 1 < body.size(); ++k) {
    const Stmt& st = body[k];
    if (const AllocNode* al = st.as<AllocNode>()) {
      locals.push_back(al->name);
      continue;
    }
    const Sym* target = nullptr;
    if (const AssignNode* a = st.as<AssignNode>()) target = &a->name;
    if (const ReduceNode* r = st.as<ReduceNode>()) target = &r->name;
    if (!target || std::find(locals.begin(), locals.end(), *target) == locals.end())
      rw::fail(reason::kStmtForm, c,
               "the producer must be a perfect loop nest around its assignment (its innermost "
               "body may first compute values into buffers it allocates); '" +
                   to_string(st) + "' is not such a step");
  }
}

}  // namespace

Proc compute_inline(const Proc& p, const CursorLike& producer) {
  return rw::run_op("compute_inline", [&]() -> Proc {
    // 1. The producer: a perfect nest around its body, which ends in the assignment to f.
    Cursor c = rw::resolve_stmt(p, producer);
    const rw::ProducerNest pn = rw::producer_nest(c.stmt());
    const std::vector<const ForNode*>& nest = pn.loops;
    const Block& body = pn.body;
    const AssignNode* a = pn.store;
    if (nest.empty() || !a)
      rw::fail(reason::kStmtForm, c, "the producer must be a loop nest around one assignment");
    require_local_prefix(c, body);
    const bool single = body.size() == 1;
    for (const ForNode* f : nest)
      if (mentions_any(f->lo, nest) || mentions_any(f->hi, nest) ||
          !uses_of(f->lo).config_reads.empty() || !uses_of(f->hi).config_reads.empty())
        rw::fail(reason::kDepLoopVariant, c,
                 "the bounds of loop '" + f->iter.name() +
                     "' depend on the nest's iterators or on a config field, so the produced "
                     "region is not a box");
    if (a->idx.size() != nest.size())
      rw::fail(reason::kStmtForm, c,
               "'" + a->name.name() + "' has " + std::to_string(a->idx.size()) +
                   " dimensions and the nest " + std::to_string(nest.size()) +
                   " loops: each dimension must be indexed by its own loop");
    std::vector<IndexForm> forms;
    std::vector<bool> used(nest.size(), false);
    for (const Expr& i : a->idx) {
      std::optional<IndexForm> form = index_form(i, nest);
      if (!form || used[form->loop])
        rw::fail(reason::kStmtForm, c,
                 "the index '" + to_string(i) +
                     "' is not one of the nest's iterators (each used once) plus an offset");
      used[form->loop] = true;
      forms.push_back(*form);
    }

    // 2. The buffer: allocated earlier in this list, used afterwards only by reads in the rest.
    const Loc& l = c.loc();
    const Block& list = c.list();
    int alloc_at = -1;
    for (int i = 0; i < l.lo; ++i)
      if (auto al = list[static_cast<size_t>(i)].as<AllocNode>(); al && al->name == a->name)
        alloc_at = i;
    if (alloc_at < 0)
      rw::fail(reason::kBufferOtherUse, c,
               "'" + a->name.name() +
                   "' is not allocated earlier in the same block, so it may be used elsewhere");
    const AllocNode* alloc = list[static_cast<size_t>(alloc_at)].as<AllocNode>();
    const ScalarKind t = alloc->type.base;
    Block between(list.begin() + alloc_at + 1, list.begin() + l.lo);
    Block rest(list.begin() + l.lo + 1, list.end());
    if (rw::buffer_uses(between, a->name).any())
      rw::fail(reason::kBufferOtherUse, c,
               "'" + a->name.name() + "' is used between its allocation and the producer");
    rw::BufferUses uses = rw::buffer_uses(rest, a->name);
    if (uses.write || uses.reduce || uses.window || uses.whole || uses.stride)
      rw::fail(reason::kBufferOtherUse, c,
               "'" + a->name.name() +
                   "' is written, windowed, passed whole or asked its stride after the producer; "
                   "only reads can take the expression");
    if (rw::buffer_uses(body, a->name).read)
      rw::fail(reason::kDepReadWritten, c, "the producer reads '" + a->name.name() + "' itself");

    // 3. How the reads take the value: the expression itself where the store keeps its value
    // and the producer is one assignment; otherwise only copies (which store as f's store did).
    const bool by_expression = single && rw::store_keeps_value(a->rhs, t);
    if (!by_expression)
      for (const Stmt& st : uses.stmts)
        if (!as_copy(st, a->name, t)) {
          if (single) rw::require_store_keeps_value(c, a->name, a->rhs, t);
          rw::fail(reason::kStmtForm, c,
                   "the producer computes '" + a->name.name() +
                       "' in several statements, so only copies of its elements (`g[..] = " +
                       a->name.name() + "[..]`, g of precision " + to_string(t) +
                       ") can take its body; '" + to_string(st) + "' is not one");
        }

    // 4. The body keeps its value: the rest writes nothing it reads.
    std::vector<Expr> inputs;
    for (const Stmt& st : body) {
      if (const AssignNode* as = st.as<AssignNode>()) {
        inputs.push_back(as->rhs);
        inputs.insert(inputs.end(), as->idx.begin(), as->idx.end());
      }
      if (const ReduceNode* rd = st.as<ReduceNode>()) {
        inputs.push_back(rd->rhs);
        inputs.insert(inputs.end(), rd->idx.begin(), rd->idx.end());
      }
    }
    rw::require_inputs_unwritten(c, p, rest, inputs, "after the producer");

    // 5. Every read lies in the produced region.
    for (const Stmt& st : uses.stmts) {
      checker::Context ctx = checker::Context::at(p, st);
      for (const std::vector<Expr>& r : rw::own_reads(st, a->name))
        for (size_t d = 0; d < r.size(); ++d) {
          const ForNode* loop = nest[forms[d].loop];
          Expr x = rw::mk_sub(r[d], forms[d].offset);
          rw::require_proved(c, checker::always_in_range(ctx, x, loop->lo, loop->hi), [&] {
            return "the read of " + a->name.name() + " at index '" + to_string(r[d]) +
                   "' (dimension " + std::to_string(d) + ") lies in the produced range [" +
                   to_string(rw::mk_add(loop->lo, forms[d].offset)) + ", " +
                   to_string(rw::mk_add(loop->hi, forms[d].offset)) + ")";
          });
        }
    }

    // 6. The rewrite: the reads take the expression (or the copies the body); the producer and
    // the allocation go.
    InlineReads sub(a->name, t, a->rhs, nest, forms, by_expression ? nullptr : &body);
    Block new_rest = sub.mutate(rest);
    rw::Edit edit(p);
    const int end = static_cast<int>(list.size());
    if (sub.expanded_copies)
      edit.replace(l.block, l.lo + 1, end, new_rest);
    else
      edit.rewrite(l.block, l.lo + 1, end, new_rest);
    edit.remove(l.block, l.lo, l.lo + 1).remove(l.block, alloc_at, alloc_at + 1);
    if (by_expression) {
      rw::require_arithmetic_kept(
          c, rest, new_rest,
          "putting '" + to_string(a->rhs) + "' where '" + a->name.name() + "' was read");
      rw::typecheck_substituted(c, edit, a->name, a->rhs, t);
    }
    return edit.done();
  });
}

}  // namespace exocpp
