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
		mapfile -t COMPREPLY < <(compgen -W "init doctor exec check run spec report attest verify pr skills seal mcp help" -- "$cur") ;;
	init)
		mapfile -t COMPREPLY < <(compgen -W "--print" -- "$cur") ;;
	exec)
		mapfile -t COMPREPLY < <(compgen -W "--profile --network --" -- "$cur") ;;
	report)
		mapfile -t COMPREPLY < <(compgen -W "--json --html" -- "$cur") ;;
	run|spec)
		local feats=''
		case "${COMP_WORDS[COMP_CWORD-1]}" in
		--answers|--transcript|--describe)
			mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
		esac
		if [ "$sub" = run ]; then
			# the features of both layouts, as sc-tasks find looks them up
			feats=$(cd "$(git rev-parse --show-toplevel 2>/dev/null || echo .)" &&
				for d in specs/*/ openspec/changes/*/; do
					[ -d "$d" ] && basename "$d"
				done)
			feats="$feats --in-place --no-prompt --answers --provider --model --endpoint --transcript --retries --max-turns"
		else
			feats="--describe --no-prompt --answers --provider --model --endpoint --transcript"
		fi
		mapfile -t COMPREPLY < <(compgen -W "$feats" -- "$cur") ;;
	attest)
		_git_speccoder_revs "--show --branch --base --predicate-type --predicate" ;;
	verify)
		_git_speccoder_revs "--branch --base --allow-unsigned" ;;
	pr)
		local feats remotes
		if [ "${COMP_WORDS[COMP_CWORD-1]}" = --remote ]; then
			remotes=$(git remote 2>/dev/null)
			mapfile -t COMPREPLY < <(compgen -W "$remotes" -- "$cur")
		else
			feats=$(git for-each-ref --format='%(refname:strip=3)' refs/heads/speccoder/ 2>/dev/null)
			mapfile -t COMPREPLY < <(compgen -W "$feats --remote --yes --no-prompt" -- "$cur")
		fi ;;
	check)
		local names
		# Options only when one is begun: an empty word offers the names.
		case "$cur" in
		-*) names=--acceptance ;;
		*) names=$(sc-config --checks 2>/dev/null | sc-rec --to-json 2>/dev/null | jq -r .name 2>/dev/null) ;;
		esac
		mapfile -t COMPREPLY < <(compgen -W "$names" -- "$cur") ;;
	skills)
		if [ "$COMP_CWORD" -eq "$((i + 1))" ]; then
			mapfile -t COMPREPLY < <(compgen -W "pin verify" -- "$cur")
		elif [ "${COMP_WORDS[i+1]}" = verify ]; then
			mapfile -t COMPREPLY < <(compgen -W "--records" -- "$cur")
		fi ;;
	seal)
		mapfile -t COMPREPLY < <(compgen -W "--verify" -- "$cur") ;;
	mcp)
		if [ "$COMP_CWORD" -eq "$((i + 1))" ]; then
			mapfile -t COMPREPLY < <(compgen -W "list allow" -- "$cur")
		elif [ "${COMP_WORDS[i+1]}" = allow ]; then
			mapfile -t COMPREPLY < <(compgen -W "--yes" -- "$cur")
		fi ;;
	help)
		mapfile -t COMPREPLY < <(compgen -W "init doctor exec check run spec report attest verify pr skills seal mcp" -- "$cur") ;;
	esac
}

# Complete OPTIONS, or a branch name after a revision option or in place
# of an option.
_git_speccoder_revs() { # OPTIONS
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} refs
	case "$prev" in
	--predicate) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
	--predicate-type) COMPREPLY=(); return ;;
	esac
	refs=$(git for-each-ref --format='%(refname:short)' refs/heads/ 2>/dev/null)
	case "$cur" in
	-*) mapfile -t COMPREPLY < <(compgen -W "$1" -- "$cur") ;;
	*) mapfile -t COMPREPLY < <(compgen -W "$refs" -- "$cur") ;;
	esac
}

# "git-speccoder" called directly.
_git_speccoder_direct() {
	COMP_WORDS=(git speccoder "${COMP_WORDS[@]:1}")
	COMP_CWORD=$((COMP_CWORD + 1))
	_git_speccoder
}
complete -F _git_speccoder_direct git-speccoder
