// The Gemmini matmul schedule (see gemmini_schedule.h). The plan, weight-stationary on 16 x 16
// tiles:
//
//   config_matmul, config_ld_i8 (A), config_ld_i8_id1 (B), config_st_acc_i8  written once
//   for ib (block_rows of A):   a = A[block_rows rows, 0:K] in the scratchpad, 4-block loads
//     for jo (64 columns of B): b = B[0:K, 64 columns] in the scratchpad, 4-block loads
//       for it, jb (4 x 4 tiles of C):
//         res = 0 in the accumulator                       zero_acc_i32
//         for ko: res += a[it, ko] * b[ko, jb]             do_matmul_acc_i8
//         C tile = relu?(acc_scale(res, scale))            do_st_acc_i8
#include "gemmini_schedule.h"

#include "conv_exo_text.h"
#include "hwlibs/gemmini/gemmini.h"
#include "matmul_exo_text.h"

namespace gemmini_example {

using namespace exocpp;
namespace g = exocpp::gemmini;

namespace {

// Writes the whole configuration once, before the first statement: the two load slots' source
// strides, the store's scale, stride and activation, the dataflow. Written as plain config
// writes first, so replace can prove the do-instructions' asserts against them; they become
// config instructions at the end (replace_config_writes).
Proc write_configs(Proc p, const std::string& a_stride, const std::string& b_stride,
                   const std::string& out_stride) {
  Cursor top = p.body_cursor()[0].before();
  const std::pair<const char*, const char*> store[] = {
      {"wide", "False"}, {"act", "act"}, {"dst_stride", nullptr}, {"scale", "scale"}};
  for (const auto& [field, value] : store)
    p = write_config(p, p.forward(top), g::config("ConfigStore"), field,
                     value ? value : out_stride);
  p = write_config(p, p.forward(top), g::config("ConfigLoad_id1"), "src_stride", b_stride);
  p = write_config(p, p.forward(top), g::config("ConfigLoad"), "src_stride", a_stride);
  return write_config(p, p.forward(top), g::config("ConfigExecute"), "ws", "True");
}

// The store `x = acc_scale(res, scale)` (then `if act == True: x = relu(x)`) reads the scale and
// the activation from ConfigStore instead: bind_config, then delete the write it adds, which
// repeats the one before the loops.
Proc bind_store_config(Proc p, const Cursor& store) {
  p = bind_config(p, store.rhs().child(1), g::config("ConfigStore"), "scale");
  p = delete_config(p, p.forward(store).prev());
  Cursor relu = p.forward(store).next();
  p = bind_config(p, relu.cond().child(0), g::config("ConfigStore"), "act");
  return delete_config(p, p.forward(relu).prev());
}

Proc replace_config_writes(Proc p) {
  p = replace(p, "ConfigExecute.ws = _", g::instr("config_matmul"));
  p = replace(p, "ConfigLoad.src_stride = _", g::instr("config_ld_i8"));
  p = replace(p, "ConfigLoad_id1.src_stride = _", g::instr("config_ld_i8_id1"));
  return replace(p,
                 "ConfigStore.scale = _ ; ConfigStore.dst_stride = _ ; ConfigStore.act = _ ; "
                 "ConfigStore.wide = _",
                 g::instr("config_st_acc_i8"));
}

Proc parse_example(const std::string& text, const std::string& file, const std::string& proc) {
  g::register_library();
  ParseOptions opts;
  opts.procs = g::library().procs;
  opts.configs = g::library().configs;
  return parse_module(text, opts, file).proc(proc);
}

}  // namespace

const std::string& matmul_source() {
  static const std::string text = EXOCPP_GEMMINI_MATMUL_EXO_TEXT;
  return text;
}

Proc plain_matmul() { return parse_example(matmul_source(), "matmul.exo", "matmul"); }

Proc schedule_matmul(const Proc& plain, int block_rows) {
  Proc p = plain;
  const std::string bn = std::to_string(block_rows);
  // 1. Tiles: ib (block_rows) / it ii, jo (64 columns) / jb ji, ko ki; C's tile loops innermost.
  p = divide_loop(p, "i", block_rows, {"ib", "i2"}, {.perfect = true});
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
  p = stage_mem(p, p.find_loop("jo"), "A[" + bn + " * ib:" + bn + " * ib + " + bn + ", :]", "a");
  p = stage_mem(p, p.find_loop("it"), "B[:, 64 * jo:64 * jo + 64]", "b");
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
  // 4. Configuration, written once before the loops; the store reads it.
  p = write_configs(p, "stride(A, 0)", "stride(B, 0)", "stride(C, 0)");
  p = bind_store_config(p, p.find_loop("ji #2").body()[0]);
  // 5. Memories, then every nest becomes an instruction; then the config writes do too.
  p = set_memory(p, "a", g::GEMM_SCRATCH());
  p = set_memory(p, "b", g::GEMM_SCRATCH());
  p = set_memory(p, "res", g::GEMM_ACCUM());
  p = replace(p, "for ai in _: _", g::instr("do_ld_i8_block"));
  p = replace(p, "for bi in _: _", g::instr("do_ld_i8_block_id1"));
  p = replace(p, "for ii in _: _ #0", g::instr("zero_acc_i32"));
  p = replace(p, "for ii in _: _ #0", g::instr("do_matmul_acc_i8"));
  p = replace(p, "for ii in _: _ #0", g::instr("do_st_acc_i8"));
  return replace_config_writes(p);
}

Proc schedule_matmul() { return schedule_matmul(plain_matmul()); }

// ---- the convolution ---------------------------------------------------------------------------
//
// An implicit GEMM: for each output row r of image b, the output columns are cut into 16-column
// tiles (and a tail of OW % 16, under `if OW % 16 > 0`); one tile is an N = 16 (or OW % 16) by
// M = CO matmul whose K runs over the 3 x 3 window and the input channels:
//
//   wt = every weight, as [3, 3, CI/16, CO/16] tiles, loaded once           do_ld_i8_id1
//   for b, r, ct:
//     res[CO/16] = 0 in the accumulator                                       zero_acc_i32
//     for kr, kc, cit:
//       a = inp[b, r + kr, 16 ct + kc : +16, 16 cit : +16]                    do_ld_i8
//       for cot: res[cot] += a * wt[kr, kc, cit, cot]                         do_matmul_acc_i8
//     for cot: out[b, r, 16 ct : +16, 16 cot : +16] = relu?(acc_scale(res))   do_st_acc_i8

const std::string& conv_source() {
  static const std::string text = EXOCPP_GEMMINI_CONV_EXO_TEXT;
  return text;
}

Proc plain_conv() { return parse_example(conv_source(), "conv.exo", "conv"); }

namespace {

// One part of the output columns (`for cc in seq(0, n)`, its first column `base`) scheduled onto
// the accelerator; `sfx` keeps the part's new names apart from the other part's.
Proc schedule_conv_part(Proc p, const Cursor& cc, const std::string& n, const std::string& base,
                        const std::string& sfx) {
  // The CO/16 accumulator tiles of the part, zeroed, accumulated over (kr, kc, cit), stored.
  p = divide_loop(p, cc.body()[0], 16, {"cot" + sfx, "coi" + sfx}, {.perfect = true});
  p = reorder_loops(p, p.forward(cc));
  Cursor cot = p.forward(cc).parent();
  Cursor res = cot.body()[0].body()[0].body()[0];
  p = expand_dim(p, res, "16", "coi" + sfx);
  p = expand_dim(p, p.forward(res), n, "cc");
  p = expand_dim(p, p.forward(res), "CO / 16", "cot" + sfx);
  p = lift_alloc(p, p.forward(res), {.n_lifts = 3});
  Cursor zero = p.forward(cot).body()[0].body()[0].body()[0];
  p = fission(p, zero.after(), {.n_lifts = 3});
  Cursor kr = p.forward(zero).parent().parent().parent().next().body()[0].body()[0].body()[0];
  p = fission(p, kr.after(), {.n_lifts = 3});
  p = divide_loop(p, p.forward(kr).body()[0].body()[0], 16, {"cit" + sfx, "cii" + sfx},
                  {.perfect = true});
  for (const std::string& outer : {std::string("kr"), std::string("kc"), "cit" + sfx})
    for (const std::string& inner : {"coi" + sfx, std::string("cc"), "cot" + sfx})
      p = reorder_loops(p, inner + " " + outer);
  // The A tile of each (kr, kc, cit): 16 (or n) output columns' input pixels, 16 channels.
  Cursor cit = p.forward(kr).body()[0].body()[0];
  p = stage_mem(p, cit.body()[0],
                "inp[b, r + kr, " + base + " + kc:" + base + " + kc + " + n + ", 16 * cit" + sfx +
                    ":16 * cit" + sfx + " + 16]",
                "a" + sfx);
  p = simplify(p);
  Cursor store_nest = p.forward(kr).next();
  p = bind_store_config(p, store_nest.body()[0].body()[0].body()[0]);
  cit = p.forward(cit);
  p = set_memory(p, cit.body()[0], g::GEMM_SCRATCH());
  p = set_memory(p, p.forward(res), g::GEMM_ACCUM());
  p = replace(p, p.forward(cit).body()[1], g::instr("do_ld_i8"));
  p = replace(p, p.forward(zero).parent().parent(), g::instr("zero_acc_i32"));
  p = replace(p, p.forward(cit).body()[2].body()[0], g::instr("do_matmul_acc_i8"));
  return replace(p, p.forward(store_nest).body()[0], g::instr("do_st_acc_i8"));
}

}  // namespace

Proc schedule_conv() {
  Proc p = plain_conv();
  // Every weight, once, as an array of 16 x 16 tiles in the scratchpad.
  p = stage_mem(p, p.find_loop("b"), "w[0:3, 0:3, 0:CI, 0:CO]", "wt");
  p = divide_dim(p, "wt", 2, 16);
  p = divide_dim(p, "wt", 4, 16);
  p = rearrange_dim(p, "wt", {0, 1, 2, 4, 3, 5});
  p = divide_loop(p, "i2", 16, {"wi", "wii"}, {.perfect = true});
  p = divide_loop(p, "i3", 16, {"wo", "woi"}, {.perfect = true});
  p = reorder_loops(p, "wii wo");
  p = simplify(p);
  p = set_memory(p, "wt", g::GEMM_SCRATCH());
  p = write_configs(p, "stride(inp, 2)", "stride(w, 2)", "stride(out, 2)");
  // Output columns in 16-column tiles and a tail, each scheduled alike.
  p = divide_loop(p, "c", 16, {"ct", "cc"}, {.tail = Tail::CutAndGuard});
  p = schedule_conv_part(p, p.find_loop("cc"), "16", "16 * ct", "");
  p = schedule_conv_part(p, p.find_loop("cc"), "OW % 16", "16 * (OW / 16)", "_t");
  p = replace(p, "for wii in _: _", g::instr("do_ld_i8_id1"));
  return replace_config_writes(p);
}

}  // namespace gemmini_example
