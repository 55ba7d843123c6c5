#!/bin/sh
# The checks of greet.sh: each prints ok or not ok.
set -u
fail=0
check() { # NAME EXPECTED ARG...
	name=$1 expected=$2
	shift 2
	got=$(sh ./greet.sh "$@")
	if [ "$got" = "$expected" ]; then
		echo "ok - $name"
	else
		echo "not ok - $name: got '$got'"
		fail=1
	fi
}
check "greets the world" "Hello, world!"
check "greets a person by name" "Hello, Ada!" Ada
exit "$fail"
