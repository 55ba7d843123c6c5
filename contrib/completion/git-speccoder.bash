# bash completion for git speccoder.  git's own completion calls
# _git_speccoder for "git speccoder <TAB>"; source this file after it, e.g.
# from ~/.bashrc: . /usr/local/share/speccoder/completion/git-speccoder.bash
# shellcheck shell=bash

_git_speccoder() {
	local cur=${COMP_WORDS[COMP_CWORD]} sub='' i
	# The word after "speccoder" is the command.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i-1]}" = speccoder ]; then
			sub=${COMP_WORDS[i]}
			break
		fi
	done
	case "$sub" in
	'')
		mapfile -t COMPREPLY < <(compgen -W "init doctor exec check report skills seal help" -- "$cur") ;;
	init)
		mapfile -t COMPREPLY < <(compgen -W "--print" -- "$cur") ;;
	exec)
		mapfile -t COMPREPLY < <(compgen -W "--profile --network --" -- "$cur") ;;
	report)
		mapfile -t COMPREPLY < <(compgen -W "--json" -- "$cur") ;;
	check)
		local names
		names=$(sc-config --checks 2>/dev/null | sc-rec --to-json 2>/dev/null | jq -r .name 2>/dev/null)
		mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur") ;;
	skills)
		if [ "$COMP_CWORD" -eq "$((i + 1))" ]; then
			mapfile -t COMPREPLY < <(compgen -W "pin verify" -- "$cur")
		elif [ "${COMP_WORDS[i+1]}" = verify ]; then
			mapfile -t COMPREPLY < <(compgen -W "--records" -- "$cur")
		fi ;;
	seal)
		mapfile -t COMPREPLY < <(compgen -W "--verify" -- "$cur") ;;
	help)
		mapfile -t COMPREPLY < <(compgen -W "init doctor exec check report skills seal" -- "$cur") ;;
	esac
}

# "git-speccoder" called directly.
_git_speccoder_direct() {
	COMP_WORDS=(git speccoder "${COMP_WORDS[@]:1}")
	COMP_CWORD=$((COMP_CWORD + 1))
	_git_speccoder
}
complete -F _git_speccoder_direct git-speccoder
