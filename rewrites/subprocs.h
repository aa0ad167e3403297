// Exo's sub-procedure operations: inlining a call, swapping a callee for an equivalent proc,
// extracting a block into a new proc, and turning a proc into a hardware instruction.
//
// Each operation follows Exo's primitive of the same name (docs/primitives/subproc_ops.md of
// exo-lang/exo; `inline` is `inline_proc` here): required arguments positional in Exo's order,
// keyword arguments in an Options struct, targets as CursorLike (a pattern string or a cursor
// of this proc or an ancestor). An illegal request throws SchedulingError naming the
// operation, the target and the reason; it never returns a changed proc. Every result is a
// derived proc whose forwarding function carries cursors of the input into it.
#pragma once

#include <string>

#include "core/ir.h"
#include "rewrites/target.h"

namespace exocpp {

// `f(e1, .., en)` --> `body_f[a1 -> e1, .., an -> en]`: the call replaced by the callee's body.
// Control arguments become the call's expressions, buffers the caller's buffer, windows are
// composed into every access (`a[j] -> A[i, lo + j]`, `stride(a, 0) -> stride(A, 1)`). The
// callee's loops, allocations and windows get fresh symbols, renamed (`i` -> `i_1`) where the
// name is already visible at the call. The callee's asserts are dropped (they held at the call).
// Forwarding: the call becomes the inlined block (a statement cursor to it, a block cursor).
Proc inline_proc(const Proc& p, const CursorLike& call);

// Are `a` and `b` scheduled from the same proc (the same root of the scheduling history)?
// Equivalence is recorded per ProcNode (ProcNode::eqv_class): each parsed proc starts a class,
// and every scheduling operation's result stays in its input's class.
bool procs_equivalent(const Proc& a, const Proc& b);

// `f(args)` --> `g(args)` where g is equivalent to f (procs_equivalent) and takes the same
// arguments: the same count, control kinds, data types, shapes (under the call's arguments)
// and memories. Asserts of g that f did not have must provably hold at the call. Config writes
// must agree exactly: Exo's "equivalent modulo config writes" is not supported.
Proc call_eqv(const Proc& p, const CursorLike& call, const Proc& eqv_proc);

struct ExtractSubprocOptions {
  bool include_asserts = true;
};
struct Extracted {
  Proc proc;     // the input, with the block replaced by a call
  Proc subproc;  // the new proc
};

// `s1 ; .. ; sn` --> `subproc_name(v1, .., vk)` with a new proc
// `def subproc_name(v1: T1, .., vk: Tk): s1 ; .. ; sn` whose arguments are the variables the
// block uses from its surroundings (sizes, enclosing loop indices as `index`, buffers and
// windows with their types and memories, and whatever their shapes mention), in the order they
// are bound (arguments, then enclosing loops, allocations and windows outside in). With
// include_asserts the facts at the block over those variables (the proc's asserts, the ranges
// of enclosing loops, enclosing if conditions) become the subproc's asserts.
// Refused when the block defines a buffer or window used after it.
Extracted extract_subproc(const Proc& p, const CursorLike& block, const std::string& subproc_name,
                          const ExtractSubprocOptions& opts = {});

// The proc as a hardware instruction: codegen emits `c_instr` (with `{x}` holes for argument
// x, `{x_data}` for a buffer's data pointer; other braces are C text) and `c_global` once.
// Refused when a hole names no argument, or asks for the data pointer of a control value.
Proc make_instr(const Proc& p, const std::string& c_instr, const std::string& c_global = "");

}  // namespace exocpp
