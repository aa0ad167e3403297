// The print/parse round trip over the corpus (tests/corpus/*.exo, written in canonical printed
// form): for every proc, parse -> print gives back its source text exactly, and
// parse -> print -> parse -> print is stable. One test per file/proc, plus one per file for the
// whole module.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "core/externs.h"
#include "core/parser.h"
#include "core/printer.h"

namespace exocpp {
namespace {

namespace fs = std::filesystem;

std::string corpus_dir() { return std::string(EXOCPP_TEST_DATA_DIR) + "/corpus"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  if (!fs::is_directory(corpus_dir())) return files;
  for (const auto& e : fs::directory_iterator(corpus_dir()))
    if (e.path().extension() == ".exo") files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A corpus file split at top-level blank lines into items (configs and procs, each with its
// decorator), the header comment dropped. Canonical text has no blank line inside an item.
struct Item {
  std::string text;
  bool is_config = false;
  std::string name;  // proc or config name
};

std::string name_after(const std::string& text, const std::string& keyword) {
  size_t p = text.find(keyword);
  if (p == std::string::npos) return "";
  p += keyword.size();
  size_t e = text.find_first_of("(:", p);
  return text.substr(p, e == std::string::npos ? std::string::npos : e - p);
}

std::vector<Item> split_items(const std::string& source) {
  std::vector<Item> items;
  std::istringstream in(source);
  std::string line, cur;
  auto flush = [&] {
    if (cur.empty()) return;
    bool comment_only = true;
    std::istringstream lines(cur);
    std::string l;
    while (std::getline(lines, l))
      if (!l.empty() && l[0] != '#') comment_only = false;
    if (!comment_only) {
      Item it;
      it.text = cur;
      it.is_config = cur.rfind("config ", 0) == 0;
      if (it.is_config)
        it.name = name_after(cur, "config ");
      else  // a proc, maybe under its @instr line
        it.name = name_after(cur, cur.rfind("def ", 0) == 0 ? "def " : "\ndef ");
      items.push_back(std::move(it));
    }
    cur.clear();
  };
  while (std::getline(in, line)) {
    if (line.empty()) {
      flush();
      continue;
    }
    cur += line + "\n";
  }
  flush();
  return items;
}

// The module text without the header comment: what printing the parsed module must give.
std::string canonical_module_text(const std::string& source) {
  std::string out;
  for (const Item& it : split_items(source)) {
    if (!out.empty()) out += "\n";
    out += it.text;
  }
  return out;
}

// Parsed once per file, shared by the tests of its procs.
const Module& parsed(const std::string& file) {
  static std::map<std::string, Module> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::string path = corpus_dir() + "/" + file;
    it = cache.emplace(file, parse_module(read_text(path), {}, path)).first;
  }
  return it->second;
}

struct ProcCase {
  std::string file;
  std::string proc;
  std::string source;  // the proc's text in the corpus
};
// How gtest names a case in failure messages.
void PrintTo(const ProcCase& c, std::ostream* os) { *os << c.file << ":" << c.proc; }

std::vector<ProcCase> proc_cases() {
  std::vector<ProcCase> cases;
  for (const std::string& f : corpus_files())
    for (const Item& it : split_items(read_text(corpus_dir() + "/" + f)))
      if (!it.is_config) cases.push_back({f, it.name, it.text});
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<ProcCase>& info) {
  std::string stem = info.param.file.substr(0, info.param.file.rfind('.'));
  std::string n = stem + "_" + info.param.proc;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

class RoundTripProc : public ::testing::TestWithParam<ProcCase> {};

TEST_P(RoundTripProc, PrintsItsSourceText) {
  const ProcCase& c = GetParam();
  Proc p = parsed(c.file).proc(c.proc);
  EXPECT_EQ(to_string(p), c.source);
}

TEST_P(RoundTripProc, ReparsedPrintIsIdentical) {
  const ProcCase& c = GetParam();
  const Module& m = parsed(c.file);
  Proc p = m.proc(c.proc);
  std::string first = to_string(p);
  // The printed proc alone, with the module's configs and other procs in scope for its calls.
  ParseOptions opts;
  opts.configs = m.configs;
  for (const Proc& q : m.procs)
    if (!q.same_as(p)) opts.procs.push_back(q);
  Module again = parse_module(first, opts, c.file + ":" + c.proc + " (printed)");
  ASSERT_EQ(again.procs.size(), 1u);
  EXPECT_EQ(to_string(again.procs[0]), first);
}

INSTANTIATE_TEST_SUITE_P(Corpus, RoundTripProc, ::testing::ValuesIn(proc_cases()), case_name);

class RoundTripFile : public ::testing::TestWithParam<std::string> {};

TEST_P(RoundTripFile, ModulePrintsAsTheFile) {
  const std::string& f = GetParam();
  EXPECT_EQ(to_string(parsed(f)), canonical_module_text(read_text(corpus_dir() + "/" + f)));
}

TEST_P(RoundTripFile, ModuleReparsesToTheSamePrint) {
  std::string first = to_string(parsed(GetParam()));
  EXPECT_EQ(to_string(parse_module(first, {}, GetParam() + " (printed)")), first);
}

INSTANTIATE_TEST_SUITE_P(Corpus, RoundTripFile, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param.substr(0, info.param.rfind('.'));
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

// The corpus is large enough to exercise the language: at least 40 procs over several files.
TEST(RoundTripCorpus, HasAtLeastFortyProcsInSeveralFiles) {
  EXPECT_GE(proc_cases().size(), 40u);
  EXPECT_GE(corpus_files().size(), 3u);
}

// ---- random expression trees ------------------------------------------------------------------
// Minimal parentheses are right only if the parser rebuilds the very tree the printer was given.

// Structural equality: same kinds, operators, symbols, literal values and shapes of subtrees.
bool same_tree(const Expr& a, const Expr& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ExprKind::Read: {
      const ReadNode *x = a.as<ReadNode>(), *y = b.as<ReadNode>();
      if (x->name != y->name || x->idx.size() != y->idx.size()) return false;
      for (size_t i = 0; i < x->idx.size(); ++i)
        if (!same_tree(x->idx[i], y->idx[i])) return false;
      return true;
    }
    case ExprKind::Const:
      return a.as<ConstNode>()->val == b.as<ConstNode>()->val && a.type().base == b.type().base;
    case ExprKind::USub:
      return same_tree(a.as<USubNode>()->arg, b.as<USubNode>()->arg);
    case ExprKind::BinOp: {
      const BinOpNode *x = a.as<BinOpNode>(), *y = b.as<BinOpNode>();
      return x->op == y->op && same_tree(x->lhs, y->lhs) && same_tree(x->rhs, y->rhs);
    }
    case ExprKind::Extern: {
      const ExternNode *x = a.as<ExternNode>(), *y = b.as<ExternNode>();
      if (x->fn != y->fn || x->args.size() != y->args.size()) return false;
      for (size_t i = 0; i < x->args.size(); ++i)
        if (!same_tree(x->args[i], y->args[i])) return false;
      return true;
    }
    case ExprKind::WindowExpr:
    case ExprKind::StrideExpr:
    case ExprKind::ReadConfig:
      return to_string(a) == to_string(b);  // not generated below
  }
  return false;
}

// Builds well-typed random trees over every operator and precedence level.
class TreeGen {
 public:
  // With fold_minus, a minus is never put over a literal (the parser reads `-3` as the literal
  // -3, so such a tree cannot come back); without, it may be, and only the print is stable.
  explicit TreeGen(uint64_t seed, bool fold_minus = true) : fold_minus_(fold_minus), rng_(seed) {
    for (const char* n : {"i", "j", "n"}) ints_.push_back({Sym(n), Type(ScalarKind::Index)});
    for (const char* n : {"x", "y"}) data_.push_back({Sym(n), Type(ScalarKind::F32)});
    bools_.push_back({Sym("b"), Type(ScalarKind::Bool)});
  }
  std::vector<ScopeVar> scope() const {
    std::vector<ScopeVar> all = ints_;
    all.insert(all.end(), data_.begin(), data_.end());
    all.insert(all.end(), bools_.begin(), bools_.end());
    return all;
  }
  Expr index_expr(int depth) {
    int pick = roll(depth <= 0 ? 2 : 5);
    if (pick == 0) return ConstNode::make_int(roll(21) - 10);
    if (pick == 1) return ReadNode::make(ints_[roll(3)].sym, {}, ScalarKind::Index);
    if (pick == 2) return USubNode::make(ReadNode::make(ints_[roll(3)].sym, {}, ScalarKind::Index));
    static const BinOpKind ops[] = {BinOpKind::Add, BinOpKind::Sub, BinOpKind::Mul, BinOpKind::Div,
                                    BinOpKind::Mod};
    if (pick == 3) return neg(index_expr(depth - 1));
    return BinOpNode::make(ops[roll(5)], index_expr(depth - 1), index_expr(depth - 1));
  }
  Expr bool_expr(int depth) {
    int pick = roll(depth <= 0 ? 2 : 5);
    if (pick == 0) return ConstNode::make_bool(roll(2) == 0);
    if (pick == 1) return ReadNode::make(bools_[0].sym, {}, ScalarKind::Bool);
    static const BinOpKind cmps[] = {BinOpKind::Lt, BinOpKind::Le, BinOpKind::Gt, BinOpKind::Ge,
                                     BinOpKind::Eq};
    if (pick == 2)
      return BinOpNode::make(cmps[roll(5)], index_expr(depth - 1), index_expr(depth - 1));
    if (pick == 3)
      return BinOpNode::make(BinOpKind::Eq, bool_expr(depth - 1), bool_expr(depth - 1));
    return BinOpNode::make(roll(2) ? BinOpKind::And : BinOpKind::Or, bool_expr(depth - 1),
                           bool_expr(depth - 1));
  }
  Expr data_expr(int depth) {
    int pick = roll(depth <= 0 ? 2 : 6);
    if (pick == 0) return ConstNode::make_float((roll(2001) - 1000) / 8.0);
    if (pick == 1) return ReadNode::make(data_[roll(2)].sym, {}, ScalarKind::F32);
    static const BinOpKind ops[] = {BinOpKind::Add, BinOpKind::Sub, BinOpKind::Mul, BinOpKind::Div};
    if (pick == 2) return neg(data_expr(depth - 1));
    if (pick == 3)
      return ExternNode::make(find_extern("select"), {data_expr(depth - 1), data_expr(depth - 1),
                                                      data_expr(depth - 1), data_expr(depth - 1)});
    return BinOpNode::make(ops[roll(4)], data_expr(depth - 1), data_expr(depth - 1));
  }

 private:
  Expr neg(Expr e) const {
    return fold_minus_ && e.is<ConstNode>() ? e : USubNode::make(std::move(e));
  }
  bool fold_minus_;
  int roll(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  std::mt19937_64 rng_;
  std::vector<ScopeVar> ints_, data_, bools_;
};

void expect_reparses(const Expr& e, const std::vector<ScopeVar>& scope) {
  std::string text = to_string(e);
  Expr back = parse_expr(text, scope);
  EXPECT_TRUE(same_tree(e, back)) << text << "\n  reparsed as " << to_string(back);
}

TEST(RoundTripExpr, RandomIndexTreesReparseToTheSameTree) {
  TreeGen g(1);
  for (int n = 0; n < 1000; ++n) expect_reparses(g.index_expr(5), g.scope());
}

TEST(RoundTripExpr, RandomConditionsReparseToTheSameTree) {
  TreeGen g(2);
  for (int n = 0; n < 1000; ++n) expect_reparses(g.bool_expr(4), g.scope());
}

TEST(RoundTripExpr, RandomDataTreesReparseToTheSameTree) {
  TreeGen g(3);
  for (int n = 0; n < 1000; ++n) expect_reparses(g.data_expr(4), g.scope());
}

TEST(RoundTripExpr, MinusOverLiteralsPrintsStably) {
  TreeGen g(4, /*fold_minus=*/false);
  for (int n = 0; n < 1000; ++n) {
    Expr e = n % 2 ? g.index_expr(5) : g.data_expr(4);
    std::string text = to_string(e);
    EXPECT_EQ(to_string(parse_expr(text, g.scope())), text);
  }
}

}  // namespace
}  // namespace exocpp
