#!/bin/sh
# Build and install speccoder's tools from the action's own checkout (the
# version the workflow pinned), never from the pull request.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
	git jq gcc make pkg-config scdoc libjansson-dev libssl-dev libgit2-dev \
	libseccomp-dev libcurl4-openssl-dev libvectorscan-dev
make -C "$top" -j2
$sudo make -C "$top" install PREFIX=/usr/local
