// fission: split the loops and ifs around a gap into two copies each.
//
//   for i in _:          for i in _:            if c:              if c:
//       s1                   s1                     s1                 s1
//       <- gap     -->   for i in _:                <- gap   -->   if c:
//       s2                   s2                     s2                 s2
//                                               else: t            else: t
//
// With n_lifts = k the split repeats k levels up: after each level the gap is the one
// between the two new copies. (A gap in an else branch splits as `if c: b else: s1` ;
// `if c: pass else: s2`.)
// Checks per level: the gap is inside a loop or if, with statements on both sides; nothing
// allocated or windowed before the gap is used after it; for a loop, the checker proves the
// split reorders no conflicting statements (checker::can_fission), or that the part before the
// gap is the same idempotent work in every iteration, which no later part disturbs
// (checker::fission_first_part_idempotent: its repeats change nothing); the second copy evaluates
// the loop's bounds (or the if's condition) again after the first copy ran, so the checker
// proves the first copy writes nothing they read (value_unchanged_by).
// Forwarding: statements before the gap stay in the first copy, those after it move to the
// second; the split statement maps to the first copy; the gap maps to the gap between copies.
#include "checker/queries.h"
#include "rewrites/internal/code_uses.h"
#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/internal/targets.h"
#include "rewrites/loops.h"

namespace exocpp {

using namespace rw;

namespace {

// One level: splits the statement enclosing gap `g`; returns the new proc and its new gap.
std::pair<Proc, Cursor> fission_once(const Proc& p, const Cursor& g, int level) {
  // 1. Checks.
  const Loc& gl = g.loc();
  if (gl.block.empty())
    rw::fail(reason::kStmtNoEnclosingScope, g,
             "the gap is at the top level of the proc" +
                 std::string(level > 0 ? " after " + std::to_string(level) + " lift(s)" : "") +
                 ": there is no enclosing loop or if to split (n_lifts is too large)");
  BlockPath path(gl.block.begin(), gl.block.end() - 1);
  int at = gl.block.back().index;
  BlockField field = gl.block.back().field;
  Cursor sc(p, Loc{CursorKind::Stmt, path, at, at + 1, {}});
  Stmt s = sc.stmt();
  const Block& list = field == BlockField::Body
                          ? (s.is<ForNode>() ? s.as<ForNode>()->body : s.as<IfNode>()->body)
                          : s.as<IfNode>()->orelse;
  int k = gl.lo, n = static_cast<int>(list.size());
  if (k == 0 || k == n)
    rw::fail(reason::kStmtEmptyPart, sc,
             std::string("the gap is at the ") + (k == 0 ? "start" : "end") + " of the body of '" +
                 sc.to_string() + "': there is nothing to split off");
  Block pre(list.begin(), list.begin() + k), post(list.begin() + k, list.end());
  if (auto used = bindings_used_after(pre, post); !used.empty())
    rw::fail(reason::kScopeEscapes, sc,
             "'" + used.front() +
                 "' is defined before the gap and used after it (lift its allocation first)");
  // 2. The two copies (the first is also the code the second's header is evaluated after).
  Stmt a, b;
  if (const ForNode* f = s.as<ForNode>()) {
    a = ForNode::make(f->iter, f->lo, f->hi, pre, f->mode, f->srcinfo);
    b = ForNode::make(f->iter, f->lo, f->hi, post, f->mode, f->srcinfo);
  } else {
    const IfNode* i = s.as<IfNode>();
    if (field == BlockField::Body) {
      a = IfNode::make(i->cond, pre, {}, i->srcinfo);
      b = IfNode::make(i->cond, post, i->orelse, i->srcinfo);
    } else {
      a = IfNode::make(i->cond, i->body, pre, i->srcinfo);
      b = IfNode::make(i->cond, {PassNode::make(i->srcinfo)}, post, i->srcinfo);
    }
  }
  checker::Context sctx = checker::Context::at(sc);
  if (const ForNode* f = s.as<ForNode>()) {
    rw::require_unchanged(sc, sctx, f->lo, {a}, [&] {
      return "the lower bound '" + sc.lo().to_string() + "' of the second copy";
    });
    rw::require_unchanged(sc, sctx, f->hi, {a}, [&] {
      return "the upper bound '" + sc.hi().to_string() + "' of the second copy";
    });
    // Either no conflicting pair is reordered, or the part before the gap is the same
    // idempotent work in every iteration (Exo's fission accepts that too); the first
    // question's answer is the one a refusal reports.
    checker::Answer split = checker::can_fission(sctx, s, static_cast<size_t>(k));
    if (!split.proved()) {
      checker::Answer same_work =
          checker::fission_first_part_idempotent(sctx, s, static_cast<size_t>(k));
      if (same_work.proved()) split = same_work;
    }
    rw::require_proved(
        sc, split, [&] { return "splitting loop " + f->iter.name() + " keeps every dependence"; });
  } else {
    rw::require_unchanged(sc, sctx, s.as<IfNode>()->cond, {a}, [&] {
      return "the condition '" + sc.cond().to_string() + "' of the second copy";
    });
  }

  // 3. The new proc.
  Proc q = rw::Edit(p).split(path, at, field, k, a, b).done();
  return {q, Cursor(q, Loc{CursorKind::Gap, path, at + 1, at + 1, {}})};
}
}  // namespace

Proc fission(const Proc& p, const CursorLike& gap, const FissionOptions& opts) {
  return rw::run_op("fission", [&]() -> Proc {
    Cursor g = rw::resolve_gap(p, gap);
    if (opts.n_lifts < 1)
      rw::fail(reason::kArgRange, g,
               "n_lifts must be at least 1, got " + std::to_string(opts.n_lifts));
    Proc q = p;
    for (int level = 0; level < opts.n_lifts; ++level) std::tie(q, g) = fission_once(q, g, level);
    return q;
  });
}

}  // namespace exocpp
