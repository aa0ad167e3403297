// Exo's examples/cursors/cursors.py, ported line by line (examples/exo_ports/cursors.h). Each Exo
// line is kept as a comment above its translation where the translation is not the same call with
// C++ punctuation; "Port note" marks where docs/porting-from-exo.md's table did not give the
// translation. The tutorial's prints are left out: the tests look at the same values.
#include "cursors.h"

#include <stdexcept>

namespace exo_ports {

namespace {

using namespace exocpp;

// 1: Basic loop example (Exo's @proc, unchanged).
const char* const kGemv = R"(
def gemv(M: size, N: size, A: f32[M, N], x: f32[N], y: f32[M]):
    assert M % 8 == 0
    assert N % 8 == 0

    for i in seq(0, M):
        for j in seq(0, N):
            y[i] += A[i, j] * x[j]
)";

// The tutorial's `assert` statements: a port that stops agreeing with Exo fails loudly here.
void require(bool holds, const char* what) {
  if (!holds) throw std::logic_error(std::string("cursors port: ") + what);
}

}  // namespace

Proc tile_2D(const Proc& p, const CursorLike& i_lp, const CursorLike& j_lp,
             const std::vector<std::string>& i_itrs, const std::vector<std::string>& j_itrs,
             int64_t i_sz, int64_t j_sz) {
  // p = divide_loop(p, i_lp, i_sz, i_itrs, perfect=True)
  Proc out = divide_loop(p, i_lp, i_sz, {i_itrs[0], i_itrs[1]}, {.perfect = true});
  out = divide_loop(out, j_lp, j_sz, {j_itrs[0], j_itrs[1]}, {.perfect = true});
  // p = lift_scope(p, j_itrs[0]): a loop named by its variable, as in Exo.
  out = lift_scope(out, j_itrs[0]);
  return out;
}

CursorsPort cursors() {
  CursorsPort r;
  r.gemv = parse_module(kGemv).proc("gemv");

  // 2: Finding cursors
  r.i_loop = r.gemv.find_loop("i");
  r.i_loop2 = r.gemv.find("for i in _: _");
  // assert i_loop == i_loop2
  require(r.i_loop == r.i_loop2, "find_loop and find name different loops");

  // 3: Navigating with cursors
  r.j_loop = r.i_loop.body()[0];
  Cursor C_store = r.j_loop.body()[0];
  r.j_loop_parent = r.j_loop.parent();
  require(r.i_loop == r.j_loop_parent, "the parent of j is not i");
  require(C_store.is_stmt(), "j's body does not start with a statement");

  // 4: Applying scheduling primitives & Cursor forwarding
  r.g = rename(r.gemv, "gemv_scheduled");
  // g = divide_loop(g, i_loop, 8, ["io", "ii"], perfect=True): i_loop is a cursor of gemv,
  // forwarded into g by the operation.
  r.g = divide_loop(r.g, r.i_loop, 8, {"io", "ii"}, {.perfect = true});
  r.g = divide_loop(r.g, r.j_loop, 8, {"jo", "ji"}, {.perfect = true});
  r.g1 = lift_scope(r.g, r.j_loop);
  r.j_in_g = r.g.forward(r.j_loop);
  r.g2 = lift_scope(r.g, r.j_in_g);
  // assert g1 == g2
  // Port note: Exo's `==` on procs compares them structurally; two procs print the same text
  // exactly when they are the same tree, so the port compares their printed forms.
  require(to_string(r.g1) == to_string(r.g2), "implicit and explicit forwarding disagree");

  // 5: Defining a new scheduling operator
  r.final_g = tile_2D(r.gemv, r.i_loop, r.j_loop, {"io", "ii"}, {"jo", "ji"}, 8, 8);
  return r;
}

}  // namespace exo_ports
