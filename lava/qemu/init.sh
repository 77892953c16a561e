#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# PID 1 of the guest of scripts/check-lava: a Debian 12 root in the
# initramfs. It loads what LAVA's test overlay disk
# needs (virtio_blk and ext4 are modules in Debian's kernel), makes the
# /dev/disk/by-uuid link LAVA mounts it by (no udev here), and gives LAVA a
# shell on the serial console, prompt "rtsched-guest# ", again and again.
# rtsched is not installed: its package is in /root, for the definition's
# PACKAGE.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# the root is a ramfs (LAVA boots with root=/dev/ram0), which says it has no
# free space: apt refuses to install the package there without a tmpfs
mount -t tmpfs tmpfs /var/cache/apt/archives
hostname rtsched-guest
for m in virtio_pci virtio_blk ext4; do
	modprobe "$m" || echo "init: cannot load $m"
done
# the disk shows up a moment after its driver
i=0
while [ ! -e /sys/block/vda ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
mkdir -p /dev/disk/by-uuid
for d in /sys/block/vd*; do
	[ -e "$d" ] || continue
	uuid=$(blkid -s UUID -o value "/dev/${d##*/}") && ln -sf "../../${d##*/}" "/dev/disk/by-uuid/$uuid"
done
# the shell's terminal: the kernel's console (ttyS0 on x86, ttyAMA0 on arm64)
tty=ttyS0
for w in $(cat /proc/cmdline); do
	case "$w" in console=*) tty=${w#console=} tty=${tty%%,*} ;; esac
done
echo "init: rtsched-guest ready: $(nproc) CPUs, $(uname -r), $(uname -m), shell on $tty"
while true; do
	PS1='rtsched-guest# ' setsid -c -w /bin/sh -i </dev/$tty >/dev/$tty 2>&1
done
