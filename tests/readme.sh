#!/usr/bin/env bash
# Runs the README's commands in order, as a new director would on a fresh machine: the
# fenced blocks of "Running a room from the console", "A tournament day" and "Running a
# match with any gRPC client", against a fresh baffled in an empty directory. Usage: tests/readme.sh BIN_DIR
# PORT (where baffled and baffle are built, and a free port). Run by tests/tests/readme.rs.
#
# What is not run, and why (each skipped line is printed):
# - `baffle console` and `baffle follow`: they wait for a person (or, without a terminal,
#   for the match to end);
# - lines marked "(until Ctrl-C)";
# - `grpcurl` lines, and the lines after them that read what they wrote, unless
#   BAFFLE_README_GRPCURL=1 and grpcurl is installed (CI does not install it).
# `alias baffle="cargo run -q --bin baffle --"` becomes the built binary (the same program
# without cargo), and baffled listens on a free port that BAFFLE_SERVER names, so that
# another server on 50051 on this machine does not matter.
set -euo pipefail

bin=$(cd "$1" && pwd)
readme=$(cd "$(dirname "$0")/.." && pwd)/README.md
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
export HOME="$work/home"
mkdir -p "$HOME"

port=$2
"$bin/baffled" --addr "127.0.0.1:$port" --log warn > baffled.out 2>&1 &
server=$!
export BAFFLE_SERVER="127.0.0.1:$port"
for _ in $(seq 1 200); do
  if "$bin/baffle" tournament list > /dev/null 2>&1; then break; fi
  sleep 0.05
done

# The fenced sh block that follows the heading $1.
block() {
  awk -v heading="$1" '
    $0 == heading { found = 1; next }
    found && /^```sh/ { inside = 1; next }
    inside && /^```/ { exit }
    inside { print }
  ' "$readme"
}

# grpcurl only on request: it is not installed by CI, and versions differ in which
# reflection API they speak (1.8 only v1alpha).
has_grpcurl=0
if [ "${BAFFLE_README_GRPCURL:-}" = 1 ] && command -v grpcurl > /dev/null; then has_grpcurl=1; fi

# Turns a block into a script: the alias into the binary, skipped lines commented out.
prepare() {
  local skip_rest=0
  while IFS= read -r line; do
    case "$line" in
      "alias baffle="*) echo "baffle() { \"$bin/baffle\" \"\$@\"; }" ;;
      "baffle console "*|"baffle follow "*|*"(until Ctrl-C)"*)
        echo "echo 'readme: skipped (waits for a person): ${line//\'/}' >&2" ;;
      *)
        if [ "$has_grpcurl" = 0 ] && { [[ "$line" == *grpcurl* ]] || [ "$skip_rest" = 1 ]; }; then
          # A grpcurl command may go on over several lines: skip to the end of the block.
          skip_rest=1
          echo "echo 'readme: skipped (grpcurl: set BAFFLE_README_GRPCURL=1): ${line//\'/}' >&2"
        else
          echo "$line"
        fi ;;
    esac
  done
}

run_block() {
  local name=$1
  block "$name" | prepare > "$work/block.sh"
  # `cargo run --bin baffle --` in the gRPC section is the built binary too.
  sed -i -e "s#cargo run --bin baffle --#\"$bin/baffle\"#g" \
    -e "s#^S=127.0.0.1:50051#S=127.0.0.1:$port#" "$work/block.sh"
  echo "readme: running \"$name\"" >&2
  (
    set -euo pipefail
    # shellcheck disable=SC1091
    source "$work/block.sh"
  )
}

run_block "## Running a room from the console"
test -s "$HOME/.local/share/bash-completion/completions/baffle"
run_block "## A tournament day"
test -s "$work/day-results.csv"
run_block "## Running a match with any gRPC client"
echo "readme: every command ran" >&2
