#!/bin/sh
# Where Ubuntu (23.10 and later, GitHub's ubuntu-24.04 runners) restricts
# unprivileged user namespaces through AppArmor, load the profile that lets
# sc-sandbox-exec, and only it, make one: the sandbox then runs its full
# tier.  Elsewhere nothing is done.  The profile names the installed path
# (/usr/local/bin/sc-sandbox-exec, where install.sh puts it).
# SC_USERNS_KNOB and SC_APPARMOR_DIR stand in for the sysctl and
# /etc/apparmor.d in tests.
set -eu
knob=${SC_USERNS_KNOB:-/proc/sys/kernel/apparmor_restrict_unprivileged_userns}
dir=${SC_APPARMOR_DIR:-/etc/apparmor.d}
if [ ! -r "$knob" ] || [ "$(cat "$knob")" != 1 ]; then
	echo "speccoder: unprivileged user namespaces are not restricted here"
	exit 0
fi
if ! command -v apparmor_parser >/dev/null 2>&1; then
	echo "speccoder: user namespaces are restricted and apparmor_parser is missing: the sandbox runs its lower tier" >&2
	exit 0
fi
top=$(cd "$(dirname "$0")/../../.." && pwd)
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo install -m 644 "$top/contrib/apparmor/sc-sandbox-exec" "$dir/sc-sandbox-exec"
$sudo apparmor_parser -r "$dir/sc-sandbox-exec"
echo "speccoder: loaded the AppArmor profile of sc-sandbox-exec"
