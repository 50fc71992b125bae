package main

import (
	"fmt"
	"runtime/debug"
)

// runVersion prints the module path and version from the binary's build
// information, and the VCS revision of a local build.
func runVersion(e *env, args []string) int {
	fs := newFlagSet("version", e.stderr)
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return failure(e.stderr, "version", fmt.Errorf("no build information in this binary"))
	}
	fmt.Fprintln(e.stdout, versionLine(bi))
	return 0
}

// versionLine formats bi as "labelinf PATH VERSION [REVISION[+dirty]] GO".
func versionLine(bi *debug.BuildInfo) string {
	s := fmt.Sprintf("labelinf %s %s", bi.Main.Path, bi.Main.Version)
	var rev, modified string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			modified = kv.Value
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " " + rev
		if modified == "true" {
			s += "+dirty"
		}
	}
	return s + " " + bi.GoVersion
}
