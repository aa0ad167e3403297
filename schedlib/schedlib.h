// schedlib: a user-level scheduling library (Exo 2's idea): scheduling operations written by a
// user out of exocpp's checked primitives, with cursors and inspection, on the public API only.
// Each operation here adds no legality reasoning of its own: every step it takes is a primitive
// that asks the checker, so a schedlib operation is exactly as safe as the primitives it calls,
// and a refused step names the primitive that refused. They apply to any proc, not only BLAS's.
//
//   #include <schedlib/schedlib.h>
//   Proc p = schedlib::with_precision(plain, "f32");               // R -> f32 everywhere
//   Cursor fast = schedlib::specialize_unit_stride(p, "for i in _: _", {"x", "y"}, &p);
//   p = schedlib::vectorize_interleaved(p, fast, schedlib::avx512("f32"), {.interleave = 4});
#pragma once

#include <exocpp/exocpp.h>

#include <string>
#include <vector>

namespace schedlib {

// The vector instructions of one precision on one register width, as the operations below use
// them: everything vectorize may pick for a strip, and the few each operation names itself.
struct VectorUnit {
  std::string type;                        // "f32" or "f64"
  int width = 0;                           // lanes per register
  std::string memory;                      // the registers' memory ("AVX512")
  std::vector<exocpp::Proc> instructions;  // for vectorize: loads, stores, arithmetic, broadcasts
  exocpp::Proc zero;                       // reg = 0 on every lane
  exocpp::Proc fold;                       // scalar += every lane of reg, in lane order
  // What argmax_lanes uses: |x| of a register (load, abs), the masked update of (best, index)
  // lanes, the lane-wise merge of two such pairs, the fold of one into a scalar pair, the
  // broadcasts of a scalar best and index, and the memory of a register of lane indices.
  struct Argmax {
    exocpp::Proc load, abs, update, merge, fold, broadcast_value, broadcast_index;
    std::string index_memory;
  } argmax;
};

// AVX-512 (hwlibs/x86) for "f32" (16 lanes) or "f64" (8 lanes).
const VectorUnit& avx512(const std::string& type);

// Every argument and allocation of precision R in `p` set to `type` (set_precision on each).
exocpp::Proc with_precision(exocpp::Proc p, const std::string& type);

// Specialize `block` on every window argument of `windows` having unit stride in its last
// dimension (adjacent elements along it):
//
//   B   -->   if stride(x, 0) == 1 and stride(A, 1) == 1: B  else: B
//
// so the first copy may be vectorized (the instructions' `stride(_, 0) == 1` asserts are proved
// from the condition) while the second keeps the plain code for any increment, 0 and negative
// ones included. Writes the new proc to *out and returns the first copy (the then-branch's
// block, or its only statement when `block` was one).
exocpp::Cursor specialize_unit_stride(const exocpp::Proc& p, const exocpp::CursorLike& block,
                                      const std::vector<std::string>& windows, exocpp::Proc* out);

struct InterleaveOptions {
  // Registers per step of the main loop: each step runs `interleave` independent strips (unrolled),
  // so their latencies overlap. 1: plain vectorize.
  int interleave = 1;
};

// vectorize with tails, interleaved:
//
//   for i in seq(0, n): s     -->   for io in seq(0, n / (w k)):     k strips of w lanes each,
//                                       [k instruction sequences]      unrolled
//                                   for ii in seq(0, n % (w k) / w):  one strip at a time
//                                   for i.. in seq(0, n % w): s       the scalar tail
//
// (w the unit's width, k the interleave). Built from divide_loop (cut tails), vectorize (each
// strip to instructions) and unroll_loop.
exocpp::Proc vectorize_interleaved(exocpp::Proc p, const exocpp::CursorLike& loop,
                                   const VectorUnit& unit, const InterleaveOptions& opts = {});

struct ReduceLanesOptions {
  // Registers of lanes per sum: independent add chains per step.
  int registers = 4;
};

// A parallel reduction: the loop's sums (`acc += e`, acc fixed across the loop; one or several)
// split into registers of lanes (rfactor: the lanes start at 0 and are folded into acc after
// the loop, sums regrouped as reals), each step computes e on `registers` registers of w lanes
// with the unit's instructions (vectorize of the lane loop: an instruction may take a whole
// lane body, branches included), the registers added into acc in lane order (the unit's fold),
// the last iterations scalar:
//
//   acc = .. ; for i in seq(0, n): acc += e(i)   -->
//   lanes : T[r, w] @ REG ; lanes = 0
//   for io in seq(0, n / (r w)): for v in seq(0, r): lanes[v, :] += e(r w io + w v + :)
//   for v in seq(0, r): acc += lanes[v, 0] + ... + lanes[v, w - 1] ; for i in ..: acc += e(i)
exocpp::Proc reduce_lanes(exocpp::Proc p, const exocpp::CursorLike& loop, const VectorUnit& unit,
                          const ReduceLanesOptions& opts = {});

// The expressions `es` (equal expressions in the lane loop over `lane`) become the register
// `name` of `width` lanes, filled by a lane loop of its own just before the loop that reads it
// (still in DRAM: plain code fills it until replace or set_memory):
//
//   for ll in seq(0, w): .. e(ll) ..   -->   name : T[w] ; for ll: name[ll] = e(ll)
//                                            for ll in seq(0, w): .. name[ll] ..
//
// Built from bind_expr, expand_dim, lift_alloc and fission.
exocpp::Proc to_register(exocpp::Proc p, const std::vector<exocpp::Cursor>& es,
                         const std::string& name, int width, const std::string& lane = "ll");

struct ArgmaxLanesOptions {
  // Registers of (best, index) lanes: independent compare-and-update chains per step.
  int registers = 2;
};

// An argmax loop `for i in seq(lo, hi): if abs(x[i]) > best: best = abs(x[i]); idx = i` in
// registers of lanes (rfactor_argmax: exact, ties and NaN included), each step one load, one
// abs and one masked update per register, the registers merged lane-wise into one and folded
// into (best, idx), the last iterations scalar.
exocpp::Proc argmax_lanes(exocpp::Proc p, const exocpp::CursorLike& loop, const VectorUnit& unit,
                          const ArgmaxLanesOptions& opts = {});

}  // namespace schedlib
