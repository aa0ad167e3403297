// Exo's rule that configuration writes are loop-invariant (typecheck.py, with
// LoopIR_Dependencies): a data-flow and control-flow dependency analysis over the proc body.
// Each written location (a buffer, a config field, a loop iterator) collects the names its value
// depends on: what its right-hand side reads, what the enclosing if-conditions and loop bounds
// read, and, through calls, what the callee reads. A config field written inside a loop nest
// whose transitive dependencies within that nest include one of its iteration variables is an
// error.
#include <map>
#include <set>

#include "core/typecheck_internal.h"
#include "core/window_alias.h"

namespace exocpp::typecheck_detail {
namespace {

// A dependency node: a variable (by symbol id) or a config field.
using Key = std::string;
Key sym_key(const Sym& s) { return "s" + std::to_string(s.id()); }
Key config_key(const ConfigNode* c, const std::string& f) {
  return "c" + std::to_string(reinterpret_cast<uintptr_t>(c)) + "." + f;
}

// What a callee reads and writes: its buffer parameters (by symbol) and config fields,
// including through its own callees.
struct Summary {
  std::set<Sym> reads, writes;
  std::set<Key> config_reads, config_writes;
  std::map<Key, std::string> config_names;  // key -> "Cfg.field", for messages
};

class Summarizer {
 public:
  const Summary& of(const ProcNode* p) {
    auto it = memo_.find(p);
    if (it != memo_.end()) return it->second;
    return memo_.emplace(p, of_block(p->body)).first->second;
  }
  Summary of_block(const Block& b) {
    Summary s;
    WindowAliases alias;  // the window statements of b, bound as the walk reaches them
    block(b, s, alias);
    return s;
  }

 private:
  void expr(const Expr& e, Summary& s, const WindowAliases& alias) {
    if (!e.defined()) return;
    switch (e.kind()) {
      case ExprKind::Read:
        s.reads.insert(alias.root(e.as<ReadNode>()->name));
        for (const Expr& i : e.as<ReadNode>()->idx) expr(i, s, alias);
        return;
      case ExprKind::WindowExpr:
        s.reads.insert(alias.root(e.as<WindowExprNode>()->name));
        for (const WAccess& w : e.as<WindowExprNode>()->idx) {
          expr(w.lo, s, alias);
          if (w.is_interval) expr(w.hi, s, alias);
        }
        return;
      case ExprKind::ReadConfig: {
        const ReadConfigNode* n = e.as<ReadConfigNode>();
        Key k = config_key(n->config.get(), n->field);
        s.config_reads.insert(k);
        s.config_names[k] = n->config->name + "." + n->field;
        return;
      }
      case ExprKind::USub:
        expr(e.as<USubNode>()->arg, s, alias);
        return;
      case ExprKind::BinOp:
        expr(e.as<BinOpNode>()->lhs, s, alias);
        expr(e.as<BinOpNode>()->rhs, s, alias);
        return;
      case ExprKind::Extern:
        for (const Expr& a : e.as<ExternNode>()->args) expr(a, s, alias);
        return;
      case ExprKind::Const:
      case ExprKind::StrideExpr:
        return;
    }
  }
  void block(const Block& b, Summary& s, WindowAliases& alias) {
    for (const Stmt& st : b) stmt(st, s, alias);
  }
  void stmt(const Stmt& st, Summary& s, WindowAliases& alias) {
    if (!st.defined()) return;
    switch (st.kind()) {
      case StmtKind::Assign:
      case StmtKind::Reduce: {
        bool assign = st.kind() == StmtKind::Assign;
        const Sym& n = assign ? st.as<AssignNode>()->name : st.as<ReduceNode>()->name;
        s.writes.insert(alias.root(n));
        if (!assign) s.reads.insert(alias.root(n));
        for (const Expr& i : assign ? st.as<AssignNode>()->idx : st.as<ReduceNode>()->idx)
          expr(i, s, alias);
        expr(assign ? st.as<AssignNode>()->rhs : st.as<ReduceNode>()->rhs, s, alias);
        return;
      }
      case StmtKind::WriteConfig: {
        const WriteConfigNode* n = st.as<WriteConfigNode>();
        Key k = config_key(n->config.get(), n->field);
        s.config_writes.insert(k);
        s.config_names[k] = n->config->name + "." + n->field;
        expr(n->rhs, s, alias);
        return;
      }
      case StmtKind::Pass:
      case StmtKind::Alloc:
        return;
      case StmtKind::If:
        expr(st.as<IfNode>()->cond, s, alias);
        block(st.as<IfNode>()->body, s, alias);
        block(st.as<IfNode>()->orelse, s, alias);
        return;
      case StmtKind::For:
        expr(st.as<ForNode>()->lo, s, alias);
        expr(st.as<ForNode>()->hi, s, alias);
        block(st.as<ForNode>()->body, s, alias);
        return;
      case StmtKind::WindowStmt: {
        const WindowStmtNode* n = st.as<WindowStmtNode>();
        alias.bind(n->name, *n->rhs.as<WindowExprNode>());
        return;
      }
      case StmtKind::Call: {
        const CallNode* n = st.as<CallNode>();
        const Summary& callee = of(n->proc.get());
        for (size_t i = 0; i < n->args.size() && i < n->proc->args.size(); ++i) {
          const Expr& a = n->args[i];
          const Sym& param = n->proc->args[i].name;
          Sym buf;
          if (const ReadNode* r = a.as<ReadNode>()) buf = alias.root(r->name);
          if (const WindowExprNode* w = a.as<WindowExprNode>()) buf = alias.root(w->name);
          if (buf.valid() && callee.writes.count(param)) s.writes.insert(buf);
          if (buf.valid() && callee.reads.count(param)) s.reads.insert(buf);
          if (!a.is<ReadNode>() || !a.as<ReadNode>()->idx.empty()) expr(a, s, alias);
        }
        s.config_reads.insert(callee.config_reads.begin(), callee.config_reads.end());
        s.config_writes.insert(callee.config_writes.begin(), callee.config_writes.end());
        s.config_names.insert(callee.config_names.begin(), callee.config_names.end());
        return;
      }
    }
  }
  std::map<const ProcNode*, Summary> memo_;
};

// The dependency analysis proper, following LoopIR_Dependencies.
class Dependencies {
 public:
  // `aliases`: the windows bound before the analysed code runs (a window declared before a
  // loop reaches the same buffer inside it).
  Dependencies(Summarizer& sum, WindowAliases aliases) : sum_(sum), aliases_(std::move(aliases)) {}

  void block(const Block& b) {
    for (const Stmt& s : b) stmt(s);
  }
  // Everything `k` depends on, transitively.
  std::set<Key> closure(const Key& k) {
    std::set<Key> done;
    std::vector<Key> todo{k};
    while (!todo.empty()) {
      Key x = todo.back();
      todo.pop_back();
      if (!done.insert(x).second) continue;
      for (const Key& d : depends_[x]) todo.push_back(d);
    }
    return done;
  }

 private:
  // The key of the buffer `s` reaches (a window statement's root buffer).
  Key buffer_key(const Sym& s) const { return sym_key(aliases_.root(s)); }
  void read(const Key& k) {
    if (lhs_) depends_[*lhs_].insert(k);
    if (control_) context_.insert(k);
  }
  void write_target(const Key& k) {
    lhs_ = k;
    depends_[k].insert(k);
    depends_[k].insert(context_.begin(), context_.end());
  }
  void expr(const Expr& e) {
    if (!e.defined()) return;
    switch (e.kind()) {
      case ExprKind::Read:
        read(buffer_key(e.as<ReadNode>()->name));
        for (const Expr& i : e.as<ReadNode>()->idx) expr(i);
        return;
      case ExprKind::WindowExpr:
        read(buffer_key(e.as<WindowExprNode>()->name));
        for (const WAccess& w : e.as<WindowExprNode>()->idx) {
          expr(w.lo);
          if (w.is_interval) expr(w.hi);
        }
        return;
      case ExprKind::ReadConfig:
        read(config_key(e.as<ReadConfigNode>()->config.get(), e.as<ReadConfigNode>()->field));
        return;
      case ExprKind::USub:
        expr(e.as<USubNode>()->arg);
        return;
      case ExprKind::BinOp:
        expr(e.as<BinOpNode>()->lhs);
        expr(e.as<BinOpNode>()->rhs);
        return;
      case ExprKind::Extern:
        for (const Expr& a : e.as<ExternNode>()->args) expr(a);
        return;
      case ExprKind::Const:
      case ExprKind::StrideExpr:
        return;
    }
  }
  void stmt(const Stmt& s) {
    if (!s.defined()) return;
    switch (s.kind()) {
      case StmtKind::Assign:
      case StmtKind::Reduce: {
        bool assign = s.kind() == StmtKind::Assign;
        write_target(buffer_key(assign ? s.as<AssignNode>()->name : s.as<ReduceNode>()->name));
        for (const Expr& i : assign ? s.as<AssignNode>()->idx : s.as<ReduceNode>()->idx) expr(i);
        expr(assign ? s.as<AssignNode>()->rhs : s.as<ReduceNode>()->rhs);
        lhs_.reset();
        return;
      }
      case StmtKind::WriteConfig: {
        const WriteConfigNode* n = s.as<WriteConfigNode>();
        write_target(config_key(n->config.get(), n->field));
        expr(n->rhs);
        lhs_.reset();
        return;
      }
      case StmtKind::WindowStmt: {
        const WindowStmtNode* n = s.as<WindowStmtNode>();
        aliases_.bind(n->name, *n->rhs.as<WindowExprNode>());
        Key buf = buffer_key(n->name);
        lhs_ = buf;
        depends_[buf].insert(buf);
        expr(n->rhs);
        lhs_.reset();
        return;
      }
      case StmtKind::If: {
        const IfNode* n = s.as<IfNode>();
        std::set<Key> saved = context_;
        control_ = true;
        expr(n->cond);
        control_ = false;
        block(n->body);
        block(n->orelse);
        context_ = saved;
        return;
      }
      case StmtKind::For: {
        const ForNode* n = s.as<ForNode>();
        std::set<Key> saved = context_;
        control_ = true;
        lhs_ = sym_key(n->iter);
        depends_[*lhs_].insert(*lhs_);
        expr(n->lo);
        expr(n->hi);
        lhs_.reset();
        control_ = false;
        block(n->body);
        context_ = saved;
        return;
      }
      case StmtKind::Call:
        call(s.as<CallNode>());
        return;
      case StmtKind::Pass:
      case StmtKind::Alloc:
        return;
    }
  }
  void call(const CallNode* n) {
    const Summary& callee = sum_.of(n->proc.get());
    size_t count = std::min(n->args.size(), n->proc->args.size());
    // What the written locations depend on: every control argument, every buffer the callee
    // reads, and every config field it reads.
    auto process_reads = [&]() {
      for (size_t i = 0; i < count; ++i) {
        const FnArg& fa = n->proc->args[i];
        if (!fa.type.is_data() || callee.reads.count(fa.name)) expr(n->args[i]);
      }
      for (const Key& k : callee.config_reads)
        if (lhs_) depends_[*lhs_].insert(k);
    };
    for (size_t i = 0; i < count; ++i) {
      const FnArg& fa = n->proc->args[i];
      if (!fa.type.is_data() || !callee.writes.count(fa.name)) continue;
      Sym buf;
      if (const ReadNode* r = n->args[i].as<ReadNode>()) buf = r->name;
      if (const WindowExprNode* w = n->args[i].as<WindowExprNode>()) buf = w->name;
      if (!buf.valid()) continue;
      write_target(buffer_key(buf));
      process_reads();
      lhs_.reset();
    }
    for (const Key& k : callee.config_writes) {
      write_target(k);
      process_reads();
      lhs_.reset();
    }
  }

  Summarizer& sum_;
  std::map<Key, std::set<Key>> depends_;
  WindowAliases aliases_;  // the windows bound before, and the window statements walked so far
  std::optional<Key> lhs_;
  std::set<Key> context_;
  bool control_ = false;
};

// The loop iterators of a block, by key, with their names.
void collect_iters(const Block& b, std::map<Key, std::string>& out) {
  for (const Stmt& s : b) {
    if (!s.defined()) continue;
    if (const ForNode* f = s.as<ForNode>()) {
      out[sym_key(f->iter)] = f->iter.name();
      collect_iters(f->body, out);
    } else if (const IfNode* i = s.as<IfNode>()) {
      collect_iters(i->body, out);
      collect_iters(i->orelse, out);
    }
  }
}

// The first statement of `b` (in program order) that writes config key `k`, directly or
// through a call; nullptr if none.
const Stmt* first_write(const Block& b, const Key& k, Summarizer& sum) {
  for (const Stmt& s : b) {
    if (!s.defined()) continue;
    if (const WriteConfigNode* w = s.as<WriteConfigNode>()) {
      if (config_key(w->config.get(), w->field) == k) return &s;
    } else if (const CallNode* c = s.as<CallNode>()) {
      if (sum.of(c->proc.get()).config_writes.count(k)) return &s;
    } else if (const ForNode* f = s.as<ForNode>()) {
      if (const Stmt* r = first_write(f->body, k, sum)) return r;
    } else if (const IfNode* i = s.as<IfNode>()) {
      if (const Stmt* r = first_write(i->body, k, sum)) return r;
      if (const Stmt* r = first_write(i->orelse, k, sum)) return r;
    }
  }
  return nullptr;
}

// The rule constrains the writes that run inside a loop: a write outside every loop runs once
// per execution of its block, so no iteration can change its value, whatever it reads (a
// buffer that a later loop writes included; the flow-insensitive analysis over the whole body
// refused `K.h = A[0]` before `for i: A[i] = K.h`). Each outermost loop is analysed on its own:
// within it the analysis stays flow-insensitive, which over-approximates, so it is sound.
void check_loop_nest(const Stmt& loop, Summarizer& sum, const WindowAliases& aliases) {
  Block nest{loop};
  std::map<Key, std::string> iters;
  collect_iters(nest, iters);
  Summary written = sum.of_block(nest);  // the config fields written, also through calls
  if (written.config_writes.empty()) return;
  Dependencies deps(sum, aliases);
  deps.block(nest);
  for (const Key& k : written.config_writes) {
    std::set<Key> on = deps.closure(k);
    for (const auto& [ik, iname] : iters) {
      if (!on.count(ik)) continue;
      const Stmt* s = first_write(nest, k, sum);
      throw TypeError(s ? s->srcinfo() : loop.srcinfo(),
                      "the value written to " + written.config_names[k] +
                          " depends on loop variable '" + iname +
                          "': configuration writes must not depend on loop iterations (write "
                          "the config outside the loop, or make the value loop-invariant)");
    }
  }
}

// `aliases`: the proc's windows (a name reaches one root wherever it is bound).
void check_outermost_loops(const Block& b, Summarizer& sum, const WindowAliases& aliases) {
  for (const Stmt& s : b) {
    if (!s.defined()) continue;
    if (s.is<ForNode>()) {
      check_loop_nest(s, sum, aliases);
    } else if (const IfNode* i = s.as<IfNode>()) {
      check_outermost_loops(i->body, sum, aliases);
      check_outermost_loops(i->orelse, sum, aliases);
    }
  }
}

}  // namespace

void check_config_writes_loop_invariant(const ProcNode& p) {
  Summarizer sum;
  check_outermost_loops(p.body, sum, WindowAliases::of_proc(p));
}

}  // namespace exocpp::typecheck_detail
