// Private to the type checker (core/typecheck*.cpp): the Checker class, whose methods are
// split between typecheck.cpp (scope, expressions, statements) and typecheck_calls.cpp (call
// arguments), and the config-write analysis of typecheck_config.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir.h"

namespace exocpp {
class Memory;

namespace typecheck_detail {

// Exo's rule that configuration state is loop-invariant: the value a proc writes to a config
// field (directly or through a callee) may not depend on a loop iteration variable, by data flow
// or by control flow (an enclosing `if i == 0`). Throws TypeError at the first offending write.
void check_config_writes_loop_invariant(const ProcNode& p);

// The structural rules of CUDA kernels (core/typecheck_cuda.cpp; docs/gpu.md): where lane loops,
// barriers, computations and allocations may stand, which memories kernels and host code touch,
// and how distributed register buffers are indexed. Throws TypeError at the first breach. The
// rule that host code never reads or writes device memory is checked only with `host_memory`:
// a plain proc about to be scheduled onto a GPU is host code over device buffers, which the
// interpreter runs and CUDA emission refuses.
void check_cuda_structure(const ProcNode& p, bool host_memory);

// The value of an expression made only of integer literals and + - * / % (floor division),
// or nullopt when it reads anything else or divides by zero.
std::optional<int64_t> fold_int_constant(const Expr& e);

// An integer literal (possibly negated, or folded from literals): it may stand where a data
// value is expected and takes that data type.
bool is_int_literal_expr(const Expr& e);
// R unifies with any precision; other data types only with themselves.
bool precisions_compatible(ScalarKind a, ScalarKind b);
std::string quoted(const Sym& s);

enum class VarKind { Arg, Alloc, LoopIter, Window };

// What the scope knows of a variable.
struct VarInfo {
  Type type;
  VarKind kind;
  std::string mem;         // memory of a data buffer; "" for control variables
  bool index_arg = false;  // an argument with a value range: read-only, elements read as int
};

// The first read of an index argument's element inside e (per `env`), or nullptr.
const Expr* find_index_arg_read(const Expr& e,
                                const std::unordered_map<Sym, VarInfo, SymHash>& env);

// How a Read is used: as a value (an element is read), or as a buffer handed to a call (a
// whole tensor, or the address of one element: nothing is read here).
enum class Access { Value, WholeBuffer, Address };

class Checker {
 public:
  Checker(const ProcNode& p, bool memory_access, bool cuda_structure)
      : proc_(p), plain_(!p.instr.has_value() && memory_access), cuda_(cuda_structure) {}
  void check_proc();

 private:
  [[noreturn]] static void fail(const SrcInfo& where, const std::string& msg);
  static std::string describe(const VarInfo& v);

  // scope
  const VarInfo& lookup(const Sym& s, const SrcInfo& where) const;
  void declare(const Sym& s, VarInfo info, const SrcInfo& where);
  void pop_scope(size_t mark);
  const Memory& memory_of(const std::string& mem, const Sym& name, const SrcInfo& where);
  void check_element_access(const Sym& name, const VarInfo& v, bool write, const SrcInfo& where);

  // types
  void check_data_type(const Type& t, const Sym& name, const SrcInfo& where);
  void check_size_expr(const Expr& e, const std::string& what);
  void check_index_arg(const FnArg& a);

  // expressions
  void check_value(const Expr& e);
  void check_read(const Expr& e, Access access);
  void check_indices(const Sym& name, const VarInfo& v, const std::vector<Expr>& idx,
                     const SrcInfo& where);
  void check_binop(const Expr& e);
  // `of_index_arg`: a window of an index argument is allowed (an argument for an index
  // parameter, which check_call_arg has decided).
  void check_window(const Expr& e, bool of_index_arg = false);
  void expect_index(const Expr& e, const std::string& what);
  void expect_bool(const Expr& e, const std::string& what);
  void check_literals(const Expr& e, ScalarKind ctx, bool whole);
  void expect_data(const Expr& e, ScalarKind target, const std::string& target_desc,
                   const std::string& verb);

  // statements
  void check_block(const Block& b);
  void check_stmt(const Stmt& s);
  void check_write(const char* verb, const Sym& name, ScalarKind recorded,
                   const std::vector<Expr>& idx, const Expr& rhs, const SrcInfo& where);
  void check_config_write(const WriteConfigNode* n, const Stmt& s);

  // calls (typecheck_calls.cpp)
  void check_call(const CallNode* n, const Stmt& s);
  void check_call_arg(const ProcNode& callee, size_t i, const Expr& arg);
  void check_control_arg(const std::string& who, const Type& pt, const Expr& arg);
  void check_scalar_buffer_arg(const std::string& who, const Type& pt, const Expr& arg);
  // `index_param`: the parameter is an index argument, which may take a window of the caller's
  // index argument (check_call_arg has decided the argument is one).
  void check_tensor_arg(const std::string& who, const Type& pt, const Expr& arg, bool index_param);

  const ProcNode& proc_;
  bool plain_;  // not an @instr proc: memories that forbid element access are enforced
  bool cuda_;   // the structural rules of CUDA kernels are enforced
  std::unordered_map<Sym, VarInfo, SymHash> env_;
  std::vector<Sym> declared_;     // declaration order, to close scopes
  SrcInfo cur_;                   // the statement being checked (for nodes without a location)
  bool in_if_condition_ = false;  // data values may be compared only in an if condition
};

}  // namespace typecheck_detail
}  // namespace exocpp
