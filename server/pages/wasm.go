package pages

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/gamerules/gamerules/server/limit"
	"github.com/gamerules/gamerules/web"
)

// wasmTypes are the Content-Types of web.WasmFiles, by extension:
// WebAssembly.instantiateStreaming refuses a wasm served as anything but
// application/wasm.
var wasmTypes = map[string]string{
	".wasm": "application/wasm",
	".js":   "text/javascript; charset=utf-8",
}

// wasmFiles serves the playground's offline mode from dir, the output of
// js/build.sh (js/dist): GET /wasm/<file> for each of web.WasmFiles and
// nothing else of dir. A client that takes gzip (Accept-Encoding) gets the
// file gzipped at gzip's default level: 12.5 MB of wasm go over the wire as
// 2.96 MB (README). The wasm's gzipped bytes are made when the server
// starts, in the background, the others' on their first request; they are
// kept (about a quarter of the files' size) until the file changes on disk
// (its size or modification time), so a rebuilt js/dist is served at once.
type wasmFiles struct {
	dir string

	mu sync.Mutex // guards gz
	gz map[string]*gzFile
}

// gzFile is one file's gzipped form; its own lock is held while the file
// is compressed, so it is done once and a request for another file (the
// small scripts beside the wasm) never waits behind it.
type gzFile struct {
	mu   sync.Mutex
	last gzipped
}

// gzipped is a file's gzipped bytes and the file they were made from.
type gzipped struct {
	size int64
	mod  time.Time
	body []byte
}

// registerWasm adds GET /wasm/{file} for dir; with dir "" it adds
// nothing, and the page's offline switch says the rules are not served
// here.
func registerWasm(mux *http.ServeMux, dir string) {
	if dir == "" {
		return
	}
	s := &wasmFiles{dir: dir, gz: map[string]*gzFile{}}
	mux.Handle("GET /wasm/{file}", s)
	// The wasm takes a second or more to compress: done now, in the
	// background, the first page that asks for it does not wait as long.
	go s.warm("gamerules.wasm")
}

// warm makes file name's gzipped bytes, if it can be read.
func (s *wasmFiles) warm(name string) {
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		_, _ = s.gzipped(name, f, fi)
	}
}

func (s *wasmFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	if !slices.Contains(web.WasmFiles, name) {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(filepath.Join(s.dir, name))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	// Browsers revalidate (Last-Modified), so a new build is used at once.
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Type", wasmTypes[filepath.Ext(name)])
	h.Set("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		http.ServeContent(w, r, name, fi.ModTime(), f)
		return
	}
	body, err := s.gzipped(name, f, fi)
	if err != nil {
		limit.WriteError(w, http.StatusInternalServerError, codes.Internal, "internal error: reading "+name+": "+err.Error())
		return
	}
	// Whole bodies only: net/http leaves out Content-Length on an encoded
	// body (it cannot know a range's encoded length); without ranges it is
	// the gzipped size, which a browser shows as the download's progress.
	// (A server may answer a Range request with the whole body.)
	r.Header.Del("Range")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Content-Encoding", "gzip")
	// The two encodings are two representations: their validators differ.
	h.Set("ETag", `"`+strconv.FormatInt(fi.ModTime().UnixNano(), 36)+"-"+strconv.FormatInt(fi.Size(), 36)+`-gzip"`)
	http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(body))
}

// gzipped returns file name's gzipped bytes, made from f (whose stat is fi)
// unless those made before are of the same file.
func (s *wasmFiles) gzipped(name string, f *os.File, fi os.FileInfo) ([]byte, error) {
	s.mu.Lock()
	gf := s.gz[name]
	if gf == nil {
		gf = &gzFile{}
		s.gz[name] = gf
	}
	s.mu.Unlock()
	gf.mu.Lock()
	defer gf.mu.Unlock()
	if g := gf.last; g.body != nil && g.size == fi.Size() && g.mod.Equal(fi.ModTime()) {
		return g.body, nil
	}
	var buf bytes.Buffer
	buf.Grow(int(fi.Size() / 3))
	// gzip's default level: about 3% more than best's for the wasm,
	// in an eighth of the time (19 s under the race detector at best).
	zw, _ := gzip.NewWriterLevel(&buf, gzip.DefaultCompression)
	if _, err := io.Copy(zw, f); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	gf.last = gzipped{size: fi.Size(), mod: fi.ModTime(), body: buf.Bytes()}
	return buf.Bytes(), nil
}

// acceptsGzip reports whether an Accept-Encoding header (RFC 9110, 12.5.3)
// takes gzip: "gzip" (or its alias "x-gzip") with a q-value other than 0,
// or else "*" with one.
func acceptsGzip(header string) bool {
	gz, star := -1.0, -1.0
	for _, item := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(item, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding != "gzip" && coding != "x-gzip" && coding != "*" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if x, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = x
				}
			}
		}
		if coding == "*" {
			star = q
		} else {
			gz = q
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}
