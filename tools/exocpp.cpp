// The exocpp command-line program: check, print and emit C or CUDA for procedure files. Files
// may use the CUDA library's memories and instructions (hwlibs/cuda) by name.
#include <exocpp/exocpp.h>

#include <cctype>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "hwlibs/cuda/cuda.h"

namespace {

const char* kMainHelp =
    "usage: exocpp <command> [options] FILE.exo\n"
    "\n"
    "commands:\n"
    "  check FILE.exo   parse, type-check and bounds-check every proc; exit 0 when clean\n"
    "  print FILE.exo   print every config and proc in canonical form\n"
    "  c FILE.exo -o DIR [--name LIB]\n"
    "                   emit every proc of FILE.exo as portable C: DIR/LIB.c and DIR/LIB.h\n"
    "  cuda FILE.exo -o DIR [--name LIB]\n"
    "                   emit every proc of FILE.exo as CUDA: DIR/LIB.cu and DIR/LIB.h\n"
    "\n"
    "FILE.exo may name the CUDA library's memories (CUDA_GLOBAL, CUDA_SHARED, CUDA_REG, WMMA_*)\n"
    "and call its instructions (cuda_syncthreads, wmma_mma, cp_async_f16x8, ...).\n"
    "\n"
    "Run 'exocpp <command> --help' for a command's options.\n";

const char* kCheckHelp =
    "usage: exocpp check FILE.exo\n"
    "\n"
    "Parses FILE.exo, type-checks every proc and runs the front-end checks: every access\n"
    "in bounds under the asserts, asserts satisfiable, calls meeting their callee's asserts.\n"
    "Prints nothing and exits 0 when the file is clean; otherwise prints the first error\n"
    "(file:line:col, the source line, what was expected) to stderr and exits 1.\n";

const char* kPrintHelp =
    "usage: exocpp print FILE.exo\n"
    "\n"
    "Parses and type-checks FILE.exo, then prints its configs and procs in canonical form\n"
    "(the output parses back to the same procs). Exits 1 with the error on bad input.\n";

const char* kCHelp =
    "usage: exocpp c FILE.exo -o DIR [--name LIB]\n"
    "\n"
    "Parses and type-checks FILE.exo and emits every proc in it (instructions expand in place\n"
    "where they are called) as one C99 library: DIR/LIB.c and DIR/LIB.h. LIB defaults to the\n"
    "file's name without .exo, made a C identifier (other characters become '_'; a name that\n"
    "does not start with a letter gets the prefix lib_: 2d_blur.exo gives lib_2d_blur).\n"
    "Each function takes `void *ctxt` first (a struct LIB_Context when the procs use configs,\n"
    "else NULL), sizes as int_fast32_t and tensors as pointers.\n"
    "The files are written whole or not at all. Exits 1 with the error (file:line:col) when a\n"
    "proc cannot be emitted.\n";

const char* kCudaHelp =
    "usage: exocpp cuda FILE.exo -o DIR [--name LIB]\n"
    "\n"
    "As `exocpp c`, but emits CUDA C++: DIR/LIB.cu and DIR/LIB.h. Each outermost cuda_blocks loop\n"
    "becomes a __global__ kernel that its host function launches; buffers are device pointers.\n"
    "Every kernel is first proved free of races (docs/gpu.md). Build the .cu with nvcc\n"
    "-fmad=false for the interpreter's rounding.\n";

// Parses FILE with the CUDA library's memories and instructions available.
exocpp::Module parse_with_libraries(const std::string& path) {
  exocpp::cuda::register_memories();
  exocpp::ParseOptions opts;
  opts.procs = exocpp::cuda::library().procs;
  return exocpp::parse_file(path, opts);
}

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

// Parses the single FILE argument of a command; prints usage and returns "" on misuse.
std::string file_arg(const std::vector<std::string>& args, const char* help) {
  if (args.size() != 1 || (!args[0].empty() && args[0][0] == '-')) {
    std::cerr << help;
    return "";
  }
  return args[0];
}

int run_check(const std::vector<std::string>& args) {
  if (wants_help(args)) {
    std::cout << kCheckHelp;
    return 0;
  }
  std::string path = file_arg(args, kCheckHelp);
  if (path.empty()) return 2;
  exocpp::Module m = parse_with_libraries(path);  // parse errors and type errors
  for (const exocpp::Proc& p : m.procs) exocpp::checker::check_proc(p);  // bounds, asserts, calls
  return 0;
}

int run_print(const std::vector<std::string>& args) {
  if (wants_help(args)) {
    std::cout << kPrintHelp;
    return 0;
  }
  std::string path = file_arg(args, kPrintHelp);
  if (path.empty()) return 2;
  exocpp::Module m = parse_with_libraries(path);
  std::cout << exocpp::to_string(m);
  return 0;
}

// The default library name: the file's name without `.exo`, made a C identifier (the name
// prefixes the emitted C's symbols): other characters become '_', and a name that does not
// start with a letter gets the prefix "lib_" (`22_blur.exo` -> lib_22_blur).
std::string library_name_of(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  if (name.size() > 4 && name.substr(name.size() - 4) == ".exo") name.resize(name.size() - 4);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
  if (name.empty() || !std::isalpha(static_cast<unsigned char>(name[0]))) name = "lib_" + name;
  return name;
}

// `exocpp c` and `exocpp cuda`.
int run_emit(const std::vector<std::string>& args, bool cuda) {
  const char* kCHelp = cuda ? kCudaHelp : ::kCHelp;
  const char* cmd = cuda ? "cuda" : "c";
  if (wants_help(args)) {
    std::cout << kCHelp;
    return 0;
  }
  std::string path, dir, name;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-o" || a == "--name") && i + 1 < args.size()) {
      (a == "-o" ? dir : name) = args[++i];
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else {
      std::cerr << "exocpp " << cmd << ": unexpected argument '" << a << "'\n\n" << kCHelp;
      return 2;
    }
  }
  if (path.empty() || dir.empty()) {
    std::cerr << kCHelp;
    return 2;
  }
  if (name.empty()) name = library_name_of(path);
  exocpp::Module m = parse_with_libraries(path);
  std::vector<exocpp::Proc> procs;
  for (const exocpp::Proc& p : m.procs)
    if (!p.is_instr()) procs.push_back(p);
  if (cuda)
    exocpp::emit_cuda(procs, name, dir);
  else
    exocpp::emit_c(procs, name, dir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kMainHelp;
    return 2;
  }
  std::string cmd = args[0];
  args.erase(args.begin());
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::cout << kMainHelp;
      return 0;
    }
    if (cmd == "check") return run_check(args);
    if (cmd == "print") return run_print(args);
    if (cmd == "c") return run_emit(args, false);
    if (cmd == "cuda") return run_emit(args, true);
    std::cerr << "exocpp: unknown command '" << cmd << "'\n\n" << kMainHelp;
    return 2;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "exocpp: " << e.what() << "\n";
    return 3;
  }
}
