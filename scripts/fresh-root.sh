#!/usr/bin/env bash
# Time the README's set-up commands on a fresh Debian 12: a debootstrap minbase root with this
# checkout cloned into it, the command run in a chroot (as root), the time and the size reported.
#   sudo scripts/fresh-root.sh demo|test [ROOT_DIR]
# Needs debootstrap and network access to the Debian mirror; removes nothing but its own root.
set -euo pipefail
what="${1:-demo}"
root="${2:-/tmp/liesim-fresh-$what}"
case "$what" in demo) command=scripts/demo.sh ;; test) command=scripts/test.sh ;; *) echo "usage: $0 demo|test [ROOT_DIR]" >&2; exit 2 ;; esac
here="$(cd "$(dirname "$0")/.." && pwd)"
rm -rf "$root"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > "$root.debootstrap.log" 2>&1
git clone -q "$here" "$root/root/liesim"
cp /etc/resolv.conf "$root/etc/resolv.conf"
for fs in proc dev sys; do mount --bind "/$fs" "$root/$fs"; done
trap 'for fs in proc dev sys; do umount "$root/$fs" 2> /dev/null || true; done' EXIT
echo "fresh-root: $command on commit $(git -C "$here" rev-parse --short HEAD) in $root (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /bin/bash -c "
  cd /root/liesim
  start=\$(date +%s)
  $command > /root/$what.log 2>&1; rc=\$?
  echo \"$command: exit \$rc in \$((\$(date +%s) - start)) s wall; \$(cat .deps/apt.log 2>/dev/null | grep -c '^Setting up') packages set up\"
  read -r -a st < /proc/\$\$/stat
  echo \"CPU time of the command: \$(( (st[15] + st[16]) / \$(getconf CLK_TCK) )) s (user + system, all its processes)\"
  grep -E '^(demo|test) \\[' /root/$what.log
  du -sh /usr /var/cache/apt"
echo "log: $root/root/$what.log (load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
