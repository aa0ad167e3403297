#!/usr/bin/env bash
# Fails where the rewrite layer breaks a convention that keeps each concept in one place
# (docs/architecture.md, "The life of a scheduling operation"):
#
#   - the operation's name is written once, as the string literal its `rw::run_op` opens the
#     frame with; no helper takes it as a parameter (`rw::current_op()` reads it), and no
#     operation keeps it in a variable.
#   - every refusal names a reason of the one table (core/reasons.h): each `fail(` call in
#     rewrites/ takes a `reason::k...` first, and each `SchedulingError(` construction in core/ and
#     rewrites/ takes one (or retells a caught refusal, keeping its reason); and the table of
#     docs/scheduling.md lists exactly the table's ids, each with its code.
#   - forwarding is described with rw::Edit's verbs, and expressions with expr_build.h's
#     builders, never by hand in an operation file.
#   - every file of rewrites/ has its test file, and tests/rewrites/ holds only such files.
#
# Each violation is printed with its file and line. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

violations=0
report() {  # report TITLE < grep output
  local hits
  hits="$(cat)"
  if [ -n "$hits" ]; then
    echo "check-conventions: $1:"
    echo "$hits" | sed 's/^/  /'
    violations=$((violations + $(echo "$hits" | wc -l)))
  fi
}

# An operation-name parameter (validate.h's functions take the name of the operation whose
# result they compare, which is data, not a name for a refusal).
report "an operation name passed as a parameter or kept in a variable (use rw::current_op())" \
  < <(grep -rnE '(std::string&|std::string|char\*) (op|op_name|kOp)\b *[,)=]' rewrites \
    --include='*.h' --include='*.cpp' | grep -vE '^rewrites/(validate\.(h|cpp)|internal/operation\.h):' || true)
# run_op opened with anything but the operation's name as a literal.
report "rw::run_op not opened with a string literal" \
  < <(grep -rnE 'run_op\(\s*[^"[:space:]]' rewrites --include='*.cpp' || true)

# Every refusal names a reason: a `fail(` call in rewrites/ whose first argument is not
# `reason::k...`, or a `SchedulingError(` construction in core/ or rewrites/ that neither names
# one nor retells a caught refusal (op, e, text). Comments are skipped; a declaration
# (`void fail(`) is not a call; the frame (operation.cpp) passes on its callers' reason (`why`).
report "a refusal without a reason of core/reasons.h" \
  < <(find rewrites core -name '*.cpp' -o -name '*.h' | sort | xargs perl -0777 -ne '
    my $file = $ARGV; my $src = $_;
    $src =~ s{//[^\n]*}{ " " x length($&) }ge;
    my $args_at = sub {  # the top-level arguments of the call whose "(" is at $_[0]
      my ($i, $depth, $cur, @args) = ($_[0] + 1, 1, "");
      while ($i < length($src) && $depth > 0) {
        my $ch = substr($src, $i++, 1);
        if ($ch eq q(")) { my $j = $i; $j++ while $j < length($src) && substr($src, $j, 1) ne q(") && (substr($src, $j, 1) ne "\\" || $j++); $cur .= substr($src, $i - 1, $j - $i + 2); $i = $j + 1; next; }
        $depth++ if $ch =~ /[(\[{]/; $depth-- if $ch =~ /[)\]}]/;
        if ($depth == 1 && $ch eq ",") { push @args, $cur; $cur = ""; next; }
        $cur .= $ch if $depth > 0;
      }
      push @args, $cur; s/^\s+|\s+$//g for @args; return @args;
    };
    my $line_of = sub { 1 + (substr($src, 0, $_[0]) =~ tr/\n//) };
    my $frame = $file eq "rewrites/internal/operation.cpp";  # passes on the reason its caller named
    while ($file =~ m{^rewrites/} && $src =~ /(?<![\w.>])(?:rw::)?fail\(/g) {
      my $open = pos($src) - 1; my $before = substr($src, 0, $open);
      next if $before =~ /void\s+(?:rw::)?fail\s*$/;  # a declaration or definition
      my @a = $args_at->($open);
      print "$file:", $line_of->($open), ": fail($a[0], ...)\n" unless $a[0] =~ /^reason::k\w+$/ || ($frame && $a[0] eq "why");
    }
    while ($src =~ /(?<![\w:])SchedulingError\(/g) {
      my $open = pos($src) - 1; my $before = substr($src, 0, $open);
      next if $before =~ /(?:const|class)\s+$/;
      my @a = $args_at->($open);
      next if $a[0] =~ /^std::string op$/;  # the constructors themselves
      next if @a >= 2 && ($a[1] =~ /^reason::k\w+$/ || ($frame && $a[1] eq "why"));
      next if @a == 3 && $a[1] =~ /^\*?(?:e|s|cause)$/;  # retells a caught refusal
      print "$file:", $line_of->($open), ": SchedulingError(", join(", ", @a[0 .. ($#a < 1 ? $#a : 1)]), ", ...)\n";
    }' || true)
# The reason table of docs/scheduling.md (rows "| `id` | `Code` | meaning |") lists exactly the
# ids of core/reasons.h, each with its code.
reasons_in_code="$(perl -0777 -ne 's/\\\n/ /g; print "$1 $2\n" while /X\(\s*k\w+,\s*"([^"]+)",\s*(\w+),/g' core/reasons.h | sort)"
reasons_in_docs="$(perl -ne 'print "$1 $2\n" if /^\| `([a-z_]+\.[a-z_]+)` \| `(\w+)` \|/' docs/scheduling.md | sort)"
report "a reason of core/reasons.h that docs/scheduling.md does not list with its code" \
  < <(comm -23 <(echo "$reasons_in_code") <(echo "$reasons_in_docs") | grep . || true)
report "a reason in docs/scheduling.md's table that core/reasons.h does not have (with that code)" \
  < <(comm -13 <(echo "$reasons_in_code") <(echo "$reasons_in_docs") | grep . || true)
# Forwarding is described once: an operation file (rewrites/*.cpp) names no `ForwardFn` and
# calls no `.remap(`; it describes its edit with rw::Edit's verbs (rewrites/internal/edit.h, which
# builds them on core/forward.h and so may name ForwardFn).
report "hand-written forwarding in an operation (use an rw::Edit verb, rewrites/internal/edit.h)" \
  < <(grep -nE '\bForwardFn\b|\.remap\(' rewrites/*.cpp || true)
# Expressions are built with rewrites/internal/expr_build.h's builders: an operation file
# constructs no BinOpNode, no integer constant and no index-variable read itself (the builders
# say which arithmetic folds and which must stay exact).
report "raw expression construction in an operation (use rewrites/internal/expr_build.h)" \
  < <(grep -nE '\bBinOpNode::make\b|\bConstNode::make_int\b|ReadNode::make\([^;]*ScalarKind::Index' \
    rewrites/*.cpp || true)
# Tests live with what they test: every file of rewrites/ has its test file,
# tests/<folder>/<name>_test.cpp (or <name>_<aspect>_test.cpp); and every test file of
# tests/rewrites/ is named after a file of rewrites/ or rewrites/internal/ (properties of all
# operations live in tests/properties/).
report "a file of rewrites/ without its test file (tests/<folder>/<name>_test.cpp)" \
  < <(for f in rewrites/*.cpp; do
        n="$(basename "$f" .cpp)"
        compgen -G "tests/*/${n}_test.cpp" > /dev/null || compgen -G "tests/*/${n}_*_test.cpp" \
          > /dev/null || echo "$f"
      done)
report "a test file of tests/rewrites/ not named after a file of rewrites/ or rewrites/internal/" \
  < <(for t in tests/rewrites/*_test.cpp; do
        n="$(basename "$t" _test.cpp)"
        found=""
        while [ -n "$n" ]; do
          if [ -f "rewrites/$n.cpp" ] || [ -f "rewrites/internal/$n.cpp" ]; then found=1; break; fi
          [[ "$n" == *_* ]] || break
          n="${n%_*}"
        done
        [ -n "$found" ] || echo "$t"
      done)

if [ "$violations" -gt 0 ]; then
  echo "check-conventions: $violations violation(s)"
  exit 1
fi
echo "check-conventions: clean"
