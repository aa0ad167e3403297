// The compile-and-load helper: emit procs with packed entry points, compile them in process
// (driver/c_jit.h) or build a shared object with the system C compiler and dlopen it, and call
// procs on the interpreter's argument values.
#include <dlfcn.h>
#include <stdlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "codegen/c_types.h"
#include "core/test_inputs.h"
#include "driver/c_jit.h"
#include "driver/driver.h"
#include "driver/half_bits.h"
#include "driver/lower.h"

namespace exocpp {
namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `cmd` through the shell; returns its exit status and fills `output` (stdout + stderr).
int run_command(const std::string& cmd, std::string& output) {
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) output.append(buf, n);
  int status = pclose(f);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// bfloat16 is the top half of an f32: round to bfloat16 first (the interpreter's rounding), then
// the low 16 bits of the float are zero.
uint16_t double_to_bfloat16(double v) {
  if (std::isnan(v)) return 0x7fc0;
  float f = static_cast<float>(round_to_kind(ScalarKind::BF16, v));
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);
}

double bfloat16_to_double(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

void store_native(ScalarKind k, void* p, double v) {
  switch (k) {
    case ScalarKind::F64:
      *static_cast<double*>(p) = v;
      return;
    case ScalarKind::R:
    case ScalarKind::F32:
      *static_cast<float*>(p) = static_cast<float>(v);
      return;
    case ScalarKind::F16:
      *static_cast<uint16_t*>(p) = driver::double_to_half(v);
      return;
    case ScalarKind::BF16:
      *static_cast<uint16_t*>(p) = double_to_bfloat16(v);
      return;
    case ScalarKind::I32:
      *static_cast<int32_t*>(p) = static_cast<int32_t>(v);
      return;
    case ScalarKind::UI16:
      *static_cast<uint16_t*>(p) = static_cast<uint16_t>(v);
      return;
    case ScalarKind::UI8:
      *static_cast<uint8_t*>(p) = static_cast<uint8_t>(v);
      return;
    case ScalarKind::I8:
      *static_cast<int8_t*>(p) = static_cast<int8_t>(v);
      return;
    default:
      throw InternalError("store_native of a control kind");
  }
}

double load_native(ScalarKind k, const void* p) {
  switch (k) {
    case ScalarKind::F64:
      return *static_cast<const double*>(p);
    case ScalarKind::R:
    case ScalarKind::F32:
      return *static_cast<const float*>(p);
    case ScalarKind::F16:
      return driver::half_to_double(*static_cast<const uint16_t*>(p));
    case ScalarKind::BF16:
      return bfloat16_to_double(*static_cast<const uint16_t*>(p));
    case ScalarKind::I32:
      return *static_cast<const int32_t*>(p);
    case ScalarKind::UI16:
      return *static_cast<const uint16_t*>(p);
    case ScalarKind::UI8:
      return *static_cast<const uint8_t*>(p);
    case ScalarKind::I8:
      return *static_cast<const int8_t*>(p);
    default:
      throw InternalError("load_native of a control kind");
  }
}

// Whether to compile in process: the JIT is built in and allowed (`in_process`),
// EXOCPP_C_COMPILER is not "system", the compiler is the default "cc" (a named compiler is asked
// for by name), and the flags only compile (no inputs, libraries, linker flags or OpenMP, which
// needs its runtime).
bool use_jit(const CompileOptions& opts, const CSource& src) {
  if (!driver::c_jit_available() || !opts.in_process || opts.compiler != "cc") return false;
  const char* env = std::getenv("EXOCPP_C_COMPILER");
  if (env && std::string(env) == "system") return false;
  if (src.source.find("#pragma omp") != std::string::npos) return false;
  for (const std::string& f : opts.flags) {
    if (f.empty() || f[0] != '-' || f.rfind("-l", 0) == 0 || f.rfind("-L", 0) == 0 ||
        f.rfind("-Wl,", 0) == 0 || f.rfind("-fopenmp", 0) == 0 || f == "-o" || f == "-shared" ||
        f == "-I" || f == "-include")
      return false;
  }
  return true;
}

}  // namespace

CompiledLibrary::CompiledLibrary(const std::vector<Proc>& procs, const std::string& lib_name,
                                 const CompileOptions& opts)
    : procs_(procs), lib_name_(lib_name) {
  src_ = driver::lower_to_c(procs, lib_name, {.packed_wrappers = true});
  std::string tmpl = (fs::temp_directory_path() / "exocpp-XXXXXX").string();
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw CodegenError({}, "cannot create a build folder under " +
                               fs::temp_directory_path().string() + ": " + std::strerror(errno));
  dir_ = buf.data();
  c_path_ = dir_ + "/" + lib_name + ".c";
  std::ofstream(c_path_) << src_.source;
  std::ofstream(dir_ + "/" + lib_name + ".h") << src_.header;
  if (use_jit(opts, src_)) {
    std::vector<std::string> flags = opts.flags;
    flags.push_back("-std=c99");
    driver::CJitResult r = driver::jit_compile_c(src_.source, c_path_, flags);
    if (!r.module)
      throw CodegenError({}, "the C compiler failed (clang, in process) on " + c_path_ +
                                 " (kept for inspection; EXOCPP_C_COMPILER=system uses the "
                                 "system compiler)\n" +
                                 r.error);
    jit_ = std::move(r.module);
    return;
  }
  std::string so = dir_ + "/lib" + lib_name + ".so";
  std::string cmd = shell_quote(opts.compiler);
  for (const std::string& f : opts.flags) cmd += " " + shell_quote(f);
  // -Bsymbolic: calls inside the library bind to its own procs even when the process already
  // has a function of that name (a proc named `fdiv` against libm's fdiv).
  cmd += " -std=c99 -fPIC -shared -Wl,-Bsymbolic";
  const bool omp = src_.source.find("#pragma omp") != std::string::npos;
  if (omp) cmd += " -fopenmp";
  cmd += " -o " + shell_quote(so) + " " + shell_quote(c_path_) + " -lm";
  std::string output;
  int rc = run_command(cmd, output);
  if (rc != 0)
    throw CodegenError({}, "the C compiler failed (exit " + std::to_string(rc) + ") on " + c_path_ +
                               " (kept for inspection)\ncommand: " + cmd + "\n" + output);
  // An OpenMP library stays mapped after dlclose: libgomp's idle worker threads may still run
  // code from it, and unmapping it under them crashes the process.
  handle_ = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL | (omp ? RTLD_NODELETE : 0));
  if (!handle_) throw CodegenError({}, std::string("cannot load ") + so + ": " + dlerror());
}

CompiledLibrary::~CompiledLibrary() {
  if (handle_) dlclose(handle_);
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

void* CompiledLibrary::symbol(const std::string& name) const {
  std::string why;
  void* s = jit_ ? jit_->lookup(name, &why) : dlsym(handle_, name.c_str());
  if (!s && !jit_)
    if (const char* e = dlerror()) why = e;
  if (!s)
    throw CodegenError({}, "the compiled library " + lib_name_ + " has no symbol '" + name + "'" +
                               (why.empty() ? "" : ": " + why));
  return s;
}

CompiledLibrary::PreparedCall CompiledLibrary::prepare(const std::string& proc_name,
                                                       const std::vector<ArgValue>& args) const {
  const Proc* p = nullptr;
  for (const Proc& q : procs_)
    if (q.name() == proc_name) p = &q;
  if (!p)
    throw CodegenError({}, "'" + proc_name + "' is not a public proc of library " + lib_name_);
  check_args(*p, args);  // counts, kinds and shapes, as the interpreter checks them
  PreparedCall c;
  c.entry_ = reinterpret_cast<int (*)(void**)>(symbol(proc_name + "__packed"));
  c.proc_ = p;
  auto ctx_size = reinterpret_cast<int64_t (*)()>(symbol(lib_name_ + "__context_size"));
  c.ctx_.assign(static_cast<size_t>(ctx_size() / 8 + 1), 0);
  c.ints_.assign(args.size(), 0);
  c.data_.resize(args.size());
  c.wins_.resize(args.size());
  c.slots_ = {c.ctx_.data()};
  for (size_t i = 0; i < args.size(); ++i) {
    if (const int64_t* v = std::get_if<int64_t>(&args[i])) {
      c.ints_[i] = *v;
      c.slots_.push_back(&c.ints_[i]);
      continue;
    }
    if (const bool* b = std::get_if<bool>(&args[i])) {
      c.ints_[i] = *b;
      c.slots_.push_back(&c.ints_[i]);
      continue;
    }
    const Buffer& b = std::get<Buffer>(args[i]);
    size_t es = scalar_bytes(b.kind());
    c.data_[i].assign(static_cast<size_t>(b.num_elements()) * es + 64, 0);
    for (int64_t k = 0; k < b.num_elements(); ++k)
      store_native(b.kind(), c.data_[i].data() + k * es, b.flat(k));
    if (p->args()[i].type.window) {
      if (b.rank() > codegen::kMaxPackedRank)
        throw CodegenError({}, "windows of rank above 8 cannot be passed");
      c.wins_[i].data = c.data_[i].data();
      int64_t stride = 1;
      for (int d = b.rank(); d-- > 0;) {
        c.wins_[i].strides[d] = stride;
        stride *= b.shape()[static_cast<size_t>(d)];
      }
      c.slots_.push_back(&c.wins_[i]);
    } else {
      c.slots_.push_back(c.data_[i].data());
    }
  }
  return c;
}

void CompiledLibrary::PreparedCall::run() {
  std::fill(ctx_.begin(), ctx_.end(), 0);  // config state starts zeroed, as for call()
  const int rc = entry_(slots_.data());
  if (rc == 0) return;
  const std::vector<FnArg>& args = proc_->args();
  const std::string which = rc >= 1 && static_cast<size_t>(rc) <= args.size()
                                ? "'" + args[static_cast<size_t>(rc) - 1].name.name() + "'"
                                : "#" + std::to_string(rc);
  throw ArgumentRangeError(proc_->get()->srcinfo,
                           "proc '" + proc_->name() +
                               "' refused its arguments: " + "index argument " + which +
                               " holds a value outside its declared range");
}

void CompiledLibrary::PreparedCall::copy_back(std::vector<ArgValue>& args) const {
  for (size_t i = 0; i < args.size(); ++i) {
    Buffer* b = std::get_if<Buffer>(&args[i]);
    if (!b) continue;
    size_t es = scalar_bytes(b->kind());
    for (int64_t k = 0; k < b->num_elements(); ++k)
      b->set_flat(k, load_native(b->kind(), data_[i].data() + k * es));
  }
}

void CompiledLibrary::call(const std::string& proc_name, std::vector<ArgValue>& args) const {
  PreparedCall c = prepare(proc_name, args);
  c.run();
  c.copy_back(args);
}

std::string compare_compiled_with_interpreter(const Proc& p,
                                              const std::map<std::string, int64_t>& sizes,
                                              uint64_t seed, CompileOptions opts) {
  std::vector<ArgValue> args, copy;
  try {
    args = random_args(p, sizes, seed, {.real_as = ScalarKind::F32});
    copy = deep_copy(args);
    interpret(p, args, {.real_as = ScalarKind::F32});
  } catch (const Error& e) {
    return std::string("the interpreter failed: ") + e.what();
  }
  try {
    std::string lib = "check_" + p.name();
    CompiledLibrary compiled({p}, codegen::is_c_identifier(lib) ? lib : "check", opts);
    compiled.call(p.name(), copy);
  } catch (const Error& e) {
    return std::string("the compiled code failed: ") + e.what();
  }
  // Bit for bit: the C computes what the interpreter does, -0 included; NaN is NaN on both sides
  // (the interpreter's unwritten allocations are NaN, the C's are garbage, which still differs).
  return compare_args(p, args, copy, {.nan_equal = true, .signed_zeros = true});
}

}  // namespace exocpp
