// The Gemmini library's C++ side: the GEMM_SCRATCH and GEMM_ACCUM memories, the acc_scale
// extern, and the instructions of the embedded gemmini.exo, parsed once on first use.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gemmini_model_c_text.h"
#include "gemmini_model_h_text.h"
#include "hwlibs/embedded_exo.h"
#include "hwlibs/gemmini/gemmini.h"

namespace exocpp::gemmini {
namespace detail {
// Generated at build time (hwlibs/embed_exo.cmake).
extern const EmbeddedExo embedded_exo_files[];
extern const int embedded_exo_count;
}  // namespace detail

namespace {

std::string without_blanks_and_parens(const std::string& s) {
  std::string t;
  for (char c : s)
    if (c != ' ' && c != '(' && c != ')') t += c;
  return t;
}

// A local memory of the accelerator: the emitted C holds a buffer as the uint32_t address of its
// first row (what the model's allocator returns), and an element's address as the row it
// starts (gemmini_row checks that it starts one). Only instructions touch it, through
// {name_data}.
class LocalMemory : public Memory {
 public:
  LocalMemory(std::string name, std::string c_elem, std::string exo_elem, std::string alloc_fn,
              std::string free_fn)
      : name_(std::move(name)),
        c_elem_(std::move(c_elem)),
        exo_elem_(std::move(exo_elem)),
        alloc_fn_(std::move(alloc_fn)),
        free_fn_(std::move(free_fn)) {}

  std::string name() const override { return name_; }
  bool can_read() const override { return false; }
  bool addressable() const override { return false; }
  std::string global() const override { return "#include \"gemmini_model.h\""; }

  std::string alloc(const std::string& new_name, const std::string& prim_type,
                    const std::vector<std::string>& shape, const SrcInfo& where) const override {
    if (prim_type != c_elem_ || shape.empty() || without_blanks_and_parens(shape.back()) != "16")
      throw CodegenError(where, "'" + new_name + "' cannot live in " + name_ +
                                    ": its rows hold 16 " + exo_elem_ +
                                    " values, so a buffer there is " + exo_elem_ +
                                    "[..., 16] (rows, then the 16 columns of a row)");
    std::string rows;
    for (size_t d = 0; d + 1 < shape.size(); ++d)
      rows += (rows.empty() ? "" : " * ") + std::string("(") + shape[d] + ")";
    return "uint32_t " + new_name + " = " + alloc_fn_ + "(" + (rows.empty() ? "1" : rows) + ");";
  }
  std::string free(const std::string& new_name, const std::string&, const std::vector<std::string>&,
                   const SrcInfo&) const override {
    return free_fn_ + "(" + new_name + ");";
  }
  std::string window(const std::string&, const std::string& baseptr,
                     const std::vector<std::string>& indices,
                     const std::vector<std::string>& strides, const SrcInfo&) const override {
    std::string offset;
    for (size_t d = 0; d < indices.size() && d < strides.size(); ++d)
      offset += (offset.empty() ? "" : " + ") + std::string("(") + indices[d] + ") * (" +
                strides[d] + ")";
    return "gemmini_row(" + baseptr + ", " + (offset.empty() ? "0" : offset) + ")";
  }

 private:
  std::string name_, c_elem_, exo_elem_, alloc_fn_, free_fn_;
};

// acc_scale(x, scale): what the store path does to an accumulator value on its way to int8.
// The interpreter and the emitted C compute it the same way: a float product, rounded to
// nearest with ties to even (the default rounding mode), saturated; NaN gives 0.
class AccScale : public ExternFn {
 public:
  std::string name() const override { return "acc_scale"; }
  int arity() const override { return 2; }
  std::string check_args(const std::vector<Expr>& args) const override {
    if (args.size() != 2) return "acc_scale() takes 2 arguments";
    ScalarKind x = args[0].type().base, s = args[1].type().base;
    if (!args[0].type().is_scalar() || !is_data(x) || is_float(x))
      return "argument 1 of acc_scale (the accumulator value) must be an integer precision";
    if (!args[1].type().is_scalar() || (s != ScalarKind::F32 && s != ScalarKind::R))
      return "argument 2 of acc_scale (the scale) must be f32";
    return "";
  }
  ScalarKind result_type(const std::vector<Expr>& args) const override {
    return check_args(args).empty() ? ScalarKind::I8 : ScalarKind::Error;
  }
  double interpret(const std::vector<double>& a) const override {
    float v = static_cast<float>(static_cast<int32_t>(a[0])) * static_cast<float>(a[1]);
    if (std::isnan(v)) return 0;
    v = std::nearbyint(v);
    return v > 127.0f ? 127.0 : v < -128.0f ? -128.0 : static_cast<double>(v);
  }
  std::string compile(const std::vector<std::string>& a, ScalarKind) const override {
    return "exocpp_acc_scale((int32_t)(" + a[0] + "), (float)(" + a[1] + "))";
  }
  std::string c_global(ScalarKind) const override {
    return "#include <math.h>\n#include <stdint.h>\n"
           "static inline int8_t exocpp_acc_scale(int32_t x, float scale) {\n"
           "  float v = (float)x * scale;\n"
           "  if (v != v) return 0;\n"
           "  v = nearbyintf(v);\n"
           "  return v > 127.0f ? 127 : v < -128.0f ? -128 : (int8_t)v;\n"
           "}";
  }
};

Module parse_library() {
  register_library();
  return parse_embedded_exo(detail::embedded_exo_files, detail::embedded_exo_count);
}

}  // namespace

void register_library() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_memory(std::make_shared<LocalMemory>("GEMM_SCRATCH", "int8_t", "i8",
                                                  "gemmini_spad_alloc", "gemmini_spad_free"));
    register_memory(std::make_shared<LocalMemory>("GEMM_ACCUM", "int32_t", "i32",
                                                  "gemmini_acc_alloc", "gemmini_acc_free"));
    register_extern(std::make_shared<AccScale>());
  });
}

const Memory& GEMM_SCRATCH() {
  register_library();
  return *find_memory("GEMM_SCRATCH");
}
const Memory& GEMM_ACCUM() {
  register_library();
  return *find_memory("GEMM_ACCUM");
}

const Module& library() {
  static const Module m = parse_library();
  return m;
}

const Proc& instr(const std::string& name) { return library_proc(library(), name, "gemmini"); }

Config config(const std::string& name) {
  for (const Config& c : library().configs)
    if (c->name == name) return c;
  throw InternalError("gemmini: no config named " + name);
}

std::vector<std::string> instruction_names() { return library_proc_names(library()); }

namespace {

// A private folder holding the model's header and C source, written once per process from the
// copies embedded in the library and removed at exit: compiling against the model then needs
// neither the source tree nor an installed .c file.
class ModelFolder {
 public:
  ModelFolder() {
    namespace fs = std::filesystem;
    std::string tmpl = (fs::temp_directory_path() / "exocpp-gemmini-model-XXXXXX").string();
    if (!mkdtemp(tmpl.data()))
      throw CodegenError({}, "gemmini: cannot create a folder for the model's C source under " +
                                 fs::temp_directory_path().string() + ": " + std::strerror(errno));
    dir_ = tmpl;
    write("gemmini_model.h", EXOCPP_GEMMINI_MODEL_H_TEXT);
    write("gemmini_model.c", EXOCPP_GEMMINI_MODEL_C_TEXT);
  }
  ~ModelFolder() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ModelFolder(const ModelFolder&) = delete;
  ModelFolder& operator=(const ModelFolder&) = delete;
  const std::string& dir() const { return dir_; }

 private:
  void write(const std::string& name, const char* text) {
    std::ofstream out(dir_ + "/" + name, std::ios::binary);
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
      throw CodegenError({}, "gemmini: cannot write " + dir_ + "/" + name);
    }
  }
  std::string dir_;
};

}  // namespace

CompileOptions model_compile_options(CompileOptions base) {
  static const ModelFolder folder;  // thread-safe once; retried if it threw
  base.flags.push_back("-I" + folder.dir());
  base.flags.push_back(folder.dir() + "/gemmini_model.c");
  return base;
}

}  // namespace exocpp::gemmini
