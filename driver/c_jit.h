// In-process compilation of emitted C: clang turns the source into an LLVM module in memory and
// LLVM's ORC JIT (LLJIT) compiles it for the host, with no compiler process, temporary files or
// dlopen. CompiledLibrary uses it when exocpp was built with LLVM 14 and libclang-cpp (CMake
// option EXOCPP_C_JIT, on by default) unless EXOCPP_C_COMPILER=system is set; otherwise it runs
// the system C compiler.
//
//   CJitResult r = jit_compile_c(src, "k.c", {"-O2", "-march=native"});
//   if (!r.module) throw ...(r.error);             // clang's diagnostics, as clang prints them
//   auto f = reinterpret_cast<void (*)()>(r.module->lookup("f"));
//
// The flags are a clang command line's (`clang -c k.c <flags>`): -O levels, -march/-m feature
// flags, -D/-I, warnings (-Wall -Werror). The code runs on this machine, so the target is the
// host's; -march/-m flags choose the instructions clang may use, as they do for a .so.
// Only driver/c_jit.cpp includes LLVM and clang headers.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace exocpp::driver {

// Whether this build has the JIT (LLVM 14 and libclang-cpp were found at configure time).
bool c_jit_available();

// One compiled C translation unit; owns the JIT and the code. Not copyable.
class CJitModule {
 public:
  struct Impl;
  explicit CJitModule(std::unique_ptr<Impl> impl);
  ~CJitModule();
  CJitModule(const CJitModule&) = delete;
  CJitModule& operator=(const CJitModule&) = delete;

  // The address of the external symbol `name` (as C spells it), or nullptr when there is none;
  // then `why`, when given, receives LLVM's reason (a symbol not defined, or code it could not
  // materialize).
  void* lookup(const std::string& name, std::string* why = nullptr) const;

 private:
  std::unique_ptr<Impl> impl_;
};

struct CJitResult {
  std::unique_ptr<CJitModule> module;  // null on failure
  std::string error;                   // clang's diagnostics or LLVM's error, when module is null
};

// Compiles `source` (named `file_name` in diagnostics) with clang's driver flags `flags` and
// links it into a new JIT; symbols it does not define resolve against the process (libc, libm).
// Never throws for a compile error; always returns an error when built without the JIT.
CJitResult jit_compile_c(const std::string& source, const std::string& file_name,
                         const std::vector<std::string>& flags);

}  // namespace exocpp::driver
