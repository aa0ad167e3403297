// The schedule program of the outside project: exocpp_add_library (CMakeLists.txt) builds it and
// runs it at build time as `saxpy_kernels_schedule OUT_DIR saxpy_kernels`, and
// exocpp::library_main writes OUT_DIR/saxpy_kernels.c and .h from the procs schedule() returns.
#include <exocpp/exocpp.h>

#include <vector>

using namespace exocpp;

namespace {

// saxpy in blocks of 8 with the tail cut off into its own loop.
Proc by_hand(const Proc& saxpy) {
  Proc p = divide_loop(saxpy, "i", 8, {"io", "ii"}, {.tail = Tail::Cut});
  return unroll_loop(p, "ii");
}

// The schedule `exocpp tune saxpy.exo saxpy --size n=4096 --db FILE` found, when the database
// exocpp_add_library's TUNE_DB names holds one for this CPU; the one by hand otherwise. The
// program runs in this folder (exocpp_add_library runs it where its CMakeLists.txt is), so
// saxpy.exo opens by the name the EXO_FILES list gives it, and errors name it so too.
std::vector<Proc> schedule() {
  Proc saxpy = parse_file("saxpy.exo").proc("saxpy");
  return {search::tuned_or(saxpy, search::sketch_space(),
                           {.sizes = {{"n", 4096}}, .target = "sketch"}, by_hand)};
}

}  // namespace

int main(int argc, char** argv) { return library_main(argc, argv, schedule); }
