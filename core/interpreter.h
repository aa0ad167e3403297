// The reference interpreter: runs a Proc on concrete buffers, exactly and safely. Every rewrite
// and every generated kernel is checked against it on random inputs (core/test_inputs.h).
//
// Semantics, in brief (Exo's, made precise where Exo leaves them to numpy or C):
//  - Control values (size, index, int, stride, bool) are 64-bit integers. `/` is floor division
//    and `%` the remainder with the divisor's sign (Python's `//` and `%`), so `-7 / 2 == -4` and
//    `-7 % 2 == 1`. Division by zero and 64-bit overflow are InterpErrors, never UB.
//  - Data values are held as double. Every store rounds to the buffer's precision: f32 to the
//    nearest float, f16 to the nearest IEEE half and bf16 to the nearest bfloat16 (f32's exponent
//    range with an 8-bit significand, as AVX-512 BF16 uses; round-to-even, overflow to inf, and
//    subnormals kept: no flush to zero), f64 and R
//    exact (R: see InterpOptions::real_as); i8, ui8, ui16, i32 truncate toward zero then wrap
//    two's-complement to their width (storing NaN or inf into an integer buffer is an InterpError).
//    Float arithmetic is rounded to the expression's precision after each operation (an f32 `a * b`
//    is a float product, as in C). A literal takes the precision of the expression around it: an
//    f32 `x * 0.1` uses the float nearest 0.1 (C's `0.1f`); in an integer expression a non-integral
//    literal truncates to the type and an integral one stays an int; a literal-only expression
//    (`0.1 + 0.2`, every leaf a literal, type R) takes that precision too, for every literal and
//    operation in it, whatever real_as says (data_kind_in, below). Integer data arithmetic is
//    C's: operands promote to 32-bit int, so intermediates wrap at 32 bits and `/` truncates toward
//    zero; the store then wraps to the buffer's width. Data `/` by zero is an InterpError for
//    integer types and inf/NaN for floats.
//  - `and`/`or` short-circuit. `par` loops run sequentially, in order (or in reverse order with
//    InterpOptions::reverse_par, which shows whether a par loop's iterations depend on each other).
//  - Allocations are fresh buffers filled with NaN for float types, so a read of memory never
//    written shows up as NaN in the result; integer buffers are filled with 0.
//  - Windows alias their buffer: A[i, 0:16] is a rank-1 view with A's stride; points drop
//    dimensions. Tensor and window arguments of calls alias the caller's buffers; a scalar data
//    argument given as an element A[i, j] aliases that element.
//  - Instructions are executed by their body (their semantics). Externs call ExternFn::interpret.
//  - Asserts are checked on entry to every proc, including callees.
//  - Every access is bounds-checked; out-of-bounds reads and writes, bad arguments, failed
//    asserts, never-written config fields and exceeding the step limit are InterpErrors at the
//    source location of the statement or expression at fault.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.h"
#include "core/ir.h"

namespace exocpp {

// `v` rounded to what a buffer of element type `k` can hold (see above). Control kinds and R
// return `v` unchanged; integer kinds map NaN to 0 (the interpreter reports that case itself).
double round_to_kind(ScalarKind k, double v);

// A literal-only data expression: of type R, and every leaf a literal (`0.1 + 0.2`,
// `-(2.0 * 3.0)`, `2.0 * 3`, `sqrt(2.0)`). Like a single literal, it has no precision of its own.
bool is_literal_only(const Expr& e);
// The precision the data expression `e` is computed in where it meets precision `ctx` (the
// operator, extern, store, config field or parameter around it): a literal, an integer literal
// expression or a literal-only expression takes `ctx` (when `ctx` is a data type); anything
// else computes in its own type. The interpreter and the code generator both ask this one rule,
// so that `x_f64 + (0.1 + 0.2)` adds in double and `x_f16 + 2049` adds the f16 value 2048 in both.
ScalarKind data_kind_in(const Expr& e, ScalarKind ctx);
// Whether reductions `x += e` into a buffer of precision `target` give the same result whatever
// their order or grouping (summed apart first, as stage_mem's accumulation does): a float target
// regroups as reals (the rule scheduling works by, as in Exo), an integer target modulo 2^bits
// when `e` computes in integer arithmetic. Not an integer target with a float addend: each
// reduction truncates its own sum (`X_i8 += 1.75; X_i8 += -0.75` from 0 gives 0 in this order and
// 1 in the other). The checker's conflicts and stage_mem ask this one rule.
bool reductions_regroup(ScalarKind target, const Expr& addend);

namespace interp_detail {
class Interp;
}

// A tensor, a window into one, or a scalar (rank 0): element type, shape, strides and offset
// into shared storage. Copying a Buffer makes another handle to the same storage (as a window
// does); deep_copy() makes an independent dense copy. Element access checks its indices and
// throws InterpError when they are out of range.
class Buffer {
 public:
  Buffer() = default;  // undefined: no storage
  // A dense row-major tensor of `shape` (empty shape: a scalar) with every element `fill`
  // (rounded to `kind`).
  Buffer(ScalarKind kind, std::vector<int64_t> shape, double fill = 0.0);
  // A dense tensor from row-major `values` (rounded to `kind`); values.size() must match.
  static Buffer from_values(ScalarKind kind, std::vector<int64_t> shape,
                            const std::vector<double>& values);
  static Buffer scalar(ScalarKind kind, double v) { return Buffer(kind, {}, v); }

  bool defined() const { return storage_ != nullptr; }
  ScalarKind kind() const { return kind_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }  // in elements
  int64_t offset() const { return offset_; }
  int64_t num_elements() const;  // product of the shape (1 for a scalar)
  // True when the elements lie row-major and contiguous (as a C tensor argument must).
  bool is_dense() const;
  // True when both handles use the same storage.
  bool aliases(const Buffer& o) const { return storage_ == o.storage_; }

  double get(const std::vector<int64_t>& idx) const;
  void set(const std::vector<int64_t>& idx, double v);  // rounds to kind()
  double value() const { return get({}); }              // a scalar's value
  // The i-th element in row-major order of this view's shape.
  double flat(int64_t i) const;
  void set_flat(int64_t i, double v);
  std::vector<double> to_vector() const;  // row-major
  // The row-major multi-index of the i-th element.
  std::vector<int64_t> unflatten(int64_t i) const;

  Buffer deep_copy() const;  // dense, same kind and shape, independent storage

  // A view: `idx[d]` is either a point (lo only; drops dimension d) or an interval [lo, hi).
  struct Slice {
    int64_t lo = 0;
    int64_t hi = 0;
    bool is_interval = false;
    static Slice point(int64_t p) { return {p, p + 1, false}; }
    static Slice interval(int64_t lo, int64_t hi) { return {lo, hi, true}; }
  };
  // Throws InterpError when a slice is out of range or there are more slices than dimensions;
  // dimensions after the last slice are kept whole.
  Buffer window(const std::vector<Slice>& idx) const;

 private:
  friend class interp_detail::Interp;
  // Access by linear position in storage, unchecked: for the interpreter, which checks indices
  // itself (with source locations) before computing a position.
  double raw(int64_t pos) const { return (*storage_)[static_cast<size_t>(pos)]; }
  void raw_set(int64_t pos, double v) {
    (*storage_)[static_cast<size_t>(pos)] = round_to_kind(kind_, v);
  }

  int64_t position(const std::vector<int64_t>& idx) const;  // checked
  ScalarKind kind_ = ScalarKind::Error;
  std::vector<int64_t> shape_, strides_;
  int64_t offset_ = 0;
  std::shared_ptr<std::vector<double>> storage_;
};

std::string shape_string(const std::vector<int64_t>& shape);  // "[4, 16]"
std::ostream& operator<<(std::ostream& os, const Buffer& b);  // kind, shape and values

// How two buffers are compared: equal when |a - b| <= atol + rtol * |b| for every element.
struct CompareOptions {
  double rtol = 0.0;
  double atol = 0.0;
  // Two NaNs count as equal only when this is set: by default a NaN in a result (a read of
  // memory never written) is reported.
  bool nan_equal = false;
  // +0 and -0 differ when this is set. With rtol = atol = 0 and nan_equal, floats are then
  // compared bit for bit, NaNs aside (as emitted C is compared with the interpreter).
  bool signed_zeros = false;
};

// "" when a and b have the same kind, shape and values; otherwise a sentence naming `name`, the
// first differing index and both values.
std::string compare_buffers(const Buffer& a, const Buffer& b, const std::string& name,
                            const CompareOptions& opts = {});

// An argument of a proc, in argument order: int64_t for size/index/int/stride, bool for bool,
// Buffer for data (a scalar data argument is a rank-0 Buffer).
using ArgValue = std::variant<int64_t, bool, Buffer>;
std::string to_string(const ArgValue& v);  // "7", "True", "f32[4, 4] buffer"

// Configuration state: the value of each (config name, field) pair that has been written.
using ConfigValue = std::variant<int64_t, bool, double>;
struct ConfigState {
  std::map<std::pair<std::string, std::string>, ConfigValue> values;

  bool has(const std::string& config, const std::string& field) const;
  // Throws InterpError at `where` naming Config.field when it has never been written.
  const ConfigValue& get(const std::string& config, const std::string& field,
                         const SrcInfo& where = {}) const;
  void set(const std::string& config, const std::string& field, ConfigValue v);
  bool operator==(const ConfigState& o) const { return values == o.values; }
};
// "" when equal, else the first field that differs (or is written in only one of them).
std::string compare_configs(const ConfigState& a, const ConfigState& b);

struct InterpOptions {
  // Config state read and written by the run; nullptr: a fresh, empty state for this run.
  ConfigState* configs = nullptr;
  // Statements executed (loop iterations included) before the run is stopped with an
  // InterpError, so that a runaway loop cannot hang a test.
  int64_t max_steps = 1'000'000'000;
  // Largest allocation, in elements, before an InterpError (instead of running out of memory).
  int64_t max_alloc_elements = int64_t(1) << 28;
  // The precision R (not yet chosen) arithmetic and allocations use: exact by default; set it
  // to F32 to mirror C code generated for an R proc (R is emitted as float). Literals and
  // literal-only expressions in a context of another precision take that one instead.
  ScalarKind real_as = ScalarKind::R;
  // Run parallel loops (par and the CUDA modes) from the last iteration to the first. A loop
  // whose iterations are independent gives the same results either way.
  bool reverse_par = false;
};

// Runs `p` on `args` (in argument order). Buffers are modified in place. Throws InterpError on a
// bad argument (wrong count or kind, size not positive, tensor of the wrong shape or element
// type), a failed assert, and any run-time fault (see the top of this file).
void interpret(const Proc& p, std::vector<ArgValue>& args, const InterpOptions& opts = {});
// The same, with arguments by name; every argument must be given and no other name.
void interpret(const Proc& p, std::map<std::string, ArgValue>& args,
               const InterpOptions& opts = {});

// Checks `args` against `p`'s signature and asserts without running the body: the checks
// interpret() does on entry. Throws the same InterpErrors. Asserts that read configs see
// `configs` (none written when null).
void check_args(const Proc& p, const std::vector<ArgValue>& args,
                const ConfigState* configs = nullptr);
// The shape of each data argument of `p` (empty for control arguments and scalars), evaluated
// from the control values in `args`; data entries of `args` are not looked at.
std::vector<std::vector<int64_t>> arg_shapes(const Proc& p, const std::vector<ArgValue>& args);
// The range [lo, hi) of each argument of `p` given its control argument values (`args`, in
// argument order; buffers may be absent): nullopt for an argument that is not an index
// argument.
std::vector<std::optional<std::pair<int64_t, int64_t>>> index_arg_ranges(
    const Proc& p, const std::vector<ArgValue>& args);
// The index of the first assert of `p` that does not hold for `args` (which must otherwise fit
// the signature), or -1 when all hold. Asserts that read configs see `configs`.
int first_failing_assert(const Proc& p, const std::vector<ArgValue>& args,
                         const ConfigState* configs = nullptr);

}  // namespace exocpp
