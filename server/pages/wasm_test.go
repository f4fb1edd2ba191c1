package pages

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// wasmDir writes a js/dist stand-in: a "wasm" of size bytes (random 4-bit
// values between a repeated pattern, so that gzip shrinks it but not to
// nothing), a loader and a module, plus a file that is not served.
func wasmDir(t *testing.T, size int) (string, map[string][]byte) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	wasm := make([]byte, size)
	for i := range wasm {
		if i%2 == 0 {
			wasm[i] = byte(r.IntN(16))
		} else {
			wasm[i] = byte(i % 7)
		}
	}
	files := map[string][]byte{
		"gamerules.wasm": wasm,
		"wasm_exec.js":   []byte("\"use strict\";\n// the Go toolchain's loader\n"),
		"index.js":       []byte("export async function load() {}\n// ·\n"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("not served"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, files
}

// get asks mux for path with the Accept-Encoding header ae ("" for none).
func get(mux http.Handler, path, ae string) *http.Response {
	req := httptest.NewRequest("GET", path, nil)
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	return rec.Result()
}

// TestWasmGzip checks /wasm/: a client that takes gzip gets each file
// gzipped (Content-Encoding, Vary, the right Content-Type) and the body
// unzips to the file; a client that does not, or refuses it (q=0), gets
// the file itself; a rebuilt file is served new at once; other files of the
// directory are not served.
func TestWasmGzip(t *testing.T) {
	dir, files := wasmDir(t, 1<<20)
	mux := http.NewServeMux()
	Register(mux, dir)
	types := map[string]string{"gamerules.wasm": "application/wasm", "wasm_exec.js": "text/javascript; charset=utf-8", "index.js": "text/javascript; charset=utf-8"}
	for name, want := range files {
		for _, ae := range []string{"gzip, deflate, br, zstd", "br;q=1.0, gzip;q=0.5", "*", "x-gzip"} {
			resp := get(mux, "/wasm/"+name, ae)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("%s, Accept-Encoding %q: %d, Content-Encoding %q", name, ae, resp.StatusCode, resp.Header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s: not gzip: %v", name, err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: unzips to %d bytes (%v); want the file's %d", name, len(got), err, len(want))
			}
			if name == "gamerules.wasm" && len(body) > len(want)*3/4 {
				t.Errorf("%s: %d bytes gzipped of %d", name, len(body), len(want))
			}
			if resp.Header.Get("Content-Type") != types[name] || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s: Content-Type %q, Vary %q", name, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
			}
		}
		for _, ae := range []string{"", "identity", "gzip;q=0", "br", "gzip;q=0, *"} {
			resp := get(mux, "/wasm/"+name, ae)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, want) {
				t.Errorf("%s, Accept-Encoding %q: %d, Content-Encoding %q, %d bytes; want the file's %d", name, ae, resp.StatusCode, resp.Header.Get("Content-Encoding"), len(body), len(want))
			}
			if resp.Header.Get("Content-Type") != types[name] || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("%s: Content-Type %q, Vary %q", name, resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
			}
		}
	}

	// A rebuild: the new file, not the gzipped bytes kept of the old one.
	rebuilt := append(bytes.Repeat([]byte("new build "), 1000), files["gamerules.wasm"][:100]...)
	path := filepath.Join(dir, "gamerules.wasm")
	if err := os.WriteFile(path, rebuilt, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	resp := get(mux, "/wasm/gamerules.wasm", "gzip")
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, rebuilt) {
		t.Errorf("after a rebuild: %d bytes, not the new file's %d", len(got), len(rebuilt))
	}

	for _, p := range []string{"/wasm/secret.txt", "/wasm/..%2fsecret.txt", "/wasm/"} {
		if resp := get(mux, p, "gzip"); resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d; want 404", p, resp.StatusCode)
		}
	}
	// Without a directory there is no /wasm/.
	none := http.NewServeMux()
	Register(none, "")
	if resp := get(none, "/wasm/gamerules.wasm", "gzip"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("no directory: %d; want 404", resp.StatusCode)
	}
}

// TestWasmGzipHeaders checks the gzipped answer's Content-Length (the
// gzipped size: net/http leaves it out of an encoded body) and that a
// revalidation with its ETag or Last-Modified is answered 304, and a Range
// request the whole body.
func TestWasmGzipHeaders(t *testing.T) {
	dir, _ := wasmDir(t, 100_000)
	mux := http.NewServeMux()
	Register(mux, dir)
	resp := get(mux, "/wasm/gamerules.wasm", "gzip")
	body, _ := io.ReadAll(resp.Body)
	if cl := resp.Header.Get("Content-Length"); cl != strconv.Itoa(len(body)) {
		t.Errorf("Content-Length %q; the body is %d bytes", cl, len(body))
	}
	etag, lm := resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	if etag == "" || lm == "" {
		t.Fatalf("ETag %q, Last-Modified %q", etag, lm)
	}
	for k, v := range map[string]string{"If-None-Match": etag, "If-Modified-Since": lm} {
		req := httptest.NewRequest("GET", "/wasm/gamerules.wasm", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set(k, v)
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified {
			t.Errorf("%s: %d; want 304", k, rec.Code)
		}
	}
	req := httptest.NewRequest("GET", "/wasm/gamerules.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("Range", "bytes=0-99")
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), body) {
		t.Errorf("Range: %d, %d bytes; want 200 and the whole gzipped body (%d)", rec.Code, rec.Body.Len(), len(body))
	}
}
