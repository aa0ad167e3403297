#!/usr/bin/env bash
# Fails when a tracked C or C++ file is not formatted as .clang-format says (clang-format 14,
# Debian 12's). Lists every such file; `clang-format -i FILE` fixes one. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
bad=()
while IFS= read -r f; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done < <(git ls-files '*.h' '*.cpp' '*.c' '*.cu' '*.cuh')
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) not clang-format clean:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "fix with: clang-format -i FILE..." >&2
  exit 1
fi
echo "check-format: $(git ls-files '*.h' '*.cpp' '*.c' '*.cu' '*.cuh' | wc -l) files clean"
