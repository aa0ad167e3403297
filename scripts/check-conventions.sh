#!/usr/bin/env bash
# Fails where the rewrite layer breaks a convention that keeps each concept in one place
# (docs/architecture.md, "The life of a scheduling operation"):
#
#   - the operation's name is written once, as the string literal its `rw::run_op` opens the
#     frame with; no helper takes it as a parameter (`rw::current_op()` reads it), and no
#     operation keeps it in a variable.
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

# Forwarding is described once: an operation file (rewrites/*.cpp) names no `ForwardFn` and
# calls no `.remap(`; it describes its edit with rw::Edit's verbs (rewrites/internal/edit.h, which
# builds them on core/forward.h and so may name ForwardFn).
report "hand-written forwarding in an operation (use an rw::Edit verb, rewrites/internal/edit.h)" \
  < <(grep -nE '\bForwardFn\b|\.remap\(' rewrites/*.cpp || true)

if [ "$violations" -gt 0 ]; then
  echo "check-conventions: $violations violation(s)"
  exit 1
fi
echo "check-conventions: clean"
