// The C JIT (c_jit.h): clang's driver turns `clang -c FILE <flags>` into a cc1 invocation (as
// LLVM's examples/clang-interpreter does), the source is fed to it as a remapped in-memory file,
// EmitLLVMOnlyAction produces the optimized module, and an LLJIT for the host compiles it.
#include "driver/c_jit.h"

#include "driver/half_bits.h"

#if EXOCPP_HAVE_C_JIT

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Driver/Tool.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <cmath>
#include <cstdint>
#include <mutex>

namespace exocpp::driver {

struct CJitModule::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

namespace {

std::string take_error(llvm::Error e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::logAllUnhandledErrors(std::move(e), os);
  return os.str();
}

// Half-precision conversions. Clang 14 stores __fp16 (the emitted exo_f16 where _Float16 is
// missing) as an integer and calls __gnu_h2f_ieee / __gnu_f2h_ieee / __truncdfhf2 with i16
// arguments and results; the process's libgcc 12 has _Float16 versions that pass the half in an
// SSE register. The JIT binds these names to the ones below, which round to nearest even once.
float half_to_float(uint16_t h) { return static_cast<float>(half_to_double(h)); }
uint16_t float_to_half(float v) { return double_to_half(v); }

// The codegen level the JIT uses for the module clang optimized at the flags' -O level.
llvm::CodeGenOpt::Level codegen_level(const std::vector<std::string>& flags) {
  llvm::CodeGenOpt::Level level = llvm::CodeGenOpt::Default;
  for (const std::string& f : flags) {
    if (f == "-O0")
      level = llvm::CodeGenOpt::None;
    else if (f == "-O1" || f == "-Os" || f == "-Oz")
      level = llvm::CodeGenOpt::Less;
    else if (f == "-O2" || f == "-O")
      level = llvm::CodeGenOpt::Default;
    else if (f == "-O3" || f == "-Ofast")
      level = llvm::CodeGenOpt::Aggressive;
  }
  return level;
}

}  // namespace

bool c_jit_available() { return true; }

CJitModule::CJitModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CJitModule::~CJitModule() = default;

void* CJitModule::lookup(const std::string& name, std::string* why) const {
  llvm::Expected<llvm::JITEvaluatedSymbol> sym = impl_->jit->lookup(name);
  if (!sym) {
    std::string text = take_error(sym.takeError());
    if (why) *why = text;
    return nullptr;
  }
  return reinterpret_cast<void*>(static_cast<uintptr_t>(sym->getAddress()));
}

CJitResult jit_compile_c(const std::string& source, const std::string& file_name,
                         const std::vector<std::string>& flags) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });

  // Every diagnostic (the driver's and the compiler's) goes to `diags_text`, never to stderr.
  std::string diags_text;
  llvm::raw_string_ostream diags_os(diags_text);
  auto fail = [&](const std::string& what) {
    diags_os.flush();
    std::string msg = what;
    if (!diags_text.empty()) msg += (msg.empty() ? "" : "\n") + diags_text;
    return CJitResult{nullptr, msg};
  };

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diag_opts = new clang::DiagnosticOptions();
  clang::DiagnosticsEngine driver_diags(
      llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs()), &*diag_opts,
      new clang::TextDiagnosticPrinter(diags_os, &*diag_opts));

  // The cc1 arguments of `clang -c FILE <flags>`, from clang's own driver.
  const std::string clang_path = EXOCPP_CLANG_EXECUTABLE;
  clang::driver::Driver drv(clang_path, llvm::sys::getProcessTriple(), driver_diags,
                            "exocpp C JIT");
  drv.setCheckInputsExist(false);
  drv.ResourceDir = EXOCPP_CLANG_RESOURCE_DIR;
  std::vector<std::string> argv_strings = {clang_path, "-c", file_name};
  argv_strings.insert(argv_strings.end(), flags.begin(), flags.end());
  argv_strings.push_back("-fno-color-diagnostics");
  std::vector<const char*> argv;
  for (const std::string& a : argv_strings) argv.push_back(a.c_str());
  std::unique_ptr<clang::driver::Compilation> comp(drv.BuildCompilation(argv));
  if (!comp || driver_diags.hasErrorOccurred()) return fail("clang's driver rejected the flags");
  const clang::driver::JobList& jobs = comp->getJobs();
  if (jobs.size() != 1 || !llvm::isa<clang::driver::Command>(*jobs.begin()))
    return fail("the flags do not make one compilation of one C file");
  const auto& cmd = llvm::cast<clang::driver::Command>(*jobs.begin());
  if (llvm::StringRef(cmd.getCreator().getName()) != "clang")
    return fail("the flags do not make a clang compilation");

  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, cmd.getArguments(), driver_diags) ||
      driver_diags.hasErrorOccurred())
    return fail("clang rejected the compiler arguments");
  invocation->getFrontendOpts().DisableFree = false;  // the driver's default leaks on purpose
  invocation->getPreprocessorOpts().addRemappedFile(
      file_name, llvm::MemoryBuffer::getMemBufferCopy(source, file_name).release());

  clang::CompilerInstance ci;
  ci.setInvocation(invocation);
  ci.createDiagnostics(new clang::TextDiagnosticPrinter(diags_os, &ci.getDiagnosticOpts()), true);
  ci.setVerboseOutputStream(diags_os);  // "N errors generated."
  auto context = std::make_unique<llvm::LLVMContext>();
  clang::EmitLLVMOnlyAction action(context.get());
  if (!ci.ExecuteAction(action)) return fail("");
  std::unique_ptr<llvm::Module> module = action.takeModule();
  if (!module) return fail("clang produced no module");

  // The first external function: looking it up makes LLJIT compile (and link) the module now,
  // so that an unresolved symbol is an error here rather than at the first call.
  std::string first_function;
  for (const llvm::Function& f : *module)
    if (!f.isDeclaration() && !f.hasLocalLinkage()) {
      first_function = f.getName().str();
      break;
    }

  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return fail(take_error(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(codegen_level(flags));
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) return fail(take_error(jit.takeError()));
  // Link errors (an undefined symbol) go into the error text instead of LLVM's default report on
  // stderr. The reporter outlives this function with the JIT, so it keeps its own string.
  auto session_errors = std::make_shared<std::string>();
  (*jit)->getExecutionSession().setErrorReporter(
      [session_errors](llvm::Error e) { *session_errors += take_error(std::move(e)); });
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      (*jit)->getDataLayout().getGlobalPrefix());
  if (!process) return fail(take_error(process.takeError()));
  (*jit)->getMainJITDylib().addGenerator(std::move(*process));
  llvm::orc::SymbolMap half_runtime;
  auto bind = [&](const char* name, auto* fn) {
    half_runtime[(*jit)->mangleAndIntern(name)] =
        llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(fn),
                                 llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable);
  };
  bind("__gnu_h2f_ieee", &half_to_float);
  bind("__extendhfsf2", &half_to_float);
  bind("__gnu_f2h_ieee", &float_to_half);
  bind("__truncsfhf2", &float_to_half);
  bind("__truncdfhf2", &double_to_half);
  if (llvm::Error e = (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(half_runtime)))
    return fail(take_error(std::move(e)));
  module->setDataLayout((*jit)->getDataLayout());
  if (llvm::Error e =
          (*jit)->addIRModule(llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return fail(take_error(std::move(e)));
  if (!first_function.empty()) {
    auto sym = (*jit)->lookup(first_function);
    if (!sym) {
      std::string why = take_error(sym.takeError());
      return fail("the JIT could not link " + file_name + ": " + *session_errors + why);
    }
  }
  auto impl = std::make_unique<CJitModule::Impl>();
  impl->jit = std::move(*jit);
  return CJitResult{std::make_unique<CJitModule>(std::move(impl)), ""};
}

}  // namespace exocpp::driver

#else  // !EXOCPP_HAVE_C_JIT

namespace exocpp::driver {

struct CJitModule::Impl {};

bool c_jit_available() { return false; }

CJitModule::CJitModule(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CJitModule::~CJitModule() = default;
void* CJitModule::lookup(const std::string&, std::string*) const { return nullptr; }

CJitResult jit_compile_c(const std::string&, const std::string&, const std::vector<std::string>&) {
  return CJitResult{nullptr, "exocpp was built without the C JIT (LLVM 14 and libclang-cpp)"};
}

}  // namespace exocpp::driver

#endif
