package stacktest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDocsInBrowser opens /docs in headless Chromium (as the playground's
// browser test does; skipped without Chromium) and waits until RapiDoc has
// rendered the OpenAPI document: the operations and the error responses
// appear in its shadow DOM, the menu lists each operation by its short
// summary, and every resource the page loaded came from
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
	// The menu: one entry per operation, its short summary (issue 34: each
	// entry was the whole proto comment).
	menu, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelector("rapi-doc").shadowRoot.querySelectorAll('[part~="section-navbar-path"]')].map((e) => e.textContent.replace(/\s+/g, " ").trim())`))
	if err != nil {
		t.Fatal(err)
	}
	if len(menu) != operations {
		t.Errorf("the menu has %d operations; want %d: %q", len(menu), operations, menu)
	}
	for _, m := range menu {
		if len([]rune(m)) > 80 {
			t.Errorf("menu entry of %d characters; want at most 80: %.120q", len([]rune(m)), m)
		}
	}
	t.Logf("/docs menu: %q", menu)
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

// TestDocsTryEveryOperation opens /docs in headless Chromium and presses
// "TRY" on every operation RapiDoc shows, as a reader would, without
// changing what RapiDoc filled in: each call must be answered 2xx (the
// route's example from /openapi.json: the body, the path and query
// parameters). RapiDoc's after-try event reports each answer.
func TestDocsTryEveryOperation(t *testing.T) {
	bin := requireChromium(t, "the /docs Try test")
	a := startServer(t)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 1000))
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 120*time.Second)
	defer cancelT()
	base := "http://" + a.HTTP
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/docs")); err != nil {
		t.Fatalf("open /docs: %v", err)
	}
	// Every TRY button, in the shadow roots of RapiDoc's api-request
	// elements.
	const buttons = `(() => {
		const out = [];
		const walk = (root) => {
			for (const el of root.querySelectorAll("*")) {
				if (el.tagName === "API-REQUEST" && el.shadowRoot) {
					const b = el.shadowRoot.querySelector('button[part~="btn-try"]');
					if (b) out.push(b);
				}
				if (el.shadowRoot) walk(el.shadowRoot);
			}
		};
		walk(document);
		window.__tryButtons = out;
		return out.length;
	})()`
	var n int
	for deadline := time.Now().Add(60 * time.Second); ; {
		var err error
		if n, err = chromedp.Run(ctx, chromedp.Evaluate[int](buttons)); err != nil {
			t.Fatal(err)
		}
		if n >= operations {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("RapiDoc shows %d TRY buttons after 60 s; want one per operation (%d)", n, operations)
		}
		time.Sleep(300 * time.Millisecond)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		window.__tries = [];
		document.addEventListener("after-try", (e) => {
			const d = e.detail;
			window.__tries.push({method: d.request.method, url: d.request.url,
				status: d.response ? d.response.status : 0, body: String(d.responseBody === undefined ? d.err : (typeof d.responseBody === "string" ? d.responseBody : JSON.stringify(d.responseBody))).slice(0, 400)});
		});
		return true;
	})()`)); err != nil {
		t.Fatal(err)
	}
	type try struct {
		Method, URL, Body string
		Status            int
	}
	var tries []try
	for i := 0; i < n; i++ {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { window.__tryButtons[%d].click(); return true; })()`, i))); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(20 * time.Second); ; {
			var err error
			if tries, err = chromedp.Run(ctx, chromedp.Evaluate[[]try](`window.__tries`)); err != nil {
				t.Fatal(err)
			}
			if len(tries) > i {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("TRY %d: no answer in 20 s", i)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	seen := map[string]bool{}
	for _, tr := range tries {
		u := strings.TrimPrefix(tr.URL, base)
		if tr.Status < 200 || tr.Status > 299 {
			t.Errorf("TRY %s %s = %d %s", tr.Method, u, tr.Status, tr.Body)
		} else {
			t.Logf("TRY %s %s = %d", tr.Method, u, tr.Status)
		}
		if i := strings.IndexByte(u, '?'); i >= 0 {
			u = u[:i]
		}
		seen[tr.Method+" "+u] = true
	}
	if len(seen) != operations {
		t.Errorf("%d distinct operations tried; want %d: %v", len(seen), operations, seen)
	}
}
