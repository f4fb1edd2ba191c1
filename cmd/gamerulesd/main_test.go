package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gamerules/gamerules/server"
)

// TestRESTGatewayFlag: --rest-gateway takes inprocess (the default) or
// loopback (the real server answers REST in both: server.TestRESTGatewayModes).
func TestRESTGatewayFlag(t *testing.T) {
	if cfg, _, err := parseConfig(nil, func(string) string { return "" }, io.Discard); err != nil || cfg.RESTGateway != server.GatewayInProcess {
		t.Errorf("default --rest-gateway = %q, %v", cfg.RESTGateway, err)
	}
	if cfg, _, err := parseConfig([]string{"--rest-gateway", "loopback"}, func(string) string { return "" }, io.Discard); err != nil || cfg.RESTGateway != server.GatewayLoopback {
		t.Errorf("--rest-gateway loopback = %q, %v", cfg.RESTGateway, err)
	}
	_, _, err := parseConfig(nil, func(k string) string { return map[string]string{"GAMERULES_REST_GATEWAY": "carrier-pigeon"}[k] }, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "GAMERULES_REST_GATEWAY") {
		t.Errorf("GAMERULES_REST_GATEWAY=carrier-pigeon: %v; want an error naming it", err)
	}
}

func TestConfigFromEnvAndFlags(t *testing.T) {
	env := map[string]string{"GAMERULES_GRPC_ADDR": ":6000", "GAMERULES_HTTP_ADDR": ":7000"}
	cfg, _, err := parseConfig([]string{"--http-addr", ":7100"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.GRPCAddr != ":6000" || cfg.HTTPAddr != ":7100" {
		t.Errorf("config = %+v; want grpc :6000 (env) and http :7100 (flag wins)", cfg)
	}
	for _, bad := range [][]string{
		{"--max-recv-bytes", "0"},
		{"--shutdown-timeout", "-5s"},
		{"--drain-delay", "-1s"},
		{"--log-level", "fatal"},
		{"--log-format", "xml"},
		{"extra-argument"},
	} {
		if _, _, err := parseConfig(bad, func(string) string { return "" }, io.Discard); err == nil {
			t.Errorf("parseConfig(%q) accepted", bad)
		}
	}
	_, _, err = parseConfig(nil, func(k string) string { return map[string]string{"GAMERULES_LOG_LEVEL": "loud"}[k] }, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "GAMERULES_LOG_LEVEL") {
		t.Errorf("GAMERULES_LOG_LEVEL=loud: %v; want an error naming the variable", err)
	}
	var out bytes.Buffer
	if err := mainErr([]string{"--version"}, func(string) string { return "" }, &out, io.Discard); err != nil || !strings.HasPrefix(out.String(), "gamerulesd ") {
		t.Errorf("--version printed %q, %v", out.String(), err)
	}
}
