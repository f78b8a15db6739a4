#!/usr/bin/env bash
# install-browser.sh installs the browser the UI tests drive: Debian's
# Chromium (package chromium, /usr/bin/chromium), through apt-get. Browser
# builds downloaded by playwright or puppeteer are not used: the project's
# machines reach Debian's packages, not browser download hosts.
#
# Idempotent: with Chromium in place it does nothing. Needs root or
# password-less sudo the first time; any failure exits non-zero.
set -euo pipefail

want=/usr/bin/chromium
die() { echo "install-browser: $*" >&2; exit 1; }

if [ -x "$want" ] && "$want" --version >/dev/null 2>&1; then
  echo "install-browser: $("$want" --version) already installed"
  exit 0
fi

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo -n"
export DEBIAN_FRONTEND=noninteractive
echo "install-browser: apt-get install chromium"
# A fresh machine may have no package lists yet: update once and retry.
$sudo apt-get install -y -q chromium >/dev/null 2>&1 ||
  { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q chromium >/dev/null; } ||
  die "apt-get install chromium failed"
"$want" --version >/dev/null 2>&1 || die "$want does not start"
echo "install-browser: ready ($("$want" --version))"
