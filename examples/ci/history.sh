#!/usr/bin/env bash
# Keeps a benchmark history across pushes to main: the steps of
# examples/ci/history.yml, one subcommand each (docs/CI.md, "History on
# main").
#
#   history.sh restore   import the history kept on the branch $HISTORY_BRANCH into $STORE
#   history.sh analyze   find change points, confirm the new ones ($CONFIRM), write the job
#                        summary, and fail or open issues on regressions ($ON_REGRESSION)
#   history.sh save      export $STORE and commit it to $HISTORY_BRANCH
#
# Environment: GOBENCH_DYN (the binary), STORE (the SQLite store), and
# optionally HISTORY_BRANCH (benchmark-history), HISTORY_FILE
# (history.jsonl), CONFIRM (true), ON_REGRESSION (fail, issue or none;
# default fail), GITHUB_STEP_SUMMARY, GITHUB_SHA, GH (gh). Run it in the
# checkout of the repository.
set -euo pipefail

: "${GOBENCH_DYN:?the gobench-dyn binary}" "${STORE:?the history store}"
branch=${HISTORY_BRANCH:-benchmark-history}
file=${HISTORY_FILE:-history.jsonl}
confirm=${CONFIRM:-true}
on_regression=${ON_REGRESSION:-fail}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
gh=${GH:-gh}
work=$(mktemp -d "${RUNNER_TEMP:-/tmp}/history.XXXXXX")
trap 'rm -rf "$work"' EXIT

case "$on_regression" in
fail | issue | none) ;;
*) echo "::error title=gobench-dyn history::ON_REGRESSION must be fail, issue or none, not \"$on_regression\"" >&2; exit 2 ;;
esac

restore() {
  if ! git ls-remote --exit-code --heads origin "$branch" > /dev/null; then
    echo "No branch $branch yet: the history starts with this run."
    return 0
  fi
  git fetch --quiet origin "+refs/heads/$branch:refs/remotes/origin/$branch"
  git show "refs/remotes/origin/$branch:$file" > "$work/history.jsonl"
  "$GOBENCH_DYN" history import --store "$STORE" "$work/history.jsonl"
}

analyze() {
  local args=(history --markdown "$work/history.md" --json "$work/history.json")
  if [[ "$confirm" == true ]]; then args+=(--confirm --dir .); fi
  "$GOBENCH_DYN" "${args[@]}" -- "$STORE"
  cat -- "$work/history.md" >> "$summary"

  # Regressions that count: with confirmation only the confirmed ones.
  local select='.change_points[] | select(.kind == "regression")'
  if [[ "$confirm" == true ]]; then
    select+=' | select(.confirmation.status == "confirmed")'
  fi
  local found
  found=$(jq -c "[$select]" "$work/history.json")
  local n
  n=$(jq length <<< "$found")
  if [[ "$n" -eq 0 ]]; then
    echo "No regression in the history."
    return 0
  fi
  case "$on_regression" in
  none) echo "$n regressions in the history (ON_REGRESSION=none)." ;;
  fail)
    echo "::error title=gobench-dyn history::$n regressions in the history; see the job summary"
    return 1
    ;;
  issue)
    local title body
    while IFS= read -r cp; do
      title=$(jq -r '"Benchmark regression: \(.pkg).\(.bench) \(.unit) at \(.commit[0:12])"' <<< "$cp")
      if [[ -n "$("$gh" issue list --state all --search "\"$title\" in:title" --json title --jq ".[] | select(.title == \"$title\") | .title")" ]]; then
        echo "Already filed: $title"
        continue
      fi
      body=$(jq -r '"`\(.pkg).\(.bench)` (\(.unit), on \(.machine)) changed by \((.change * 1000 | round) / 10)% at \(.commit), after \(.prev).\n\nInterval: [\((.lo * 1000 | round) / 10)%, \((.hi * 1000 | round) / 10)%], p = \(.p).\nConfirmation: \(.confirmation.status // "not measured") \(.confirmation.verdict // "")."' <<< "$cp")
      "$gh" issue create --title "$title" --body "$body"
    done < <(jq -c '.[]' <<< "$found")
    ;;
  esac
}

save() {
  "$GOBENCH_DYN" history export --store "$STORE" -o "$work/history.jsonl"
  # The branch holds one file and nothing else; it is written with git's
  # plumbing, so that the checkout being benchmarked stays as it is.
  local blob tree parent=() commit
  blob=$(git hash-object -w "$work/history.jsonl")
  tree=$(printf '100644 blob %s\t%s\n' "$blob" "$file" | git mktree)
  if git rev-parse --quiet --verify "refs/remotes/origin/$branch" > /dev/null; then
    parent=(-p "refs/remotes/origin/$branch")
  fi
  commit=$(git -c user.name=gobench-dyn -c user.email=gobench-dyn@users.noreply.github.com \
    commit-tree "$tree" "${parent[@]}" -m "benchmark history at ${GITHUB_SHA:-$(git rev-parse HEAD)}")
  git push --quiet origin "$commit:refs/heads/$branch"
  echo "History saved to $branch ($(wc -l < "$work/history.jsonl") entries)."
}

case "${1:-}" in
restore) restore ;;
analyze) analyze ;;
save) save ;;
*) echo "usage: history.sh restore|analyze|save" >&2; exit 2 ;;
esac
