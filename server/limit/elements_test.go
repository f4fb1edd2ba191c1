package limit

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// TestElementBudget: a request just over MaxElements is not decoded by the
// codec, and ElementGate refuses it INVALID_ARGUMENT naming the field; one
// within the budget is decoded and passed on. (The same budget on JSON is
// rest/restjson's JSONElements, tested there.)
func TestElementBudget(t *testing.T) {
	codec := Codec()
	handler := func(context.Context, any) (any, error) { return "ok", nil }
	info := &grpc.UnaryServerInfo{FullMethod: "/x.Y/Z"}
	for _, tc := range []struct {
		n    int
		over bool
	}{{MaxElements - 1, false}, {MaxElements + 1, true}} {
		in := &structpb.ListValue{}
		for i := 0; i < tc.n; i++ {
			in.Values = append(in.Values, structpb.NewNullValue())
		}
		wire, err := proto.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var got structpb.ListValue
		if err := codec.Unmarshal(mem.BufferSlice{mem.SliceBuffer(wire)}, &got); err != nil {
			t.Fatalf("%d elements: codec: %v", tc.n, err)
		}
		out, err := ElementGate(context.Background(), &got, info, handler)
		st := status.Convert(err)
		if tc.over {
			if st.Code() != codes.InvalidArgument || !strings.HasPrefix(st.Message(), "values: ") || len(got.GetValues()) != 0 {
				t.Errorf("%d elements: %v (%d decoded); want INVALID_ARGUMENT on values, nothing decoded", tc.n, err, len(got.GetValues()))
			}
			continue
		}
		if err != nil || out != "ok" || len(got.GetValues()) != tc.n {
			t.Errorf("%d elements: %v, %v (%d decoded); want decoded and passed on", tc.n, out, err, len(got.GetValues()))
		}
	}
}
