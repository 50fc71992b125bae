// This file runs the real host: testdata/host/host.py (onnx.checker,
// onnxruntime through onnxruntime-node, scikit-learn's log_loss), for
// callers outside this package's tests (labelinf repro).

package mutnet

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/onnx"
)

//go:embed testdata/host/host.py testdata/host/run.cjs
var hostFiles embed.FS

// Host is a real host on this machine: Debian's python3 with onnx and
// scikit-learn, node, and onnxruntime-node under OrtDir/node_modules.
type Host struct {
	Python, OrtDir string
}

// ErrNoHost reports a missing component of the real host.
var ErrNoHost = errors.New("mutnet: the real host is not installed")

// FindHost returns the host, or an error wrapping [ErrNoHost] that names
// what is missing: /usr/bin/python3 importing onnx and sklearn
// (python3-onnx, python3-sklearn), node, and onnxruntime-node in the
// directory LABELINF_ORT_NODE names (ONNXRUNTIME_NODE_INSTALL=skip npm
// install onnxruntime-node there).
func FindHost() (*Host, error) {
	h := &Host{Python: "/usr/bin/python3", OrtDir: os.Getenv("LABELINF_ORT_NODE")}
	if err := exec.Command(h.Python, "-c", "import onnx, sklearn").Run(); err != nil {
		return nil, fmt.Errorf("%w: %s cannot import onnx and sklearn (python3-onnx, python3-sklearn)", ErrNoHost, h.Python)
	}
	if _, err := exec.LookPath("node"); err != nil {
		return nil, fmt.Errorf("%w: no node", ErrNoHost)
	}
	if h.OrtDir == "" {
		return nil, fmt.Errorf("%w: LABELINF_ORT_NODE is not set (the directory holding onnxruntime-node's node_modules)", ErrNoHost)
	}
	if _, err := os.Stat(filepath.Join(h.OrtDir, "node_modules", "onnxruntime-node")); err != nil {
		return nil, fmt.Errorf("%w: no onnxruntime-node under %s", ErrNoHost, h.OrtDir)
	}
	return h, nil
}

// Scores has the host check and run each model on the rows x (fed as
// type dt, in the given mode: "batch", "shuffle", "rows", "one" or
// "one-neg"; see host.py) and returns its log_loss against y, as
// printed, one per model.
func (h *Host) Scores(ctx context.Context, x [][]float64, y []int, models []*onnx.Model, mode string, dt onnx.DataType) ([]string, error) {
	dir, err := os.MkdirTemp("", "labelinf-host-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	for _, f := range []string{"host.py", "run.cjs"} {
		b, err := hostFiles.ReadFile("testdata/host/" + f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			return nil, err
		}
	}
	var xs, ys strings.Builder
	for _, r := range x {
		for j, v := range r {
			if j > 0 {
				xs.WriteByte(',')
			}
			xs.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		xs.WriteByte('\n')
	}
	for _, v := range y {
		fmt.Fprintln(&ys, v)
	}
	args := []string{filepath.Join(dir, "host.py"), filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.csv")}
	if err := os.WriteFile(args[1], []byte(xs.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(args[2], []byte(ys.String()), 0o644); err != nil {
		return nil, err
	}
	for i, m := range models {
		b, err := m.Marshal()
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, fmt.Sprintf("m%d.onnx", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		args = append(args, p)
	}
	args = append(args, "--mode", mode, "--dtype", dt.String(), "--ort", h.OrtDir)
	out, err := exec.CommandContext(ctx, h.Python, args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("mutnet: host: %v: %s", err, strings.TrimSpace(string(out)))
	}
	s := strings.Fields(string(out))
	if len(s) != len(models) {
		return nil, fmt.Errorf("mutnet: host printed %d scores for %d models", len(s), len(models))
	}
	return s, nil
}
