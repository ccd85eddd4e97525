#!/usr/bin/env bash
# The README's "Using it" commands, run as a new user types them, against a build folder:
#   tests/cli/readme_commands.sh BUILD [demo]
# The commands are read from README.md (the first sh block after "## Using it"), so the test follows
# the README. Each runs with bash -e in a scratch folder where build/ is BUILD, studies/,
# examples/ and models/ are the sources' and HOME is the scratch folder; the first that fails fails the test,
# with its output. After a demo build (`demo`), a command whose comment says "not built by the demo"
# is skipped: the README says which command to run first.
set -euo pipefail
build="$(cd "$1" && pwd)"
mode="${2:-full}"
source_dir="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ln -s "$build" "$work/build"
ln -s "$source_dir/studies" "$work/studies"
ln -s "$source_dir/examples" "$work/examples"
ln -s "$source_dir/models" "$work/models"

# The block's lines, continuation lines joined: one command per line.
commands="$(awk '/^## Using it/ { section = 1; next }
                 section && /^```sh/ { block = 1; next }
                 block && /^```/ { exit }
                 block { print }' "$source_dir/README.md" | sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta')"
[ -n "$commands" ] || { echo "FAILED: no sh block after '## Using it' in README.md"; exit 1; }

ran=0
skipped=0
while IFS= read -r command; do
  [ -n "${command// }" ] || continue
  if [ "$mode" = demo ] && [[ $command == *"not built by the demo"* ]]; then
    echo "skipped (not built by the demo): $command"
    skipped=$((skipped + 1))
    continue
  fi
  echo "\$ $command"
  # /usr/bin first: the README's python3 is Debian's (with its matplotlib and numpy), not another
  # interpreter that a developer's PATH may put first (pyenv).
  if ! (cd "$work" && HOME="$work" PATH="/usr/bin:$PATH" LIESIM_PLUGIN_PATH= timeout 600 bash -e -c "$command") > "$work/out.log" 2>&1; then
    cat "$work/out.log"
    echo "FAILED: the README command above (after a $mode build of $build)"
    exit 1
  fi
  ran=$((ran + 1))
done <<< "$commands"
echo "readme_commands: $ran commands ran, $skipped skipped ($mode build)"
