# Exit statuses are named (SC_EXIT_*, lib/diag.h), never written as numbers
# where they are decided or read: t/0000-conventions.bats runs this on
# bin/*.c and lib/ (and on planted examples, to show it can fail).
#
# In a tool's main (bin/*.c): the result of a call into lib/ (sc_*), or a
# variable that holds one, compared with a number from 1 up (0 and -1 are
# the library's success and failure, not statuses); a case label of a
# number; a return or exit() of a number from 1 up.  getopt's 1 (an
# argument, in "-" mode) is not a status.
# In lib/: a return of a number from 1 up in an sc_*_run function or a
# static *_exit mapping (the functions that decide a status).
#
# Prints FILE:LINE: WHAT for each; functions start at column 0 and their
# bodies are "{" ... "}" at column 0 (STYLE.md).

function num_cmp_after(s) {
	return s ~ /^[ \t]*(==|!=|<=|>=|<|>)[ \t]*[1-9][0-9]*([^0-9A-Za-z_.]|$)/
}

FNR == 1 { fn = ""; st = 0; body = 0; split("", held); bin = FILENAME ~ /(^|\/)bin\/[^\/]*\.c$/ }

/^[A-Za-z_].*[A-Za-z_0-9]+\(/ && !/;[ \t]*$/ && !body {
	s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/)
	fn = w[n]; st = $0 ~ /^static /
}
/^\{/ { body = 1 }
/^\}/ { body = 0; split("", held) }

# comments are not code
{ line = $0; gsub(/\/\*.*\*\//, "", line); sub(/\/\/.*/, "", line) }

bin && body {
	# VAR = call(...): VAR now holds a result (getopt's aside)
	if (match(line, /[A-Za-z_][A-Za-z_0-9]*[ \t]*=[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*\(/)) {
		a = substr(line, RSTART, RLENGTH)
		v = a; sub(/[ \t]*=.*/, "", v)
		c = a; sub(/^[^=]*=[ \t]*/, "", c); sub(/[ \t]*\($/, "", c)
		if (c ~ /^sc_/ && c !~ /getopt/)
			held[v] = 1
		else
			delete held[v]
	}
	bad = 0
	# call(...) == N
	rest = line
	while (match(rest, /\)/)) {
		rest = substr(rest, RSTART + 1)
		if (num_cmp_after(rest) && line ~ /sc_[A-Za-z_0-9]*[ \t]*\(/ &&
		    line !~ /getopt/)
			bad = 1
	}
	for (v in held) {
		rest = line
		while (match(rest, "(^|[^A-Za-z_0-9.>])" v "([^A-Za-z_0-9]|$)")) {
			after = substr(rest, RSTART + RLENGTH - 1)
			before = substr(rest, 1, RSTART)
			if (num_cmp_after(after) ||
			    before ~ /[1-9][0-9]*[ \t]*(==|!=)[ \t]*.?$/)
				bad = 1
			rest = substr(rest, RSTART + RLENGTH)
		}
	}
	if (line ~ /case[ \t]+[1-9][0-9]*[ \t]*:/)
		bad = 1
	# and a main that returns or exits with a number
	if (line ~ /(return|exit[ \t]*\()[ \t(]*[1-9][0-9]*[ \t)]*;/)
		bad = 1
	if (bad)
		print FILENAME ":" FNR ": a number as an exit status (SC_EXIT_*)"
}

!bin && body && (fn ~ /^sc_[a-z0-9_]+_run$/ || (st && fn ~ /_exit$/)) &&
    (line ~ /return[ \t(]+[1-9][0-9]*[ \t)]*;/ ||
     line ~ /return[^;]*[?:][ \t]*[1-9][0-9]*[ \t]*[:;]/) {
	print FILENAME ":" FNR ": " fn " returns a number, not SC_EXIT_*"
}
