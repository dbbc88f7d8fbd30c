package rmit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
)

// setCodeIDs sets each package's CodeID: a hash of the build IDs of every
// package its test binary links, its own test variant included. A build
// ID names a compiled package's inputs and content, so the hash changes
// with any change to the code the binary runs, and not with how it is
// linked: the links of other layouts share it, where each has a Hash of
// its own. It asks go list once, with the build's flags, which finds
// every package compiled already.
func setCodeIDs(ctx context.Context, dir string, buildFlags []string, pkgs []*Package) error {
	if len(pkgs) == 0 {
		return nil
	}
	args := append([]string{"list", "-test", "-deps", "-export", "-json=ImportPath,BuildID,Deps"}, buildFlags...)
	args = append(args, "--")
	for _, p := range pkgs {
		args = append(args, p.ImportPath)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("go list -export: %v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return fmt.Errorf("go list -export: %w", err)
	}
	type listed struct {
		ImportPath, BuildID string
		Deps                []string
	}
	ids := map[string]string{}
	deps := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return fmt.Errorf("go list -export: %w", err)
		}
		ids[l.ImportPath], deps[l.ImportPath] = l.BuildID, l.Deps
	}
	for _, p := range pkgs {
		main := p.ImportPath + ".test"
		if ids[main] == "" {
			continue
		}
		h := sha256.New()
		fmt.Fprintf(h, "%s %s\n", main, ids[main])
		for _, d := range slices.Sorted(slices.Values(deps[main])) {
			fmt.Fprintf(h, "%s %s\n", d, ids[d])
		}
		p.CodeID = hex.EncodeToString(h.Sum(nil)[:12])
	}
	return nil
}
