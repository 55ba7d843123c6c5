# The project's shell scripts: every file under the script directories whose
# first line is a shell shebang, and every .bash/.bats/.sh file.
# shellcheck shell=bash

sc_list_scripts() {
	local top="$1" f
	find "$top/bin" "$top/libexec" "$top/hooks-guard" "$top/.ci" \
		"$top/contrib" "$top/t" "$top/share" -type f 2>/dev/null |
		while IFS= read -r f; do
			case "$f" in
			*/t/fuzz/corpus/*|*/t/data/*) continue ;;
			*.bash|*.bats|*.sh) echo "$f"; continue ;;
			esac
			head -n 1 "$f" 2>/dev/null | grep -qE '^#!.*(/|env )(ba)?sh\b' && echo "$f"
		done | sort
}
