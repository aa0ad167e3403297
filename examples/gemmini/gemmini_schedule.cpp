// The Gemmini matmul schedule (see gemmini_schedule.h). The plan, weight-stationary on 16 x 16
// tiles:
//
//   config_matmul, config_ld_i8 (A), config_ld_i8_id1 (B), config_st_acc_i8  written once
//   for ib (64 rows of A):      a = A[64 rows, 0:K] in the scratchpad, 4-block loads
//     for jo (64 columns of B): b = B[0:K, 64 columns] in the scratchpad, 4-block loads
//       for it, jb (4 x 4 tiles of C):
//         res = 0 in the accumulator                       zero_acc_i32
//         for ko: res += a[it, ko] * b[ko, jb]             do_matmul_acc_i8
//         C tile = relu?(acc_scale(res, scale))            do_st_acc_i8
#include "gemmini_schedule.h"

#include "hwlibs/gemmini/gemmini.h"
#include "matmul_exo_text.h"

namespace gemmini_example {

using namespace exocpp;
namespace g = exocpp::gemmini;

const std::string& matmul_source() {
  static const std::string text = EXOCPP_GEMMINI_MATMUL_EXO_TEXT;
  return text;
}

Proc plain_matmul() {
  g::register_library();
  ParseOptions opts;
  opts.procs = g::library().procs;
  opts.configs = g::library().configs;
  return parse_module(matmul_source(), opts, "matmul.exo").proc("matmul");
}

Proc schedule_matmul() {
  Proc p = plain_matmul();
  // 1. Tiles: ib (64 rows) / it ii, jo (64 columns) / jb ji, ko ki; C's tile loops innermost.
  p = divide_loop(p, "i", 64, {"ib", "i2"}, {.perfect = true});
  p = divide_loop(p, "i2", 16, {"it", "ii"}, {.perfect = true});
  p = divide_loop(p, "j", 64, {"jo", "j2"}, {.perfect = true});
  p = divide_loop(p, "j2", 16, {"jb", "ji"}, {.perfect = true});
  p = divide_loop(p, "k", 16, {"ko", "ki"}, {.perfect = true});
  for (const char* pair : {"ii jo", "it jo", "ii jb"}) p = reorder_loops(p, pair);
  // 2. res becomes a 16 x 16 tile: zeroing, accumulation and store split into three nests.
  p = expand_dim(p, "res", "16", "ji");
  p = expand_dim(p, "res", "16", "ii");
  p = lift_alloc(p, "res", {.n_lifts = 2});
  p = fission(p, p.find("res[_] = 0").after(), {.n_lifts = 2});
  p = fission(p, p.find_loop("ko").after(), {.n_lifts = 2});
  p = reorder_loops(p, "ji ko");
  p = reorder_loops(p, "ii ko");
  // 3. A's row block and B's column panel staged as [tile, tile, 16, 16] arrays of tiles; the
  //    copies become one 4-block load per 16 rows.
  p = stage_mem(p, p.find_loop("jo"), "A[64 * ib:64 * ib + 64, 0:K]", "a");
  p = stage_mem(p, p.find_loop("it"), "B[0:K, 64 * jo:64 * jo + 64]", "b");
  for (const char* buf : {"a", "b"}) {
    p = divide_dim(p, buf, 0, 16);
    p = divide_dim(p, buf, 2, 16);
    p = rearrange_dim(p, buf, {0, 2, 1, 3});
  }
  p = simplify(p);
  p = divide_loop(p, "i0", 16, {"ar", "ai"}, {.perfect = true});
  p = divide_loop(p, "i1", 64, {"ac", "a64"}, {.perfect = true});
  p = divide_loop(p, "a64", 16, {"ab", "aj"}, {.perfect = true});
  p = reorder_loops(p, "ai ac");
  p = divide_loop(p, "i0_1", 16, {"br", "bi"}, {.perfect = true});
  p = divide_loop(p, "i1_1", 16, {"bb", "bj"}, {.perfect = true});
  p = simplify(p);
  // 4. Configuration, written once before the loops.
  Cursor top = p.body_cursor()[0].before();
  p = write_config(p, top, g::config("ConfigStore"), "wide", "False");
  p = write_config(p, p.forward(top), g::config("ConfigStore"), "act", "act");
  p = write_config(p, p.forward(top), g::config("ConfigStore"), "dst_stride", "stride(C, 0)");
  p = write_config(p, p.forward(top), g::config("ConfigStore"), "scale", "scale");
  p = write_config(p, p.forward(top), g::config("ConfigLoad_id1"), "src_stride", "stride(B, 0)");
  p = write_config(p, p.forward(top), g::config("ConfigLoad"), "src_stride", "stride(A, 0)");
  p = write_config(p, p.forward(top), g::config("ConfigExecute"), "ws", "True");
  // The store reads scale and act from ConfigStore (bind_config; the write it adds repeats the
  // one above, so it goes again).
  Cursor st = p.find_loop("ji #2").body()[0];  // the store nest
  p = bind_config(p, st.rhs().child(1), g::config("ConfigStore"), "scale");
  p = delete_config(p, p.forward(st).prev());
  Cursor relu = p.forward(st).next();
  p = bind_config(p, relu.cond().child(0), g::config("ConfigStore"), "act");
  p = delete_config(p, p.forward(relu).prev());
  // 5. Memories, then every nest becomes an instruction; then the config writes do too.
  p = set_memory(p, "a", g::GEMM_SCRATCH());
  p = set_memory(p, "b", g::GEMM_SCRATCH());
  p = set_memory(p, "res", g::GEMM_ACCUM());
  p = replace(p, "for ai in _: _", g::instr("do_ld_i8_block"));
  p = replace(p, "for bi in _: _", g::instr("do_ld_i8_block_id1"));
  p = replace(p, "for ii in _: _ #0", g::instr("zero_acc_i32"));
  p = replace(p, "for ii in _: _ #0", g::instr("do_matmul_acc_i8"));
  p = replace(p, "for ii in _: _ #0", g::instr("do_st_acc_i8"));
  p = replace(p, "ConfigExecute.ws = _", g::instr("config_matmul"));
  p = replace(p, "ConfigLoad.src_stride = _", g::instr("config_ld_i8"));
  p = replace(p, "ConfigLoad_id1.src_stride = _", g::instr("config_ld_i8_id1"));
  p = replace(p,
              "ConfigStore.scale = _ ; ConfigStore.dst_stride = _ ; ConfigStore.act = _ ; "
              "ConfigStore.wide = _",
              g::instr("config_st_acc_i8"));
  return p;
}

}  // namespace gemmini_example
