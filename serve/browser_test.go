package serve

// The leaderboard page in a real headless Debian chromium, driven over the
// Chrome DevTools protocol with a minimal stdlib WebSocket client
// (RFC 6455: client frames masked, text frames, no extensions).

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wsConn is a WebSocket client connection.
type wsConn struct {
	c  net.Conn
	br *bufio.Reader
}

func wsDial(ctx context.Context, rawURL string) (*wsConn, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	var k [16]byte
	rand.Read(k[:])
	key := base64.StdEncoding.EncodeToString(k[:])
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", u.RequestURI(), u.Host, key)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	if resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Sec-WebSocket-Accept") != base64.StdEncoding.EncodeToString(h[:]) {
		c.Close()
		return nil, fmt.Errorf("websocket handshake: %s", resp.Status)
	}
	return &wsConn{c: c, br: br}, nil
}

func (w *wsConn) write(msg []byte) error {
	hdr := []byte{0x81} // FIN, text
	switch n := len(msg); {
	case n < 126:
		hdr = append(hdr, 0x80|byte(n))
	case n < 1<<16:
		hdr = append(hdr, 0x80|126, byte(n>>8), byte(n))
	default:
		hdr = append(hdr, 0x80|127)
		hdr = binary.BigEndian.AppendUint64(hdr, uint64(n))
	}
	var mask [4]byte
	rand.Read(mask[:])
	hdr = append(hdr, mask[:]...)
	body := make([]byte, len(msg))
	for i := range msg {
		body[i] = msg[i] ^ mask[i%4]
	}
	_, err := w.c.Write(append(hdr, body...))
	return err
}

// read returns the next complete text message (fragments joined).
func (w *wsConn) read() ([]byte, error) {
	var msg []byte
	for {
		var h [2]byte
		if _, err := io.ReadFull(w.br, h[:]); err != nil {
			return nil, err
		}
		n := uint64(h[1] & 0x7f)
		switch n {
		case 126:
			var b [2]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = uint64(binary.BigEndian.Uint16(b[:]))
		case 127:
			var b [8]byte
			if _, err := io.ReadFull(w.br, b[:]); err != nil {
				return nil, err
			}
			n = binary.BigEndian.Uint64(b[:])
		}
		if n > 64<<20 {
			return nil, errors.New("websocket frame over 64 MiB")
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(w.br, p); err != nil {
			return nil, err
		}
		switch op := h[0] & 0x0f; op {
		case 0x8:
			return nil, io.EOF
		case 0x9, 0xA: // ping, pong: chromium does not ping; ignore
			continue
		}
		msg = append(msg, p...)
		if h[0]&0x80 != 0 {
			return msg, nil
		}
	}
}

// cdp is a DevTools session on one page.
type cdp struct {
	ws *wsConn
	id int
}

func (c *cdp) call(method string, params any, result any) error {
	c.id++
	req, _ := json.Marshal(map[string]any{"id": c.id, "method": method, "params": params})
	c.ws.c.SetDeadline(time.Now().Add(30 * time.Second))
	if err := c.ws.write(req); err != nil {
		return err
	}
	for {
		msg, err := c.ws.read()
		if err != nil {
			return err
		}
		var r struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(msg, &r); err != nil {
			return err
		}
		if r.ID != c.id {
			continue // an event
		}
		if r.Error != nil {
			return fmt.Errorf("%s: %s", method, r.Error.Message)
		}
		if result != nil {
			return json.Unmarshal(r.Result, result)
		}
		return nil
	}
}

// eval runs a JavaScript expression in the page and returns its value as
// a string.
func (c *cdp) eval(expr string) (string, error) {
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	if err := c.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r); err != nil {
		return "", err
	}
	if r.ExceptionDetails != nil {
		return "", fmt.Errorf("%s: %v", expr, r.ExceptionDetails)
	}
	return fmt.Sprint(r.Result.Value), nil
}

// waitFor polls expr until it is "true".
func (c *cdp) waitFor(t *testing.T, expr string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if v, err := c.eval(expr); err == nil && v == "true" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", expr)
}

func TestBrowserLeaderboard(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starting chromium takes ~10 s here; TestWebForm drives the same form over HTTP")
	}
	bin, err := exec.LookPath("chromium")
	if err != nil {
		need(t, "chromium", "apt-get install -y chromium")
	}
	e := newEnv(t, [][]int{{0, 1, 1, 0}}, CompetitionConfig{ID: "web", Title: "Browser test", Classes: 2, Metric: "leaderboard"})
	tok := e.key("browser team")

	// The profile is not a t.TempDir: chromium's helper processes (zygote,
	// renderers, crashpad) write into it for a moment after the browser is
	// killed, and TempDir's cleanup then failed with "directory not empty".
	// Chromium runs in its own process group; the deferred cleanup kills
	// the whole group, waits until it is gone, then removes the profile.
	profile, err := os.MkdirTemp("", "labelinf-chromium-")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+profile,
		"--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--window-size=1100,800", "about:blank")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
	defer func() {
		pgid := cmd.Process.Pid
		syscall.Kill(-pgid, syscall.SIGKILL)
		cmd.Wait()
		for i := 0; i < 50 && syscall.Kill(-pgid, 0) == nil; i++ {
			time.Sleep(100 * time.Millisecond) // the group's last members exiting
		}
		var err error
		for range 20 {
			if err = os.RemoveAll(profile); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("removing chromium's profile %s: %v", profile, err)
	}()
	re := regexp.MustCompile(`DevTools listening on (ws://[^\s]+)`)
	sc := bufio.NewScanner(stderr)
	var browserWS string
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			browserWS = m[1]
			break
		}
	}
	require.NotEmpty(t, browserWS, "chromium printed no DevTools address")
	go io.Copy(io.Discard, stderr)
	u, _ := url.Parse(browserWS)
	var targets []struct {
		Type, WebSocketDebuggerURL string
	}
	for range 100 {
		resp, err := http.Get("http://" + u.Host + "/json/list")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
		}
		if len(targets) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var pageWS string
	for _, tg := range targets {
		if tg.Type == "page" {
			pageWS = tg.WebSocketDebuggerURL
		}
	}
	require.NotEmpty(t, pageWS, "no page target")
	ws, err := wsDial(ctx, pageWS)
	require.NoError(t, err)
	defer ws.c.Close()
	c := &cdp{ws: ws}

	page := e.hs.URL + "/competitions/web"
	require.NoError(t, c.call("Page.navigate", map[string]any{"url": page}, nil))
	c.waitFor(t, `document.readyState === "complete" && location.href === `+jsString(page))
	rows, err := c.eval(`document.querySelector("#leaderboard").innerText`)
	require.NoError(t, err)
	assert.Contains(t, rows, "No submissions yet")

	// Type the key and the predictions into the form and press Submit.
	_, err = c.eval(`document.getElementById("key").value = ` + jsString(tok) + `;
		document.getElementById("predictions").value = '{"predictions": [0.1, 0.8, 0.7, 0.4]}';
		document.getElementById("submit").click(); true`)
	require.NoError(t, err)
	c.waitFor(t, `document.readyState === "complete" && location.search.includes("submitted=")`)
	msg, err := c.eval(`document.querySelector("#message").innerText`)
	require.NoError(t, err)
	assert.Contains(t, msg, "scored 0.2")
	rows, err = c.eval(`document.querySelector("#leaderboard").innerText`)
	require.NoError(t, err)
	assert.Contains(t, rows, "browser team")
	assert.Equal(t, 1, e.count("web"))

	var shot struct{ Data string }
	require.NoError(t, c.call("Page.captureScreenshot", map[string]any{"format": "png"}, &shot))
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(png, []byte("\x89PNG")))
	dir := os.Getenv("LABELINF_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "leaderboard.png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot after submitting through the form: %s (%d bytes); rows: %q", path, len(png), strings.TrimSpace(rows))
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
