package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsDocumented: every flag gamerulesd takes, with its environment
// variable, has its row in docs/configuration.md (the table the README's
// Configuration section links to), and the table names no flag that is gone.
func TestFlagsDocumented(t *testing.T) {
	var usage bytes.Buffer
	parseConfig([]string{"--help"}, func(string) string { return "" }, &usage)
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	flags := regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(usage.String(), -1)
	if len(flags) < 30 {
		t.Fatalf("usage lists %d flags; want at least 30:\n%s", len(flags), usage.String())
	}
	envOf := regexp.MustCompile(`\(env (GAMERULES_[A-Z0-9_]+)`)
	known := map[string]bool{}
	for _, f := range flags {
		name := f[1]
		known[name] = true
		if !strings.Contains(string(doc), "`--"+name+"`") {
			t.Errorf("flag --%s is not in docs/configuration.md", name)
		}
		// The flag's usage text runs to the next flag; its env var is in it.
		i := strings.Index(usage.String(), "  -"+name)
		rest := usage.String()[i+len(name)+3:]
		if j := strings.Index(rest, "\n  -"); j >= 0 {
			rest = rest[:j]
		}
		if m := envOf.FindStringSubmatch(rest); m != nil && !strings.Contains(string(doc), "`"+m[1]+"`") {
			t.Errorf("environment variable %s of --%s is not in docs/configuration.md", m[1], name)
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `--([a-z0-9-]+)`").FindAllStringSubmatch(string(doc), -1) {
		if !known[m[1]] {
			t.Errorf("docs/configuration.md documents --%s, which gamerulesd does not take", m[1])
		}
	}
}
