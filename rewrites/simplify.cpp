// ============================================================================================
// simplify: simplify every expression of a proc's asserts and body (core/simplify.h), index
// expressions in Exo's normal form (core/index_normal_form.h), then drop the control flow
// that became constant, as Exo's simplify does.
// ============================================================================================
//
//   s   -->   s[ e -> simplify_in_exo_form(e) ] for every expression e
//   if True: s1 else: s2   -->   s1
//   if False: s1 else: s2  -->   s2          (nothing when there is no else)
//   for i in seq(c, c): s  -->   (nothing)   (equal constant bounds: the loop never runs)
//
// Each rule is an identity (simplification keeps every value; the removed control flow was
// decided by constants). A statement list left empty gets a `pass`. Forwarding: statement
// cursors stay; an expression cursor stays when the statement's top-level expression holding
// it was left unchanged, and becomes invalid otherwise; the kept branch's statements move up a
// level and the removed code's cursors become invalid (as in eliminate_dead_code).
#include "core/simplify.h"

#include <optional>
#include <utility>

#include "rewrites/internal/edit.h"
#include "rewrites/internal/operation.h"
#include "rewrites/stmts.h"

namespace exocpp {

namespace {

bool constant_condition(const Stmt& s) {
  const IfNode* n = s.as<IfNode>();
  const ConstNode* c = n ? n->cond.as<ConstNode>() : nullptr;
  return c && c->type.base == ScalarKind::Bool;
}

bool never_runs(const Stmt& s) {
  const ForNode* f = s.as<ForNode>();
  const ConstNode* lo = f ? f->lo.as<ConstNode>() : nullptr;
  const ConstNode* hi = f ? f->hi.as<ConstNode>() : nullptr;
  return lo && hi && !is_data(lo->type.base) && !is_data(hi->type.base) &&
         hi->int_val() <= lo->int_val();
}

// The first statement, in program order, that is an `if` on a constant or a loop that never
// runs: its list's path and its index there.
std::optional<std::pair<BlockPath, int>> first_constant_control(const Block& b, BlockPath& path) {
  for (size_t i = 0; i < b.size(); ++i) {
    const Stmt& s = b[i];
    if (constant_condition(s) || never_runs(s)) return std::pair{path, static_cast<int>(i)};
    auto search = [&](const Block& child, BlockField field) {
      path.push_back(PathStep{static_cast<int>(i), field});
      auto found = first_constant_control(child, path);
      path.pop_back();
      return found;
    };
    if (const ForNode* f = s.as<ForNode>())
      if (auto found = search(f->body, BlockField::Body)) return found;
    if (const IfNode* n = s.as<IfNode>()) {
      if (auto found = search(n->body, BlockField::Body)) return found;
      if (auto found = search(n->orelse, BlockField::Orelse)) return found;
    }
  }
  return std::nullopt;
}

const Block& list_at(const Block& body, const BlockPath& path) {
  const Block* b = &body;
  for (const PathStep& step : path) {
    const Stmt& s = (*b)[static_cast<size_t>(step.index)];
    if (const ForNode* f = s.as<ForNode>()) b = &f->body;
    if (const IfNode* n = s.as<IfNode>())
      b = step.field == BlockField::Orelse ? &n->orelse : &n->body;
  }
  return *b;
}

// One `if` on a constant or one loop that never runs, replaced by what runs.
Proc drop_constant_control(const Proc& p, const BlockPath& path, int at) {
  const Block& list = list_at(p.body(), path);
  const Stmt& s = list[static_cast<size_t>(at)];
  auto remove = [&]() -> Proc {
    Block with;
    if (list.size() == 1) with.push_back(PassNode::make(s.srcinfo()));
    return rw::Edit(p).replace(path, at, at + 1, with).done();
  };
  if (const IfNode* n = s.as<IfNode>()) {
    if (n->cond.as<ConstNode>()->val != 0)
      return rw::Edit(p).unwrap(path, at, BlockField::Body).done();
    if (n->orelse.empty()) return remove();
    return rw::Edit(p).unwrap(path, at, BlockField::Orelse).done();
  }
  return remove();
}

}  // namespace

Proc simplify(const Proc& p) {
  return rw::run_op("simplify", [&]() -> Proc {
    SimplifiedProc simplified = simplify_in_exo_form(p);
    rw::Edit edit(p);
    edit.node().preds = simplified.preds;
    Proc q = edit.rewrite_exprs({}, 0, static_cast<int>(p.body().size()), simplified.body).done();
    BlockPath path;
    while (auto found = first_constant_control(q.body(), path))
      q = drop_constant_control(q, found->first, found->second);
    return q;
  });
}

}  // namespace exocpp
