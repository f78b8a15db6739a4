package admincli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Exit codes of gtmgate admin.
const (
	ExitOK = 0
	// ExitRefused: the gateway answered with an error about the request
	// (not found, validation, conflict).
	ExitRefused = 1
	ExitUsage   = 2
	// ExitAuth: no admin key, or the gateway refused it.
	ExitAuth = 3
	// ExitUnavailable: the gateway could not be reached or failed (5xx).
	ExitUnavailable = 4
	// ExitCheckFailed: providers check found an account that cannot work.
	ExitCheckFailed = 5
)

// client calls the admin API.
type client struct {
	base, key string
	http      *http.Client
}

// apiError is an error answer, or a failure to get one.
type apiError struct {
	status        int
	code, message string
	err           error
}

func (e *apiError) Error() string {
	switch {
	case e.err != nil:
		return e.err.Error()
	case e.code != "":
		return e.code + ": " + e.message
	}
	return fmt.Sprintf("HTTP %d", e.status)
}

// exitCode maps an error to the documented exit codes.
// errNoKey is a request with no admin key to send.
var errNoKey = errors.New("no admin key: set GTMGATE_ADMIN_KEY or pass --admin-key-file")

func exitCode(err error) int {
	if errors.Is(err, errCheckFailed) {
		return ExitCheckFailed
	}
	if errors.Is(err, errNoKey) {
		return ExitAuth
	}
	var ae *apiError
	if !errors.As(err, &ae) {
		return ExitRefused
	}
	switch {
	case ae.err != nil || ae.status >= 500:
		return ExitUnavailable
	case ae.status == http.StatusUnauthorized || ae.status == http.StatusForbidden:
		return ExitAuth
	}
	return ExitRefused
}

// do sends one request; body, when not nil, is sent as JSON. It returns the
// answer's JSON.
func (c *client) do(ctx context.Context, method, path string, body any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	if c.key == "" {
		return nil, errNoKey
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, &apiError{err: fmt.Errorf("gateway URL: %w", err)}
	}
	req.Header.Set("X-Admin-Key", c.key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &apiError{err: fmt.Errorf("the gateway at %s cannot be reached: %w", c.base, err)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, &apiError{err: fmt.Errorf("reading the answer: %w", err)}
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal(b, &e)
		return nil, &apiError{status: resp.StatusCode, code: e.Error.Code, message: e.Error.Message}
	}
	return b, nil
}
