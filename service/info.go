package service

import (
	gamerulesv1 "github.com/gamerules/gamerules/gen/go/gamerules/v1"
	"github.com/gamerules/gamerules/rules/game"
)

// gameInfo is the API form of an engine's Info: id, display name, player
// counts and the chance and hidden-information flags. The adapter adds what
// only the API knows (its variants' option names, the notations).
func gameInfo(i game.Info) *gamerulesv1.GameInfo {
	return &gamerulesv1.GameInfo{
		Id:                   i.ID,
		DisplayName:          i.Name,
		MinPlayers:           int32(i.MinPlayers),
		MaxPlayers:           int32(i.MaxPlayers),
		HasChance:            i.HasChance,
		HasHiddenInformation: i.HasHiddenInformation,
		RulesVersion:         i.RulesVersion,
	}
}
