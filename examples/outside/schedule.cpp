// The schedule program of the outside project: exocpp_add_library (CMakeLists.txt) builds it and
// runs it at build time as `saxpy_kernels_schedule OUT_DIR saxpy_kernels`, and
// exocpp::library_main writes OUT_DIR/saxpy_kernels.c and .h from the procs schedule() returns.
#include <exocpp/exocpp.h>

#include <vector>

using namespace exocpp;

namespace {

// saxpy in blocks of 8 with the tail cut off into its own loop. The program runs in this
// folder (exocpp_add_library runs it where its CMakeLists.txt is), so saxpy.exo opens by the
// name the EXO_FILES list gives it, and errors name it so too.
std::vector<Proc> schedule() {
  Proc saxpy = parse_file("saxpy.exo").proc("saxpy");
  Proc p = divide_loop(saxpy, "i", 8, {"io", "ii"}, {.tail = Tail::Cut});
  p = unroll_loop(p, "ii");
  return {p};
}

}  // namespace

int main(int argc, char** argv) { return library_main(argc, argv, schedule); }
