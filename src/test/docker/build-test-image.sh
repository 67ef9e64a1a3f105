#!/usr/bin/env bash
# Builds the local test image paddock-test:git for the container-tier tests: static busybox with
# all its applets, plus this machine's git (/usr/bin/git, /usr/lib/git-core without the network
# helpers) and the shared libraries ldd names for them, imported with `docker import` (no registry).
# Users: root, agent (1000) and nobody; the default user stays root (each test picks its user).
#
# Idempotent and fast when the image exists with the current recipe revision (one `docker image
# inspect`). Needs: docker (a running engine), /bin/busybox (busybox-static), git, ldd, tar.
# Usage: build-test-image.sh [image-name]      (default paddock-test:git)
set -euo pipefail

IMAGE=${1:-paddock-test:git}
# Bump when the recipe below changes, so an old local image is rebuilt.
REV=1

have_rev=$(docker image inspect -f '{{index .Config.Labels "paddock.test-image.rev"}}' "$IMAGE" 2>/dev/null || true)
if [ "$have_rev" = "$REV" ]; then
  echo "   $IMAGE already present (rev $REV)"
  exit 0
fi

for need in /bin/busybox /usr/bin/git /usr/lib/git-core; do
  [ -e "$need" ] || { echo "!! $need is missing: install busybox-static and git" >&2; exit 1; }
done

rootfs=$(mktemp -d)
trap 'rm -rf "$rootfs"' EXIT
mkdir -p "$rootfs"/{bin,usr/bin,usr/lib,etc,root,home/agent,tmp,workspace}

cp /bin/busybox "$rootfs/bin/busybox"
for applet in $(/bin/busybox --list); do
  [ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"
done
ln -s /bin/busybox "$rootfs/usr/bin/env"

# git and its helpers; the http/imap helpers would drag in libcurl and friends, and the tests
# have no network anyway.
cp -a /usr/bin/git "$rootfs/usr/bin/git"
cp -a /usr/lib/git-core "$rootfs/usr/lib/git-core"
rm -f "$rootfs"/usr/lib/git-core/git-remote-http* "$rootfs"/usr/lib/git-core/git-remote-ftp* \
      "$rootfs"/usr/lib/git-core/git-http-* "$rootfs"/usr/lib/git-core/git-imap-send
[ -d /usr/share/git-core/templates ] && mkdir -p "$rootfs/usr/share/git-core" &&
  cp -a /usr/share/git-core/templates "$rootfs/usr/share/git-core/templates"

# Shared libraries of every ELF file we copied (the dynamic loader included), at their host paths.
libs=$( { ldd /usr/bin/git; find "$rootfs/usr/lib/git-core" -type f -perm -u+x -exec sh -c \
            'head -c 4 "$1" | grep -q ELF && ldd "$1"' _ {} \; ; } 2>/dev/null |
        grep -o '/[^ ]*' | sort -u)
for lib in $libs; do
  [ -e "$lib" ] || continue
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done

printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' \
              'agent:x:1000:1000:agent:/home/agent:/bin/sh' \
              'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' >"$rootfs/etc/passwd"
printf '%s\n' 'root:x:0:' 'agent:x:1000:' 'nogroup:x:65534:' >"$rootfs/etc/group"
chmod 1777 "$rootfs/tmp"
chmod 700 "$rootfs/root"
chown 1000:1000 "$rootfs/home/agent" 2>/dev/null || true

tar -C "$rootfs" --numeric-owner -c . |
  docker import --change 'CMD ["/bin/sh"]' \
                --change "LABEL paddock.test-image.rev=$REV" \
                - "$IMAGE" >/dev/null
# Proof that git runs inside (a missing library shows here, not in a test).
docker run --rm --network none "$IMAGE" git --version >/dev/null
echo "   $IMAGE imported (rev $REV)"
