// emit_c and the CLI: deterministic output, files written whole or not at all, and
// `exocpp c FILE.exo -o DIR`.
#include <filesystem>
#include <sstream>

#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

namespace fs = std::filesystem;

const char* kSrc = R"(
def leaf(N: size, x: [f32][N] @ DRAM):
    for i in seq(0, N):
        x[i] = 2.0 * x[i]

def top(N: size, A: f32[N, N] @ DRAM):
    for i in seq(0, N):
        leaf(N, A[i, 0:N])
        leaf(N, A[0:N, i])
)";

// A fresh empty folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/exocpp-emit-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  const std::string& path() const { return path_; }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  std::string path_;
};

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(CodegenEmit, SameInputSameBytes) {
  // Two parses: every Sym id differs, the C must not.
  CSource a = compile_procs_to_c({proc_of(kSrc, "top")}, "lib");
  CSource b = compile_procs_to_c({proc_of(kSrc, "top")}, "lib");
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.header, b.header);
}

TEST(CodegenEmit, WritesHeaderAndSource) {
  TempDir d;
  Proc p = proc_of(kSrc, "top");
  emit_c({p}, "mylib", d.path());
  CSource c = compile_procs_to_c({p}, "mylib");
  EXPECT_EQ(d.files(), (std::vector<std::string>{"mylib.c", "mylib.h"}));
  EXPECT_EQ(read(d.path() + "/mylib.c"), c.source);
  EXPECT_EQ(read(d.path() + "/mylib.h"), c.header);
}

TEST(CodegenEmit, FailingEmissionLeavesNoFile) {
  TempDir d;
  std::ofstream(d.path() + "/lib.c") << "old";
  ParseOptions unchecked;
  unchecked.typecheck = false;
  // A window statement over a buffer that is not defined: emission fails midway.
  Module m = parse_module("def bad(x: f32[4] @ DRAM):\n    x[0] = 1.0\n", unchecked);
  Proc bad = m.proc("bad");
  auto node = std::make_shared<ProcNode>(*bad.get());
  node->body.push_back(AssignNode::make(Sym("ghost"), ScalarKind::F32, {ConstNode::make_int(0)},
                                        ConstNode::make_float(1.0), bad.body()[0].srcinfo()));
  EXPECT_THROW(emit_c({Proc(node)}, "lib", d.path()), CodegenError);
  EXPECT_EQ(d.files(), (std::vector<std::string>{"lib.c"}));
  EXPECT_EQ(read(d.path() + "/lib.c"), "old");
}

TEST(CodegenEmit, MissingFolderIsACodegenError) {
  TempDir d;
  std::string missing = d.path() + "/no/such/dir";
  try {
    emit_c({proc_of(kSrc, "top")}, "lib", missing);
    FAIL() << "no CodegenError";
  } catch (const CodegenError& e) {
    EXPECT_NE(e.reason().find(missing), std::string::npos) << e.what();
  }
  EXPECT_TRUE(d.files().empty());
}

#ifdef EXOCPP_CLI_PATH
struct CliRun {
  int status;
  std::string output;
};

CliRun cli(const std::string& args) {
  std::string cmd = std::string(EXOCPP_CLI_PATH) + " " + args + " 2>&1";
  CliRun r{-1, ""};
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) r.output.append(buf, n);
  int st = pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(CodegenCli, EmitsEveryProcOfAFile) {
  TempDir d;
  std::string file = std::string(EXOCPP_TEST_DATA_DIR) + "/corpus/linalg.exo";
  CliRun r = cli("c " + file + " -o " + d.path());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"linalg.c", "linalg.h"}));
  Module m = parse_file(file);
  std::vector<Proc> procs;
  for (const Proc& p : m.procs)
    if (!p.is_instr()) procs.push_back(p);
  EXPECT_EQ(read(d.path() + "/linalg.c"), compile_procs_to_c(procs, "linalg").source);
}

TEST(CodegenCli, NameOption) {
  TempDir d;
  std::string file = std::string(EXOCPP_TEST_DATA_DIR) + "/corpus/conv.exo";
  CliRun r = cli("c " + file + " -o " + d.path() + " --name kernels");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(d.files(), (std::vector<std::string>{"kernels.c", "kernels.h"}));
}

TEST(CodegenCli, MissingOutputFolderOptionPrintsUsage) {
  CliRun r = cli("c " + std::string(EXOCPP_TEST_DATA_DIR) + "/corpus/conv.exo");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("usage: exocpp c FILE.exo -o DIR"), std::string::npos) << r.output;
}

TEST(CodegenCli, HelpDescribesTheAbi) {
  CliRun r = cli("c --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("void *ctxt"), std::string::npos) << r.output;
}
#endif

}  // namespace
}  // namespace exocpp::codegen_test
