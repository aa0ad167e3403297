// The operation frame (rewrites/internal/operation.h).
#include "rewrites/internal/operation.h"

#include <exception>
#include <optional>
#include <set>
#include <unordered_map>

#include "checker/queries.h"
#include "core/cuda.h"
#include "core/ir_visit.h"
#include "core/printer.h"
#include "core/typecheck.h"
#include "rewrites/internal/config_fields.h"

namespace exocpp::rw {

void fail(const Reason& why, const Cursor& where, const std::string& text,
          const std::string& counterexample) {
  throw SchedulingError(current_op(), why, where.is_valid() ? where.srcinfo() : SrcInfo{}, text,
                        counterexample, where.current_line());
}

void fail(const Reason& why, const SrcInfo& where, const std::string& text,
          const std::string& counterexample) {
  throw SchedulingError(current_op(), why, where, text, counterexample);
}

void rethrow_as_current(const SchedulingError& e, const std::string& prefix) {
  throw SchedulingError(current_op(), e, prefix + e.reason());
}

void rethrow_in_frame(const Error& e) {
  if (const auto* s = dynamic_cast<const SchedulingError*>(&e)) rethrow_as_current(*s);
  const std::string& name = current_op();
  // The argument was at fault: a user string the front end refused, a misused cursor, an
  // undefined proc.
  const Reason& why = dynamic_cast<const ParseError*>(&e) || dynamic_cast<const TypeError*>(&e)
                          ? reason::kArgParseOrType
                      : dynamic_cast<const InvalidCursorError*>(&e) ? reason::kArgCursor
                      : dynamic_cast<const UndefinedProcError*>(&e) ? reason::kArgUndefinedProc
                                                                    : reason::kArgInvalid;
  // Called while `e` is being handled: the new error nests it.
  std::throw_with_nested(SchedulingError(name, why, e.loc(), e.reason(), e.counterexample()));
}

void require_unchanged(const Cursor& where, const checker::Context& ctx, const Expr& e,
                       const Block& code, const Message& what) {
  require_proved(
      where, checker::value_unchanged_by(ctx, e, code),
      [&] {
        return what.str() +
               " has the same value where the rewritten proc evaluates it (nothing in between "
               "writes what it reads)";
      },
      reason::kCheckerValueChanged);
}

void require_parallel(const Cursor& where, const checker::Context& ctx, const Stmt& loop,
                      const Message& what) {
  const ForNode* f = loop.as<ForNode>();
  if (f == nullptr || f->mode == LoopMode::Seq) return;
  require_proved(
      where, checker::loop_is_parallelizable(ctx, loop),
      [&] {
        return "the iterations of " + what.str() +
               ", a par loop, are independent (no two of them touch one location "
               "where one writes it)";
      },
      reason::kCheckerParConflict);
}

void require_proved(const Cursor& where, const checker::Answer& a, const Message& what,
                    const Reason& why) {
  if (a.proved()) return;
  if (a.refuted())
    fail(why, where,
         "requires that " + what.str() + ", but " +
             (a.reason.empty() ? std::string("the checker refuted it") : a.reason),
         a.counterexample);
  fail(reason::kCheckerUnknown, where,
       "could not prove that " + what.str() + (a.reason.empty() ? "" : " (" + a.reason + ")"));
}

void fail_wrong_kind(const Cursor& c, const std::string& expected) {
  fail(reason::kTargetWrongKind, c,
       "expected " + expected + ", but " +
           (c.is_stmt() || c.is_expr() ? "'" + c.to_string() + "' is not one"
                                       : std::string("a ") + to_string(c.kind()) + " was given"));
}

const ForNode* as_loop(const Cursor& c) { return stmt_as<ForNode>(c, "a loop"); }

void check_int_arg(const Cursor& where, const std::string& what, int64_t value, int64_t lo,
                   int64_t hi) {
  if (value >= lo && value <= hi) return;
  fail(reason::kArgRange, where,
       what + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + ", got " +
           std::to_string(value));
}

namespace {

// Proves every par loop of `result` that is not a par loop node of its input `before` (one the
// operation made, or whose body it changed): iterations of a par loop run in any order, so a
// rewrite inside one (a staged buffer copied whole, a fused body) may make them conflict even
// when each step is legal for a sequential loop. A new or changed CUDA kernel (an outermost
// cuda_blocks loop) must also be free of races between the threads of a block: moving a
// statement across a barrier is legal for the sequential proc and may still break the kernel.
void require_new_par_loops_parallel(const Proc& result, const Proc& input) {
  std::set<const StmtNode*> before;
  for (const ParallelLoopAt& at : parallel_loops(input.body())) before.insert(at.stmt.get());
  for (const ParallelLoopAt& at : parallel_loops(result.body())) {
    if (before.count(at.stmt.get())) continue;
    const ForNode* f = at.stmt.as<ForNode>();
    Loc l{CursorKind::Stmt, at.path, at.index, at.index + 1, {}};
    checker::Context ctx = checker::Context::at(result, at.path, at.index);
    require_parallel(Cursor(result, l), ctx, at.stmt, [&] { return "loop " + f->iter.name(); });
    if (f->mode == LoopMode::CudaBlocks && !at.in_kernel &&
        cuda_structure_problem(result, false).empty())
      require_proved(
          Cursor(result, l), checker::kernel_is_race_free(ctx, at.stmt),
          [&] {
            return "the threads of kernel '" + f->iter.name() +
                   "' do not race (between two barriers, no two threads of a block touch one "
                   "location where one writes it)";
          },
          reason::kCheckerCudaRace);
  }
}

}  // namespace

namespace {

// Finds a use of a variable that a nearer declaration of the same name hides: two symbols may
// share a name (copies of a block keep their names), but the printed proc must read each use
// as the symbol it is, or printing and parsing it back changes what it computes.
class HiddenUse {
 public:
  std::optional<std::pair<std::string, SrcInfo>> found;

  void proc(const ProcNode& p) {
    scopes_.emplace_back();
    for (const FnArg& a : p.args) bind(a.name);
    block(p.body);
  }

 private:
  std::vector<std::unordered_map<std::string, Sym>> scopes_;

  void bind(const Sym& s) { scopes_.back()[s.name()] = s; }
  void use(const Sym& s, const SrcInfo& where) {
    if (found) return;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto b = it->find(s.name());
      if (b == it->end()) continue;
      if (b->second != s) found = std::make_pair(s.name(), where);
      return;
    }
  }
  void expr(const Expr& e) {
    struct Uses : IRVisitor {
      HiddenUse& h;
      explicit Uses(HiddenUse& o) : h(o) {}
      void visit_Read(const ReadNode* n, const Expr& e) override {
        h.use(n->name, e.srcinfo());
        IRVisitor::visit_Read(n, e);
      }
      void visit_WindowExpr(const WindowExprNode* n, const Expr& e) override {
        h.use(n->name, e.srcinfo());
        IRVisitor::visit_WindowExpr(n, e);
      }
      void visit_StrideExpr(const StrideExprNode* n, const Expr& e) override {
        h.use(n->name, e.srcinfo());
        IRVisitor::visit_StrideExpr(n, e);
      }
    } uses(*this);
    if (e.defined()) uses.visit(e);
  }
  void block(const Block& b) {
    scopes_.emplace_back();
    for (const Stmt& s : b) stmt(s);
    scopes_.pop_back();
  }
  void stmt(const Stmt& s) {
    if (!s.defined() || found) return;
    if (const AssignNode* n = s.as<AssignNode>()) {
      use(n->name, s.srcinfo());
      for (const Expr& i : n->idx) expr(i);
      expr(n->rhs);
    } else if (const ReduceNode* n = s.as<ReduceNode>()) {
      use(n->name, s.srcinfo());
      for (const Expr& i : n->idx) expr(i);
      expr(n->rhs);
    } else if (const ForNode* n = s.as<ForNode>()) {
      expr(n->lo);
      expr(n->hi);
      scopes_.emplace_back();
      bind(n->iter);
      block(n->body);
      scopes_.pop_back();
    } else if (const IfNode* n = s.as<IfNode>()) {
      expr(n->cond);
      block(n->body);
      block(n->orelse);
    } else if (const AllocNode* n = s.as<AllocNode>()) {
      for (const Expr& d : n->type.shape) expr(d);
      bind(n->name);
    } else if (const WindowStmtNode* n = s.as<WindowStmtNode>()) {
      expr(n->rhs);
      bind(n->name);
    } else if (const CallNode* n = s.as<CallNode>()) {
      for (const Expr& a : n->args) expr(a);
    } else if (const WriteConfigNode* n = s.as<WriteConfigNode>()) {
      expr(n->rhs);
    }
  }
};

}  // namespace

void require_well_formed(const Proc& result) {
  if (!result.defined()) return;
  typecheck_candidate(*result.get(), "the rewritten proc would not be valid");
  HiddenUse hidden;
  hidden.proc(*result.get());
  if (hidden.found)
    fail(reason::kScopeShadowed, hidden.found->second,
         "the result would use '" + hidden.found->first + "' where a nearer declaration of " +
             "another '" + hidden.found->first +
             "' hides it, so its printed form would read the wrong one (rename one of them)");
  Proc input = result.parent();
  if (!input.defined()) return;
  require_new_par_loops_parallel(result, input);
}
void require_same_location(const Cursor& where, const checker::Context& ctx,
                           const std::vector<Expr>& a, const std::vector<Expr>& b,
                           const Message& what) {
  if (a.size() != b.size())
    fail(reason::kCheckerRefuted, where,
         "requires that " + what.str() + ", but the index counts differ");
  Expr all;
  for (size_t i = 0; i < a.size(); ++i) {
    if (expr_equal(a[i], b[i])) continue;
    Expr eq = BinOpNode::make(BinOpKind::Eq, a[i], b[i], a[i].srcinfo());
    all = all.defined() ? BinOpNode::make(BinOpKind::And, all, eq, a[i].srcinfo()) : eq;
  }
  if (!all.defined()) return;
  require_proved(where, checker::always_true(ctx, all), what);
}

void require_size_expr(const Cursor& where, const Expr& e, const std::string& what) {
  struct V : IRVisitor {
    const Proc* p;
    std::string bad;
    void visit_Read(const ReadNode* n, const Expr& x) override {
      bool arg = false;
      for (const FnArg& a : p->args()) arg = arg || (a.name == n->name && a.type.is_control());
      if (!arg && bad.empty()) bad = n->name.name();
      IRVisitor::visit_Read(n, x);
    }
    void visit_ReadConfig(const ReadConfigNode* n, const Expr&) override {
      if (bad.empty()) bad = n->config->name + "." + n->field;
    }
  } v;
  v.p = &where.proc();
  v.visit(e);
  if (!v.bad.empty())
    fail(reason::kAllocSize, where,
         what + " '" + to_string(e) +
             "' must be built from size arguments and constants, but it uses '" + v.bad + "'");
}

}  // namespace exocpp::rw
