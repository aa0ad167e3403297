// The exocpp command-line program: check, print, run in the interpreter and emit C or CUDA for
// procedure files. Files may use the CUDA library's memories and instructions (hwlibs/cuda) by
// name, and those of the x86 and Gemmini libraries when asked (--lib).
#include <exocpp/exocpp.h>

#include <cctype>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "hwlibs/cuda/cuda.h"
#include "hwlibs/gemmini/gemmini.h"
#include "hwlibs/x86/x86.h"
#include "tools/tune_command.h"

namespace {

const char* kMainHelp =
    "usage: exocpp <command> [options] FILE.exo\n"
    "       exocpp --version\n"
    "\n"
    "commands:\n"
    "  check FILE.exo   parse, type-check and bounds-check every proc; exit 0 when clean\n"
    "  print FILE.exo   print every config and proc in canonical form\n"
    "  run FILE.exo PROC --size N=16 ... [--seed S]\n"
    "                   run PROC in the interpreter on random inputs; print checksums\n"
    "  c FILE.exo -o DIR [--name LIB]\n"
    "                   emit every proc of FILE.exo as portable C: DIR/LIB.c and DIR/LIB.h\n"
    "  cuda FILE.exo -o DIR [--name LIB]\n"
    "                   emit every proc of FILE.exo as CUDA: DIR/LIB.cu and DIR/LIB.h\n"
    "  tune FILE.exo PROC --size N=1024 ... [--trials T] [--minutes M] [--seed S]\n"
    "                   search a schedule for PROC; print the best as schedule calls\n"
    "\n"
    "Every command takes --lib LIB (repeatable): FILE.exo may then name the memories and call\n"
    "the instructions of hardware library LIB: x86 (AVX2, AVX512, mm256_*, mm512_*), gemmini\n"
    "(GEMM_SCRATCH, GEMM_ACCUM, its configs and instructions) or cuda (CUDA_GLOBAL,\n"
    "CUDA_SHARED, CUDA_REG, WMMA_*, cuda_syncthreads, ...). The CUDA library is always there.\n"
    "\n"
    "Run 'exocpp <command> --help' for a command's options.\n";

const char* kCheckHelp =
    "usage: exocpp check [--lib LIB] FILE.exo\n"
    "\n"
    "Parses FILE.exo, type-checks every proc and runs the front-end checks: every access\n"
    "in bounds under the asserts, asserts satisfiable, calls meeting their callee's asserts.\n"
    "Prints nothing and exits 0 when the file is clean; otherwise prints the first error\n"
    "(file:line:col, the source line, what was expected) to stderr and exits 1.\n";

const char* kPrintHelp =
    "usage: exocpp print [--lib LIB] FILE.exo\n"
    "\n"
    "Parses and type-checks FILE.exo, then prints its configs and procs in canonical form\n"
    "(the output parses back to the same procs). Exits 1 with the error on bad input.\n";

const char* kCHelp =
    "usage: exocpp c FILE.exo -o DIR [--name LIB] [--lib LIB]\n"
    "\n"
    "Parses and type-checks FILE.exo and emits every proc in it (instructions expand in place\n"
    "where they are called) as one C99 library: DIR/LIB.c and DIR/LIB.h. LIB defaults to the\n"
    "file's name without .exo, made a C identifier (other characters become '_'; a name that\n"
    "does not start with a letter gets the prefix lib_: 2d_blur.exo gives lib_2d_blur).\n"
    "Each function takes `void *ctxt` first (a struct LIB_Context when the procs use configs,\n"
    "else NULL), sizes as int_fast32_t and tensors as pointers.\n"
    "Before anything is written, a proc with an access the checker finds out of bounds or a call\n"
    "that breaks its callee's asserts is refused, and every par loop's iterations are proved\n"
    "independent (OpenMP runs them at once). DIR is created when missing. The files are\n"
    "written whole or not at all. Exits 1 with the error (file:line:col, the counterexample)\n"
    "when a proc cannot be emitted, and then leaves no file or folder behind.\n";

const char* kCudaHelp =
    "usage: exocpp cuda FILE.exo -o DIR [--name LIB] [--lib LIB]\n"
    "\n"
    "As `exocpp c`, but emits CUDA C++: DIR/LIB.cu and DIR/LIB.h. Each outermost cuda_blocks loop\n"
    "becomes a __global__ kernel that its host function launches; buffers are device pointers.\n"
    "Every kernel is first proved free of races (docs/gpu.md). Build the .cu with nvcc\n"
    "-fmad=false for the interpreter's rounding.\n";

const char* kRunHelp =
    "usage: exocpp run FILE.exo PROC --size NAME=VALUE ... [--seed S] [--lib LIB]\n"
    "\n"
    "Runs PROC of FILE.exo in the reference interpreter on random arguments and prints one line\n"
    "per argument: a control argument's value (`N = 16`), and for every data argument (tensor,\n"
    "window or scalar; inputs too, so that the line identifies the inputs drawn) its type and a\n"
    "checksum of its values after the run (`y: f32[16] checksum f305a9a55694f754`).\n"
    "\n"
    "  --size NAME=VALUE  the value of size argument NAME; every size argument needs one\n"
    "  --seed S           the seed of the random data (default 1); the same seed gives the same\n"
    "                     inputs and so, the interpreter being exact, the same checksums\n"
    "\n"
    "Other control arguments (int, index, bool) are drawn from the seed to satisfy the asserts;\n"
    "data values are small integers (exact in every precision). The checksum is the 64-bit\n"
    "FNV-1a hash of the values in row-major order, each as the 8 little-endian bytes of its\n"
    "IEEE-754 double (the interpreter holds every element as a double rounded to the buffer's\n"
    "type; every NaN hashes as the quiet NaN 0x7ff8000000000000). Exits 1 with the error on a\n"
    "failed assert or a run-time fault.\n";

const char* kTuneHelp =
    "usage: exocpp tune FILE.exo PROC --size NAME=VALUE ... [--verify-size NAME=VALUE ...]\n"
    "                   [--trials T] [--minutes M] [--seed S] [--db FILE] [--plot FILE.svg]\n"
    "                   [--lib x86]\n"
    "\n"
    "Searches a schedule for PROC (docs/search.md): each loop nest may be tiled, its tile loops\n"
    "moved out, its innermost loop unrolled (or, with --lib x86, vectorized through the x86\n"
    "library) and its outermost loop run in parallel. Every candidate is proved by the\n"
    "scheduling operations, compared with PROC in the interpreter and as compiled C at the\n"
    "verify sizes, and then timed at the sizes. Prints a line per timed candidate on stderr,\n"
    "then the times, the refusals by reason, the best trace and the best schedule as C++ calls.\n"
    "\n"
    "  --size NAME=VALUE         a size argument's value for timing; every size needs one\n"
    "  --verify-size NAME=VALUE  its value for the checks (default: the --size value)\n"
    "  --trials T                candidates to time (default 20)\n"
    "  --minutes M               wall-time budget (default 10)\n"
    "  --seed S                  the search's seed (default 1): the same seed proposes the same\n"
    "                            first candidates\n"
    "  --db FILE                 an SQLite tuning database: candidates it holds for this proc,\n"
    "                            sizes and CPU take their stored time, new times are stored\n"
    "  --plot FILE.svg           draw each candidate's time and the best so far against the\n"
    "                            trial number (written whole or not at all)\n"
    "\n"
    "Exits 1 with the error when a candidate computes something else than PROC (a bug in\n"
    "exocpp: the message holds the candidate's trace).\n";

const char* kLibNames = "x86, gemmini or cuda";

// Parses FILE with the CUDA library's memories and instructions available, and those of the
// libraries in `libs` (names checked by take_libs).
exocpp::Module parse_with_libraries(const std::string& path, const std::set<std::string>& libs) {
  exocpp::cuda::register_memories();
  exocpp::ParseOptions opts;
  opts.procs = exocpp::cuda::library().procs;
  auto add = [&opts](const exocpp::Module& lib) {
    opts.procs.insert(opts.procs.end(), lib.procs.begin(), lib.procs.end());
    opts.configs.insert(opts.configs.end(), lib.configs.begin(), lib.configs.end());
  };
  if (libs.count("x86")) {
    exocpp::x86::register_memories();
    add(exocpp::x86::library());
  }
  if (libs.count("gemmini")) {
    exocpp::gemmini::register_library();
    add(exocpp::gemmini::library());
  }
  return exocpp::parse_file(path, opts);
}

// A usage error: one line on stderr, exit status 2.
struct UsageError {
  std::string message;
};

// Removes every `--lib NAME` from `args` and returns the names; throws UsageError on an unknown
// library or a missing name.
std::set<std::string> take_libs(std::vector<std::string>& args) {
  std::set<std::string> libs;
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--lib") {
      rest.push_back(args[i]);
      continue;
    }
    if (i + 1 == args.size())
      throw UsageError{"--lib needs a library name (" + std::string(kLibNames) + ")"};
    const std::string& name = args[++i];
    if (name != "x86" && name != "gemmini" && name != "cuda")
      throw UsageError{"unknown library '" + name + "' for --lib (" + kLibNames + ")"};
    libs.insert(name);
  }
  args = rest;
  return libs;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

// A one-line usage error for misuse of a command: what is wrong, then the first line of the
// command's help ("usage: exocpp check [--lib LIB] FILE.exo").
UsageError misuse(const std::string& what, const char* help) {
  std::string usage = help;
  return UsageError{what + " (" + usage.substr(0, usage.find('\n')) + ")"};
}

// The single FILE argument of a command; throws UsageError on misuse.
std::string file_arg(const std::vector<std::string>& args, const char* cmd, const char* help) {
  if (args.empty()) throw misuse(std::string(cmd) + " needs a FILE.exo", help);
  for (const std::string& a : args)
    if (!a.empty() && a[0] == '-')
      throw misuse(std::string(cmd) + ": unknown option '" + a + "'", help);
  if (args.size() != 1)
    throw misuse(std::string(cmd) + " takes one FILE.exo, not " + std::to_string(args.size()),
                 help);
  return args[0];
}

int run_check(std::vector<std::string> args) {
  if (wants_help(args)) {
    std::cout << kCheckHelp;
    return 0;
  }
  std::set<std::string> libs = take_libs(args);
  std::string path = file_arg(args, "check", kCheckHelp);
  exocpp::Module m = parse_with_libraries(path, libs);  // parse errors and type errors
  for (const exocpp::Proc& p : m.procs) exocpp::checker::check_proc(p);  // bounds, asserts, calls
  return 0;
}

int run_print(std::vector<std::string> args) {
  if (wants_help(args)) {
    std::cout << kPrintHelp;
    return 0;
  }
  std::set<std::string> libs = take_libs(args);
  std::string path = file_arg(args, "print", kPrintHelp);
  exocpp::Module m = parse_with_libraries(path, libs);
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
int run_emit(std::vector<std::string> args, bool cuda) {
  const char* kCHelp = cuda ? kCudaHelp : ::kCHelp;
  const char* cmd = cuda ? "cuda" : "c";
  if (wants_help(args)) {
    std::cout << kCHelp;
    return 0;
  }
  std::set<std::string> libs = take_libs(args);
  std::string path, dir, name;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-o" || a == "--name") && i + 1 < args.size()) {
      (a == "-o" ? dir : name) = args[++i];
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else {
      throw misuse(std::string(cmd) + ": unexpected argument '" + a + "'", kCHelp);
    }
  }
  if (path.empty()) throw misuse(std::string(cmd) + " needs a FILE.exo", kCHelp);
  if (dir.empty()) throw misuse(std::string(cmd) + " needs an output folder (-o DIR)", kCHelp);
  if (name.empty()) name = library_name_of(path);
  exocpp::Module m = parse_with_libraries(path, libs);
  std::vector<exocpp::Proc> procs;
  for (const exocpp::Proc& p : m.procs)
    if (!p.is_instr()) procs.push_back(p);
  // The folder is made only once the procs parsed, and the folders made for it are removed
  // again when emission refuses a proc, so that a bad file leaves nothing behind.
  namespace fs = std::filesystem;
  std::vector<fs::path> made;  // innermost first
  for (fs::path d = fs::absolute(dir).lexically_normal(); d.has_relative_path() && !fs::exists(d);
       d = d.parent_path())
    made.push_back(d);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "exocpp " << cmd << ": cannot create the folder '" << dir << "': " << ec.message()
              << "\n";
    return 1;
  }
  try {
    if (cuda)
      exocpp::emit_cuda(procs, name, dir);
    else
      exocpp::emit_c(procs, name, dir);
  } catch (...) {
    for (const fs::path& d : made) fs::remove(d, ec);  // only while empty
    throw;
  }
  return 0;
}

// 64-bit FNV-1a of the buffer's values in row-major order, each as the little-endian bytes of
// its double (kRunHelp documents it: users compare these numbers across runs and machines).
uint64_t checksum(const exocpp::Buffer& b) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int64_t i = 0; i < b.num_elements(); ++i) {
    double v = b.flat(i);
    uint64_t bits = 0x7ff8000000000000ull;
    if (!std::isnan(v)) std::memcpy(&bits, &v, sizeof bits);
    for (int byte = 0; byte < 8; ++byte) {
      h ^= (bits >> (8 * byte)) & 0xff;
      h *= 0x100000001b3ull;
    }
  }
  return h;
}

// "NAME=VALUE" with VALUE a positive integer; throws UsageError otherwise.
std::pair<std::string, int64_t> parse_size(const std::string& text) {
  size_t eq = text.find('=');
  int64_t value = 0;
  if (eq != std::string::npos && eq > 0) {
    const char* first = text.data() + eq + 1;
    const char* last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && end == last && first != last && value > 0)
      return {text.substr(0, eq), value};
  }
  throw UsageError{"--size takes NAME=VALUE with VALUE a positive integer, not '" + text + "'"};
}

// Throws UsageError unless `sizes` gives every size argument of `p` a value and names nothing
// else (`cmd` names the command in the message).
void check_sizes(const std::string& cmd, const exocpp::Proc& p,
                 const std::map<std::string, int64_t>& sizes) {
  std::set<std::string> arg_names;
  for (const exocpp::FnArg& a : p.args()) {
    arg_names.insert(a.name.name());
    if (a.type.is_control() && a.type.base == exocpp::ScalarKind::Size &&
        !sizes.count(a.name.name()))
      throw UsageError{cmd + ": no --size for size argument '" + a.name.name() + "' of proc " +
                       p.name() + " (give --size " + a.name.name() + "=VALUE)"};
  }
  for (const auto& [name, value] : sizes)
    if (!arg_names.count(name))
      throw UsageError{cmd + ": proc " + p.name() + " has no argument '" + name + "' (--size)"};
}

int run_run(std::vector<std::string> args) {
  if (wants_help(args)) {
    std::cout << kRunHelp;
    return 0;
  }
  std::set<std::string> libs = take_libs(args);
  std::string path, proc_name;
  std::map<std::string, int64_t> sizes;
  uint64_t seed = 1;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--size" || a == "--seed") && i + 1 == args.size())
      throw UsageError{a + " needs a value"};
    if (a == "--size") {
      auto [name, value] = parse_size(args[++i]);
      if (!sizes.emplace(name, value).second) throw UsageError{"--size " + name + " given twice"};
    } else if (a == "--seed") {
      const std::string& v = args[++i];
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
      if (ec != std::errc() || end != v.data() + v.size() || v.empty())
        throw UsageError{"--seed takes a non-negative integer, not '" + v + "'"};
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else if (!a.empty() && a[0] != '-' && proc_name.empty()) {
      proc_name = a;
    } else {
      throw UsageError{"run: unexpected argument '" + a + "'"};
    }
  }
  if (proc_name.empty()) throw UsageError{"run needs FILE.exo and PROC (see exocpp run --help)"};

  exocpp::Proc p = parse_with_libraries(path, libs).proc(proc_name);
  // Every size argument from the command line, so that a run is reproduced from its command
  // line alone; other control arguments are drawn from the seed.
  check_sizes("run", p, sizes);

  std::vector<exocpp::ArgValue> values = exocpp::random_args(p, sizes, seed);
  exocpp::interpret(p, values);
  for (size_t i = 0; i < values.size(); ++i) {
    const exocpp::FnArg& a = p.args()[i];
    if (const auto* b = std::get_if<exocpp::Buffer>(&values[i])) {
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016" PRIx64, checksum(*b));
      std::cout << a.name.name() << ": " << exocpp::to_string(a.type.base)
                << (b->rank() ? exocpp::shape_string(b->shape()) : "") << " checksum " << hex
                << "\n";
    } else {
      std::cout << a.name.name() << " = " << exocpp::to_string(values[i]) << "\n";
    }
  }
  return 0;
}

// A positive integer option value; throws UsageError otherwise.
int64_t positive(const std::string& option, const std::string& v) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || v.empty() || n <= 0)
    throw UsageError{option + " takes a positive integer, not '" + v + "'"};
  return n;
}

int run_tune(std::vector<std::string> args) {
  if (wants_help(args)) {
    std::cout << kTuneHelp;
    return 0;
  }
  std::set<std::string> libs = take_libs(args);
  std::string path, proc_name;
  exocpp::cli::TuneCommand c;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool takes_value = a == "--size" || a == "--verify-size" || a == "--trials" ||
                             a == "--minutes" || a == "--seed" || a == "--db" || a == "--plot";
    if (takes_value && i + 1 == args.size()) throw UsageError{a + " needs a value"};
    if (a == "--size" || a == "--verify-size") {
      auto [name, value] = parse_size(args[++i]);
      auto& into = a == "--size" ? c.sizes : c.verify_sizes;
      if (!into.emplace(name, value).second) throw UsageError{a + " " + name + " given twice"};
    } else if (a == "--trials") {
      c.trials = static_cast<int>(positive(a, args[++i]));
    } else if (a == "--minutes") {
      c.minutes = static_cast<double>(positive(a, args[++i]));
    } else if (a == "--seed") {
      c.seed = static_cast<uint64_t>(positive(a, args[++i]));
    } else if (a == "--db") {
      c.database = args[++i];
    } else if (a == "--plot") {
      c.plot = args[++i];
    } else if (!a.empty() && a[0] != '-' && path.empty()) {
      path = a;
    } else if (!a.empty() && a[0] != '-' && proc_name.empty()) {
      proc_name = a;
    } else {
      throw UsageError{"tune: unexpected argument '" + a + "'"};
    }
  }
  if (proc_name.empty()) throw UsageError{"tune needs FILE.exo and PROC (see exocpp tune --help)"};
  c.proc = parse_with_libraries(path, libs).proc(proc_name);
  c.x86 = libs.count("x86") > 0;
  check_sizes("tune", c.proc, c.sizes);
  if (!c.verify_sizes.empty()) check_sizes("tune", c.proc, c.verify_sizes);
  return exocpp::cli::tune_command(c, std::cout, std::cerr);
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
    if (cmd == "--version" || cmd == "version") {
      std::cout << "exocpp " << EXOCPP_VERSION << "\n";
      return 0;
    }
    if (cmd == "check") return run_check(args);
    if (cmd == "print") return run_print(args);
    if (cmd == "run") return run_run(args);
    if (cmd == "c") return run_emit(args, false);
    if (cmd == "cuda") return run_emit(args, true);
    if (cmd == "tune") return run_tune(args);
    throw UsageError{"unknown command '" + cmd + "' (exocpp --help lists the commands)"};
  } catch (const UsageError& e) {
    std::cerr << "exocpp: " << e.message << "\n";
    return 2;
  } catch (const exocpp::Error& e) {
    std::cerr << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "exocpp: " << e.what() << "\n";
    return 3;
  }
}
