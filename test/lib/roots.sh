# shellcheck shell=bash
# Throwaway Debian roots and copies of the source tree, shared by
# test/run-pg.sh, test/package.sh and test/pg_upgrade.sh (source it; no
# state of its own).

# tfp_tar_create TAR-ARGS...: tar -cf - TAR-ARGS to standard output, where
# a directory that changes while it is read (build products being written
# beside the sources, by the run that goes on in the same tree) is not an
# error: GNU tar's status 1 ("file changed as we read it") is taken as
# success, anything else is not
tfp_tar_create() {
    local rc=0
    tar --warning=no-file-changed -cf - "$@" || rc=$?
    [ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]
}

# tfp_copy_tree SRC DEST: the source files of SRC (tracked and untracked,
# not build products: everything but .git and what .gitignore names; a
# fresh Debian 12 has no git to ask) copied into DEST, made if missing
tfp_copy_tree() {
    local src=$1 dest=$2 pat excl=(--exclude=./.git)
    while IFS= read -r pat; do
        case $pat in '' | '#'*) continue ;; esac
        pat=${pat%/}
        case $pat in /*) excl+=("--exclude=.$pat") ;; *) excl+=("--exclude=$pat") ;; esac
    done <"$src/.gitignore"
    mkdir -p "$dest" && tfp_tar_create -C "$src" "${excl[@]}" . | tar -C "$dest" -xf -
}

# tfp_mount_root ROOT: what a chroot into ROOT needs (name resolution,
# /proc, /dev, /sys); status 1 if a mount fails.  Undone by tfp_unmount_root.
tfp_mount_root() {
    cp /etc/resolv.conf "$1/etc/resolv.conf" &&
        mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" && mount --rbind /sys "$1/sys"
}

tfp_unmount_root() {
    local m
    for m in sys dev proc; do
        umount -R "$1/$m" 2>/dev/null || umount -l "$1/$m" 2>/dev/null || true
    done
}
