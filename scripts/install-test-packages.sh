#!/usr/bin/env bash
# The real parts some tests start themselves on loopback ports, from Debian's packages:
#   nginx          test/production (two trellis processes behind a real load balancer)
#   redis-server   test/production (rate limits shared across processes)
#   chromium       test/openapi (the docs page in a headless browser)
# Installed when missing and this is a root shell with apt-get; otherwise the tests that need a
# missing one skip with a message naming the package. Services are not started by the install.
set -euo pipefail
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && { echo "test packages: nginx, redis-server, chromium present"; exit 0; }
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "test packages missing (${missing[*]}): the tests that need them will skip; install them with apt-get"
  exit 0
fi
echo "test packages: installing ${missing[*]}"
# keep the packages' own services from starting (tests start their own, on their own ports)
policy=/usr/sbin/policy-rc.d
added_policy=0
if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; added_policy=1; fi
trap '[ $added_policy = 1 ] && rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
echo "test packages: installed ${missing[*]}"
