// Exo's examples/cursors/cursors.py, ported line by line: the cursor tutorial of the Exo 2 paper.
// A GEMV is tiled 8x8 with cursors found by name and by pattern, navigated (body, parent), carried
// from the original proc into derived ones (explicitly with forward and implicitly by passing them
// to an operation), and wrapped in a user-defined operation, tile_2D.
#pragma once

#include <string>
#include <vector>

#include "exo_ports.h"

namespace exo_ports {

// What the tutorial computes and asserts along the way, kept for the tests to check.
struct CursorsPort {
  exocpp::Proc gemv;             // the original kernel
  exocpp::Cursor i_loop;         // gemv.find_loop("i")
  exocpp::Cursor i_loop2;        // gemv.find("for i in _: _"): the same loop
  exocpp::Cursor j_loop;         // i_loop.body()[0]
  exocpp::Cursor j_loop_parent;  // j_loop.parent(): i_loop again
  exocpp::Proc g;                // gemv_scheduled after both divide_loops
  exocpp::Proc g1;               // lift_scope(g, j_loop): j_loop forwarded implicitly
  exocpp::Proc g2;               // lift_scope(g, g.forward(j_loop))
  exocpp::Cursor j_in_g;         // g.forward(j_loop)
  exocpp::Proc final_g;          // tile_2D(gemv, i_loop, j_loop, ...)
};

// The user-defined operation of the tutorial's step 5: a 2D tiling of two perfectly divisible
// loops, the j tiles lifted above the inner i loop.
exocpp::Proc tile_2D(const exocpp::Proc& p, const exocpp::CursorLike& i_lp,
                     const exocpp::CursorLike& j_lp, const std::vector<std::string>& i_itrs,
                     const std::vector<std::string>& j_itrs, int64_t i_sz, int64_t j_sz);

CursorsPort cursors();

}  // namespace exo_ports
