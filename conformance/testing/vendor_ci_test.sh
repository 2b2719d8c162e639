#!/usr/bin/env bash
# Runs docs/vendor-ci.yml as written: every `run:` step in file order, in one workspace laid out
# as the workflow's (the plugin template at its root; opcts's build in opcts/build/release, this
# build), each shard step once per shard, artifacts copied where the workflow downloads them.
# Twice: first without a baseline (it must pass and say how to make one), then with the merged
# journal committed as the baseline (the diff must find no regression).
# Skipped, loudly: "Install dependencies" and "Build opcts" (this build already did both).
# Replaced, loudly: "Install opcts" (apt-get needs root and the network, and would change this
# machine): the .deb that "Package opcts" made is unpacked instead and its usr/bin put first on
# PATH and usr/ on CMAKE_PREFIX_PATH, so every later step uses the packaged opcts and
# find_package(opcts) finds the packaged one.
set -euo pipefail
source_dir=$1 build_dir=$2 work=$3
workflow=$source_dir/docs/vendor-ci.yml
rm -rf "$work" && mkdir -p "$work/steps"
work=$(cd "$work" && pwd -P)
cp -r "$source_dir/examples/plugin-template/." "$work/repo"
mkdir -p "$work/repo/opcts/build"
ln -s "$build_dir" "$work/repo/opcts/build/release"
shards=$(sed -n 's/^ *SHARDS: *\([0-9]*\).*/\1/p' "$workflow")
[ -n "$shards" ] || { echo "no SHARDS in $workflow"; exit 1; }

# Each step's name and script, numbered in file order.
awk -v out="$work/steps" '
  /^      - name: / { name = substr($0, 15); next }
  /^        run: \|/ { n++; file = sprintf("%s/%02d", out, n); print name > (file ".name"); body = 1; next }
  /^        run: / { n++; file = sprintf("%s/%02d", out, n); print name > (file ".name");
                     print substr($0, 14) > (file ".sh"); body = 0; next }
  body && /^          / { print substr($0, 11) > (file ".sh"); next }
  body && !/^ *$/ { body = 0 }
' "$workflow"

# "Install opcts" without apt-get: the step must install the .deb "Package opcts" made.
install_opcts() {
  [[ $1 == *"apt-get install"*"./opcts_"*".deb"* ]] || { echo "step 'Install opcts' installs no ./opcts_*.deb"; return 1; }
  echo "REPLACED step 'Install opcts': dpkg-deb -x $(cd "$work/repo" && ls opcts_*.deb) instead of apt-get"
  rm -rf "$work/root"
  dpkg-deb -x "$work"/repo/opcts_*.deb "$work/root"
  [ "$(command -v opcts)" = "$work/root/usr/bin/opcts" ] || { echo "opcts on PATH is $(command -v opcts)"; return 1; }
}
export PATH=$work/root/usr/bin:$PATH CMAKE_PREFIX_PATH=$work/root/usr

run_workflow() {
  local summary=$work/step-summary.md
  : > "$summary"
  for script in "$work"/steps/*.sh; do
    local name
    name=$(cat "${script%.sh}.name")
    local body
    body=$(sed -e "s/\${{ env.SHARDS }}/$shards/g" "$script")
    case $name in
      "Install dependencies"|"Build opcts") echo "SKIPPED step '$name': opcts is already built here"; continue ;;
      "Install opcts") install_opcts "$body" || return 1; continue ;;
    esac
    local runs=0
    [[ $body == *'${{ matrix.shard }}'* ]] && runs=$shards
    for ((shard = 0; shard < (runs ? runs : 1); ++shard)); do
      echo "step '$name'${runs:+ (shard $shard)}"
      (cd "$work/repo" && GITHUB_STEP_SUMMARY=$summary bash -eo pipefail -c "${body//'${{ matrix.shard }}'/$shard}") \
        >"$work/step.log" 2>&1 || { cat "$work/step.log"; echo "step '$name' failed"; return 1; }
      tail -n 3 "$work/step.log"
    done
    # The artifact downloads of the shard and report jobs; the plugin's opcts must be the package's.
    case $name in
      "Package opcts") cp "$work"/repo/dist/opcts_*.deb "$work/repo/" ;;
      "Run shard"*) mkdir -p "$work/repo/journals" && cp "$work"/repo/journal-*.jsonl "$work/repo/journals/" ;;
      "Build the plugin")
        grep -qxF "opcts_DIR:PATH=$work/root/usr/lib/cmake/opcts" "$work/repo/build/CMakeCache.txt" ||
          { echo "find_package(opcts) did not find the packaged opcts"; return 1; } ;;
    esac
  done
  grep -q "Coverage" "$summary" || { echo "the step summary shows no coverage"; return 1; }
}

echo "== first run: no baseline"
run_workflow
grep -q "no baseline yet" "$work/step.log" || { echo "the first run did not say how to create a baseline"; exit 1; }
grep -q "ci/opcts-baseline.jsonl" "$work/step.log"

echo "== second run: the first run's merged journal committed as the baseline"
mkdir -p "$work/repo/ci"
cp "$work/repo/merged.jsonl" "$work/repo/ci/opcts-baseline.jsonl"
rm -f "$work"/repo/journal-*.jsonl "$work"/repo/journals/*.jsonl
run_workflow
grep -q "no regression" "$work/step.log" || { echo "the diff against the baseline did not pass"; exit 1; }
echo "docs/vendor-ci.yml: every run step passed, without and with a baseline"
