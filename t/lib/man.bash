# Helpers that read the scdoc sources of the man pages.
# shellcheck shell=bash

# Print the SYNOPSIS lines of Documentation/PAGE.scd, markup removed, one
# line each: what the tool's --help must print after "usage:"/"or:".
sc_man_synopsis() {
	awk '
		/^# / { in_syn = ($0 == "# SYNOPSIS"); next }
		in_syn && NF { print }
	' "$SC_TOP/Documentation/$1.scd" | sed -e 's/\\\(.\)/\1/g' -e 's/[*_]//g' -e 's/[[:space:]]*$//'
}

# Print the usage lines of TOOL --help without "usage:"/"or:".
sc_help_synopsis() {
	"$@" --help | sed -n -e 's/^usage: //p' -e 's/^   or: //p'
}
