#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Licence headers: every tracked source file carries `SPDX-License-Identifier: Apache-2.0` in its
# first 3 lines (line 1, or line 2 after a shebang or <!DOCTYPE>). Source = a tracked file named
# *.java *.p4 *.sh *.c *.h *.py *.go *.js *.mjs *.css *.html *.lua or Makefile, or any tracked file
# starting with `#!`. Not source (docs/style.md "Licence headers"): data and configuration
# (JSON, YAML, CSV, Markdown, XML build files, go.mod/go.sum, lock and package lists), generated
# P4 output. Checkstyle checks the .java files too; this step covers every language.
# Reads `git ls-files`, so it needs a git checkout. Budget: ~2 s (one head per file).
set -uo pipefail
cd "$(dirname "$0")/../.."
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "05-spdx: not a git checkout (the step lists the tracked files with git ls-files)"
  echo "0 passed, 1 failed"; exit 1
fi
SOURCE='\.(java|p4|sh|c|h|py|go|js|mjs|css|html|lua)$|(^|/)Makefile$'
# Generated or vendored paths (none carries a source extension today; listed so one added later is skipped).
EXCLUDE='^pipeconf/src/main/resources/p4c-out/'
passed=0; failed=0
while IFS= read -r f; do
  [ -f "$f" ] || continue
  [[ "$f" =~ $EXCLUDE ]] && continue
  if ! [[ "$f" =~ $SOURCE ]] && [ "$(head -c 2 "$f")" != '#!' ]; then continue; fi
  if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0'; then
    passed=$((passed+1))
  else
    failed=$((failed+1)); echo "FAIL $f: no 'SPDX-License-Identifier: Apache-2.0' in its first 3 lines"
  fi
done < <(git ls-files)
[ $((passed + failed)) -gt 0 ] || { echo "05-spdx: no source file found"; failed=1; }
echo "05-spdx: $((passed + failed)) source files checked"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
