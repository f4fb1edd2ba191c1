#!/usr/bin/env python3
"""Plays a whole game against a gamerules server with grpcio, one ApplyMove
call per move (include_legal_moves brings the next moves, every answer
carries the outcome), then shows a refused request's google.rpc.ErrorInfo
reason and BadRequest field.

    ./gen.sh                      # the stubs, into gen/ (see gen.sh for protoc)
    python3 play.py --addr 127.0.0.1:50051 --game backgammon --seed 1

The Python protobuf runtime refuses an unknown field name or enum name when a
message is built (ValueError), so nothing is dropped silently; an enum left
out is 0 (UNSPECIFIED), which the server refuses wherever the value matters.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))

import grpc  # noqa: E402
from google.rpc import error_details_pb2, status_pb2  # noqa: E402

from gamerules.v1 import gamerules_pb2 as pb  # noqa: E402
from gamerules.v1 import service_pb2_grpc as pb_grpc  # noqa: E402
from gamerules.v1 import abalone_pb2, labyrinth_pb2  # noqa: E402

OPTIONS = {
    # Random Abalone rarely pushes six off; a shorter Labyrinth.
    "abalone": {"abalone": abalone_pb2.AbaloneOptions(max_plies=200)},
    "labyrinth": {"labyrinth": labyrinth_pb2.LabyrinthOptions(players=2, open_cards=True, no_return=True)},
}


def describe(err):
    """Returns 'CODE: message [reason R, domain D] [field F]' for a gRPC error."""
    s = f"{err.code().name}: {err.details()}"
    for key, value in err.trailing_metadata() or ():
        if key != "grpc-status-details-bin":
            continue
        st = status_pb2.Status.FromString(value)
        for any_ in st.details:
            info, bad = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest()
            if any_.Unpack(info):
                s += f" [reason {info.reason}, domain {info.domain}]"
            elif any_.Unpack(bad):
                s += "".join(f" [field {v.field}]" for v in bad.field_violations)
    return s


def play(stub, game, seed, max_plies):
    rnd = random.Random(seed)
    ng = stub.NewGame(pb.NewGameRequest(game=game, seed=seed, **OPTIONS.get(game, {})), timeout=30)
    lm = stub.LegalMoves(pb.LegalMovesRequest(game=game, state=ng.state), timeout=30)
    state, moves, plies, calls, last = ng.state, list(lm.moves), 0, 2, None
    while moves:
        if plies == max_plies:
            raise RuntimeError(f"{game}: not finished after {plies} plies")
        m = rnd.choice(moves)
        last = stub.ApplyMove(
            pb.ApplyMoveRequest(game=game, state=state, move=pb.Move(notation=m.notation),
                                seed=rnd.getrandbits(64), include_legal_moves=True),
            timeout=30)
        plies, calls = plies + 1, calls + 1
        state, moves = last.state, list(last.next.moves)
        if last.finished != (not moves):
            raise RuntimeError(f"ply {plies}: finished={last.finished} with {len(moves)} moves")
    return plies, calls, last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--addr", default="127.0.0.1:50051",
                    help="host:port, or dns:///gamerules-headless:50051 for every replica of a fleet")
    ap.add_argument("--game", default="backgammon", help="a game id, or 'all'")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=20000)
    a = ap.parse_args()
    # deploy/grpc-service-config.json: round_robin over every address the
    # target resolves to, health checks, retries on UNAVAILABLE.
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "deploy", "grpc-service-config.json")) as f:
        service_config = f.read()
    with grpc.insecure_channel(a.addr, options=[("grpc.service_config", service_config),
                                                ("grpc.enable_retries", 1)]) as ch:
        stub = pb_grpc.GameRulesStub(ch)
        # --game all: every game the server lists (ListGames, sorted by id).
        games = [g.id for g in stub.ListGames(pb.ListGamesRequest(), timeout=30).games] if a.game == "all" else [a.game]
        for game in games:
            plies, calls, last = play(stub, game, a.seed, a.max_plies)
            winner = last.winner if last.HasField("winner") else "none (a draw)"
            print(f"{game}: finished after {plies} plies ({calls} calls): winner {winner}, "
                  f"points {list(last.points)}, {last.detail}")
            try:
                stub.ApplyMove(pb.ApplyMoveRequest(game=game, state=last.state, move=pb.Move(notation="anything")), timeout=30)
                raise RuntimeError("a move after the end was accepted")
            except grpc.RpcError as err:
                d = describe(err)
                print("a move after the end:", d)
                if "reason GAME_OVER" not in d or "field move.notation" not in d:
                    raise RuntimeError("unexpected error details: " + d)
    # Misspellings fail where the message is built.
    for bad in ({"turn": "WHITE"}, {"toMove": 1}):
        try:
            abalone_pb2.AbaloneOptions(layout="custom", **bad)
            raise RuntimeError(f"accepted {bad}")
        except ValueError as err:
            print("refused before sending:", err)


if __name__ == "__main__":
    main()
