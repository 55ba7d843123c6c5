#!/bin/sh
# A formatter, an acceptance test and a mutation tool for the attempt's
# tests (t/0764): each mode does what a real one does to the worktree or
# its copy, in a few lines.
set -u
strip() { # trailing blanks of greet.sh, as a formatter rewrites a file
	sed 's/[[:space:]]*$//' greet.sh >greet.sh.fmt && cat greet.sh.fmt >greet.sh &&
		rm -f greet.sh.fmt
}
case "$1" in
format) strip ;;
format-protected) strip && echo '# reformatted' >>Makefile ;;
format-fail) echo "format: cannot parse greet.sh"; exit 3 ;;
hang) while :; do sleep 1; done ;;
acceptance-fail) echo "not ok - e2e: the greeting is not what the person wants"; exit 1 ;;
acceptance-pass) echo "ok - e2e" ;;
mutation-summary)
	# A mutant left behind in the copy, as a killed run of a real tool
	# may leave one: it must never reach the tick.
	echo 'exit 7 # mutant' >>greet.sh
	echo "mutants tested: $3"
	echo "mutation score: $2/$3"
	# Real tools exit non-zero when mutants survive.
	[ "$2" = "$3" ] || exit 2 ;;
mutation-included)
	# The tests a mutation tool runs may need the person's included
	# files, as the checks do: the score says whether they were there.
	if [ -f .env.test ]; then
		echo "token: $(sed -n 's/^INCLUDED_TOKEN=//p' .env.test)"
		echo "mutation score: 5/5"
	else
		echo "mutation score: 0/5"
	fi ;;
mutation-report) printf '{"killed":%s,"total":%s}\n' "$2" "$3" >mutation.json ;;
mutation-symlink) ln -s /etc/passwd mutation.json ;;
mutation-garbage) echo 'mutants: many' >mutation.json ;;
*) echo "fake-step: unknown mode" >&2; exit 2 ;;
esac
