// The loop IR: immutable, reference-counted expression and statement nodes, procs, configs
// and modules. Every pass of exocpp (parser, printer, type checker, interpreter, checker,
// rewrites, codegen) reads and builds this IR and nothing else.
//
// Grammar (the single list of node kinds is EXOCPP_FOR_EACH_EXPR / _STMT below):
//
//   module  ::= (config | proc)*
//   config  ::= ConfigNode(name, fields: (name, type)*)
//   proc    ::= ProcNode(name, args: FnArg*, preds: expr*, body: block, instr: InstrInfo?)
//   FnArg   ::= (name: Sym, type: Type, mem: string, range: (lo, hi)?)
//                                                         -- mem is "" for control types;
//                                                         -- range makes an index argument
//   block   ::= stmt*
//   stmt    ::= Assign(name, idx: expr*, rhs)              -- name[idx] = rhs
//             | Reduce(name, idx: expr*, rhs)              -- name[idx] += rhs
//             | WriteConfig(config, field, rhs)            -- Cfg.field = rhs
//             | Pass()
//             | If(cond, body: block, orelse: block)
//             | For(iter: Sym, lo, hi, body: block, mode: seq | par)
//             | Alloc(name, type: Type, mem: string)       -- name: f32[16] @ AVX512
//             | Call(proc, args: expr*)
//             | WindowStmt(name, rhs: WindowExpr)          -- name = A[i, 0:16]
//   expr    ::= Read(name, idx: expr*)                     -- x, A[i, j], or whole tensor A
//             | Const(val)                                 -- 3, 2.0, True
//             | USub(arg)
//             | BinOp(op, lhs, rhs)
//             | Extern(fn, args: expr*)                    -- select(a, b, c, d), relu(x)
//             | WindowExpr(name, idx: (Point(e) | Interval(lo, hi))*)
//             | StrideExpr(name, dim)                      -- stride(A, 1)
//             | ReadConfig(config, field)                  -- Cfg.field
//
// Nodes are created only through their make() functions, which fill in the node's type from
// its children where that is determined (see each make()). Nodes never change after creation;
// a rewrite builds new nodes and shares every subtree it did not change.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "core/forward.h"
#include "core/srcinfo.h"

namespace exocpp {

#define EXOCPP_FOR_EACH_EXPR(X) \
  X(Read)                       \
  X(Const)                      \
  X(USub)                       \
  X(BinOp)                      \
  X(Extern)                     \
  X(WindowExpr)                 \
  X(StrideExpr)                 \
  X(ReadConfig)

#define EXOCPP_FOR_EACH_STMT(X) \
  X(Assign)                     \
  X(Reduce)                     \
  X(WriteConfig)                \
  X(Pass)                       \
  X(If)                         \
  X(For)                        \
  X(Alloc)                      \
  X(Call)                       \
  X(WindowStmt)

enum class ExprKind : uint8_t {
#define X(N) N,
  EXOCPP_FOR_EACH_EXPR(X)
#undef X
};
enum class StmtKind : uint8_t {
#define X(N) N,
  EXOCPP_FOR_EACH_STMT(X)
#undef X
};
const char* to_string(ExprKind k);
const char* to_string(StmtKind k);

// ---------------------------------------------------------------------------------------------
// Symbols: a name plus a unique id. Two variables that print alike (a shadowing loop variable,
// a renamed copy) are different Syms. Equality and ordering are by id.
class Sym {
 public:
  Sym() = default;
  explicit Sym(std::string name);  // a fresh symbol with a new id
  const std::string& name() const { return name_; }
  uint64_t id() const { return id_; }
  bool valid() const { return id_ != 0; }
  Sym copy() const { return Sym(name_); }  // same name, new id
  bool operator==(const Sym& o) const { return id_ == o.id_; }
  bool operator!=(const Sym& o) const { return id_ != o.id_; }
  bool operator<(const Sym& o) const { return id_ < o.id_; }

 private:
  std::string name_;
  uint64_t id_ = 0;
};
struct SymHash {
  size_t operator()(const Sym& s) const { return std::hash<uint64_t>()(s.id()); }
};

// ---------------------------------------------------------------------------------------------
// Types.
//
// Control types (size, index, int, bool, stride) describe loop bounds, indices and shapes; data
// types (R, f16, bf16, f32, f64, i8, ui8, ui16, i32) describe buffer contents. A Type is a scalar
// kind plus, for tensors and windows, a shape.
enum class ScalarKind : uint8_t {
  R,
  F16,
  BF16,
  F32,
  F64,
  I8,
  UI8,
  UI16,
  I32,  // data
  Bool,
  Int,
  Index,
  Size,
  Stride,  // control
  Error,   // result of an ill-typed expression (type checker)
};
const char* to_string(ScalarKind k);  // surface spelling: "f32", "size", "R", ...
std::optional<ScalarKind> scalar_kind_from_string(const std::string& s);
// The surface spellings of the data types, or of every type (control types first), for error
// messages: "R, f16, bf16, f32, f64, i8, ui8, ui16 or i32".
std::string type_names(bool data_only);
bool is_data(ScalarKind k);           // R, f16, ..., i32
bool is_control(ScalarKind k);        // bool, int, index, size, stride
bool is_indexable(ScalarKind k);      // int, index, size: usable in index arithmetic
bool is_float(ScalarKind k);          // R, f16, bf16, f32, f64
bool is_int_precision(ScalarKind k);  // i8, ui8, ui16, i32
// The bytes one element of data precision `k` takes in the generated C (R as f32: 4); 1 for a
// kind that is not a data precision.
size_t scalar_bytes(ScalarKind k);
// The smallest and largest value of integer precision `k` (i8: -128 and 127, ...); i32's for a
// kind that is not an integer precision (control values and integer arithmetic are 32-bit).
std::pair<int64_t, int64_t> int_precision_limits(ScalarKind k);

class Expr;

struct Type {
  ScalarKind base = ScalarKind::Error;
  std::vector<Expr> shape;  // empty for scalars
  bool window = false;      // [f32][n, m] rather than f32[n, m]

  Type() = default;
  Type(ScalarKind b);  // NOLINT: implicit scalar type (defined below, once Expr is complete)
  Type(ScalarKind b, std::vector<Expr> sh, bool win = false);

  bool is_scalar() const { return shape.empty() && !window; }
  bool is_tensor_or_window() const { return !is_scalar(); }
  bool is_data() const { return exocpp::is_data(base); }
  bool is_control() const { return is_scalar() && exocpp::is_control(base); }
  int rank() const;
};
// Printed in surface syntax: "f32", "f32[N, 16]", "[f32][N, 16]".
std::string to_string(const Type& t);

// ---------------------------------------------------------------------------------------------
// Expressions.

struct ExprNode;
struct StmtNode;
struct ProcNode;
struct ConfigNode;

#define X(N) struct N##Node;
EXOCPP_FOR_EACH_EXPR(X)
EXOCPP_FOR_EACH_STMT(X)
#undef X

// A handle to an immutable expression node. Cheap to copy; compares by identity.
class Expr {
 public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const ExprNode> n) : node_(std::move(n)) {}

  bool defined() const { return node_ != nullptr; }
  ExprKind kind() const;
  const Type& type() const;
  const SrcInfo& srcinfo() const;
  const ExprNode* get() const { return node_.get(); }
  const ExprNode* operator->() const { return node_.get(); }
  bool same_as(const Expr& o) const { return node_ == o.node_; }

  // Tag-checked downcast: returns nullptr when the node is of another kind.
  template <class T>
  const T* as() const;
  template <class T>
  bool is() const {
    return as<T>() != nullptr;
  }

 private:
  std::shared_ptr<const ExprNode> node_;
};

struct ExprNode {
  ExprKind kind;
  Type type;
  SrcInfo srcinfo;
  ExprNode(ExprKind k, Type t, SrcInfo s) : kind(k), type(std::move(t)), srcinfo(std::move(s)) {}
  virtual ~ExprNode() = default;
};

enum class BinOpKind : uint8_t { Add, Sub, Mul, Div, Mod, Lt, Le, Gt, Ge, Eq, And, Or };
const char* to_string(BinOpKind op);  // "+", "<=", "and", ...
bool is_comparison(BinOpKind op);     // < <= > >= ==
bool is_logical(BinOpKind op);        // and or
bool is_arithmetic(BinOpKind op);     // + - * / %

// Read of a variable, a tensor element A[i, j], or (no indices) a whole tensor/window as a
// call argument. Its type is the element type when indexed, the variable's type otherwise;
// an element of an index argument (FnArg::range) reads as a control value of type int.
struct ReadNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::Read;
  Sym name;
  std::vector<Expr> idx;
  // `type` is the type the expression has (element type when idx is non-empty).
  static Expr make(Sym name, std::vector<Expr> idx, Type type, SrcInfo s = {});
  ReadNode(Sym n, std::vector<Expr> i, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)), name(std::move(n)), idx(std::move(i)) {}
};

// A literal. Integer literals have type int, float literals R, True/False bool. An integer
// literal may stand where a data value is expected (it is then that data type's value).
struct ConstNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::Const;
  double val;
  static Expr make_int(int64_t v, SrcInfo s = {});
  static Expr make_float(double v, ScalarKind t = ScalarKind::R, SrcInfo s = {});
  static Expr make_bool(bool v, SrcInfo s = {});
  bool is_int() const { return type.base == ScalarKind::Int; }
  int64_t int_val() const { return static_cast<int64_t>(val); }
  ConstNode(double v, Type t, SrcInfo s) : ExprNode(kind_tag, std::move(t), std::move(s)), val(v) {}
};
// The one definition of "the same constant", for every place that compares constants (expr_equal,
// replace's unification, pattern matching, the checker's equal stores): the same type and the
// same value bit for bit — 0.0 and -0.0 differ (1 / x tells them apart), and a NaN equals
// nothing. (Two literals that round to one value of a precision still differ: conservative.)
bool same_constant(double a, double b);
bool same_constant(const ConstNode& a, const ConstNode& b);

struct USubNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::USub;
  Expr arg;
  static Expr make(Expr arg, SrcInfo s = {});  // type = arg's type
  USubNode(Expr a, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)), arg(std::move(a)) {}
};

struct BinOpNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::BinOp;
  BinOpKind op;
  Expr lhs, rhs;
  // Type from the operands (binop_result_type); Error when they do not combine.
  static Expr make(BinOpKind op, Expr lhs, Expr rhs, SrcInfo s = {});
  BinOpNode(BinOpKind o, Expr l, Expr r, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)),
        op(o),
        lhs(std::move(l)),
        rhs(std::move(r)) {}
};
// The result type of `lhs op rhs`, following Exo's rules; ScalarKind::Error when ill-typed.
ScalarKind binop_result_type(BinOpKind op, const Expr& lhs, const Expr& rhs);
// The precision two data operands combine (and compare) in: an integer literal takes the other
// side's type, R unifies with any precision, two integer precisions give i32; Error when they
// do not combine or either is not data.
ScalarKind data_operand_type(const Expr& lhs, const Expr& rhs);

class ExternFn;  // core/externs.h
struct ExternNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::Extern;
  std::shared_ptr<const ExternFn> fn;
  std::vector<Expr> args;
  static Expr make(std::shared_ptr<const ExternFn> fn, std::vector<Expr> args, SrcInfo s = {});
  ExternNode(std::shared_ptr<const ExternFn> f, std::vector<Expr> a, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)), fn(std::move(f)), args(std::move(a)) {}
};

// One index of a window expression: a point `i` (drops the dimension) or an interval `lo:hi`.
struct WAccess {
  bool is_interval = false;
  Expr lo;  // the point, when !is_interval
  Expr hi;  // only for intervals
  static WAccess point(Expr p) { return {false, std::move(p), {}}; }
  static WAccess interval(Expr lo, Expr hi) { return {true, std::move(lo), std::move(hi)}; }
};

// A window A[i, 0:16] of a tensor or window. Type: a window of the buffer's element type whose
// shape is (hi - lo) of each interval.
struct WindowExprNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::WindowExpr;
  Sym name;
  std::vector<WAccess> idx;
  static Expr make(Sym name, ScalarKind elem, std::vector<WAccess> idx, SrcInfo s = {});
  WindowExprNode(Sym n, std::vector<WAccess> i, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)), name(std::move(n)), idx(std::move(i)) {}
};

struct StrideExprNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::StrideExpr;
  Sym name;
  int dim;
  static Expr make(Sym name, int dim, SrcInfo s = {});  // type stride
  StrideExprNode(Sym n, int d, SrcInfo s)
      : ExprNode(kind_tag, ScalarKind::Stride, std::move(s)), name(std::move(n)), dim(d) {}
};

struct ReadConfigNode : ExprNode {
  static constexpr ExprKind kind_tag = ExprKind::ReadConfig;
  std::shared_ptr<const ConfigNode> config;
  std::string field;
  static Expr make(std::shared_ptr<const ConfigNode> cfg, std::string field, SrcInfo s = {});
  ReadConfigNode(std::shared_ptr<const ConfigNode> c, std::string f, Type t, SrcInfo s)
      : ExprNode(kind_tag, std::move(t), std::move(s)), config(std::move(c)), field(std::move(f)) {}
};

// ---------------------------------------------------------------------------------------------
// Statements.

class Stmt {
 public:
  Stmt() = default;
  explicit Stmt(std::shared_ptr<const StmtNode> n) : node_(std::move(n)) {}
  bool defined() const { return node_ != nullptr; }
  StmtKind kind() const;
  const SrcInfo& srcinfo() const;
  const StmtNode* get() const { return node_.get(); }
  const StmtNode* operator->() const { return node_.get(); }
  bool same_as(const Stmt& o) const { return node_ == o.node_; }
  template <class T>
  const T* as() const;
  template <class T>
  bool is() const {
    return as<T>() != nullptr;
  }

 private:
  std::shared_ptr<const StmtNode> node_;
};
using Block = std::vector<Stmt>;

struct StmtNode {
  StmtKind kind;
  SrcInfo srcinfo;
  StmtNode(StmtKind k, SrcInfo s) : kind(k), srcinfo(std::move(s)) {}
  virtual ~StmtNode() = default;
};

struct AssignNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::Assign;
  Sym name;
  ScalarKind type;  // element type of the buffer written
  std::vector<Expr> idx;
  Expr rhs;
  static Stmt make(Sym name, ScalarKind type, std::vector<Expr> idx, Expr rhs, SrcInfo s = {});
  AssignNode(Sym n, ScalarKind t, std::vector<Expr> i, Expr r, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        name(std::move(n)),
        type(t),
        idx(std::move(i)),
        rhs(std::move(r)) {}
};

struct ReduceNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::Reduce;
  Sym name;
  ScalarKind type;
  std::vector<Expr> idx;
  Expr rhs;
  static Stmt make(Sym name, ScalarKind type, std::vector<Expr> idx, Expr rhs, SrcInfo s = {});
  ReduceNode(Sym n, ScalarKind t, std::vector<Expr> i, Expr r, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        name(std::move(n)),
        type(t),
        idx(std::move(i)),
        rhs(std::move(r)) {}
};

struct WriteConfigNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::WriteConfig;
  std::shared_ptr<const ConfigNode> config;
  std::string field;
  Expr rhs;
  static Stmt make(std::shared_ptr<const ConfigNode> cfg, std::string field, Expr rhs,
                   SrcInfo s = {});
  WriteConfigNode(std::shared_ptr<const ConfigNode> c, std::string f, Expr r, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        config(std::move(c)),
        field(std::move(f)),
        rhs(std::move(r)) {}
};

struct PassNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::Pass;
  static Stmt make(SrcInfo s = {});
  explicit PassNode(SrcInfo s) : StmtNode(kind_tag, std::move(s)) {}
};

struct IfNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::If;
  Expr cond;
  Block body;
  Block orelse;  // empty when there is no else
  static Stmt make(Expr cond, Block body, Block orelse, SrcInfo s = {});
  IfNode(Expr c, Block b, Block o, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        cond(std::move(c)),
        body(std::move(b)),
        orelse(std::move(o)) {}
};

// How a loop's iterations run. `par` iterations run at once on CPU threads (OpenMP). The CUDA
// modes place a loop on the GPU (docs/gpu.md): the outermost `cuda_blocks` loop is a kernel
// launch and its iterations are thread blocks; `cuda_threads` iterations are threads of a block
// and `cuda_warps` iterations are warps (32 threads each). The interpreter runs every mode as
// a sequential loop; the GPU rules (core/typecheck_cuda.cpp, checker's kernel race query) make
// that sequential meaning the meaning of the parallel run.
enum class LoopMode : uint8_t { Seq, Par, CudaBlocks, CudaThreads, CudaWarps };
const char* to_string(LoopMode m);  // "seq", "par", "cuda_blocks", "cuda_threads", "cuda_warps"
// The mode a loop header names ("seq", ...); nullopt for any other word.
std::optional<LoopMode> loop_mode_named(std::string_view word);
// Whether iterations run at the same time (every mode but seq): they must not conflict.
inline bool is_parallel(LoopMode m) { return m != LoopMode::Seq; }
inline bool is_cuda(LoopMode m) {
  return m == LoopMode::CudaBlocks || m == LoopMode::CudaThreads || m == LoopMode::CudaWarps;
}
// A mode whose iterations are threads or warps of one block (inside a kernel).
inline bool is_cuda_lane(LoopMode m) {
  return m == LoopMode::CudaThreads || m == LoopMode::CudaWarps;
}

struct ForNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::For;
  Sym iter;
  Expr lo, hi;
  Block body;
  LoopMode mode;
  static Stmt make(Sym iter, Expr lo, Expr hi, Block body, LoopMode mode = LoopMode::Seq,
                   SrcInfo s = {});
  ForNode(Sym it, Expr l, Expr h, Block b, LoopMode m, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        iter(std::move(it)),
        lo(std::move(l)),
        hi(std::move(h)),
        body(std::move(b)),
        mode(m) {}
};

struct AllocNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::Alloc;
  Sym name;
  Type type;
  std::string mem;  // registered memory name, e.g. "DRAM", "AVX512"
  static Stmt make(Sym name, Type type, std::string mem, SrcInfo s = {});
  AllocNode(Sym n, Type t, std::string m, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)),
        name(std::move(n)),
        type(std::move(t)),
        mem(std::move(m)) {}
};

class Proc;
class Cursor;
struct CallNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::Call;
  std::shared_ptr<const ProcNode> proc;
  std::vector<Expr> args;
  static Stmt make(std::shared_ptr<const ProcNode> proc, std::vector<Expr> args, SrcInfo s = {});
  CallNode(std::shared_ptr<const ProcNode> p, std::vector<Expr> a, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)), proc(std::move(p)), args(std::move(a)) {}
};

struct WindowStmtNode : StmtNode {
  static constexpr StmtKind kind_tag = StmtKind::WindowStmt;
  Sym name;
  Expr rhs;  // a WindowExpr; name's type is rhs's type
  static Stmt make(Sym name, Expr rhs, SrcInfo s = {});
  WindowStmtNode(Sym n, Expr r, SrcInfo s)
      : StmtNode(kind_tag, std::move(s)), name(std::move(n)), rhs(std::move(r)) {}
};

// ---------------------------------------------------------------------------------------------
// Configs, procs, modules.

// A default-constructed (undefined) Proc used where a proc is needed.
class UndefinedProcError : public Error {
 public:
  UndefinedProcError()
      : Error("usage error", "", SrcInfo{},
              "the proc is undefined (a default-constructed Proc); get one from parse_module, "
              "parse_file or a scheduling operation") {}
};

struct ConfigField {
  std::string name;
  ScalarKind type;
};

// `config Name:` with typed fields: global state that instructions read and write.
struct ConfigNode {
  std::string name;
  std::vector<ConfigField> fields;
  SrcInfo srcinfo;
  const ConfigField* field(const std::string& f) const;  // nullptr if absent
};
using Config = std::shared_ptr<const ConfigNode>;

// The values an index argument may hold: lo <= v < hi, both control expressions of the proc's
// control arguments (`col: i32[nnz] @ DRAM in range(0, n)`). docs/language.md, "Index arguments".
struct ValueRange {
  Expr lo, hi;
};

struct FnArg {
  Sym name;
  Type type;
  std::string mem;  // memory of data arguments ("DRAM" by default); "" for control arguments
  SrcInfo srcinfo;
  // An index argument: integer data whose every element is checked to lie in this range where
  // the proc is entered. It is read-only in the proc, and reading an element of it gives a
  // control value (type int) usable in indices, loop bounds and conditions.
  std::optional<ValueRange> range = std::nullopt;
  bool is_index_arg() const { return range.has_value(); }
};

struct ProcNode;
// Whether any argument of `p` is an index argument (the emitted function then returns int: 0,
// or which argument held a value outside its range).
bool has_index_args(const ProcNode& p);

// What makes a proc a hardware instruction: the C it expands to, with `{arg}` holes
// (`{arg_data}` for a buffer's pointer), and global C (includes, helpers) it needs.
struct InstrInfo {
  std::string c_instr;
  std::string c_global;
  // What the instruction synchronizes on the GPU (`sync="..."` in @instr): "" for none,
  // "cuda_block" for a barrier of all threads of a block (__syncthreads), "cuda_warp" for a
  // barrier of the 32 threads of a warp (__syncwarp), "cuda_block_async" for a barrier before
  // which every thread also waits for its asynchronous copies. A barrier's body is `pass`: it
  // changes no value, it orders the threads around it (docs/gpu.md, the race rule).
  std::string sync;
  // "cuda" for an asynchronous copy (`async="cuda"`: cp.async): what it writes lands at some
  // time before the issuing thread's next cuda_block_async barrier, so until then no thread,
  // the issuing one included, may touch it.
  std::string async;
  // Who executes the instruction on the GPU (`collective="..."` in @instr): "" for one thread,
  // "cuda_warp" for the 32 threads of a warp together (a tensor-core operation); such a call
  // stands directly in a cuda_warps loop's body.
  std::string collective;
};

// A new equivalence-class id (see ProcNode::eqv_class); never 0.
uint64_t fresh_eqv_class();

struct ProcNode {
  // A new proc node (a fresh equivalence class), after checking what every proc holds: a
  // name; each argument named, typed and named once; each assert condition and statement
  // defined; a data argument with a memory, a control argument without one. A broken invariant
  // is an internal error (EXOCPP_ASSERT), never a user error. (Whether the asserts are boolean
  // is the type checker's to say, with a located message.)
  static std::shared_ptr<const ProcNode> make(std::string name, std::vector<FnArg> args,
                                              std::vector<Expr> preds, Block body,
                                              std::optional<InstrInfo> instr = std::nullopt,
                                              SrcInfo s = {});
  // The node `fields` describes, after the same checks: how a rewrite that copied a node and
  // changed some of its fields (keeping its equivalence class) finishes it.
  static std::shared_ptr<const ProcNode> make(ProcNode fields);

  std::string name;
  std::vector<FnArg> args;
  std::vector<Expr> preds;  // assert conditions, in order
  Block body;
  std::optional<InstrInfo> instr;
  SrcInfo srcinfo;
  // The scheduling history the proc belongs to, for call_eqv (rewrites/subprocs.h): a newly
  // built node (parser, extract_subproc, a test) gets a fresh class; a copy of a node keeps
  // its class. Scheduling operations make their result from a copy of their input's node
  // (derive_proc), so every proc scheduled from one root shares the root's class and is
  // equivalent to it. An operation whose result is not equivalent must assign a fresh class.
  uint64_t eqv_class = fresh_eqv_class();
  // The config fields whose final value (what a caller sees after a call) may differ from that
  // of other procs of the class: config rewrites (delete_config, write_config, bind_config) that
  // change only that final value add the field, and call_eqv proves at the call that the caller
  // does not read it before overwriting it (rewrites/call_eqv.cpp).
  std::vector<std::pair<Config, std::string>> eqv_configs{};
};

// An immutable procedure value. Scheduling operations take a Proc and return a new one.
//
// A Proc made by a scheduling operation remembers the proc it was made from and how locations
// moved (its forwarding function), so that cursors into any ancestor can be forwarded to it
// (Proc::forward in core/cursor.h).
class Proc {
 public:
  Proc() = default;
  explicit Proc(std::shared_ptr<const ProcNode> n) : node_(std::move(n)) {}
  // A proc derived from `parent` by a rewrite whose location mapping is `fwd`.
  Proc(std::shared_ptr<const ProcNode> n, const Proc& parent, ForwardFn fwd);
  // The proc this one was derived from (undefined for a parsed proc) and the mapping.
  Proc parent() const;
  const ForwardFn* forward_fn() const { return history_ ? &history_->fwd : nullptr; }

  // Cursors (core/cursor.h): `c` carried from an ancestor proc into this one; the whole body
  // as a block cursor; the arguments.
  Cursor forward(const Cursor& c) const;
  Cursor body_cursor() const;
  std::vector<Cursor> arg_cursors() const;
  // Pattern search (core/pattern.h).
  Cursor find(const std::string& pattern) const;
  std::vector<Cursor> find_all(const std::string& pattern) const;
  Cursor find_loop(const std::string& pattern) const;
  Cursor find_alloc_or_arg(const std::string& name) const;
  bool defined() const { return node_ != nullptr; }
  // Every accessor of the proc's contents requires a defined proc: a default-constructed Proc
  // handed to any operation, printer or checker throws UndefinedProcError (an exocpp::Error)
  // here, once, instead of each operation checking.
  const std::string& name() const { return node().name; }
  const std::vector<FnArg>& args() const { return node().args; }
  const std::vector<Expr>& preds() const { return node().preds; }
  const Block& body() const { return node().body; }
  bool is_instr() const { return node().instr.has_value(); }
  const ProcNode* get() const { return node_.get(); }  // nullptr when undefined
  const ProcNode* operator->() const { return &node(); }
  const std::shared_ptr<const ProcNode>& ptr() const { return node_; }
  bool same_as(const Proc& o) const { return node_ == o.node_; }

 private:
  const ProcNode& node() const {
    if (!node_) throw_undefined();
    return *node_;
  }
  [[noreturn]] static void throw_undefined();
  struct History {
    std::shared_ptr<const ProcNode> parent_node;
    std::shared_ptr<const History> parent_history;
    ForwardFn fwd;
  };
  std::shared_ptr<const ProcNode> node_;
  std::shared_ptr<const History> history_;
};

// The configs and procs of one parsed source, in source order.
class Module {
 public:
  std::vector<Config> configs;
  std::vector<Proc> procs;

  // Throws exocpp::Error naming the missing proc (and listing those present).
  Proc proc(const std::string& name) const;
  Config config(const std::string& name) const;
  bool has_proc(const std::string& name) const;
};

// ---------------------------------------------------------------------------------------------
// Inline and template definitions.

// Defined here rather than in Type: clang needs Expr complete to instantiate vector<Expr>.
inline Type::Type(ScalarKind b) : base(b) {}
inline int Type::rank() const { return static_cast<int>(shape.size()); }

template <class T>
const T* Expr::as() const {
  if (node_ && node_->kind == T::kind_tag) return static_cast<const T*>(node_.get());
  return nullptr;
}
template <class T>
const T* Stmt::as() const {
  if (node_ && node_->kind == T::kind_tag) return static_cast<const T*>(node_.get());
  return nullptr;
}

}  // namespace exocpp
