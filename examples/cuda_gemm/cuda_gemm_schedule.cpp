// The CUDA GEMM schedules (see cuda_gemm_schedule.h).
#include "cuda_gemm_schedule.h"

#include <stdexcept>

#include "gemm_exo_text.h"
#include "hwlibs/cuda/cuda.h"

namespace cuda_gemm_example {

using namespace exocpp;

namespace {

// for i, j  -->  for io, jo (16 x 16 tiles of C), ii, ji (the tile's elements)
Proc tile_c(Proc p) {
  p = divide_loop(p, "for i in _: _", 16, {"io", "ii"}, {.perfect = true});
  p = divide_loop(p, "for j in _: _", 16, {"jo", "ji"}, {.perfect = true});
  return reorder_loops(p, "ii jo");
}

// Every loop named `iter` (all occurrences) to `mode`.
Proc set_modes(Proc p, const std::string& iter, const std::string& mode) {
  const size_t n = p.find_all("for " + iter + " in _: _").size();
  for (size_t k = 0; k < n; ++k)
    p = set_loop_mode(p, "for " + iter + " in _: _ #" + std::to_string(k), mode);
  return p;
}

// for i, j (C's elements) --> for io, jo (32 x 32 tiles of C, a block each): for w (4 warps,
// 2 x 2 tiles of 16 x 16): for it, jt (the warp tile's elements).
Proc tile_block_of_warps(const Proc& plain) {
  Proc p = divide_loop(plain, "for i in _: _", 32, {"io", "i1"}, {.perfect = true});
  p = divide_loop(p, "for i1 in _: _", 16, {"iw", "it"}, {.perfect = true});
  p = divide_loop(p, "for j in _: _", 32, {"jo", "j1"}, {.perfect = true});
  p = divide_loop(p, "for j1 in _: _", 16, {"jw", "jt"}, {.perfect = true});
  p = reorder_loops(p, "it jo");
  p = reorder_loops(p, "iw jo");
  p = reorder_loops(p, "it jw");
  return mult_loops(p, "iw jw", "w");
}

// How a k step's tiles reach shared memory.
enum class Copies {
  Sync,       // plain copies, a barrier before and after the warps that read them
  Async,      // cp.async, a barrier that waits for them before the warps, one after
  Pipelined,  // cp.async into two buffers: step k + 1's copies fly while step k computes
};

// How many of a tile's rows the block's threads copy at once; 0: all of them (a thread per
// copy). With fewer, the rows are copied in passes of that many, so that the copies need no
// more threads than the warps.
struct CopyRows {
  int64_t a = 0, b = 0;
};

// The end of a schedule whose k loop (ko) stages A's and B's tiles in shared memory (As and
// Bs, copy loops i0_1, i1_1 and i0_2, i1_2, as stage_mem names them) before `warps`, the warp
// loop that reads them: the copies and barriers `copies` says, and the loop modes (the grid,
// the warps, a thread per copy, in passes of `rows`); asynchronous copies are `copy_instr`
// calls. Pipelined copies need the tiles declared outside the k loop, two of each
// (double_buffer_tiles).
Proc copy_tiles_and_launch(Proc p, const Cursor& warps, Copies copies,
                           const char* copy_instr = "cp_async_f16x8", CopyRows rows = {}) {
  const Proc& sync = cuda::instr("cuda_syncthreads");
  const Proc& wait = cuda::instr("cp_async_wait_syncthreads");
  std::vector<const char*> lanes = {"i0_1", "i1_1", "i0_2", "i1_2"};
  if (copies != Copies::Sync) {
    // Each thread copies 8 consecutive elements (16 bytes) with one cp.async.
    p = divide_loop(p, "for i1_1 in _: _", 8, {"c1", "e1"}, {.perfect = true});
    p = divide_loop(p, "for i1_2 in _: _", 8, {"c2", "e2"}, {.perfect = true});
    p = replace(p, "for e1 in _: _", cuda::instr(copy_instr));
    p = replace(p, "for e2 in _: _", cuda::instr(copy_instr));
    lanes = {"i0_1", "c1", "i0_2", "c2"};
  }
  if (rows.a > 0) {
    p = divide_loop(p, "for i0_1 in _: _", rows.a, {"pass1", "r1"}, {.perfect = true});
    lanes[0] = "r1";
  }
  if (rows.b > 0) {
    p = divide_loop(p, "for i0_2 in _: _", rows.b, {"pass2", "r2"}, {.perfect = true});
    lanes[2] = "r2";
  }
  if (copies == Copies::Pipelined) {
    // for ko: (copies(ko) ; wait ; warps(ko))  -->  copies(0) ;
    //   for ko: (wait ; warps(ko) ; if ko + 1 < K / 16: copies(ko + 1))
    // and step ko + 1's copies go before step ko's warps, which read the other buffer. The
    // wait at the top of each step is the barrier between a step's warps and the copies that
    // next overwrite their buffer.
    p = insert_noop_call(p, p.forward(warps).before(), wait, {});
    p = rotate_loop(p, "for ko in _: _", 2);
    p = reorder_stmts(p, p.forward(warps));
  } else {
    // The tiles are complete before any warp loads them, and loaded before the next step
    // overwrites them.
    p = insert_noop_call(p, p.forward(warps).before(), copies == Copies::Async ? wait : sync, {});
    p = insert_noop_call(p, p.forward(warps).after(), sync, {});
  }
  // The threads and warps first, then the grid from the inside out: the kernel's race rule is
  // proved when it exists, with every lane loop in place and no block-level loop over tiles
  // (whose next iteration's copies would race with this one's reads: no barrier between).
  for (const char* lane : lanes) p = set_modes(p, lane, "cuda_threads");
  p = set_modes(p, "w", "cuda_warps");
  p = set_loop_mode(p, "for jo in _: _", "cuda_blocks");
  return set_loop_mode(p, "for io in _: _", "cuda_blocks");
}

// Per step of k (ko), the block's 32 x 16 tile of A and 16 x 32 tile of B in shared memory
// (As, Bs), staged before `warps`, the warp loop that reads them.
Proc stage_block_tiles(Proc p, const Cursor& warps) {
  p = stage_mem(p, warps, "A[32 * io : 32 * io + 32, 16 * ko : 16 * ko + 16]", "As");
  return stage_mem(p, p.forward(warps), "B[16 * ko : 16 * ko + 16, 32 * jo : 32 * jo + 32]", "Bs");
}

// A tensor-core stage's fragment memories and instructions, and the memory of the shared tiles
// with the instruction that copies into it.
struct TensorCoreForm {
  const Memory &acc, &a, &b;  // of Cf, Af, Bf
  const char *mma, *load_a, *load_b, *load_acc, *store_acc;
  const Memory& tiles = cuda::CUDA_SHARED();  // of As, Bs
  const char* copy = "cp_async_f16x8";
};

// The staged fragments (Cf, Af, Bf) and tiles (As, Bs) to their memories, and the product
// (`for it`) and the copy nests (as stage_mem named them; A's and B's fragments' copies are
// `a_copy` and `b_copy`) to `form`'s instructions.
Proc to_tensor_core_calls(Proc p, const TensorCoreForm& form,
                          const char* a_copy = "for i0_3 in _: _",
                          const char* b_copy = "for i0_4 in _: _") {
  p = set_memory(p, "Cf", form.acc);
  p = set_memory(p, "Af", form.a);
  p = set_memory(p, "Bf", form.b);
  for (const char* shared : {"As", "Bs"}) p = set_memory(p, shared, form.tiles);
  p = replace(p, "for it in _: _", cuda::instr(form.mma));
  p = replace(p, a_copy, cuda::instr(form.load_a));
  p = replace(p, b_copy, cuda::instr(form.load_b));
  p = replace(p, "for i0 in _: _ #0", cuda::instr(form.load_acc));
  return replace(p, "for i0 in _: _", cuda::instr(form.store_acc));
}

// As and Bs, staged in the k loop (ko), as two buffers each declared outside it: step ko's in
// buffer ko % 2. (Done while the copies are still plain loops, whose writes lift_alloc's check
// sees cover what the step reads.)
Proc double_buffer_tiles(Proc p) {
  for (const char* tile : {"As", "Bs"}) {
    p = expand_dim(p, tile, "2", "ko % 2");
    p = lift_alloc(p, tile);
  }
  return p;
}

}  // namespace

const std::string& gemm_source() {
  static const std::string text = EXOCPP_CUDA_GEMM_EXO_TEXT;
  return text;
}

Proc plain_gemm() {
  cuda::register_memories();
  return parse_module(gemm_source(), {}, "gemm.exo").proc("gemm");
}

Proc schedule_naive(const Proc& plain) {
  Proc p = tile_c(plain);
  // Each thread's dot product in a register: acc = 0; acc += a * b; C[i, j] += acc.
  p = stage_mem(p, "for k in _: _", "C[16 * io + ii, 16 * jo + ji]", "acc", {.accum = true});
  for (const char* reg : {"acc", "a", "b"}) p = set_memory(p, reg, cuda::CUDA_REG());
  p = set_loop_mode(p, "for io in _: _", "cuda_blocks");
  p = set_loop_mode(p, "for jo in _: _", "cuda_blocks");
  p = set_loop_mode(p, "for ii in _: _", "cuda_threads");
  return set_loop_mode(p, "for ji in _: _", "cuda_threads");
}

// Needs M % 128 == 0, N % 128 == 0 and K % 16 == 0 (gemm.exo asserts more).
Proc schedule_smem_tiled(const Proc& plain) {
  // for io, jo (128 x 128 tiles of C, a block each): for ty, tx (16 x 16 threads): for ir, jr
  // (each thread's 8 x 8 tile of C): for k
  Proc p = divide_loop(plain, "for i in _: _", 128, {"io", "i1"}, {.perfect = true});
  p = divide_loop(p, "for i1 in _: _", 8, {"ty", "ir"}, {.perfect = true});
  p = divide_loop(p, "for j in _: _", 128, {"jo", "j1"}, {.perfect = true});
  p = divide_loop(p, "for j1 in _: _", 8, {"tx", "jr"}, {.perfect = true});
  for (const char* loops : {"ir jo", "ty jo", "ir tx"}) p = reorder_loops(p, loops);
  // The block's tile of C in registers, distributed over its threads: acc[ty, tx, ir, jr].
  p = stage_mem(p, "for ty in _: _", "C[128 * io : 128 * io + 128, 128 * jo : 128 * jo + 128]",
                "acc", {.accum = true});
  p = divide_dim(p, "acc", 0, 8);
  p = divide_dim(p, "acc", 2, 8);
  p = rearrange_dim(p, "acc", {0, 2, 1, 3});
  // Its zeroing and its sum into C, a thread per 8 x 8 tile too.
  for (const char* copy : {"z", "s"}) {
    const std::string y = std::string("y") + copy, x = std::string("x") + copy,
                      r = std::string("r") + copy;
    p = divide_loop(p, "for i0 in _: _", 8, {y, r}, {.perfect = true});
    p = divide_loop(p, "for i1 in _: _", 8, {x, std::string("c") + copy}, {.perfect = true});
    p = reorder_loops(p, r + " " + x);
  }
  // k in steps of 16 (ko) outside the threads, each step's k (ki) outside the thread's tile.
  p = divide_loop(p, "for k in _: _", 16, {"ko", "ki"}, {.perfect = true});
  for (const char* loops : {"jr ko", "ir ko", "tx ko", "ty ko", "jr ki", "ir ki"})
    p = reorder_loops(p, loops);
  // Each step's 128 x 16 tile of A (transposed, so that a thread's 8 rows lie side by side)
  // and 16 x 128 tile of B in shared memory.
  Cursor compute = p.find_loop("ko").body()[0];
  p = stage_mem(p, compute, "A[128 * io : 128 * io + 128, 16 * ko : 16 * ko + 16]", "As");
  p = rearrange_dim(p, "As", {1, 0});
  p = stage_mem(p, p.forward(compute), "B[16 * ko : 16 * ko + 16, 128 * jo : 128 * jo + 128]",
                "Bs");
  for (const char* shared : {"As", "Bs"}) p = set_memory(p, shared, cuda::CUDA_SHARED());
  for (const char* reg : {"acc", "a", "b"}) p = set_memory(p, reg, cuda::CUDA_REG());
  // The tiles are complete before any thread reads them, and read before the next step
  // overwrites them.
  const Proc& sync = cuda::instr("cuda_syncthreads");
  p = insert_noop_call(p, p.forward(compute).before(), sync, {});
  p = insert_noop_call(p, p.forward(compute).after(), sync, {});
  // 256 threads copy each tile, 8 elements each: two threads a row of A's tile, sixteen a row
  // of B's.
  p = divide_loop(p, "for i1 in _: _", 8, {"c1", "e1"}, {.perfect = true});
  p = divide_loop(p, "for i1_1 in _: _", 8, {"c2", "e2"}, {.perfect = true});
  p = simplify(p);
  for (const char* lane : {"yz", "xz", "ty", "tx", "ys", "xs", "i0", "c1", "i0_1", "c2"})
    p = set_modes(p, lane, "cuda_threads");
  p = set_loop_mode(p, "for jo in _: _", "cuda_blocks");
  return set_loop_mode(p, "for io in _: _", "cuda_blocks");
}

Proc schedule_wmma(const Proc& plain) {
  // for io, jo (16 x 16 tiles of C, a block each): for w (the block's one warp): it, ji, k
  Proc p = tile_c(plain);
  p = divide_loop(p, "for ii in _: _", 16, {"w", "it"}, {.perfect = true});
  // The warp's tile of C in an accumulator fragment, loaded before and stored after.
  const std::string rows = "16 * io + 16 * w", cols = "16 * jo";
  p = stage_mem(p, "for it in _: _",
                "C[" + rows + " : " + rows + " + 16, " + cols + " : " + cols + " + 16]", "Cf");
  // k in steps of 16, outside the tile's elements; each step's A and B tiles in fragments.
  p = divide_loop(p, "for k in _: _", 16, {"ko", "ki"}, {.perfect = true});
  p = reorder_loops(p, "ji ko");
  p = reorder_loops(p, "it ko");
  Cursor compute = p.find_loop("it");
  p = stage_mem(p, compute, "A[" + rows + " : " + rows + " + 16, 16 * ko : 16 * ko + 16]", "Af");
  p = stage_mem(p, p.forward(compute),
                "B[16 * ko : 16 * ko + 16, " + cols + " : " + cols + " + 16]", "Bf");
  p = set_memory(p, "Cf", cuda::WMMA_ACC());
  p = set_memory(p, "Af", cuda::WMMA_A());
  p = set_memory(p, "Bf", cuda::WMMA_B());
  // Every copy and the product become tensor-core instructions.
  p = replace(p, p.forward(compute), cuda::instr("wmma_mma"));
  p = replace(p, "for i0 in _: _ #0", cuda::instr("wmma_load_acc"));
  p = replace(p, "for i0_1 in _: _", cuda::instr("wmma_load_a"));
  p = replace(p, "for i0_2 in _: _", cuda::instr("wmma_load_b"));
  p = replace(p, "for i0 in _: _", cuda::instr("wmma_store_acc"));
  p = set_loop_mode(p, "for io in _: _", "cuda_blocks");
  p = set_loop_mode(p, "for jo in _: _", "cuda_blocks");
  return set_loop_mode(p, "for w in _: _", "cuda_warps");
}

// Needs M % 32 == 0 and N % 32 == 0 (gemm.exo asserts them).
Proc schedule_wmma_smem(const Proc& plain, bool async_copies) {
  Proc p = tile_block_of_warps(plain);
  // Each warp's tile of C in an accumulator fragment; the fragments of the block's warps live at
  // block level (one per warp), so that the k loop can stand outside the warps.
  const std::string rows = "32 * io + 16 * (w / 2)", cols = "32 * jo + 16 * (w % 2)";
  p = stage_mem(p, "for it in _: _",
                "C[" + rows + " : " + rows + " + 16, " + cols + " : " + cols + " + 16]", "Cf");
  p = expand_dim(p, "Cf", "4", "w");
  p = lift_alloc(p, "Cf");
  p = divide_loop(p, "for k in _: _", 16, {"ko", "ki"}, {.perfect = true});
  p = reorder_loops(p, "jt ko");
  p = reorder_loops(p, "it ko");
  // for w: (load Cf ; for ko: ... ; store)  -->  three warp loops, the middle one inside ko.
  Cursor ko = p.find_loop("ko");
  p = fission(p, p.forward(ko).before());
  p = fission(p, p.forward(ko).after());
  p = reorder_loops(p, "w ko");
  Cursor warps = p.find_loop("ko").body()[0];
  p = stage_block_tiles(p, warps);
  // Each warp's 16 x 16 tiles of them in fragments, loaded from shared memory.
  Cursor compute = p.forward(warps).body()[0];
  p = stage_mem(p, compute, "As[16 * (w / 2) : 16 * (w / 2) + 16, 0:16]", "Af");
  p = stage_mem(p, p.forward(compute), "Bs[0:16, 16 * (w % 2) : 16 * (w % 2) + 16]", "Bf");
  p = to_tensor_core_calls(
      p, {cuda::WMMA_ACC(), cuda::WMMA_A(), cuda::WMMA_B(), "wmma_mma", "wmma_load_a_shared",
          "wmma_load_b_shared", "wmma_load_acc", "wmma_store_acc"});
  return copy_tiles_and_launch(p, warps, async_copies ? Copies::Async : Copies::Sync);
}

// Needs M % 32 == 0 and N % 32 == 0 (gemm.exo asserts them).
Proc schedule_mma(const Proc& plain, bool pipelined) {
  Proc p = tile_block_of_warps(plain);
  // Each warp's 16 x 16 tile of C as two 16 x 8 accumulators: for w: for nf: for it, jf.
  p = divide_loop(p, "for jt in _: _", 8, {"nf", "jf"}, {.perfect = true});
  p = reorder_loops(p, "it nf");
  const std::string rows = "32 * io + 16 * (w / 2)", cols = "32 * jo + 16 * (w % 2) + 8 * nf";
  p = stage_mem(p, "for it in _: _",
                "C[" + rows + " : " + rows + " + 16, " + cols + " : " + cols + " + 8]", "Cf");
  p = expand_dim(p, "Cf", "2", "nf");
  p = lift_alloc(p, "Cf");
  p = expand_dim(p, "Cf", "4", "w");
  p = lift_alloc(p, "Cf");
  // k in steps of 16, outside the warps: for ko: for w: for nf: for it, jf: for ki.
  p = divide_loop(p, "for k in _: _", 16, {"ko", "ki"}, {.perfect = true});
  p = reorder_loops(p, "jf ko");
  p = reorder_loops(p, "it ko");
  Cursor ko = p.find_loop("ko");
  p = fission(p, p.forward(ko).before(), {.n_lifts = 2});
  p = fission(p, p.forward(ko).after(), {.n_lifts = 2});
  p = reorder_loops(p, "nf ko");
  p = reorder_loops(p, "w ko");
  Cursor warps = p.find_loop("ko").body()[0];
  p = stage_block_tiles(p, warps);
  // Each warp's A fragment once per step, and its two B fragments in turn.
  Cursor frags = p.forward(warps).body()[0];
  p = stage_mem(p, frags, "As[16 * (w / 2) : 16 * (w / 2) + 16, 0:16]", "Af");
  Cursor compute = p.forward(frags).body()[0];
  p = stage_mem(p, compute, "Bs[0:16, 16 * (w % 2) + 8 * nf : 16 * (w % 2) + 8 * nf + 8]", "Bf");
  if (pipelined) p = double_buffer_tiles(p);
  p = to_tensor_core_calls(
      p, {cuda::MMA_ACC(), cuda::MMA_A(), cuda::MMA_B(), "mma_m16n8k16", "mma_ldmatrix_a",
          "mma_ldmatrix_b", "mma_load_acc", "mma_store_acc"});
  return copy_tiles_and_launch(p, warps, pipelined ? Copies::Pipelined : Copies::Async);
}

namespace {

// The large-tile schedule of schedule_wmma_large and schedule_mma_large, for tensor-core
// instructions `form` whose accumulator is 16 x `frag_n` (B's fragment 16 x `frag_n`).
Proc schedule_large(const Proc& plain, const TensorCoreForm& form, int64_t frag_n) {
  const std::string n = std::to_string(frag_n), nfs = std::to_string(32 / frag_n);
  // for io, jo (128 x 128 tiles of C, a block each): for w (8 warps, 2 x 4 tiles of 64 x 32):
  // for mf, nf (the warp tile as 4 x 32 / frag_n accumulators of 16 x frag_n): for it, jf: k
  Proc p = divide_loop(plain, "for i in _: _", 128, {"io", "i1"}, {.perfect = true});
  p = divide_loop(p, "for i1 in _: _", 64, {"iw", "i2"}, {.perfect = true});
  p = divide_loop(p, "for i2 in _: _", 16, {"mf", "it"}, {.perfect = true});
  p = divide_loop(p, "for j in _: _", 128, {"jo", "j1"}, {.perfect = true});
  p = divide_loop(p, "for j1 in _: _", 32, {"jw", "j2"}, {.perfect = true});
  p = divide_loop(p, "for j2 in _: _", frag_n, {"nf", "jf"}, {.perfect = true});
  for (const char* loops : {"it jo", "mf jo", "iw jo", "it jw", "mf jw", "it nf"})
    p = reorder_loops(p, loops);
  p = mult_loops(p, "iw jw", "w");
  // The warps' accumulators at block level: Cf[w, mf, nf] is a 16 x 8 tile of C.
  const std::string rows = "128 * io + 64 * (w / 4) + 16 * mf",
                    cols = "128 * jo + 32 * (w % 4) + " + n + " * nf";
  p = stage_mem(p, "for it in _: _",
                "C[" + rows + " : " + rows + " + 16, " + cols + " : " + cols + " + " + n + "]",
                "Cf");
  for (const auto& [size, iter] : {std::pair{nfs.c_str(), "nf"}, {"4", "mf"}, {"8", "w"}}) {
    p = expand_dim(p, "Cf", size, iter);
    p = lift_alloc(p, "Cf");
  }
  // k in steps of 32 (ko) outside the warps, each step in two halves of 16 (kk) outside the
  // accumulators: for ko: for w: for kk: for mf: for nf: for it, jf: for ki.
  p = divide_loop(p, "for k in _: _", 32, {"ko", "k1"}, {.perfect = true});
  p = divide_loop(p, "for k1 in _: _", 16, {"kk", "ki"}, {.perfect = true});
  p = reorder_loops(p, "jf ko");
  p = reorder_loops(p, "it ko");
  Cursor ko = p.find_loop("ko");
  p = fission(p, p.forward(ko).before(), {.n_lifts = 3});
  p = fission(p, p.forward(ko).after(), {.n_lifts = 3});
  for (const char* loops : {"nf ko", "mf ko", "w ko", "jf kk", "it kk", "nf kk", "mf kk"})
    p = reorder_loops(p, loops);
  Cursor warps = p.find_loop("ko").body()[0];
  p = stage_mem(p, warps, "A[128 * io : 128 * io + 128, 32 * ko : 32 * ko + 32]", "As");
  p = stage_mem(p, p.forward(warps), "B[32 * ko : 32 * ko + 32, 128 * jo : 128 * jo + 128]", "Bs");
  // Per half step, a warp's B fragments (Bf[nf], 16 x frag_n each) once, then for each mf its
  // A fragment and its products.
  Cursor kk = p.forward(warps).body()[0];
  Cursor mf = p.forward(kk).body()[0];
  p = stage_mem(p, mf, "Bs[16 * kk : 16 * kk + 16, 32 * (w % 4) : 32 * (w % 4) + 32]", "Bf");
  p = divide_dim(p, "Bf", 1, frag_n);
  p = rearrange_dim(p, "Bf", {1, 0, 2});
  p = divide_loop(p, "for i1_3 in _: _", frag_n, {"nb", "jb"}, {.perfect = true});
  p = reorder_loops(p, "i0_3 nb");
  Cursor nf = p.forward(mf).body()[0];
  p = stage_mem(p, nf,
                "As[64 * (w / 4) + 16 * mf : 64 * (w / 4) + 16 * mf + 16, 16 * kk : 16 * kk + 16]",
                "Af");
  p = simplify(p);
  if (&form.tiles != &cuda::CUDA_SHARED_SWIZZLED()) {
    // Rows of 40 and 136 elements rather than 32 and 128: the 8 rows of 16 bytes that a
    // fragment load reads at once then fall in different banks, and every row still starts
    // 16-byte aligned for cp.async. (A swizzled layout gets there without the padding.)
    p = resize_dim(p, "As", 1, "40", "0");
    p = resize_dim(p, "Bs", 1, "136", "0");
  }
  p = double_buffer_tiles(p);
  p = to_tensor_core_calls(p, form, "for i0_4 in _: _", "for i0_3 in _: _");
  // 256 threads copy A's 128 x 32 tile in two passes of 64 rows (4 copies of 8 elements a row)
  // and B's 32 x 128 tile in two passes of 16 rows (16 copies a row).
  return copy_tiles_and_launch(p, warps, Copies::Pipelined, form.copy, {64, 16});
}

}  // namespace

Proc schedule_wmma_large(const Proc& plain) {
  return schedule_large(
      plain,
      {cuda::WMMA_ACC(), cuda::WMMA_A(), cuda::WMMA_B(), "wmma_mma", "wmma_load_a_shared",
       "wmma_load_b_shared", "wmma_load_acc", "wmma_store_acc"},
      16);
}

Proc schedule_mma_large(const Proc& plain) {
  return schedule_large(plain,
                        {cuda::MMA_ACC(), cuda::MMA_A(), cuda::MMA_B(), "mma_m16n8k16",
                         "mma_ldmatrix_a_swizzled", "mma_ldmatrix_b_swizzled", "mma_load_acc",
                         "mma_store_acc", cuda::CUDA_SHARED_SWIZZLED(), "cp_async_f16x8_swizzled"},
                        8);
}

namespace {

struct Stage {
  const char* name;  // gemm_<name>
  Proc (*schedule)(const Proc& plain);
};
const Stage kStages[] = {
    {"naive", [](const Proc& p) { return schedule_naive(p); }},
    {"smem_tiled", [](const Proc& p) { return schedule_smem_tiled(p); }},
    {"wmma", [](const Proc& p) { return schedule_wmma(p); }},
    {"wmma_smem", [](const Proc& p) { return schedule_wmma_smem(p); }},
    {"wmma_async", [](const Proc& p) { return schedule_wmma_smem(p, true); }},
    {"mma", [](const Proc& p) { return schedule_mma(p); }},
    {"mma_pipelined", [](const Proc& p) { return schedule_mma(p, true); }},
    {"wmma_large", [](const Proc& p) { return schedule_wmma_large(p); }},
    {"mma_large", [](const Proc& p) { return schedule_mma_large(p); }},
};

}  // namespace

std::vector<std::string> stage_names() {
  std::vector<std::string> names;
  for (const Stage& s : kStages) names.push_back(std::string("gemm_") + s.name);
  return names;
}

Proc stage(const std::string& name) {
  for (const Stage& s : kStages)
    if (name == std::string("gemm_") + s.name) return rename(s.schedule(plain_gemm()), name);
  throw std::invalid_argument("cuda_gemm: no stage named '" + name + "'");
}

std::vector<Proc> all_stages() {
  const Proc plain = plain_gemm();
  std::vector<Proc> stages;
  for (const Stage& s : kStages)
    stages.push_back(rename(s.schedule(plain), std::string("gemm_") + s.name));
  return stages;
}

}  // namespace cuda_gemm_example
