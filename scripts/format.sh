#!/usr/bin/env bash
# Formats the project's C++ with clang-format-14 and the root .clang-format: every tracked *.cc
# and *.h except generated files (a first line saying "do not edit", as opcts/operators.h).
#   scripts/format.sh           reformat in place
#   scripts/format.sh --check   change nothing; list the files that differ, exit 1 if any (CI)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
case ${1:-} in
  "") check=false ;;
  --check) check=true ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
command -v clang-format-14 >/dev/null || scripts/install-deps.sh

files=()
while IFS= read -r f; do
  head -n 1 "$f" | grep -q "do not edit" || files+=("$f")
done < <(git ls-files '*.cc' '*.h')

if ! $check; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 16 -P 2 clang-format-14 -i --style=file
  exit 0
fi
differ=()
for f in "${files[@]}"; do
  clang-format-14 --style=file "$f" | cmp -s - "$f" || differ+=("$f")
done
if [ ${#differ[@]} -gt 0 ]; then
  printf '%s\n' "${differ[@]}"
  echo "format.sh: ${#differ[@]} of ${#files[@]} files differ from .clang-format; scripts/format.sh reformats them" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted"
