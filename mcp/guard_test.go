package mcp

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGuard: a handler's panic is a tool error and a log line with the
// tool's name, not the end of the process.
func TestGuard(t *testing.T) {
	var logs bytes.Buffer
	h := guard(slog.New(slog.NewTextHandler(&logs, nil)), func(context.Context, *sdkmcp.CallToolRequest, applyIn) (*sdkmcp.CallToolResult, *playOut, error) {
		panic("boom")
	})
	res, out, err := h(context.Background(), &sdkmcp.CallToolRequest{Params: &sdkmcp.CallToolParamsRaw{Name: "apply_move"}}, applyIn{})
	if err != nil || out != nil || res == nil || !res.IsError || res.Content[0].(*sdkmcp.TextContent).Text != "internal error" {
		t.Fatalf("a panic answered %v, %v, %v", res, out, err)
	}
	if !strings.Contains(logs.String(), "boom") || !strings.Contains(logs.String(), "apply_move") {
		t.Errorf("log: %s", logs.String())
	}
}
