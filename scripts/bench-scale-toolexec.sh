#!/usr/bin/env bash
# The -toolexec wrapper of bench-scale.sh: runs one tool of a go build
# (compile, asm, link, ...) under GNU time and appends a line to
# $SCALE_TOOLEXEC_LOG: peak RSS (KB), wall, user and system seconds, the
# tool and the package it works on (the -p argument; "-" when none).
tool=$(basename "$1")
pkg=-
prev=
for a in "$@"; do
	[ "$prev" = -p ] && pkg=$a
	prev=$a
done
exec /usr/bin/time -a -o "$SCALE_TOOLEXEC_LOG" -f "%M %e %U %S $tool $pkg" "$@"
