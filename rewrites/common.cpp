// Target resolution, checker answers as errors, and the operation wrapper.
#include "rewrites/common.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "checker/queries.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "rewrites/config_util.h"

namespace exocpp {

std::string CursorLike::describe() const {
  if (is_pattern()) return "'" + pattern() + "'";
  return "cursor '" + cursor().to_string() + "'";
}

namespace rw {

void fail(const std::string& op, const Cursor& where, const std::string& reason,
          const std::string& counterexample) {
  throw SchedulingError(op, where.is_valid() ? where.srcinfo() : SrcInfo{}, reason, counterexample);
}

void fail(const std::string& op, const SrcInfo& where, const std::string& reason,
          const std::string& counterexample) {
  throw SchedulingError(op, where, reason, counterexample);
}

Expr parse_user_expr(const Cursor& where, const std::string& text,
                     const std::vector<ScopeVar>& scope, const ParseOptions& opts,
                     bool allow_window) {
  try {
    return parse_expr(text, scope, opts, allow_window);
  } catch (const Error& e) {
    if (!where.is_valid() || !where.srcinfo().known()) throw;
    std::string column = e.loc().col > 0 ? " (column " + std::to_string(e.loc().col) + ")" : "";
    throw ParseError(where.srcinfo(),
                     "in the expression `" + text + "`" + column + ": " + e.reason());
  }
}

void rethrow_with_op(const std::string& op, const Error& e) {
  throw SchedulingError(op, e.loc(), e.reason(), e.counterexample());
}

Cursor resolve(const std::string& op, const Proc& p, const CursorLike& target) {
  if (target.is_pattern()) {
    std::vector<Cursor> all = find_all(p, target.pattern());
    if (all.empty())
      fail(op, p->srcinfo, "no match for " + target.describe() + " in proc '" + p.name() + "'");
    return all.front();
  }
  Cursor c;
  try {
    c = p.forward(target.cursor());
  } catch (const InvalidCursorError& e) {
    fail(op, p->srcinfo, e.reason());
  }
  if (!c.is_valid())
    fail(op, p->srcinfo,
         "the cursor's target no longer exists in proc '" + p.name() + "' (a rewrite removed it)");
  return c;
}

Cursor resolve_stmt(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_block() && c.size() == 1) c = c[0];
  if (!c.is_stmt())
    fail(op, c, "expected a statement, but " + target.describe() + " is a " + to_string(c.kind()));
  return c;
}

Cursor resolve_loop(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c;
  if (target.is_pattern()) {
    try {
      c = find_loop(p, target.pattern());
    } catch (const SchedulingError& e) {
      fail(op, p->srcinfo, "no loop matches " + target.describe() + " in proc '" + p.name() + "'");
    }
    if (c.is_block() && c.size() == 1) c = c[0];
  } else {
    c = resolve_stmt(op, p, target);
  }
  as_loop(op, c);
  return c;
}

Cursor resolve_block(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_stmt()) return c.as_block();
  if (!c.is_block())
    fail(op, c,
         "expected a block of statements, but " + target.describe() + " is a " +
             to_string(c.kind()));
  return c;
}

Cursor resolve_gap(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (c.is_block() && c.size() == 1) c = c[0];
  if (c.is_stmt()) return c.after();
  if (!c.is_gap())
    fail(op, c,
         "expected a gap between statements, but " + target.describe() + " is a " +
             to_string(c.kind()));
  return c;
}

Cursor resolve_alloc(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c;
  if (target.is_pattern()) {
    const std::string& pat = target.pattern();
    // A bare identifier names the buffer ("C_reg"); anything else ("x: _", "_") is a pattern.
    bool bare_name = pat != "_" && is_identifier(pat);
    if (bare_name) {
      try {
        c = find_alloc_or_arg(p, pat);
      } catch (const SchedulingError&) {
        fail(op, p->srcinfo,
             "no allocation or argument named '" + pat + "' in proc '" + p.name() + "'");
      }
    } else {
      c = resolve(op, p, target);
    }
  } else {
    c = resolve(op, p, target);
  }
  if (c.is_block() && c.size() == 1) c = c[0];
  if (c.is_arg()) return c;
  if (!c.is_stmt() || c.stmt().kind() != StmtKind::Alloc)
    fail(op, c, "expected an allocation, but " + target.describe() + " is not one");
  return c;
}

Cursor resolve_expr(const std::string& op, const Proc& p, const CursorLike& target) {
  Cursor c = resolve(op, p, target);
  if (!c.is_expr())
    fail(op, c,
         "expected an expression, but " + target.describe() + " is a " + to_string(c.kind()));
  return c;
}

void require_unchanged(const std::string& op, const Cursor& where, const checker::Context& ctx,
                       const Expr& e, const Block& code, const std::string& what) {
  require_proved(
      op, where, checker::value_unchanged_by(ctx, e, code),
      what +
          " has the same value where the rewritten proc evaluates it (nothing in between writes "
          "what it reads)");
}

void require_parallel(const std::string& op, const Cursor& where, const checker::Context& ctx,
                      const Stmt& loop, const std::string& what) {
  const ForNode* f = loop.as<ForNode>();
  if (f == nullptr || f->mode == LoopMode::Seq) return;
  require_proved(op, where, checker::loop_is_parallelizable(ctx, loop),
                 "the iterations of " + what +
                     ", a par loop, are independent (no two of them touch one location where "
                     "one writes it)");
}

void require_proved(const std::string& op, const Cursor& where, const checker::Answer& a,
                    const std::string& what) {
  if (a.proved()) return;
  SrcInfo loc = where.is_valid() ? where.srcinfo() : SrcInfo{};
  if (a.refuted())
    throw SchedulingError(op, loc,
                          "requires that " + what + ", but " +
                              (a.reason.empty() ? std::string("the checker refuted it") : a.reason),
                          a.counterexample);
  throw SchedulingError(
      op, loc, "could not prove that " + what + (a.reason.empty() ? "" : " (" + a.reason + ")"));
}

const ForNode* as_loop(const std::string& op, const Cursor& c) {
  if (!c.is_stmt() || c.stmt().kind() != StmtKind::For)
    fail(op, c,
         "expected a loop, found " +
             (c.is_stmt() ? "'" + c.to_string() + "'" : std::string("a ") + to_string(c.kind())));
  return c.stmt().as<ForNode>();
}

namespace {
class NameCollector : public IRVisitor {
 public:
  std::set<std::string> names;

 protected:
  void visit_For(const ForNode* n, const Stmt& s) override {
    names.insert(n->iter.name());
    IRVisitor::visit_For(n, s);
  }
  void visit_Alloc(const AllocNode* n, const Stmt& s) override {
    names.insert(n->name.name());
    IRVisitor::visit_Alloc(n, s);
  }
  void visit_WindowStmt(const WindowStmtNode* n, const Stmt& s) override {
    names.insert(n->name.name());
    IRVisitor::visit_WindowStmt(n, s);
  }
};
}  // namespace

std::vector<ScopeVar> scope_at(const Proc& p, const BlockPath& path, int index) {
  std::vector<ScopeVar> out;
  for (const FnArg& a : p.args()) out.push_back({a.name, a.type});
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

void check_int_arg(const std::string& op, const Cursor& where, const std::string& what,
                   int64_t value, int64_t lo, int64_t hi) {
  if (value >= lo && value <= hi) return;
  fail(op, where,
       what + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
           std::to_string(value));
}

namespace {

// Every par loop statement node of a block, by identity.
void collect_par_loops(const Block& b, std::set<const StmtNode*>& out) {
  for (const Stmt& s : b) {
    if (const ForNode* f = s.as<ForNode>()) {
      if (f->mode != LoopMode::Seq) out.insert(s.get());
      collect_par_loops(f->body, out);
    } else if (const IfNode* i = s.as<IfNode>()) {
      collect_par_loops(i->body, out);
      collect_par_loops(i->orelse, out);
    }
  }
}

// Proves every par loop of `result` that is not a par loop node of its input `before` (one the
// operation made, or whose body it changed): iterations of a par loop run in any order, so a
// rewrite inside one (a staged buffer copied whole, a fused body) may make them conflict even
// when each step is legal for a sequential loop.
void require_new_par_loops_parallel(const std::string& op, const Proc& result,
                                    const std::set<const StmtNode*>& before, const Block& b,
                                    BlockPath& path) {
  for (size_t k = 0; k < b.size(); ++k) {
    const Stmt& s = b[k];
    const int idx = static_cast<int>(k);
    if (const ForNode* f = s.as<ForNode>()) {
      if (f->mode != LoopMode::Seq && before.count(s.get()) == 0) {
        Loc l{CursorKind::Stmt, path, idx, idx + 1, {}};
        require_parallel(op, Cursor(result, l), checker::Context::at(result, path, idx), s,
                         "loop " + f->iter.name());
      }
      path.push_back({idx, BlockField::Body});
      require_new_par_loops_parallel(op, result, before, f->body, path);
      path.pop_back();
    } else if (const IfNode* i = s.as<IfNode>()) {
      path.push_back({idx, BlockField::Body});
      require_new_par_loops_parallel(op, result, before, i->body, path);
      path.back().field = BlockField::Orelse;
      require_new_par_loops_parallel(op, result, before, i->orelse, path);
      path.pop_back();
    }
  }
}

}  // namespace

void require_well_formed(const std::string& op, const Proc& result) {
  if (!result.defined()) return;
  typecheck_candidate(op, *result.get(), "the rewritten proc would not be valid");
  Proc input = result.parent();
  if (!input.defined()) return;
  std::set<const StmtNode*> before;
  collect_par_loops(input.body(), before);
  BlockPath path;
  require_new_par_loops_parallel(op, result, before, result.body(), path);
}

bool is_call_buffer_argument(const Cursor& c) {
  if (!c.is_expr() || c.loc().expr.size() != 1) return false;
  const Block& list = c.list();
  if (c.loc().lo < 0 || c.loc().lo >= static_cast<int>(list.size())) return false;
  const CallNode* call = list[static_cast<size_t>(c.loc().lo)].as<CallNode>();
  if (!call) return false;
  size_t i = static_cast<size_t>(c.loc().expr[0]);
  return i < call->proc->args.size() && !call->proc->args[i].type.is_control();
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
  return true;
}

std::vector<std::string> bound_names(const Proc& p) {
  NameCollector c;
  for (const FnArg& a : p.args()) c.names.insert(a.name.name());
  c.visit(p.body());
  return {c.names.begin(), c.names.end()};
}

namespace {
// The procs `p` calls, transitively (each once), and the configs they and `p` use.
struct Referenced {
  std::vector<const ProcNode*> procs;
  std::set<std::string> configs;
};
class RefCollector : public IRVisitor {
 public:
  Referenced out;
  std::set<const ProcNode*> seen;
  void proc(const ProcNode& n) { visit_proc(n); }

 protected:
  void visit_Call(const CallNode* n, const Stmt& s) override {
    if (n->proc && seen.insert(n->proc.get()).second) {
      out.procs.push_back(n->proc.get());
      proc(*n->proc);
    }
    IRVisitor::visit_Call(n, s);
  }
  void visit_WriteConfig(const WriteConfigNode* n, const Stmt& s) override {
    if (n->config) out.configs.insert(n->config->name);
    IRVisitor::visit_WriteConfig(n, s);
  }
  void visit_ReadConfig(const ReadConfigNode* n, const Expr& e) override {
    if (n->config) out.configs.insert(n->config->name);
    IRVisitor::visit_ReadConfig(n, e);
  }
};
Referenced referenced(const Proc& p) {
  RefCollector c;
  c.seen.insert(p.get());
  c.proc(*p.get());
  return c.out;
}

// Syntax and keywords; returns the reason the name is refused, or "".
std::string name_syntax_problem(const std::string& name) {
  if (name.empty()) return "a name cannot be empty";
  if (!is_identifier(name))
    return "it is not a name of the procedure language (a letter or '_', then letters, digits and "
           "'_')";
  if (is_keyword(name)) return "it is a keyword of the procedure language";
  return "";
}

std::string quoted_name(const std::string& name) {
  std::string q;
  for (char ch : name) {
    if (ch == '\n')
      q += "\\n";
    else if (ch == '\t')
      q += "\\t";
    else if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      q += "?";
    else
      q += ch;
  }
  return "'" + q + "'";
}
}  // namespace

void check_new_name(const std::string& op, const Proc& p, const std::string& name,
                    const Cursor& where, const std::string& what) {
  auto refuse = [&](const std::string& why) {
    std::string msg = quoted_name(name) + " is not a valid " + what + ": " + why;
    if (where.is_valid()) fail(op, where, msg);
    fail(op, p->srcinfo, msg);
  };
  if (std::string why = name_syntax_problem(name); !why.empty()) refuse(why);
  Referenced refs = referenced(p);
  for (const ProcNode* q : refs.procs)
    if (q->name == name) refuse("proc '" + p.name() + "' calls a proc of that name");
  if (refs.configs.count(name)) refuse("proc '" + p.name() + "' uses a config of that name");
}

void check_new_proc_name(const std::string& op, const Proc& p, const std::string& name,
                         const SrcInfo& where, bool other_than_self) {
  auto refuse = [&](const std::string& why) {
    fail(op, where, quoted_name(name) + " is not a valid proc name: " + why);
  };
  if (std::string why = name_syntax_problem(name); !why.empty()) refuse(why);
  if (other_than_self && name == p.name())
    refuse("it is the name of proc '" + p.name() + "' itself");
  Referenced refs = referenced(p);
  for (const ProcNode* q : refs.procs)
    if (q->name == name) refuse("proc '" + p.name() + "' calls another proc of that name");
  if (refs.configs.count(name)) refuse("proc '" + p.name() + "' uses a config of that name");
}

void check_callee_name(const std::string& op, const Proc& p, const Proc& callee,
                       const Cursor& where) {
  auto refuse = [&](const std::string& why) {
    fail(op, where, "proc '" + p.name() + "' cannot call '" + callee.name() + "': " + why);
  };
  if (callee.name() == p.name()) refuse("it has the same name as the caller (rename one of them)");
  for (const ProcNode* q : referenced(callee).procs)
    if (q->name == p.name())
      refuse("it calls a proc named '" + p.name() + "' like the caller (rename one of them)");
}

Sym fresh_name(const std::string& op, const Proc& p, const std::string& name, const Cursor& where) {
  check_new_name(op, p, name, where);
  // A name may repeat in sibling scopes (stage_mem's copy loops do), but it must neither shadow
  // a name visible at `where` nor be shadowed by one bound in the new name's scope, which is at
  // most the rest of the statement list from `where` on.
  auto clash = [&] {
    fail(op, where,
         "the name '" + name + "' is already used in proc '" + p.name() +
             "' where it would be visible");
  };
  Cursor at = where.is_valid() ? where : proc_body(p);
  for (const ScopeVar& v : scope_at(at))
    if (v.sym.name() == name) clash();
  if (!at.is_arg()) {
    const Block& list = at.list();
    NameCollector later;
    for (size_t i = static_cast<size_t>(std::max(at.loc().lo, 0)); i < list.size(); ++i)
      later.visit(list[i]);
    if (later.names.count(name)) clash();
  } else {
    for (const std::string& n : bound_names(p))
      if (n == name) clash();
  }
  return Sym(name);
}

}  // namespace rw
}  // namespace exocpp
