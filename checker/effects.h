// Effect analysis: the locations a statement or block reads, writes and reduces into, as
// (root buffer, index expressions) under the loops and conditions that guard them. Windows
// are resolved to their parent buffer (a write through `w = A[i, 0:16]` at w[k] is a write to
// A[i, k]); calls contribute their callee's effects with the call's arguments substituted
// (callee asserts become guards, since calls are checked against them); config fields are
// global locations without indices. Data values are not modelled.
#pragma once

#include <string>
#include <vector>

#include "checker/context.h"
#include "core/ir.h"

namespace exocpp::checker {

enum class AccessKind { Read, Write, Reduce };
const char* to_string(AccessKind k);  // "reads", "writes", "reduces into"

// A loop inside the analysed code around an access.
struct LoopRange {
  Sym iter;
  Expr lo, hi;
  // The loop itself: two loops may bind one symbol (fission and other copies keep it), so
  // questions of "the same loop" compare this, not `iter`.
  const ForNode* node = nullptr;
};

// A condition inside the analysed code (an if-condition, or its negation in the else branch;
// a callee's assert).
struct Guard {
  Expr cond;
  bool negated = false;
};

// One step of an access's position in the analysed code: the statement holding it (or the
// loop or if around it) as its index in the block it belongs to (an else branch's statements
// are counted after the then branch's).
struct AccessStep {
  int index = 0;
  int loop = -1;             // the statement is the For of Access::loops[loop]; -1 otherwise
  bool else_branch = false;  // the statement is in the else branch of the step before's if
};

// One access of the analysed code. Its expressions are in the terms of the code's context
// (callee arguments already replaced by the call's expressions).
struct Access {
  AccessKind kind = AccessKind::Read;
  Sym buffer;                    // root buffer; invalid for a config field
  Config config;                 // the config, for a config field access
  std::string field;             // the field, for a config field access
  std::vector<Expr> idx;         // in the root buffer's coordinates
  std::vector<LoopRange> loops;  // loops of the analysed code around it, outermost first
  std::vector<Guard> guards;     // conditions of the analysed code around it
  SrcInfo srcinfo;               // the statement that makes it
  int top = 0;                   // which top-level statement of the analysed block holds it
  // Where it happens, outermost first: path[0].index == top, the last step is the statement
  // making it (for an access inside a callee, the call). Reads of a statement happen before
  // its write or reduction.
  std::vector<AccessStep> path;
  bool through_call = false;  // made inside a callee
  bool async = false;         // made by an asynchronous copy (InstrInfo::async)
  // A Write whose value is a literal constant: that constant (undefined otherwise). Two writes
  // of the same constant to one location commute (either order leaves the same state).
  Expr stored_constant;
  // A Reduce whose sum does not regroup (core's reductions_regroup: a float addend into an
  // integer buffer truncates each sum): it commutes with no other access of its location.
  bool truncating = false;

  bool is_config() const { return config != nullptr; }
  // Both accesses name the same root buffer or the same config field.
  bool same_location_as(const Access& o) const;
  // Both are writes of the same constant (the same type and the same bits: 0.0 and -0.0 differ).
  bool writes_same_constant_as(const Access& o) const;
};

struct Effects {
  std::vector<Access> accesses;
  std::vector<Sym> allocs;   // buffers allocated by the analysed code itself
  std::vector<Sym> windows;  // window names the analysed code defines
  std::vector<Sym> used;     // every buffer/window name the analysed code mentions
  // Every window the analysed code forms (window statements, window arguments of calls), as
  // two Read records at its first and its last element in root coordinates (a point dimension
  // gives its point to both): code that renumbers a buffer's elements (stage_mem) must keep
  // whole windows in range, not only the elements accessed through them. An empty window's
  // corners are conservative: they ask for one element past its end.
  std::vector<Access> window_corners;
  bool allocates(const Sym& s) const;
  bool defines(const Sym& s) const;  // allocates or defines the window
  bool uses(const Sym& s) const;
};

// The effects of `code`, which runs in `ctx` (windows bound before it in ctx are resolved).
Effects effects_of(const Context& ctx, const Block& code);
Effects effects_of(const Context& ctx, const Stmt& s);

// The root buffer and index of `name[idx]` in `ctx` (through the windows in scope).
struct Location {
  Sym buffer;
  std::vector<Expr> idx;
};
Location resolve(const Context& ctx, const Sym& name, const std::vector<Expr>& idx);
// A window expression in `ctx` as ranges (intervals) and points of its root buffer.
struct RootWindow {
  Sym buffer;
  std::vector<WAccess> dims;
};
RootWindow resolve_window(const Context& ctx, const WindowExprNode& w);
// An expression of a callee (an assert, a shape) in the terms of `call`, which runs in `ctx`:
// control arguments replaced by the call's expressions, strides of buffer arguments by
// strides of the caller's root buffers.
Expr in_caller_terms(const Context& ctx, const CallNode& call, const Expr& callee_expr);

}  // namespace exocpp::checker
