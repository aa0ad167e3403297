// Internal: emission of one proc as a C function (c_expr.cpp: expressions and buffer
// addressing; c_stmt.cpp: statements, allocations, calls and instruction templates).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/ir.h"
#include "core/memory.h"

namespace exocpp::codegen {

// Which arguments of each proc its body (or a callee) writes: those stay non-const in the ABI.
using WrittenParams = std::map<const ProcNode*, std::set<uint64_t>>;  // proc -> arg Sym ids

// Global C the library needs, gathered while procs are emitted, kept in first-use order so the
// output is deterministic.
struct Globals {
  std::vector<std::string> items;  // includes and helpers from memories, instructions, externs
  std::set<std::tuple<int, ScalarKind, bool>> windows;  // (rank, type, const) structs used
  std::set<std::string> helpers;                        // prelude helpers used (c_prelude.h)
  bool floor_div = false;
  bool floor_mod = false;
  bool omp = false;  // a par loop was emitted
  bool uses_configs = false;
  bool cuda = false;  // emitting CUDA C++ (kernels allowed, helpers usable on the device)
  void add(const std::string& g);
};

// How the emitted code sees one buffer (argument, allocation or window variable).
struct BufInfo {
  enum class Kind { Tensor, Window, ScalarArg, ScalarLocal };
  Kind kind = Kind::Tensor;
  ScalarKind elem = ScalarKind::F32;
  std::string mem;
  const Memory* memory = nullptr;
  std::vector<std::string> shape;  // C extents (tensors)
  bool is_const = false;           // read-only: const pointer / const window struct
  std::string cname;
  // A register buffer allocated at a kernel's block level is distributed over the threads: its
  // first `distributed` dimensions are the lane loops' iterators (core/typecheck_cuda.cpp), and
  // each thread holds only the rest (`shape`), which accesses index with their other indices.
  int distributed = 0;
  // Window arguments: dimensions whose stride the proc's asserts fix (`stride(x, 1) == 1`),
  // emitted as that constant instead of read from the window, so C compilers see it.
  std::map<int, int64_t> asserted_strides;
  int rank() const { return static_cast<int>(shape.size()); }
};

// A C expression and the precedence of its outermost operator (higher binds tighter).
struct CExpr {
  std::string text;
  int prec = 100;
};

class ProcEmitter {
 public:
  ProcEmitter(const Proc& p, const std::string& lib_name, const WrittenParams& written,
              Globals& globals, const std::set<std::string>& reserved);
  // "void name(void *ctxt, int_fast32_t N, const float *A)"; `is_static` prefixes "static ".
  std::string signature(bool is_static) const;
  // The function definition: signature and body.
  std::string definition(bool is_static);
  // The entry checks of the index arguments' ranges ("" when it has none).
  std::string index_arg_checks();
  // C types of the arguments, in order, as the packed wrapper must cast them.
  const std::vector<BufInfo>& arg_infos() const { return arg_info_; }
  // The __global__ functions of the proc's kernels (CUDA only), after definition(); they go
  // before the proc's definition, which launches them.
  const std::vector<std::string>& kernels() const { return kernels_; }

 private:
  // ---- c_expr.cpp
  CExpr expr(const Expr& e);                     // a bf16 value as a float (c_types.h)
  CExpr stored_expr(const Expr& e);              // a read as its stored C type
  std::string sub(const Expr& e, int min_prec);  // parenthesized when it binds looser
  // A data operand in the precision `data_ctx_` (an integer literal converted to it), and the
  // same parenthesized when it binds looser than `min_prec`.
  CExpr data(const Expr& e);
  std::string data_sub(const Expr& e, int min_prec);
  // The precision data expression `e` is computed in at this point (data_kind_in; R as f32).
  ScalarKind data_kind(const Expr& e) const;
  CExpr binop(const BinOpNode* b, const Expr& e);
  bool nonneg(const Expr& e) const;
  // The element `name[idx]` as an lvalue; `plain` marks access by plain code (checked against
  // the memory's can_read()).
  std::string access(const Sym& name, const std::vector<Expr>& idx, const SrcInfo& where,
                     bool plain);
  std::string access_strs(const BufInfo& b, const std::vector<std::string>& idx,
                          const SrcInfo& where);
  std::vector<std::string> strides(const BufInfo& b) const;
  std::string base_ptr(const BufInfo& b) const;
  // A window of a buffer (WindowExpr, or a whole buffer read): the origin element, the window's
  // strides and shape, and the buffer.
  struct WindowParts {
    const BufInfo* buf = nullptr;
    std::string origin;                // the memory's window() of the origin element
    std::string base;                  // the pointer the buffer's elements are addressed from
    std::string offset;                // the origin's element offset from `base`, unswizzled
    std::vector<std::string> strides;  // of the kept dimensions
    int rank = 0;
  };
  WindowParts window_parts(const Expr& e);
  std::string window_struct(const WindowParts& w, bool const_data, const SrcInfo& where);
  BufInfo& buf(const Sym& s, const SrcInfo& where);

  // ---- c_stmt.cpp
  void block(const Block& b);
  void stmt(const Stmt& s);
  // A buffer's free, asked of its memory after the last statement that uses it.
  struct PendingFree {
    const Memory* memory;
    std::string cname, ctype;
    std::vector<std::string> shape;
    SrcInfo where;
  };
  // Declares the buffer; nullopt when it is unused (nothing is emitted, nothing to free).
  std::optional<PendingFree> alloc(const AllocNode* n, const Stmt& s);
  // The C statement (without `;`) storing into element `lhs` of precision `target` what the
  // interpreter stores for `lhs = rhs` (or, `reduce`, `lhs += rhs`).
  std::string store(const std::string& lhs, bool reduce, ScalarKind target, const Expr& rhs);
  void call(const CallNode* n, const Stmt& s);
  void instr_call(const CallNode* n, const Stmt& s);
  std::string call_arg(const FnArg& param, const Expr& arg, bool param_written,
                       const SrcInfo& where);
  void window_stmt(const WindowStmtNode* n, const Stmt& s);

  // ---- cuda_kernel.cpp
  // A kernel (an outermost cuda_blocks loop): its __global__ function into kernels_, and its
  // launch here.
  void kernel(const ForNode* n, const Stmt& s);
  // A cuda_threads or cuda_warps loop inside a kernel: each iteration on its unit of threads.
  void lane_loop(const ForNode* n, const Stmt& s);
  // The C parameter declaration through which a kernel receives `id` (named `cname`).
  std::string kernel_param(uint64_t id, const std::string& cname) const;
  void line(const std::string& text);  // one line at the current indentation
  std::string declare(const Sym& s);   // a fresh C name for s
  const std::string& name_of(const Sym& s, const SrcInfo& where) const;

  const Proc& proc_;
  std::string lib_;
  const WrittenParams& written_;
  Globals& g_;
  std::set<std::string> used_names_;
  std::map<uint64_t, std::string> names_;
  std::map<uint64_t, BufInfo> bufs_;
  std::set<uint64_t> nonneg_;     // control variables known to be >= 0
  std::set<uint64_t> read_syms_;  // symbols the body reads (or passes, windows, strides)
  std::vector<BufInfo> arg_info_;
  std::string out_;
  int indent_ = 1;
  ScalarKind data_ctx_ = ScalarKind::F32;  // the precision literals take here (never R)
  bool ctxt_used_ = false;
  std::set<uint64_t> mentioned_;  // every symbol the body names
  bool uses_ctx_ = false;
  // The body has a par loop: the proc runs on OpenMP threads, and so does its entry check.
  bool has_par_ = false;
  // CUDA: kernels emitted so far, and where emission stands inside the current kernel.
  std::vector<std::string> kernels_;
  bool in_kernel_ = false;
  struct LaneGroup {
    std::string lane;  // C expression: the thread's number within the group, 0 .. size-1
    int64_t size;      // threads in the group
  };
  std::vector<LaneGroup> lanes_;
  std::map<uint64_t, int> distributed_dims_;  // block-level register buffer -> distributed dims
  // The current kernel's arrays in dynamic shared memory: allocation -> byte offset.
  std::map<uint64_t, int64_t> dynamic_shared_offsets_;
};

// Whether C text `text` contains identifier `id` as a whole token.
bool mentions_token(const std::string& text, const std::string& id);

// Syms of `b`'s arguments (by id) that the body writes: assigned, reduced, passed to a written
// parameter of a callee, or through a window variable onto them.
std::set<uint64_t> written_args(const ProcNode& p, const WrittenParams& callees);

}  // namespace exocpp::codegen
