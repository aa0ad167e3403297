// Exo's apps/x86/conv/conv.py, ported line by line (examples/exo_ports/conv.h). Each Exo line is
// kept as a comment above its translation where the translation is not the same call with C++
// punctuation; "Port note" marks where docs/porting-from-exo.md's table did not give the
// translation.
#include "conv.h"

#include <map>
#include <string>

#include "hwlibs/x86/x86.h"

namespace exo_ports {

namespace {

using namespace exocpp;

// Algorithm definition (Exo's @proc, unchanged).
const char* const kConv = R"(
def conv(
    out_h: size,
    out_w: size,
    out_channel: size,
    in_h: size,
    in_w: size,
    in_channel: size,
    kernel_dim: size,
    batch_size: size,
    inp: f32[batch_size, in_h, in_w, in_channel],
    output: f32[batch_size, out_h, out_w, out_channel],
    weights: f32[in_channel, kernel_dim, kernel_dim, out_channel],
    bias: f32[out_channel],
):
    assert out_h == in_h - kernel_dim + 1
    assert out_w == in_w - kernel_dim + 1

    for oc in seq(0, out_channel):
        for n in seq(0, batch_size):
            for oy in seq(0, out_h):
                for ox in seq(0, out_w):
                    res: f32
                    res = bias[oc]
                    for ky in seq(0, kernel_dim):
                        for kx in seq(0, kernel_dim):
                            for kc in seq(0, in_channel):
                                # todo: add padding, stride
                                res += (
                                    weights[kc, ky, kx, oc]
                                    * inp[n, oy + ky, ox + kx, kc]
                                )

                    relu_v: f32
                    relu_v = relu(res)
                    output[n, oy, ox, oc] = relu_v
)";

// VEC_W = 16
constexpr int64_t VEC_W = 16;
// H, W, C, K, N = 80, 100, 128, 3, 5
// Port note: Exo specializes to H, W, C, K, N = 80, 100, 128, 3, 5: 5.9e9 multiply-adds, which
// the reference interpreter cannot run in a test. These are small sizes the schedule's perfect
// divisions accept (C a multiple of TILE_W * VEC_W = 64, W of TILE_H = 5), with two ox_o tiles, two
// output rows and a 3 x 3 kernel so that every loop of the schedule runs more than once where Exo's
// does (oc_o, fixed at C / 64 = 1, and n, at N = 1, excepted).
constexpr int64_t H = 2, W = 10, C = 64, K = 3, N = 1;
// TILE_W, TILE_H = 4, 5
constexpr int64_t TILE_W = 4, TILE_H = 5;

// Exo's stdlib `repeat(sched)` is exocpp::repeat (rewrites/composites.h), the same helper.

// Exo's nested helper of do_specialization, one step per line.
//     def stage_input(p, read_expr, name):
Proc stage_input(Proc p, const std::string& read_expr, const std::string& name) {
  p = bind_expr(p, read_expr, name);
  // p = expand_dim(p, name, 16, "oc_v")
  // Port note: Exo takes the new dimension's size as an int (16); exocpp's expand_dim takes an
  // expression string only ("16"). The table lists expand_dim's *expressions* as the same
  // strings but not an int in that position.
  p = expand_dim(p, name, "16", "oc_v");
  p = lift_alloc(p, name);
  // p = set_memory(p, name, AVX512)
  p = set_memory(p, name, "AVX512");
  // p = fission(p, p.find(f"{name}[_] = _").after())
  p = fission(p, p.find(name + "[_] = _").after());
  return p;
}

Proc do_specialization(Proc p) {
  p = rename(p, "conv_specialized");
  // p = p.partial_eval(H, W, C, H + 2, W + 2, C, K, N)
  // Port note: Exo's partial_eval also takes the values positionally, in argument order; the
  // table lists only the keyword form partial_eval(p, {{"N", 16}}), so each value is named here.
  p = partial_eval(p, {{"out_h", H},
                       {"out_w", W},
                       {"out_channel", C},
                       {"in_h", H + 2},
                       {"in_w", W + 2},
                       {"in_channel", C},
                       {"kernel_dim", K},
                       {"batch_size", N}});
  p = simplify(p);
  //
  // p = divide_loop(p, "oc", TILE_W * VEC_W, ["oc_o", "oc_i"], perfect=True)
  p = divide_loop(p, "oc", TILE_W * VEC_W, {"oc_o", "oc_i"}, {.perfect = true});
  p = reorder_loops(p, "oc_i n");
  p = reorder_loops(p, "oc_i oy");
  p = reorder_loops(p, "oc_i ox");
  //
  // p = divide_loop(p, "ox", TILE_H, ["ox_o", "ox_i"], perfect=True)
  p = divide_loop(p, "ox", TILE_H, {"ox_o", "ox_i"}, {.perfect = true});
  //
  // p = divide_loop(p, "oc_i", VEC_W, ["oc_u", "oc_v"], perfect=True)
  p = divide_loop(p, "oc_i", VEC_W, {"oc_u", "oc_v"}, {.perfect = true});
  //
  // p = autolift_alloc(p, "res: _", n_lifts=3, keep_dims=True)
  p = autolift_alloc(p, "res: _", {.n_lifts = 3, .keep_dims = true});
  // p = set_memory(p, "res", AVX512)
  p = set_memory(p, "res", "AVX512");
  // p = fission(p, p.find("res[_] = bias[_]").after(), n_lifts=3)
  p = fission(p, p.find("res[_] = bias[_]").after(), {.n_lifts = 3});
  // p = replace(p, "for oc_v in _: _ #0", mm512_loadu_ps)
  p = replace(p, "for oc_v in _: _ #0", x86::mm512_loadu_ps);
  //
  // p = fission(p, p.find("for ky in _: _").after(), n_lifts=3)
  p = fission(p, p.find("for ky in _: _").after(), {.n_lifts = 3});
  //
  // p = autolift_alloc(p, "relu_v: _", keep_dims=True)
  p = autolift_alloc(p, "relu_v: _", {.keep_dims = true});
  // p = set_memory(p, "relu_v", AVX512)
  p = set_memory(p, "relu_v", "AVX512");
  p = fission(p, p.find("relu_v = _").after());
  // p = replace(p, "for oc_v in _: _ #2", mm512_storeu_ps)
  p = replace(p, "for oc_v in _: _ #2", x86::mm512_storeu_ps);
  //
  // p = repeat(reorder_loops)(p, "ox_i oc_u")
  p = repeat(reorder_loops)(p, "ox_i oc_u");
  p = reorder_loops(p, "ox_i oc_v");
  p = reorder_loops(p, "ox_i ky");
  p = reorder_loops(p, "ox_i kx");
  //
  p = reorder_loops(p, "oc_v ky");
  p = reorder_loops(p, "oc_v kx");
  p = reorder_loops(p, "oc_u ky");
  p = reorder_loops(p, "oc_u kx");
  //
  p = reorder_loops(p, "ox_i kc");
  p = reorder_loops(p, "oc_v kc");
  p = reorder_loops(p, "oc_u kc");
  //
  p = reorder_loops(p, "oc_v ox_i");
  // p = repeat(reorder_loops)(p, "oc_u ox_i")
  p = repeat(reorder_loops)(p, "oc_u ox_i");
  //
  p = stage_input(p, "weights[_]", "wt_vec");
  p = stage_input(p, "inp[_]", "in_vec");
  //
  // p = replace_all(p, mm512_relu_ps)
  p = replace_all(p, x86::mm512_relu_ps);
  // p = replace_all(p, mm512_set1_ps)
  p = replace_all(p, x86::mm512_set1_ps);
  // p = replace_all(p, mm512_fmadd_ps)
  p = replace_all(p, x86::mm512_fmadd_ps);
  // p = replace_all(p, mm512_loadu_ps)
  p = replace_all(p, x86::mm512_loadu_ps);
  //
  // p = divide_loop(p, "kc", 2, ["kc_o", "kc_i"], perfect=True)
  p = divide_loop(p, "kc", 2, {"kc_o", "kc_i"}, {.perfect = true});
  //
  p = simplify(p);
  return p;
}

}  // namespace

std::map<std::string, int64_t> conv_sizes() {
  return {{"out_h", H},    {"out_w", W},      {"out_channel", C}, {"in_h", H + 2},
          {"in_w", W + 2}, {"in_channel", C}, {"kernel_dim", K},  {"batch_size", N}};
}

Port conv() {
  const Proc conv = parse_with_x86(kConv).proc("conv");
  // conv_specialized = do_specialization(conv)
  const Proc conv_specialized = do_specialization(conv);
  return {conv, conv_specialized};
}

}  // namespace exo_ports
