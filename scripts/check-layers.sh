#!/usr/bin/env bash
# Fails on an include edge that breaks exocpp's layering (docs/architecture.md, "Layers"):
#
#   core      <- nothing of ours
#   checker   <- core
#   rewrites  <- core, checker
#   codegen   <- core
#   driver    <- core, checker, codegen
#   search    <- core, checker, rewrites, codegen, driver
#   hwlibs    <- the public API (<exocpp/...>) only
#   schedlib  <- the public API and hardware libraries (a user-level scheduling library)
#   examples  <- the public API, hardware libraries and schedlib
#   blas      <- the public API, hardware libraries and schedlib (a library built with it)
#
# An include of a project folder ("core/x.h" or <core/x.h>) from a folder not allowed to see
# it is reported with its file and line. tools/, tests/, bench/ and fuzz/ may include anything.
# Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

# folder -> the project folders its files may include (besides their own folder).
declare -A allowed=(
  [core]=""
  [checker]="core"
  [rewrites]="core checker"
  [codegen]="core"
  [driver]="core checker codegen"
  [search]="core checker rewrites codegen driver"
  [hwlibs]="exocpp"
  [examples]="exocpp hwlibs schedlib"
  [schedlib]="exocpp hwlibs"
  [blas]="exocpp hwlibs schedlib"
)
project_folders="core checker rewrites codegen driver search hwlibs schedlib blas examples tools tests bench fuzz exocpp"

violations=0
for folder in "${!allowed[@]}"; do
  while IFS=: read -r file line text; do
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([A-Za-z_]+)\/.*/\1/' <<<"$text")
    [[ " $project_folders " == *" $target "* ]] || continue  # a system or third-party header
    [[ "$target" == "$folder" ]] && continue
    [[ " ${allowed[$folder]} " == *" $target "* ]] && continue
    echo "$file:$line: $folder/ may not include $target/ ($text)" >&2
    violations=$((violations + 1))
  done < <(git ls-files "$folder" | grep -E '\.(h|cpp|c|cu|cuh|in)$' |
    xargs -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"][A-Za-z_]+/' /dev/null || true)
done
if ((violations)); then
  echo "check-layers: $violations forbidden include edge(s)" >&2
  exit 1
fi
echo "check-layers: no forbidden include edge"
