// Cursor navigation, forwarding through proc history, and tree access for rewrites.
#include "core/cursor.h"

#include <sstream>
#include <utility>

#include "core/printer.h"

namespace exocpp {

// ---- tree access -----------------------------------------------------------------------------

static const Block* child_block(const Stmt& s, BlockField f) {
  if (const ForNode* n = s.as<ForNode>()) return f == BlockField::Body ? &n->body : nullptr;
  if (const IfNode* n = s.as<IfNode>()) return f == BlockField::Body ? &n->body : &n->orelse;
  return nullptr;
}

static const Block* try_block_at(const Block& body, const BlockPath& path) {
  const Block* b = &body;
  for (const PathStep& step : path) {
    if (step.index < 0 || step.index >= static_cast<int>(b->size())) return nullptr;
    b = child_block((*b)[static_cast<size_t>(step.index)], step.field);
    if (!b) return nullptr;
  }
  return b;
}

const Block& block_at(const Block& body, const BlockPath& path) {
  const Block* b = try_block_at(body, path);
  EXOCPP_ASSERT(b != nullptr, "block_at: path does not lead to a statement list");
  return *b;
}

Stmt stmt_at(const Block& body, const BlockPath& path, int index) {
  const Block& b = block_at(body, path);
  EXOCPP_ASSERT(index >= 0 && index < static_cast<int>(b.size()), "stmt_at: index out of range");
  return b[static_cast<size_t>(index)];
}

static Stmt with_block(const Stmt& s, BlockField f, Block b) {
  if (b.empty()) b.push_back(PassNode::make(s.srcinfo()));
  if (const ForNode* n = s.as<ForNode>())
    return ForNode::make(n->iter, n->lo, n->hi, std::move(b), n->mode, n->srcinfo);
  const IfNode* n = s.as<IfNode>();
  EXOCPP_ASSERT(n != nullptr, "with_block on a statement without blocks");
  if (f == BlockField::Body) return IfNode::make(n->cond, std::move(b), n->orelse, n->srcinfo);
  return IfNode::make(n->cond, n->body, std::move(b), n->srcinfo);
}

static Block replace_rec(const Block& b, const BlockPath& path, size_t depth, int lo, int hi,
                         const Block& with) {
  if (depth == path.size()) {
    EXOCPP_ASSERT(0 <= lo && lo <= hi && hi <= static_cast<int>(b.size()),
                  "replace_stmts: bad range");
    Block out(b.begin(), b.begin() + lo);
    out.insert(out.end(), with.begin(), with.end());
    out.insert(out.end(), b.begin() + hi, b.end());
    return out;
  }
  const PathStep& step = path[depth];
  EXOCPP_ASSERT(step.index >= 0 && step.index < static_cast<int>(b.size()),
                "replace_stmts: bad path");
  const Stmt& s = b[static_cast<size_t>(step.index)];
  const Block* inner = child_block(s, step.field);
  EXOCPP_ASSERT(inner != nullptr, "replace_stmts: path through a statement without that block");
  Block out = b;
  out[static_cast<size_t>(step.index)] =
      with_block(s, step.field, replace_rec(*inner, path, depth + 1, lo, hi, with));
  return out;
}

Block replace_stmts(const Block& body, const BlockPath& path, int lo, int hi, const Block& with) {
  return replace_rec(body, path, 0, lo, hi, with);
}

std::vector<Expr> expr_children(const Stmt& s) {
  switch (s.kind()) {
    case StmtKind::Assign: {
      auto n = s.as<AssignNode>();
      std::vector<Expr> c = n->idx;
      c.push_back(n->rhs);
      return c;
    }
    case StmtKind::Reduce: {
      auto n = s.as<ReduceNode>();
      std::vector<Expr> c = n->idx;
      c.push_back(n->rhs);
      return c;
    }
    case StmtKind::WriteConfig:
      return {s.as<WriteConfigNode>()->rhs};
    case StmtKind::If:
      return {s.as<IfNode>()->cond};
    case StmtKind::For:
      return {s.as<ForNode>()->lo, s.as<ForNode>()->hi};
    case StmtKind::Call:
      return s.as<CallNode>()->args;
    case StmtKind::WindowStmt:
      return {s.as<WindowStmtNode>()->rhs};
    case StmtKind::Alloc:
    case StmtKind::Pass:
      return {};
  }
  return {};
}

std::vector<Expr> expr_children(const Expr& e) {
  switch (e.kind()) {
    case ExprKind::Read:
      return e.as<ReadNode>()->idx;
    case ExprKind::USub:
      return {e.as<USubNode>()->arg};
    case ExprKind::BinOp:
      return {e.as<BinOpNode>()->lhs, e.as<BinOpNode>()->rhs};
    case ExprKind::Extern:
      return e.as<ExternNode>()->args;
    case ExprKind::WindowExpr: {
      std::vector<Expr> c;
      for (const WAccess& w : e.as<WindowExprNode>()->idx) {
        c.push_back(w.lo);
        if (w.is_interval) c.push_back(w.hi);
      }
      return c;
    }
    case ExprKind::Const:
    case ExprKind::StrideExpr:
    case ExprKind::ReadConfig:
      return {};
  }
  return {};
}

Expr expr_at(const Stmt& s, const std::vector<int>& steps) {
  EXOCPP_ASSERT(!steps.empty(), "expr_at: empty path");
  std::vector<Expr> kids = expr_children(s);
  EXOCPP_ASSERT(steps[0] >= 0 && steps[0] < static_cast<int>(kids.size()), "expr_at: bad step");
  Expr e = kids[static_cast<size_t>(steps[0])];
  for (size_t i = 1; i < steps.size(); ++i) {
    kids = expr_children(e);
    EXOCPP_ASSERT(steps[i] >= 0 && steps[i] < static_cast<int>(kids.size()), "expr_at: bad step");
    e = kids[static_cast<size_t>(steps[i])];
  }
  return e;
}

Expr with_child(const Expr& e, int i, const Expr& c) {
  size_t k = static_cast<size_t>(i);
  switch (e.kind()) {
    case ExprKind::Read: {
      auto n = e.as<ReadNode>();
      std::vector<Expr> idx = n->idx;
      idx.at(k) = c;
      return ReadNode::make(n->name, std::move(idx), n->type, n->srcinfo);
    }
    case ExprKind::USub:
      return USubNode::make(c, e.srcinfo());
    case ExprKind::BinOp: {
      auto n = e.as<BinOpNode>();
      return i == 0 ? BinOpNode::make(n->op, c, n->rhs, n->srcinfo)
                    : BinOpNode::make(n->op, n->lhs, c, n->srcinfo);
    }
    case ExprKind::Extern: {
      auto n = e.as<ExternNode>();
      std::vector<Expr> a = n->args;
      a.at(k) = c;
      return ExternNode::make(n->fn, std::move(a), n->srcinfo);
    }
    case ExprKind::WindowExpr: {
      auto n = e.as<WindowExprNode>();
      std::vector<WAccess> idx = n->idx;
      int pos = 0;
      for (WAccess& w : idx) {
        if (pos++ == i) w.lo = c;
        if (w.is_interval && pos++ == i) w.hi = c;
      }
      return WindowExprNode::make(n->name, n->type.base, std::move(idx), n->srcinfo);
    }
    case ExprKind::Const:
    case ExprKind::StrideExpr:
    case ExprKind::ReadConfig:
      break;
  }
  throw InternalError("with_child: expression has no child " + std::to_string(i));
}

Stmt with_child(const Stmt& s, int i, const Expr& c) {
  size_t k = static_cast<size_t>(i);
  switch (s.kind()) {
    case StmtKind::Assign: {
      auto n = s.as<AssignNode>();
      std::vector<Expr> idx = n->idx;
      Expr rhs = n->rhs;
      (k == idx.size() ? rhs : idx.at(k)) = c;
      return AssignNode::make(n->name, n->type, std::move(idx), std::move(rhs), n->srcinfo);
    }
    case StmtKind::Reduce: {
      auto n = s.as<ReduceNode>();
      std::vector<Expr> idx = n->idx;
      Expr rhs = n->rhs;
      (k == idx.size() ? rhs : idx.at(k)) = c;
      return ReduceNode::make(n->name, n->type, std::move(idx), std::move(rhs), n->srcinfo);
    }
    case StmtKind::WriteConfig: {
      auto n = s.as<WriteConfigNode>();
      return WriteConfigNode::make(n->config, n->field, c, n->srcinfo);
    }
    case StmtKind::If: {
      auto n = s.as<IfNode>();
      return IfNode::make(c, n->body, n->orelse, n->srcinfo);
    }
    case StmtKind::For: {
      auto n = s.as<ForNode>();
      return i == 0 ? ForNode::make(n->iter, c, n->hi, n->body, n->mode, n->srcinfo)
                    : ForNode::make(n->iter, n->lo, c, n->body, n->mode, n->srcinfo);
    }
    case StmtKind::Call: {
      auto n = s.as<CallNode>();
      std::vector<Expr> a = n->args;
      a.at(k) = c;
      return CallNode::make(n->proc, std::move(a), n->srcinfo);
    }
    case StmtKind::WindowStmt: {
      auto n = s.as<WindowStmtNode>();
      return WindowStmtNode::make(n->name, c, n->srcinfo);
    }
    case StmtKind::Alloc:
    case StmtKind::Pass:
      break;
  }
  throw InternalError("with_child: statement has no expression child " + std::to_string(i));
}

static Expr replace_expr_rec(const Expr& e, const std::vector<int>& steps, size_t depth,
                             const Expr& with) {
  if (depth == steps.size()) return with;
  std::vector<Expr> kids = expr_children(e);
  int i = steps[depth];
  EXOCPP_ASSERT(i >= 0 && i < static_cast<int>(kids.size()), "replace_expr: bad step");
  return with_child(e, i, replace_expr_rec(kids[static_cast<size_t>(i)], steps, depth + 1, with));
}

Stmt replace_expr(const Stmt& s, const std::vector<int>& steps, const Expr& with) {
  EXOCPP_ASSERT(!steps.empty(), "replace_expr: empty path");
  std::vector<Expr> kids = expr_children(s);
  int i = steps[0];
  EXOCPP_ASSERT(i >= 0 && i < static_cast<int>(kids.size()), "replace_expr: bad step");
  return with_child(s, i, replace_expr_rec(kids[static_cast<size_t>(i)], steps, 1, with));
}

// ---- procs -----------------------------------------------------------------------------------

Cursor proc_body(const Proc& p) {
  Loc l;
  l.kind = p.body().empty() ? CursorKind::Gap : CursorKind::Block;
  l.lo = 0;
  l.hi = static_cast<int>(p.body().size());
  return Cursor(p, l);
}

std::vector<Cursor> proc_args(const Proc& p) {
  std::vector<Cursor> out;
  for (size_t i = 0; i < p.args().size(); ++i) {
    Loc l;
    l.kind = CursorKind::Arg;
    l.lo = static_cast<int>(i);
    l.hi = l.lo + 1;
    out.emplace_back(p, l);
  }
  return out;
}

Cursor forward(const Proc& p, const Cursor& c) {
  if (!c.proc().defined()) throw InvalidCursorError("cannot forward an invalid cursor");
  std::vector<const ForwardFn*> fns;
  Proc q = p;
  while (q.defined() && !q.same_as(c.proc())) {
    fns.push_back(q.forward_fn());
    q = q.parent();
  }
  if (!q.defined())
    throw InvalidCursorError("the cursor points into proc '" + c.proc().name() +
                             "', which is not an ancestor of '" + p.name() + "'");
  Loc l = c.loc();
  for (auto it = fns.rbegin(); it != fns.rend() && l.valid(); ++it) l = (**it)(l);
  return Cursor(p, l);
}

Cursor Proc::forward(const Cursor& c) const { return exocpp::forward(*this, c); }
Cursor Proc::body_cursor() const { return proc_body(*this); }
std::vector<Cursor> Proc::arg_cursors() const { return proc_args(*this); }

namespace {
thread_local std::vector<Proc>* t_derive_log = nullptr;

Proc logged(Proc p) {
  if (t_derive_log) t_derive_log->push_back(p);
  return p;
}
}  // namespace

std::vector<Proc>* set_derive_log(std::vector<Proc>* log) {
  return std::exchange(t_derive_log, log);
}

Proc derive_proc(const Proc& parent, std::shared_ptr<const ProcNode> node, ForwardFn fwd) {
  return logged(Proc(std::move(node), parent, std::move(fwd)));
}

Proc derive_proc(const Proc& parent, Block new_body, ForwardFn fwd) {
  ProcNode n = *parent.get();
  n.body = std::move(new_body);
  return logged(Proc(ProcNode::make(std::move(n)), parent, std::move(fwd)));
}

// ---- cursors ---------------------------------------------------------------------------------

void Cursor::require(CursorKind k, const char* what) const {
  if (!is_valid())
    throw InvalidCursorError(std::string("cannot take ") + what +
                             " of an invalid cursor (its target was removed by a rewrite, or "
                             "navigation went past the end)");
  if (kind() != k)
    throw InvalidCursorError(std::string(what) + " needs a " + exocpp::to_string(k) +
                                 " cursor, but this is a " + exocpp::to_string(kind()) + " cursor",
                             srcinfo());
}

const Block& Cursor::list() const {
  if (!is_valid() || kind() == CursorKind::Arg)
    throw InvalidCursorError("this cursor is not in a statement list");
  const Block* b = try_block_at(proc_.body(), loc_.block);
  if (!b)
    throw InvalidCursorError("cursor location " + loc_.to_string() + " does not exist in proc '" +
                             proc_.name() + "'");
  return *b;
}

Stmt Cursor::stmt() const {
  require(CursorKind::Stmt, "the statement");
  const Block& b = list();
  if (loc_.lo < 0 || loc_.lo >= static_cast<int>(b.size()))
    throw InvalidCursorError("cursor location " + loc_.to_string() + " does not exist");
  return b[static_cast<size_t>(loc_.lo)];
}

Block Cursor::stmts() const {
  if (kind() == CursorKind::Stmt) return {stmt()};
  require(CursorKind::Block, "the statements");
  const Block& b = list();
  if (loc_.lo < 0 || loc_.hi > static_cast<int>(b.size()) || loc_.lo >= loc_.hi)
    throw InvalidCursorError("cursor location " + loc_.to_string() + " does not exist");
  return Block(b.begin() + loc_.lo, b.begin() + loc_.hi);
}

Expr Cursor::expr() const {
  require(CursorKind::Expr, "the expression");
  const Block& b = list();
  if (loc_.lo < 0 || loc_.lo >= static_cast<int>(b.size()))
    throw InvalidCursorError("cursor location " + loc_.to_string() + " does not exist");
  return expr_at(b[static_cast<size_t>(loc_.lo)], loc_.expr);
}

const FnArg& Cursor::arg() const {
  require(CursorKind::Arg, "the argument");
  return proc_.args().at(static_cast<size_t>(loc_.lo));
}

SrcInfo Cursor::srcinfo() const {
  if (!is_valid()) return {};
  switch (kind()) {
    case CursorKind::Arg:
      return arg().srcinfo;
    case CursorKind::Expr:
      return expr().srcinfo();
    case CursorKind::Stmt:
    case CursorKind::Block:
    case CursorKind::Gap: {
      const Block* b = try_block_at(proc_.body(), loc_.block);
      if (!b || b->empty()) return proc_->srcinfo;
      int i = std::min(loc_.lo, static_cast<int>(b->size()) - 1);
      return (*b)[static_cast<size_t>(std::max(i, 0))].srcinfo();
    }
    case CursorKind::Invalid:
      break;
  }
  return {};
}

static Cursor make_cursor(const Proc& p, CursorKind k, BlockPath block, int lo, int hi,
                          std::vector<int> expr = {}) {
  Loc l;
  l.kind = k;
  l.block = std::move(block);
  l.lo = lo;
  l.hi = hi;
  l.expr = std::move(expr);
  return Cursor(p, std::move(l));
}

Cursor Cursor::parent() const {
  if (!is_valid()) throw InvalidCursorError("parent() of an invalid cursor");
  if (kind() == CursorKind::Arg) throw InvalidCursorError("an argument has no parent statement");
  if (kind() == CursorKind::Expr) {
    if (loc_.expr.size() > 1) {
      std::vector<int> up(loc_.expr.begin(), loc_.expr.end() - 1);
      return make_cursor(proc_, CursorKind::Expr, loc_.block, loc_.lo, loc_.hi, std::move(up));
    }
    return make_cursor(proc_, CursorKind::Stmt, loc_.block, loc_.lo, loc_.lo + 1);
  }
  if (loc_.block.empty())
    throw InvalidCursorError("a top-level statement has no parent statement", srcinfo());
  BlockPath up(loc_.block.begin(), loc_.block.end() - 1);
  int i = loc_.block.back().index;
  return make_cursor(proc_, CursorKind::Stmt, std::move(up), i, i + 1);
}

Cursor Cursor::next(int dist) const {
  require(CursorKind::Stmt, "next()");
  int i = loc_.lo + dist;
  if (i < 0 || i >= static_cast<int>(list().size())) return Cursor(proc_, Loc::invalid());
  return make_cursor(proc_, CursorKind::Stmt, loc_.block, i, i + 1);
}

Cursor Cursor::prev(int dist) const { return next(-dist); }

Cursor Cursor::before() const {
  if (kind() != CursorKind::Block) require(CursorKind::Stmt, "before()");
  return make_cursor(proc_, CursorKind::Gap, loc_.block, loc_.lo, loc_.lo);
}

Cursor Cursor::after() const {
  if (kind() != CursorKind::Block) require(CursorKind::Stmt, "after()");
  return make_cursor(proc_, CursorKind::Gap, loc_.block, loc_.hi, loc_.hi);
}

Cursor Cursor::anchor() const {
  require(CursorKind::Gap, "anchor()");
  int n = static_cast<int>(list().size());
  if (n == 0) return Cursor(proc_, Loc::invalid());
  int i = loc_.lo < n ? loc_.lo : n - 1;
  return make_cursor(proc_, CursorKind::Stmt, loc_.block, i, i + 1);
}

Cursor Cursor::as_block() const {
  if (kind() == CursorKind::Block) return *this;
  require(CursorKind::Stmt, "as_block()");
  return make_cursor(proc_, CursorKind::Block, loc_.block, loc_.lo, loc_.hi);
}

Cursor Cursor::expand(int delta_lo, int delta_hi) const {
  Cursor b = as_block();
  int n = static_cast<int>(b.list().size());
  int lo = delta_lo < 0 ? 0 : std::max(0, b.loc_.lo - delta_lo);
  int hi = delta_hi < 0 ? n : std::min(n, b.loc_.hi + delta_hi);
  return make_cursor(proc_, CursorKind::Block, loc_.block, lo, hi);
}

Cursor Cursor::body() const {
  Stmt s = stmt();
  const Block* b = child_block(s, BlockField::Body);
  if (!b)
    throw InvalidCursorError(
        "body() needs a loop or if statement, not " + std::string(exocpp::to_string(s.kind())),
        s.srcinfo());
  BlockPath path = loc_.block;
  path.push_back({loc_.lo, BlockField::Body});
  return make_cursor(proc_, CursorKind::Block, std::move(path), 0, static_cast<int>(b->size()));
}

Cursor Cursor::orelse() const {
  Stmt s = stmt();
  const IfNode* n = s.as<IfNode>();
  if (!n) throw InvalidCursorError("orelse() needs an if statement", s.srcinfo());
  if (n->orelse.empty()) return Cursor(proc_, Loc::invalid());
  BlockPath path = loc_.block;
  path.push_back({loc_.lo, BlockField::Orelse});
  return make_cursor(proc_, CursorKind::Block, std::move(path), 0,
                     static_cast<int>(n->orelse.size()));
}

int Cursor::size() const {
  if (kind() == CursorKind::Stmt) return 1;
  require(CursorKind::Block, "size()");
  return loc_.hi - loc_.lo;
}

Cursor Cursor::operator[](int i) const {
  require(CursorKind::Block, "indexing");
  if (i < 0 || i >= size())
    throw InvalidCursorError("block index " + std::to_string(i) + " out of range (the block has " +
                                 std::to_string(size()) + " statements)",
                             srcinfo());
  return make_cursor(proc_, CursorKind::Stmt, loc_.block, loc_.lo + i, loc_.lo + i + 1);
}

Cursor Cursor::slice(int lo, int hi) const {
  require(CursorKind::Block, "slicing");
  if (lo < 0 || hi > size() || lo >= hi)
    throw InvalidCursorError("block slice [" + std::to_string(lo) + ":" + std::to_string(hi) +
                                 "] out of range (the block has " + std::to_string(size()) +
                                 " statements)",
                             srcinfo());
  return make_cursor(proc_, CursorKind::Block, loc_.block, loc_.lo + lo, loc_.lo + hi);
}

std::string Cursor::name() const {
  if (kind() == CursorKind::Arg) return arg().name.name();
  if (kind() == CursorKind::Expr) {
    Expr e = expr();
    if (auto r = e.as<ReadNode>()) return r->name.name();
    if (auto w = e.as<WindowExprNode>()) return w->name.name();
    if (auto s = e.as<StrideExprNode>()) return s->name.name();
    throw InvalidCursorError("this expression has no name", e.srcinfo());
  }
  Stmt s = stmt();
  switch (s.kind()) {
    case StmtKind::For:
      return s.as<ForNode>()->iter.name();
    case StmtKind::Alloc:
      return s.as<AllocNode>()->name.name();
    case StmtKind::Assign:
      return s.as<AssignNode>()->name.name();
    case StmtKind::Reduce:
      return s.as<ReduceNode>()->name.name();
    case StmtKind::WindowStmt:
      return s.as<WindowStmtNode>()->name.name();
    case StmtKind::Call:
      return s.as<CallNode>()->proc->name;
    case StmtKind::WriteConfig:
      return s.as<WriteConfigNode>()->config->name + "." + s.as<WriteConfigNode>()->field;
    case StmtKind::If:
    case StmtKind::Pass:
      break;
  }
  throw InvalidCursorError(
      std::string("a ") + exocpp::to_string(s.kind()) + " statement has no name", s.srcinfo());
}

Cursor Cursor::child(int i) const {
  int n = num_children();
  if (i < 0 || i >= n)
    throw InvalidCursorError(
        "child " + std::to_string(i) + " out of range (" + std::to_string(n) + " children)",
        srcinfo());
  std::vector<int> path = kind() == CursorKind::Expr ? loc_.expr : std::vector<int>{};
  path.push_back(i);
  return make_cursor(proc_, CursorKind::Expr, loc_.block, loc_.lo, loc_.lo + 1, std::move(path));
}

int Cursor::num_children() const {
  if (kind() == CursorKind::Expr) return static_cast<int>(expr_children(expr()).size());
  return static_cast<int>(expr_children(stmt()).size());
}

static void require_stmt_kind(const Cursor& c, StmtKind k, const char* what) {
  Stmt s = c.stmt();
  if (s.kind() != k)
    throw InvalidCursorError(
        std::string(what) + " needs a " + to_string(k) + " statement, not " + to_string(s.kind()),
        s.srcinfo());
}

Cursor Cursor::lo() const {
  require_stmt_kind(*this, StmtKind::For, "lo()");
  return child(0);
}
Cursor Cursor::hi() const {
  require_stmt_kind(*this, StmtKind::For, "hi()");
  return child(1);
}
Cursor Cursor::cond() const {
  require_stmt_kind(*this, StmtKind::If, "cond()");
  return child(0);
}

Cursor Cursor::rhs() const {
  if (is_expr()) {
    if (!expr().as<BinOpNode>())
      throw InvalidCursorError("rhs() of an expression needs a binary operation", expr().srcinfo());
    return child(1);
  }
  Stmt s = stmt();
  switch (s.kind()) {
    case StmtKind::Assign:
    case StmtKind::Reduce:
    case StmtKind::WriteConfig:
    case StmtKind::WindowStmt:
      return child(num_children() - 1);
    default:
      break;
  }
  throw InvalidCursorError(
      "rhs() needs an assignment, reduction, config write, window statement or binary operation",
      s.srcinfo());
}

Cursor Cursor::lhs() const {
  require(CursorKind::Expr, "a binary operation");
  if (!expr().as<BinOpNode>())
    throw InvalidCursorError("lhs() needs a binary operation", expr().srcinfo());
  return child(0);
}

namespace {

// The declared type and memory of an argument or allocation cursor.
std::pair<Type, std::string> declared(const Cursor& c, const char* what) {
  if (c.is_arg()) return {c.arg().type, c.arg().mem};
  if (c.is_stmt())
    if (const AllocNode* a = c.stmt().as<AllocNode>()) return {a->type, a->mem};
  throw InvalidCursorError(std::string(what) + " needs an argument or an allocation", c.srcinfo());
}

}  // namespace

Type Cursor::type() const { return declared(*this, "type()").first; }
std::string Cursor::mem() const { return declared(*this, "mem()").second; }
std::vector<Expr> Cursor::shape() const { return declared(*this, "shape()").first.shape; }
bool Cursor::is_tensor() const { return !declared(*this, "is_tensor()").first.shape.empty(); }

std::vector<Cursor> Cursor::idx() const {
  size_t n = 0;
  if (kind() == CursorKind::Expr) {
    Expr e = expr();
    if (!e.is<ReadNode>()) throw InvalidCursorError("idx() needs a read", e.srcinfo());
    n = e.as<ReadNode>()->idx.size();
  } else {
    Stmt s = stmt();
    if (auto a = s.as<AssignNode>())
      n = a->idx.size();
    else if (auto r = s.as<ReduceNode>())
      n = r->idx.size();
    else
      throw InvalidCursorError("idx() needs an assignment, reduction or read", s.srcinfo());
  }
  std::vector<Cursor> out;
  for (size_t i = 0; i < n; ++i) out.push_back(child(static_cast<int>(i)));
  return out;
}

std::vector<Cursor> Cursor::args() const {
  if (kind() == CursorKind::Expr && !expr().is<ExternNode>())
    throw InvalidCursorError("args() needs a call or an extern call", srcinfo());
  if (kind() == CursorKind::Stmt) require_stmt_kind(*this, StmtKind::Call, "args()");
  std::vector<Cursor> out;
  for (int i = 0; i < num_children(); ++i) out.push_back(child(i));
  return out;
}

std::string Cursor::current_line() const {
  if (!is_valid()) return "";
  switch (kind()) {
    case CursorKind::Expr:
      return exocpp::to_string(expr());
    case CursorKind::Stmt:
    case CursorKind::Block: {
      Block ss = stmts();
      if (ss.empty()) return "";
      std::string t = exocpp::to_string(ss.front(), 0);
      return t.substr(0, t.find('\n'));
    }
    default:
      return "";
  }
}

std::string Cursor::to_string() const {
  if (!is_valid()) return "<invalid cursor>";
  switch (kind()) {
    case CursorKind::Arg:
      return arg().name.name();
    case CursorKind::Expr:
      return exocpp::to_string(expr());
    case CursorKind::Gap:
      return "<gap before statement " + std::to_string(loc_.lo) + ">";
    case CursorKind::Stmt:
    case CursorKind::Block: {
      std::string out;
      for (const Stmt& s : stmts()) {
        std::string t = exocpp::to_string(s, 0);
        size_t nl = t.find('\n');
        if (nl != std::string::npos && nl + 1 < t.size())
          t = t.substr(0, nl) + " ...";
        else if (nl != std::string::npos)
          t = t.substr(0, nl);
        out += (out.empty() ? "" : "; ") + t;
      }
      return out;
    }
    case CursorKind::Invalid:
      break;
  }
  return "<invalid cursor>";
}

std::ostream& operator<<(std::ostream& os, const Cursor& c) { return os << c.to_string(); }

}  // namespace exocpp
