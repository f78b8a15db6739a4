package app_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gtmgate/gtmgate/app/apptest"
	"github.com/gtmgate/gtmgate/config"
)

// TestStalledBodyIsCutOff sends a POST /mcp whose body stops half-way: the
// listener's read time-out (GTMGATE_READ_TIMEOUT) ends the request instead of
// holding the connection for as long as the client likes.
func TestStalledBodyIsCutOff(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t, func(c *config.Config) { c.ReadTimeout = 200 * time.Millisecond })
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.GatewayURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_, err = conn.Write([]byte("POST /mcp HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer " + env.DemoToken +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"))
	if err != nil {
		t.Fatal(err)
	}
	// Far beyond the 200 ms time-out: only a server that never cuts the
	// request off waits this long.
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		defer resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Fatalf("stalled body answered %s, want an error status or a closed connection", resp.Status)
		}
		return
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the gateway held a stalled request body open for 20 s")
	}
}
