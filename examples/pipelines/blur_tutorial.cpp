// blur_tutorial: the steps of docs/tutorial.md, from the plain uint16 blur to the scheduled one,
// printing the proc after each step (and one refused step with its message).
//
//   blur_tutorial
#include <exocpp/exocpp.h>

#include <iostream>

#include "hwlibs/x86/x86.h"
#include "pipelines_schedule.h"

using namespace exocpp;

namespace {

void show(const std::string& step, const Proc& p) {
  std::cout << "## " << step << "\n\n" << p << "\n";
}

}  // namespace

int main() {
  try {
    Proc p = pipelines_example::plain_blur();
    show("0. The algorithm", p);

    // 1. Strips of 32 output rows; the last H % 32 rows are a loop of their own.
    p = divide_loop(p, "for y in _: _ #1", 32, {"yo", "yi"}, {.tail = Tail::Cut});
    show("1. divide_loop: strips of 32 rows", p);

    // 2. Each strip computes the rows of bx it reads (34: a halo of 2), the last rows once.
    p = compute_and_store_at(p, "for y in _: _ #0",
                             {"for yo in _: _", p.find("for yi in _: _ #1").as_block()});
    show("2. compute_and_store_at: bx per strip", p);

    // A fold to two rows would overwrite a row the blur still reads: refused.
    try {
      sliding_window(p, "for i0 in _: _", "for yi in _: _ #0", {.fold_rows = 2});
    } catch (const SchedulingError& e) {
      std::cout << "## Refused: sliding_window with fold_rows = 2\n\n" << e.what() << "\n\n";
    }

    // 3. Each row of bx computed just before the first output row that reads it, in a
    // circular buffer of three rows.
    p = sliding_window(p, "for i0 in _: _", "for yi in _: _ #0");
    show("3. sliding_window: three rows of bx, folded", p);

    // 4. Every row loop in 32 lanes of AVX-512.
    const std::vector<Proc> u16 = {x86::mm512_loadu_epi16.get(), x86::mm512_storeu_epi16.get(),
                                   x86::mm512_add_epi16.get(), x86::mm512_div3_epu16.get()};
    for (const Cursor& row : p.find_all("for _ in seq(0, W): _"))
      p = vectorize(p, row, 32, "AVX512", u16);
    show("4. vectorize: AVX-512 instructions", p);

    // 5. The strips on every thread.
    p = parallelize_loop(p, "yo");
    show("5. parallelize_loop: the strips in parallel", simplify(p));
    return 0;
  } catch (const Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
