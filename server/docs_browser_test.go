package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDocsInBrowser opens /docs in headless Chromium (as the playground's
// browser test does; skipped without Chromium) and waits until RapiDoc has
// rendered the OpenAPI document: the operations and the error responses
// appear in its shadow DOM, and every resource the page loaded came from
// the server itself.
func TestDocsInBrowser(t *testing.T) {
	bin := requireChromium(t, "the /docs browser test")
	a := startServer(t)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 1000))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	defer cancelT()
	base := "http://" + a.HTTP
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/docs")); err != nil {
		t.Fatalf("open /docs: %v", err)
	}
	const rendered = `(() => { const r = document.querySelector("rapi-doc"); return r && r.shadowRoot ? r.shadowRoot.textContent : ""; })()`
	var text string
	for deadline := time.Now().Add(60 * time.Second); ; {
		var err error
		if text, err = chromedp.Run(ctx, chromedp.Evaluate[string](rendered)); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, "/v1/games/{game}:applyMove") && strings.Contains(text, "INVALID_ARGUMENT") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("RapiDoc did not render the document in 60 s; shadow text: %.500q", text)
		}
		time.Sleep(200 * time.Millisecond)
	}
	origins, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...new Set(performance.getEntriesByType("resource").map((e) => new URL(e.name).origin))]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range origins {
		if o != base {
			t.Errorf("/docs loaded a resource from %s", o)
		}
	}
	t.Logf("/docs rendered %d characters of documentation; resources from %v", len(text), origins)
}
