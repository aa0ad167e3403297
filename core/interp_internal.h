// Private to the interpreter: the evaluator class shared by interpreter.cpp (arguments,
// statements, entry points) and interp_expr.cpp (expressions, windows, accesses).
#pragma once

#include <cstdio>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/interpreter.h"

namespace exocpp::interp_detail {

[[noreturn]] inline void fail(const SrcInfo& where, std::string reason) {
  throw InterpError(where, std::move(reason));
}

inline std::string fmt_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

inline std::string index_list(const std::vector<int64_t>& idx) {
  std::string s;
  for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
  return s;
}

// The variables of one proc activation. A proc has few variables, so a linear scan of their
// ids (most recent first) beats hashing; values live in a deque so that references to them stay
// valid while the body binds more names.
struct Frame {
  const ProcNode* proc = nullptr;
  std::vector<uint64_t> ids;
  std::vector<ArgValue*> ptrs;  // ptrs[i] is the value of ids[i], in vals
  std::deque<ArgValue> vals;

  ArgValue* find(const Sym& s) {
    const uint64_t id = s.id();
    for (size_t i = ids.size(); i-- > 0;)
      if (ids[i] == id) return ptrs[i];
    return nullptr;
  }
  // The slot of `s`, created (holding 0) when `s` is not bound yet.
  ArgValue& slot(const Sym& s) {
    if (ArgValue* v = find(s)) return *v;
    ids.push_back(s.id());
    ptrs.push_back(&vals.emplace_back(int64_t(0)));
    return *ptrs.back();
  }
};

class Interp {
 public:
  Interp(ConfigState& cfg, const InterpOptions& opts) : cfg_(cfg), opts_(opts) {}

  // Binds `args` to `p`'s arguments in `f` and checks kinds, sizes and shapes. `site` is the
  // call statement for a call, nullptr at the top level.
  void bind_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                 const SrcInfo* site) {
    bind_control_args(p, args, f, site);
    bind_data_args(p, args, f, site);
  }
  void bind_control_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                         const SrcInfo* site);
  void bind_data_args(const ProcNode& p, const std::vector<ArgValue>& args, Frame& f,
                      const SrcInfo* site);
  int64_t eval_control(const Expr& e, Frame& f) { return eval_int(e, f); }
  std::vector<int64_t> eval_shape(const Type& t, Frame& f) {
    std::vector<int64_t> shape;
    for (const Expr& d : t.shape) shape.push_back(eval_int(d, f));
    return shape;
  }
  // Index of the first assert that fails, or -1.
  int first_failing_pred(const ProcNode& p, Frame& f);
  void check_preds(const ProcNode& p, Frame& f, const SrcInfo* site);
  void run(const ProcNode& p, const std::vector<ArgValue>& args, const SrcInfo* site) {
    Frame f;
    f.proc = &p;
    bind_args(p, args, f, site);
    check_index_args(p, f, site);
    check_preds(p, f, site);
    exec(p.body, f);
  }
  // Every element of every index argument lies in its declared range, or an InterpError names
  // the first that does not (docs/language.md, "Index arguments").
  void check_index_args(const ProcNode& p, Frame& f, const SrcInfo* site);

 private:
  void exec(const Block& b, Frame& f) {
    for (const Stmt& s : b) exec(s, f);
  }
  void exec(const Stmt& s, Frame& f);
  void exec_store(const Stmt& s, const Sym& name, const std::vector<Expr>& idx, const Expr& rhs,
                  bool reduce, Frame& f);
  void exec_call(const CallNode* c, const Stmt& s, Frame& f);
  void exec_alloc(const AllocNode* a, const Stmt& s, Frame& f);

  int64_t eval_int(const Expr& e, Frame& f);
  bool eval_bool(const Expr& e, Frame& f) { return eval_int(e, f) != 0; }
  // `ctx`: the data type of the expression around `e`, which literals in `e` take.
  double eval_data(const Expr& e, Frame& f, ScalarKind ctx);
  double literal_in(ScalarKind ctx, ScalarKind own, double v) const;
  int64_t eval_int_binop(const BinOpNode* b, const Expr& e, Frame& f);
  double eval_data_binop(const BinOpNode* b, const Expr& e, ScalarKind k, Frame& f);
  Buffer eval_window(const WindowExprNode* w, const Expr& e, Frame& f);

  // The precision values of type `k` are computed in (InterpOptions::real_as for R).
  ScalarKind precision(ScalarKind k) const { return k == ScalarKind::R ? opts_.real_as : k; }
  ArgValue& lookup(Frame& f, const Sym& name, const SrcInfo& where);
  Buffer& lookup_buffer(Frame& f, const Sym& name, const SrcInfo& where);
  // Storage position of name[idx], bounds-checked.
  int64_t locate(Buffer& b, const Sym& name, const std::vector<Expr>& idx, Frame& f,
                 const SrcInfo& where, const char* what);
  std::string describe_args(const ProcNode& p, Frame& f);

  // A lower bound on the statements one iteration of loop `n` executes (memoized per loop).
  uint64_t min_body_steps(const ForNode* n);
  // Refuses, before it starts, a loop whose iterations cannot all run within max_steps.
  void check_loop_fits(const ForNode* n, const Stmt& s, int64_t lo, int64_t hi);

  ConfigState& cfg_;
  const InterpOptions& opts_;
  int64_t steps_ = 0;
  std::unordered_map<const ForNode*, uint64_t> min_body_steps_;
};

}  // namespace exocpp::interp_detail
