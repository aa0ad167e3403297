// Scopes and user expressions (rewrites/internal/scope.h).
#include "rewrites/internal/scope.h"

#include <optional>

#include "core/formatted_expr.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/internal/operation.h"

namespace exocpp::rw {

Expr parse_user_expr(const Cursor& where, const std::string& text,
                     const std::vector<ScopeVar>& scope, const ParseOptions& opts,
                     bool allow_window) {
  try {
    return parse_expr_with_holes(text, scope, opts, allow_window);
  } catch (const Error& e) {
    if (!where.is_valid() || !where.srcinfo().known()) throw;
    std::string column = e.loc().col > 0 ? " (column " + std::to_string(e.loc().col) + ")" : "";
    throw ParseError(where.srcinfo(),
                     "in the expression `" + show_holes(text) + "`" + column + ": " + e.reason());
  }
}

std::vector<ScopeVar> scope_at(const Proc& p, const BlockPath& path, int index) {
  std::vector<ScopeVar> out;
  for (const FnArg& a : p.args()) out.push_back({a.name, a.type, a.is_index_arg()});
  auto bind_before = [&out](const Block& list, int upto) {
    for (int i = 0; i < upto && i < static_cast<int>(list.size()); ++i) {
      const Stmt& s = list[static_cast<size_t>(i)];
      if (const AllocNode* a = s.as<AllocNode>()) out.push_back({a->name, a->type});
      if (const WindowStmtNode* w = s.as<WindowStmtNode>()) out.push_back({w->name, w->rhs.type()});
    }
  };
  const Block* list = &p.body();
  for (const PathStep& step : path) {
    EXOCPP_ASSERT(step.index >= 0 && step.index < static_cast<int>(list->size()),
                  "scope_at: bad path");
    bind_before(*list, step.index);
    const Stmt& s = (*list)[static_cast<size_t>(step.index)];
    if (const ForNode* f = s.as<ForNode>()) {
      out.push_back({f->iter, Type(ScalarKind::Index)});
      list = &f->body;
    } else if (const IfNode* i = s.as<IfNode>()) {
      list = step.field == BlockField::Body ? &i->body : &i->orelse;
    } else {
      EXOCPP_ASSERT(false, "scope_at: path through a statement without a body");
    }
  }
  bind_before(*list, index);
  return out;
}

std::vector<ScopeVar> scope_at(const Cursor& c) {
  if (c.is_arg()) return scope_at(c.proc(), {}, 0);
  return scope_at(c.proc(), c.loc().block, c.loc().lo);
}

Expr parse_user_expr(const Cursor& where, const std::string& text, bool allow_window) {
  return parse_user_expr(where, text, scope_at(where), {}, allow_window);
}

namespace {

// The first variable read in `e` that holds a data value (an f32 argument, a buffer element),
// which makes `e` no control expression; nullopt when there is none.
std::optional<Expr> first_data_read(const Expr& e) {
  class Finder : public IRVisitor {
   public:
    std::optional<Expr> found;
    void visit_Read(const ReadNode* n, const Expr& read) override {
      if (!found && read.type().is_data()) found = read;
      IRVisitor::visit_Read(n, read);
    }
  } f;
  f.visit(e);
  return f.found;
}

Expr parse_typed(const Cursor& where, const std::string& text, const std::string& what,
                 bool condition) {
  Expr e = parse_user_expr(where, text);
  const Type& t = e.type();
  bool ok = t.is_scalar() && (condition ? t.base == ScalarKind::Bool : is_indexable(t.base));
  if (!ok) {
    std::string why = "it has type " + to_string(t);
    if (std::optional<Expr> r = first_data_read(e))
      why = "it reads the data value '" + to_string(*r) + "' (" + to_string(r->type()) +
            "): conditions and index expressions may use only sizes, indices, ints and bools";
    fail(reason::kArgExpression, where,
         what + " '" + show_holes(text) + "' must be " +
             (condition ? "a condition" : "an integer (index) expression") + ", but " + why);
  }
  return e;
}

}  // namespace

Expr parse_index_expr(const Cursor& where, const std::string& text, const std::string& what) {
  return parse_typed(where, text, what, false);
}
Expr parse_condition(const Cursor& where, const std::string& text, const std::string& what) {
  return parse_typed(where, text, what, true);
}

Stmt stmt_of_expr(const Cursor& c) { return stmt_at(c.proc().body(), c.loc().block, c.loc().lo); }

}  // namespace exocpp::rw
