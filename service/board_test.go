package service

import (
	"context"
	"testing"

	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
)

func TestGetBoard(t *testing.T) {
	srv := New()
	resp, err := srv.GetBoard(context.Background(), &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "default"})
	if err != nil {
		t.Fatal(err)
	}
	b := resp.GetGravityTrap()
	if b.GetName() != "default" || len(b.GetStations()) != 22 || len(b.GetLines()) != 16 || len(b.GetOpposite()) != 22 {
		t.Fatalf("default board: name %q, %d stations, %d lines, %d opposite; want default, 22, 16, 22", b.GetName(), len(b.GetStations()), len(b.GetLines()), len(b.GetOpposite()))
	}
	// Station 2 is at (3, 0), on the outer ring (boards/default.json).
	if st := b.GetStations()[2]; st.GetId() != 2 || st.GetX() != 3 || st.GetY() != 0 {
		t.Errorf("station 2 = %v; want id 2 at (3, 0)", st)
	}
	if b.GetOpposite()[0] != 11 {
		t.Errorf("opposite(0) = %d; want 11", b.GetOpposite()[0])
	}
	rings, err := srv.GetBoard(context.Background(), &gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "rings"})
	if err != nil || len(rings.GetGravityTrap().GetLines()) != 7 {
		t.Errorf("rings board: %v, %v; want 7 lines", rings, err)
	}
	for _, c := range []struct {
		req           *gamerulesv1.GetBoardRequest
		reason, field string
	}{
		{&gamerulesv1.GetBoardRequest{Game: "chess", Name: "default"}, ReasonUnknownGame, "game"},
		{&gamerulesv1.GetBoardRequest{Game: "abalone", Name: "default"}, ReasonInvalidRequest, "game"},
		{&gamerulesv1.GetBoardRequest{Game: "gravity_trap"}, ReasonInvalidRequest, "name"},
		{&gamerulesv1.GetBoardRequest{Game: "gravity_trap", Name: "hex"}, ReasonInvalidRequest, "name"},
	} {
		_, err := srv.GetBoard(context.Background(), c.req)
		if got := reasonOf(t, err); got != c.reason {
			t.Errorf("GetBoard(%v): reason %s (%v); want %s", c.req, got, err, c.reason)
		}
	}
}
