// The pipelines a user runs on scheduled procs: lower them to a C library (check, then emit),
// write it to disk all-or-nothing, compile and load it, and compare it with the interpreter.
// The one place where the checker and the code generator meet (docs/architecture.md).
//
//   emit_c({sgemm}, "sgemm", "out");          // out/sgemm.c + out/sgemm.h
//   CompiledLibrary lib({p}, "k");            // emitted, compiled to a .so and loaded
//   auto args = random_args(p, {{"N", 8}}, 1);
//   lib.call(p.name(), args);                 // runs the C code on interpreter buffers
//   EXPECT_EQ(compare_compiled_with_interpreter(p, {{"N", 8}}, 1), "");
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "codegen/c_module.h"
#include "codegen/codegen.h"
#include "core/interpreter.h"
#include "core/ir.h"

namespace exocpp {

namespace driver {
class CJitModule;  // driver/c_jit.h
}

// The C library for `procs` and every proc they call, transitively (callees first, in call-graph
// order; instructions expand in place and are not emitted as functions). The given procs are
// public (declared in the header); the callees they pull in are `static` in the source. Throws
// CodegenError naming the statement at fault when a proc cannot be emitted.
CSource compile_procs_to_c(const std::vector<Proc>& procs, const std::string& lib_name);

// Writes dir/lib_name.c and dir/lib_name.h. Each is written to a temporary file in `dir` and
// renamed into place, so a failure (in emission or on disk) never leaves a half-written file.
void emit_c(const std::vector<Proc>& procs, const std::string& lib_name,
            const std::string& dir = ".");

// Writes `text` to the file `path` whole or not at all, as emit_c writes its files: a failure
// leaves what `path` held before. Throws CodegenError naming the file. For any other output a
// tool writes (a tuner's plot).
void write_file_atomically(const std::string& path, const std::string& text);

// The CUDA library for `procs`: lib_name.cu (kernels as __global__ functions, host functions
// that launch them and take device pointers) and lib_name.h (C prototypes). Before emission,
// every kernel is proved race-free (checker::kernel_is_race_free) and every parallel loop's
// iterations independent, since a parsed proc was never checked by an operation; a refusal is a
// CodegenError with the reason and the counterexample. Build with nvcc -fmad=false to round as
// the interpreter does.
CSource compile_procs_to_cuda(const std::vector<Proc>& procs, const std::string& lib_name);
// Writes dir/lib_name.cu and dir/lib_name.h, all or nothing, like emit_c.
void emit_cuda(const std::vector<Proc>& procs, const std::string& lib_name,
               const std::string& dir = ".");

struct CompileOptions {
  std::string compiler = "cc";
  std::vector<std::string> flags = {"-O2", "-march=native"};
  // false: always the system compiler, as EXOCPP_C_COMPILER=system does for the whole process
  // (to check one kernel under both compilers).
  bool in_process = true;
};

// A C library emitted from procs, compiled to a shared object and loaded. The build folder is
// removed when the library is destroyed, or kept (and named in the error) when compiling fails.
// With the default compiler ("cc") and compile-only flags, a build with LLVM 14 and libclang-cpp
// compiles in process instead (driver/c_jit.h: clang and LLVM's ORC JIT, no compiler process or
// shared object); EXOCPP_C_COMPILER=system in the environment, `in_process = false`, another
// compiler, link flags, extra input files or OpenMP use the system compiler.
class CompiledLibrary {
 public:
  // Throws CodegenError when emission fails, or when the compiler fails (with its output and
  // the path of the kept source).
  CompiledLibrary(const std::vector<Proc>& procs, const std::string& lib_name,
                  const CompileOptions& opts = {});
  ~CompiledLibrary();
  CompiledLibrary(const CompiledLibrary&) = delete;
  CompiledLibrary& operator=(const CompiledLibrary&) = delete;

  // The address of an exported symbol; throws CodegenError when there is none.
  void* symbol(const std::string& name) const;
  // Calls public proc `proc_name` on interpreter argument values (argument order): control
  // values are passed by value, buffers are copied into native arrays of their element type,
  // and written back after the call. Config state starts zeroed for each call.
  void call(const std::string& proc_name, std::vector<ArgValue>& args) const;

  // A call whose arguments were converted to native form once, for timing: run() calls the
  // compiled function on the same native buffers each time (a proc that updates its buffers
  // sees what the previous run left), copy_back() writes them into interpreter values.
  class PreparedCall {
   public:
    // Move-only: the argument slots point into this object's own buffers (moving keeps them).
    PreparedCall() = default;
    PreparedCall(PreparedCall&&) = default;
    PreparedCall& operator=(PreparedCall&&) = default;
    PreparedCall(const PreparedCall&) = delete;
    PreparedCall& operator=(const PreparedCall&) = delete;
    // Throws ArgumentRangeError when the proc refused an index argument (nothing was written).
    void run();
    void copy_back(std::vector<ArgValue>& args) const;

   private:
    friend class CompiledLibrary;
    int (*entry_)(void**) = nullptr;
    const Proc* proc_ = nullptr;
    std::vector<uint64_t> ctx_;
    std::vector<int64_t> ints_;
    std::vector<std::vector<unsigned char>> data_;
    std::vector<codegen::PackedWindow> wins_;
    std::vector<void*> slots_;
  };
  // Checks `args` as call() does and converts them. The library must outlive the result.
  PreparedCall prepare(const std::string& proc_name, const std::vector<ArgValue>& args) const;
  const std::string& source_path() const { return c_path_; }
  const CSource& source() const { return src_; }

 private:
  std::vector<Proc> procs_;
  std::string lib_name_, dir_, c_path_;
  CSource src_;
  void* handle_ = nullptr;                   // the dlopened shared object, or
  std::unique_ptr<driver::CJitModule> jit_;  // the code compiled in process
};

// Compiles `p` alone, runs it and the interpreter (R as f32, the precision C gives R; literals
// and literal-only expressions take their context's precision either way) on the same random
// arguments (random_args(p, sizes, seed)) and returns "" when every argument agrees bit for bit
// (NaN equal to NaN, -0 unequal to +0), otherwise the first difference or the error either side
// raised. One call is the whole check.
std::string compare_compiled_with_interpreter(const Proc& p,
                                              const std::map<std::string, int64_t>& sizes,
                                              uint64_t seed, CompileOptions opts = {});

}  // namespace exocpp
