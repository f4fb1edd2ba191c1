package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

// NoopMethod is the gRPC no-op baseline; NoopPath its REST counterpart
// (GET).
const (
	NoopMethod = "grpc.health.v1.Health/Check"
	NoopPath   = "/healthz"
)

// Protoset is a FileDescriptorSet (binary) of the gamerules.v1 API and the
// gRPC health service with all their imports, dependencies first: what
// ghz --protoset reads, so that ghz needs neither protoc nor reflection
// calls (which would add server CPU to the measured runs).
func Protoset() ([]byte, error) {
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imps := fd.Imports()
		for i := 0; i < imps.Len(); i++ {
			add(imps.Get(i).FileDescriptor)
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	add(gamerulesv1.File_gamerules_v1_gamerules_proto)
	add(grpc_health_v1.File_grpc_health_v1_health_proto)
	return proto.Marshal(set)
}

// JSON is a request in protojson form (the form both ghz -D and the REST
// gateway read); several requests make a JSON array (ghz sends its
// elements round-robin).
func JSON(reqs ...proto.Message) ([]byte, error) {
	var parts [][]byte
	for _, r := range reqs {
		b, err := protojson.Marshal(r)
		if err != nil {
			return nil, err
		}
		parts = append(parts, b)
	}
	if len(parts) == 1 {
		return parts[0], nil
	}
	return append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']'), nil
}

// Files are the paths WriteFiles wrote for one case.
type Files struct {
	GRPC string // ghz -D
	REST string // hey -D (empty when the case has no REST path)
}

// WriteFiles writes, under dir, the protoset (gamerules.protoset), an empty
// request for the no-op, and for every case its gRPC request JSON and, if
// it has a REST path, its REST body (the first request without the game,
// which the path carries). It returns the protoset's path and the files by
// case ID ("noop" for the no-op).
func WriteFiles(dir string, cases []Case) (string, map[string]Files, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	ps, err := Protoset()
	if err != nil {
		return "", nil, err
	}
	protoset := filepath.Join(dir, "gamerules.protoset")
	if err := os.WriteFile(protoset, ps, 0o644); err != nil {
		return "", nil, err
	}
	files := map[string]Files{"noop": {GRPC: filepath.Join(dir, "noop.json")}}
	if err := os.WriteFile(files["noop"].GRPC, []byte("{}"), 0o644); err != nil {
		return "", nil, err
	}
	for _, c := range cases {
		base := filepath.Join(dir, strings.NewReplacer("/", "_").Replace(c.ID))
		js, err := JSON(c.Requests...)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", c.ID, err)
		}
		f := Files{GRPC: base + ".grpc.json"}
		if err := os.WriteFile(f.GRPC, js, 0o644); err != nil {
			return "", nil, err
		}
		if c.Path != "" {
			body := proto.Clone(c.Requests[0])
			clearGame(body)
			js, err := JSON(body)
			if err != nil {
				return "", nil, err
			}
			f.REST = base + ".rest.json"
			if err := os.WriteFile(f.REST, js, 0o644); err != nil {
				return "", nil, err
			}
		}
		files[c.ID] = f
	}
	return protoset, files, nil
}

// clearGame clears the request's game field, if it has one.
func clearGame(m proto.Message) {
	r := m.ProtoReflect()
	if f := r.Descriptor().Fields().ByName("game"); f != nil {
		r.Clear(f)
	}
}
