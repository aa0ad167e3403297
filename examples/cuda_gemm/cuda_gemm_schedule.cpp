// The CUDA GEMM schedules (see cuda_gemm_schedule.h).
#include "cuda_gemm_schedule.h"

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

// The end of a schedule whose k loop (ko) stages A's and B's tiles in shared memory (As and
// Bs, copy loops i0_1, i1_1 and i0_2, i1_2, as stage_mem names them) before `warps`, the warp
// loop that reads them: the copies and barriers `copies` says, and the loop modes (the grid,
// the warps, a thread per copy). Pipelined copies need the tiles declared outside the k loop,
// two of each (double_buffer_tiles).
Proc copy_tiles_and_launch(Proc p, const Cursor& warps, Copies copies) {
  const Proc& sync = cuda::instr("cuda_syncthreads");
  const Proc& wait = cuda::instr("cp_async_wait_syncthreads");
  std::vector<const char*> lanes = {"i0_1", "i1_1", "i0_2", "i1_2"};
  if (copies != Copies::Sync) {
    // Each thread copies 8 consecutive elements (16 bytes) with one cp.async.
    p = divide_loop(p, "for i1_1 in _: _", 8, {"c1", "e1"}, {.perfect = true});
    p = divide_loop(p, "for i1_2 in _: _", 8, {"c2", "e2"}, {.perfect = true});
    p = replace(p, "for e1 in _: _", cuda::instr("cp_async_f16x8"));
    p = replace(p, "for e2 in _: _", cuda::instr("cp_async_f16x8"));
    lanes = {"i0_1", "c1", "i0_2", "c2"};
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

// A tensor-core stage's fragment memories and instructions.
struct TensorCoreForm {
  const Memory &acc, &a, &b;  // of Cf, Af, Bf
  const char *mma, *load_a, *load_b, *load_acc, *store_acc;
};

// The staged fragments (Cf, Af, Bf) and tiles (As, Bs) to their memories, and the product
// (`for it`) and the copy nests (as stage_mem named them) to `form`'s instructions.
Proc to_tensor_core_calls(Proc p, const TensorCoreForm& form) {
  p = set_memory(p, "Cf", form.acc);
  p = set_memory(p, "Af", form.a);
  p = set_memory(p, "Bf", form.b);
  for (const char* shared : {"As", "Bs"}) p = set_memory(p, shared, cuda::CUDA_SHARED());
  p = replace(p, "for it in _: _", cuda::instr(form.mma));
  p = replace(p, "for i0_3 in _: _", cuda::instr(form.load_a));
  p = replace(p, "for i0_4 in _: _", cuda::instr(form.load_b));
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

Proc schedule_smem_tiled(const Proc& plain) {
  Proc p = tile_c(plain);
  // The block's 16 x 16 tile of C accumulates in registers, one element per thread.
  p = stage_mem(p, "for ii in _: _", "C[16 * io : 16 * io + 16, 16 * jo : 16 * jo + 16]", "acc",
                {.accum = true});
  // k in steps of 16, outside the tile's elements: for ko: for ii, ji: for ki.
  p = divide_loop(p, "for k in _: _", 16, {"ko", "ki"}, {.perfect = true});
  p = reorder_loops(p, "ji ko");
  p = reorder_loops(p, "ii ko");
  // Each step's 16 x 16 tiles of A and B in shared memory.
  Cursor compute = p.find_loop("ii");
  p = stage_mem(p, compute, "A[16 * io : 16 * io + 16, 16 * ko : 16 * ko + 16]", "As");
  p = stage_mem(p, p.forward(compute), "B[16 * ko : 16 * ko + 16, 16 * jo : 16 * jo + 16]", "Bs");
  for (const char* shared : {"As", "Bs"}) p = set_memory(p, shared, cuda::CUDA_SHARED());
  for (const char* reg : {"acc", "a", "b"}) p = set_memory(p, reg, cuda::CUDA_REG());
  // The tiles are complete before any thread reads them, and read before the next step
  // overwrites them.
  const Proc& sync = cuda::instr("cuda_syncthreads");
  p = insert_noop_call(p, p.forward(compute).before(), sync, {});
  p = insert_noop_call(p, p.forward(compute).after(), sync, {});
  // The grid, and one thread per element of each 16 x 16 loop nest.
  p = set_loop_mode(p, "for io in _: _", "cuda_blocks");
  p = set_loop_mode(p, "for jo in _: _", "cuda_blocks");
  // stage_mem names its copy loops i0, i1 (then i0_1, i1_1, ... apart from those in scope).
  for (const char* lane : {"ii", "ji", "i0", "i1", "i0_1", "i1_1", "i0_2", "i1_2"})
    p = set_modes(p, lane, "cuda_threads");
  return p;
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

std::vector<Proc> all_stages() {
  Proc plain = plain_gemm();
  return {rename(schedule_naive(plain), "gemm_naive"),
          rename(schedule_smem_tiled(plain), "gemm_smem_tiled"),
          rename(schedule_wmma(plain), "gemm_wmma"),
          rename(schedule_wmma_smem(plain), "gemm_wmma_smem"),
          rename(schedule_wmma_smem(plain, true), "gemm_wmma_async"),
          rename(schedule_mma(plain), "gemm_mma"),
          rename(schedule_mma(plain, true), "gemm_mma_pipelined")};
}

}  // namespace cuda_gemm_example
