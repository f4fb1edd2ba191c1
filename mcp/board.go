package mcp

import (
	"github.com/gamerules/gamerules/render"
	"github.com/gamerules/gamerules/rules/abalone"
	"github.com/gamerules/gamerules/rules/backgammon"
	"github.com/gamerules/gamerules/rules/gravitytrap"
	"github.com/gamerules/gamerules/rules/labyrinth"
)

// textBoards draws a state's canonical text as render's text board, by game
// id. It is the one per-game table of the package, and a stopgap: package
// service has no text form of RenderState yet (the dialects work adds one),
// so the text boards are reached here through each rules package's
// ParseState and render's <Game>Text. Once RenderState answers text, this
// file goes and textBoard calls the service. The states drawn are ones the
// service answered (canonical) or checked, so no rule is read here.
var textBoards = map[string]func(text string, o render.Options) (string, error){
	"abalone": func(t string, o render.Options) (string, error) {
		s, err := abalone.ParseState(t)
		if err != nil {
			return "", err
		}
		return render.AbaloneText(s, o)
	},
	"backgammon": func(t string, o render.Options) (string, error) {
		s, err := backgammon.ParseState(t)
		if err != nil {
			return "", err
		}
		return render.BackgammonText(s, o)
	},
	"gravity_trap": func(t string, o render.Options) (string, error) {
		s, err := gravitytrap.ParseState(t)
		if err != nil {
			return "", err
		}
		return render.GravityTrapText(s, o)
	},
	"labyrinth": func(t string, o render.Options) (string, error) {
		s, err := labyrinth.ParseState(t)
		if err != nil {
			return "", err
		}
		return render.LabyrinthText(s, o)
	},
}

// textBoard is the text board of a game's state seen from side (nil: the
// game's default), or "" when there is none (a game without a text board,
// a state the strict parser does not read).
func textBoard(game, state string, side *int) string {
	f, ok := textBoards[game]
	if !ok {
		return ""
	}
	var o render.Options
	if side != nil {
		o.HasSide, o.Side = true, *side
	}
	s, err := f(state, o)
	if err != nil && side != nil {
		s, err = f(state, render.Options{}) // a side the game's board has not (observe's -1)
	}
	if err != nil {
		return ""
	}
	return s
}
