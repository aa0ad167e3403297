// Every proc of the corpus (tests/corpus/*.exo) is emitted and the C compiles warning-free with
// gcc and clang at -std=c99 -Wall -Wextra -Werror.
#include "codegen_test_util.h"

namespace exocpp::codegen_test {
namespace {

const char* kStrict = "-std=c99 -Wall -Wextra -Werror -O1";

std::vector<Proc> corpus_procs(const std::string& file) {
  Module m = parse_file(std::string(EXOCPP_TEST_DATA_DIR) + "/corpus/" + file);
  std::vector<Proc> out;
  for (const Proc& p : m.procs)
    if (!p.is_instr()) out.push_back(p);
  return out;
}

class CodegenCorpus : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(CodegenCorpus, CompilesWarningFree) {
  auto [file, compiler] = GetParam();
  std::vector<Proc> procs = corpus_procs(file);
  ASSERT_FALSE(procs.empty());
  CSource c = compile_procs_to_c(procs, "corpus");
  EXPECT_EQ(compile_object(c, "corpus", compiler, kStrict), "") << c.source;
}

INSTANTIATE_TEST_SUITE_P(AllFiles, CodegenCorpus,
                         ::testing::Combine(::testing::Values("conv.exo", "language.exo",
                                                              "linalg.exo"),
                                            ::testing::Values("gcc", "clang")),
                         [](const auto& info) {
                           std::string f = std::get<0>(info.param);
                           return f.substr(0, f.find('.')) + "_" + std::get<1>(info.param);
                         });

// instr.exo's templates are written against DRAM buffers for the printer's sake (an __m256
// stored into a float element), so they are not valid C: the file must still emit, with every
// template expanded, and its instruction-free procs must compile.
TEST(CodegenCorpusInstr, EmitsEveryProcAndCompilesThoseWithoutVectorTemplates) {
  CSource all = compile_procs_to_c(corpus_procs("instr.exo"), "corpus");
  EXPECT_NE(all.source.find("_mm256_fmadd_ps("), std::string::npos) << all.source;
  EXPECT_NE(all.source.find("config_ld(M, \"scaled\");"), std::string::npos) << all.source;
  Module m = parse_file(std::string(EXOCPP_TEST_DATA_DIR) + "/corpus/instr.exo");
  CSource c = compile_procs_to_c({m.proc("flagged_accumulate")}, "corpus");
  for (const char* cc : {"gcc", "clang"})
    EXPECT_EQ(compile_object(c, "corpus", cc, kStrict), "") << cc << "\n" << c.source;
}

}  // namespace
}  // namespace exocpp::codegen_test
