# Builds gnubg-cube.jsonl.gz: cube, match and resignation transitions as GNU
# Backgammon 1.07 makes them, for rules/backgammon's TestCubeOracle.
#
# Run (needs Debian's gnubg):
#   cd testdata/backgammon/cube && /usr/games/gnubg -t -q -p generate.py > /dev/null
# It writes gnubg-cube.jsonl.gz in the current directory. Each line is one step:
#   {"scenario": k, "settings": {"match": N, "cube": bool, "jacoby": bool,
#    "beavers": bool}, "before": "<pid>:<mid>", "move": "<our notation>",
#    "gnubg": "<gnubg command>", "after": "<pid>:<mid>" or null when gnubg
#    refused the move, "end": {"winner": 0|1, "points": n, "resigned": bool}
#    when the step ended the game, "match_over": bool, "beavers_before" and
#    "beavers_after": gnubg's count of beavers in a row in the doubling
#    then offered (gnubg.cubeinfo()['beavers'], i.e. its ms.cBeavers),
#    written only when not 0}
# Settings are gnubg's (set cube use, set jacoby, set beavers, new match N);
# states are gnubg's own IDs (gnubg.positionid(), gnubg.matchid()).
# Checker plays are gnubg's 0-ply choices with noise, dice from a seeded
# Python random; cube and resignation actions are drawn at random, including
# ones gnubg refuses (recorded with after = null).
import gnubg, random, json, gzip, os

OUT = 'gnubg-cube.jsonl.gz'  # in the current directory: run from testdata/backgammon/cube

def ids():
    return gnubg.positionid() + ":" + gnubg.matchid()

BEFORE_CB = 0  # gnubg's beaver count when the last "before" was taken

def beavers_in_row():
    """gnubg's count of beavers in a row (ms.cBeavers, through cubeinfo;
    cubeinfo fails after a match's end, where no double is offered)."""
    try:
        return gnubg.cubeinfo()['beavers']
    except Exception:
        return 0

def snap():
    """The IDs before a step, remembering gnubg's count of beavers in a row."""
    global BEFORE_CB
    BEFORE_CB = beavers_in_row()
    return ids()

def mfields():
    mid = gnubg.matchid()
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    bits = []
    for ch in mid:
        v = b64.index(ch)
        for i in range(5, -1, -1):
            bits.append((v >> i) & 1)
    # regroup into bytes MSB first, then read LSB-first bit numbers
    by = []
    for i in range(0, 72, 8):
        x = 0
        for j in range(8):
            x = x << 1 | bits[i + j]
        by.append(x)
    def get(off, w):
        v = 0
        for i in range(w):
            b = off + i
            if by[b >> 3] & (1 << (b & 7)):
                v |= 1 << i
        return v
    return {"cube": get(0, 4), "owner": get(4, 2), "diceowner": get(6, 1), "crawford": get(7, 1),
            "gs": get(8, 3), "turn": get(11, 1), "double": get(12, 1), "resign": get(13, 2),
            "d1": get(15, 3), "d2": get(18, 3), "len": get(21, 15), "s0": get(36, 15), "s1": get(51, 15)}

rows = []

def cmd(c):
    gnubg.command(c)

def record(sc, settings, before, move, gcmd, after, end=None, extra=None):
    r = {"scenario": sc, "settings": settings, "before": before, "move": move, "gnubg": gcmd,
         "after": after}
    if end is not None:
        r["end"] = end
    if BEFORE_CB:
        r["beavers_before"] = BEFORE_CB
    cb = beavers_in_row()
    if after is not None and cb:
        r["beavers_after"] = cb
    if extra:
        r.update(extra)
    rows.append(r)

def game_end():
    g = gnubg.match()['games'][-1]['info']
    return g

def play_scenario(sc, settings, rnd):
    cmd('set cube use ' + ('on' if settings['cube'] else 'off'))
    cmd('set jacoby ' + ('on' if settings['jacoby'] else 'off'))
    cmd('set beavers ' + ('3' if settings['beavers'] else '0'))
    cmd('set seed %d' % rnd.randrange(1 << 30))
    if settings['match'] > 0:
        cmd('new match %d' % settings['match'])
    else:
        cmd('new session')
    for c in settings.pop('setup', []):
        cmd(c)
    games = 0
    ec = {'cubeful': 0, 'plies': 0, 'deterministic': 1, 'noise': rnd.choice([0.0, 0.1, 0.3])}
    while True:
        # the opening was rolled by gnubg
        f = mfields()
        if f['gs'] != 1:
            raise SystemExit("no game after new game: %r" % f)
        resigned_this_turn = False
        steps = 0
        while True:
            steps += 1
            if steps > 2000:
                raise SystemExit("game too long")
            f = mfields()
            if f['gs'] >= 2:
                break
            before = snap()
            if f['d1'] == 0 and f['double'] == 0 and f['resign'] == 0:
                # roll phase: maybe double, maybe resign, else roll
                x = rnd.random()
                if x < P_DOUBLE:
                    cmd('double')
                    after = ids()
                    record(sc, settings, before, 'double', 'double', None if after == before else after)
                    if after != before:
                        answer_double(sc, settings, rnd)
                    continue
                if x < P_DOUBLE + 0.015 and not resigned_this_turn:
                    resigned_this_turn = offer_resign(sc, settings, rnd)
                    continue
                d1, d2 = rnd.randint(1, 6), rnd.randint(1, 6)
                cmd('set dice %d %d' % (d1, d2))
                after = ids()
                record(sc, settings, before, 'roll %d-%d' % (max(d1, d2), min(d1, d2)), 'set dice %d %d' % (d1, d2), after)
                resigned_this_turn = False
                continue
            if f['d1'] != 0 and f['resign'] == 0:
                if rnd.random() < 0.01 and not resigned_this_turn:
                    resigned_this_turn = offer_resign(sc, settings, rnd)
                    continue
                if rnd.random() < 0.02:
                    cmd('double')  # refused: the dice are rolled
                    after = ids()
                    record(sc, settings, before, 'double', 'double', None if after == before else after)
                    if after != before:
                        raise SystemExit("double allowed after roll")
                    continue
                b = gnubg.findbestmove(gnubg.board(), gnubg.cubeinfo(), ec)
                if len(b) == 0 or b[0] == 0 and b[1] == 0:
                    mv = None
                else:
                    mv = gnubg.movetupletostring(b, gnubg.board())
                gmv = 'move ' + mv if mv else 'move'
                cmd(gmv)
                after = ids()
                if after == before:
                    raise SystemExit("move %s refused at %s" % (mv, before))
                end = None
                fa = mfields()
                if fa['gs'] >= 2:
                    end = end_info()
                record(sc, settings, before, mv or 'pass', gmv, after, end, {"match_over": match_over(settings)} if end else None)
                resigned_this_turn = False
                continue
            raise SystemExit("unexpected state %s %r" % (before, f))
        games += 1
        if settings['match'] == 0 or match_over(settings):
            return
        before = snap()
        cmd('new game')
        # gnubg rolled the opening at once: record "next game" with the rolled state
        f = mfields()
        after = ids()
        w, b = (f['d1'], f['d2']) if f['diceowner'] == 0 else (f['d2'], f['d1'])
        if f['d1'] < f['d2']:
            raise SystemExit("dice order")
        record(sc, settings, before, 'next game', 'new game', after, None, {"opening": "roll %d-%d" % (w, b)})

def match_over(settings):
    f = mfields()
    return settings['match'] > 0 and (f['s0'] >= settings['match'] or f['s1'] >= settings['match'])

def end_info():
    g = game_end()
    f = mfields()
    winner = g['winner']
    # gnubg's match() names player 0 'O'... decided by the score that moved
    # gnubg.match() calls player 0 'X' and player 1 'O'
    return {"winner": 0 if winner == 'X' else 1, "points": g['points-won'], "resigned": bool(g['resigned']),
            "score": [f['s0'], f['s1']]}

def answer_double(sc, settings, rnd):
    # a double (or beaver) is pending
    while True:
        f = mfields()
        if f['gs'] >= 2:
            return
        before = snap()
        x = rnd.random()
        beavered = f['turn'] == f['diceowner']
        if settings['beavers'] and rnd.random() < (0.3 if beavered else 0.5):
            cmd('beaver'); mv = 'beaver'; g = 'beaver'
        elif x < 0.6:
            cmd('take'); mv = 'take'; g = 'take'
        elif x < 0.8:
            g = rnd.choice(['drop', 'pass', 'reject'])
            cmd(g); mv = 'drop'
        elif x < 0.9:
            cmd('beaver'); mv = 'beaver'; g = 'beaver'
        else:
            lvl = rnd.choice(['single', 'gammon', 'backgammon'])
            g = 'resign ' + ('normal' if lvl == 'single' else lvl)
            cmd(g); mv = 'resign ' + lvl
            after = ids()
            record(sc, settings, before, mv, g, None if after == before else after)
            if after != before:
                answer_resign(sc, settings, rnd)
            continue
        after = ids()
        end = None
        if after != before and mfields()['gs'] >= 2:
            end = end_info()
        record(sc, settings, before, mv, g, None if after == before else after, end, {"match_over": match_over(settings)} if end else None)
        if after == before:
            continue
        f = mfields()
        if f['double'] == 0:
            return

def offer_resign(sc, settings, rnd):
    before = snap()
    lvl = rnd.choice(['single', 'gammon', 'backgammon'])
    g = 'resign ' + ('normal' if lvl == 'single' else lvl)
    cmd(g)
    after = ids()
    record(sc, settings, before, 'resign ' + lvl, g, None if after == before else after)
    if after != before:
        answer_resign(sc, settings, rnd)
    return True

def answer_resign(sc, settings, rnd):
    before = snap()
    if rnd.random() < 0.5:
        cmd('accept'); mv = 'accept'; g = 'accept'
    else:
        g = rnd.choice(['reject', 'decline'])
        cmd(g); mv = 'decline'
    after = ids()
    end = None
    if after != before and mfields()['gs'] >= 2:
        end = end_info()
    record(sc, settings, before, mv, g, None if after == before else after, end, {"match_over": match_over(settings)} if end else None)
    if after == before:
        raise SystemExit("answer %s refused at %s" % (g, before))

for c in ['set player 0 human', 'set player 1 human', 'set automatic roll off', 'set automatic game off',
          'set automatic move off', 'set display off', 'set automatic crawford on']:
    cmd(c)

def step(sc, settings, g):
    """One curated step: gnubg command g, recorded under our notation."""
    f = mfields()
    before = snap()
    pending = f['double'] or f['resign']
    if (g.startswith('set dice') and (pending or f['d1'])) or (g == 'best' and (pending or not f['d1'])) or (f['gs'] >= 2) != (g == 'new game'):
        return  # a set-up command, not a move, or nothing to play: skip it
    if g == 'best':
        b = gnubg.findbestmove(gnubg.board(), gnubg.cubeinfo(), {'cubeful': 0, 'plies': 0, 'deterministic': 1, 'noise': 0.0})
        mv = gnubg.movetupletostring(b, gnubg.board()) if len(b) else ''
        g = 'move ' + mv if mv else 'move'
        ours = mv or 'pass'
    elif g.startswith('set dice'):
        a, b = map(int, g.split()[2:])
        ours = 'roll %d-%d' % (max(a, b), min(a, b))
    elif g.startswith('resign'):
        lvl = g.split()[1]
        ours = 'resign ' + ('single' if lvl == 'normal' else lvl)
    elif g in ('drop', 'pass'):
        ours = 'drop'
    elif g == 'reject':
        ours = 'decline' if f['resign'] else 'drop'
    elif g == 'new game':
        ours = 'next game'
    else:
        ours = g
    cmd(g)
    after = ids()
    extra = {"curated": True}
    if g == 'new game':
        fa = mfields()
        w, b = (fa['d1'], fa['d2']) if fa['diceowner'] == 0 else (fa['d2'], fa['d1'])
        extra["opening"] = "roll %d-%d" % (w, b)
    end = None
    if after != before and mfields()['gs'] >= 2 and f['gs'] < 2:
        end = end_info()
        extra["match_over"] = match_over(settings)
    record(sc, settings, before, ours, g, None if after == before else after, end, extra)

def flip66(i):
    """i with Match ID bit 66 inverted (the low 6 bits of the last character
    are bits 66..71 less 64: bit 66 is the character's value 4)."""
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return i[:-1] + b64[b64.index(i[-1]) ^ 4]

def curated(sc, settings, setup, steps):
    cmd('set cube use ' + ('on' if settings['cube'] else 'off'))
    cmd('set jacoby ' + ('on' if settings['jacoby'] else 'off'))
    cmd('set beavers ' + ('3' if settings['beavers'] else '0'))
    cmd('new match %d' % settings['match'] if settings['match'] else 'new session')
    for c in setup:
        cmd('set gnubgid ' + flip66(ids()) if c == 'flip bit 66' else c)
    for g in steps:
        step(sc, settings, g)

MONEY_BV = {"match": 0, "cube": True, "jacoby": True, "beavers": True}
MONEY = {"match": 0, "cube": True, "jacoby": True, "beavers": False}
NOJAC = {"match": 0, "cube": True, "jacoby": False, "beavers": False}
def M(n):
    return {"match": n, "cube": True, "jacoby": False, "beavers": False}
START = 'set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA'  # player 1 to roll at the start
CURATED = [
    # beavers: a raccoon and a third beaver, the fourth refused, then take
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'beaver', 'beaver', 'beaver', 'take', 'set dice 6 5', 'best', 'double']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'beaver', 'drop']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'drop']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'resign gammon', 'reject', 'take', 'set dice 2 2', 'best', 'resign backgammon', 'accept']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'resign normal', 'reject', 'beaver', 'take', 'set dice 5 5', 'best', 'double', 'beaver', 'pass']),
    # the cube limit: 2048 may be doubled (not beavered), 4096 not
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5', 'set cube value 2048', 'set cube owner 1'], ['double', 'beaver', 'take', 'set dice 6 5', 'best', 'double', 'set dice 4 1', 'best', 'double']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5', 'set cube value 2048', 'set cube owner 1'], ['double', 'drop']),
    # the owner may redouble, the other may not; a dropped redouble
    (MONEY, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'take', 'set dice 6 5', 'best', 'set dice 4 2', 'best', 'double', 'set dice 1 1', 'best', 'double', 'take', 'set dice 3 2', 'best', 'double', 'set dice 5 4', 'best', 'double', 'reject']),
    # Jacoby on and off: a gammon borne off with the cube centred and turned
    (MONEY, ['set gnubgid wP8fAAABAAAAAA:cAkAAAAAAAAA', 'set dice 6 6'], ['best']),
    (NOJAC, ['set gnubgid wP8fAAABAAAAAA:cAkAAAAAAAAE', 'set dice 6 6'], ['best']),
    (MONEY, ['set gnubgid wP8PAAQBAAAAAA:cAkAAAAAAAAA', 'set dice 2 1'], ['best']),
    (NOJAC, ['set gnubgid wP8PAAQBAAAAAA:cAkAAAAAAAAE', 'set dice 2 1'], ['best']),
    (MONEY, ['set gnubgid wP8fAAABAAAAAA:cAkAAAAAAAAA'], ['double', 'take', 'set dice 6 6', 'best']),
    (MONEY, ['set gnubgid wP8PAAQBAAAAAA:cAkAAAAAAAAA'], ['double', 'take', 'set dice 6 6', 'best']),
    (M(7), ['set turn 1', 'set board wP8PAAQBAAAAAA'], ['double', 'take', 'set dice 6 6', 'best']),
    (M(7), ['set turn 1', 'set board wP8fAAABAAAAAA', 'set dice 1 1'], ['best']),
    (MONEY, ['set gnubgid wP8fAAABAAAAAA:cAkAAAAAAAAA', 'set turn 0'], ['resign backgammon', 'accept']),
    (NOJAC, ['set gnubgid wP8fAAABAAAAAA:cAkAAAAAAAAE', 'set turn 0'], ['resign gammon', 'accept']),
    # resignations in the move phase, declined then accepted
    (MONEY, ['set dice 6 4'], ['resign gammon', 'decline', 'best', 'resign normal', 'accept']),
    # matches from a given score: the Crawford game, post-Crawford, dead cubes
    (M(5), ['set score 4 0'], ['double', 'set dice 3 1', 'best', 'double', 'set dice 2 1', 'best', 'resign normal', 'accept', 'new game', 'double']),
    (M(5), ['set score 4 0', 'set crawford off'], ['double', 'set dice 5 2', 'best', 'double', 'take', 'set dice 4 4', 'best', 'double', 'resign gammon', 'accept']),
    (M(5), ['set score 3 3'], ['double', 'take', 'set dice 6 1', 'best', 'double', 'set dice 5 3', 'best', 'double', 'drop', 'new game', 'set dice 2 1', 'best', 'double']),
    (M(5), ['set score 2 2'], ['double', 'take', 'set dice 6 1', 'best', 'double', 'take', 'set dice 5 3', 'best', 'double', 'set dice 5 1', 'best', 'resign normal', 'accept']),
    (M(5), ['set score 3 1'], ['set dice 3 1', 'best', 'resign normal', 'accept', 'new game', 'resign normal', 'accept', 'new game', 'double', 'take', 'set dice 6 6', 'best', 'resign gammon', 'accept']),
    (M(1), [], ['double', 'set dice 6 2', 'best', 'double', 'resign backgammon', 'accept']),
    (M(3), ['set score 2 2'], ['double', 'set dice 4 3', 'best', 'resign gammon', 'reject', 'double', 'resign normal', 'accept']),
    (M(7), ['set score 5 5'], ['double', 'take', 'set dice 3 3', 'best', 'double', 'set dice 6 3', 'best', 'double', 'drop']),
    (M(7), ['set score 4 6'], ['double', 'drop', 'new game', 'double', 'take', 'set dice 6 2', 'best', 'double', 'resign normal', 'accept']),
    # beavers in a row (gnubg's default "set beavers 3"): the 4th is refused,
    # also after a resignation declined in between; the count starts again
    # at the next double
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'beaver', 'resign normal', 'reject', 'beaver', 'beaver', 'drop']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'beaver', 'beaver', 'beaver', 'resign gammon', 'accept']),
    (MONEY_BV, ['set dice 3 1', 'move 8/5 6/5'], ['double', 'beaver', 'beaver', 'beaver', 'take', 'set dice 6 5', 'best', 'double', 'beaver', 'beaver', 'beaver', 'beaver', 'take', 'set dice 4 2', 'best']),
    # Match ID bit 66 clear where gnubg writes it set (a match; a money game
    # without the cube): gnubg keeps the bit as read through the game, to its
    # end; a match's next game is written with it set again
    (M(5), ['set gnubgid 4HPwATDgc/ABMA:cAmqAAAAAAAE', 'flip bit 66'], ['best', 'double', 'take', 'set dice 6 5', 'best', 'double', 'drop', 'new game', 'double']),
    (M(7), ['set turn 1', 'set board wP8fAAABAAAAAA', 'flip bit 66', 'set dice 1 1'], ['best', 'new game']),
    ({"match": 0, "cube": False, "jacoby": False, "beavers": False}, ['set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAE', 'flip bit 66'], ['set dice 3 1', 'best', 'set dice 6 5', 'best', 'set dice 2 2', 'best']),
    ({"match": 0, "cube": False, "jacoby": True, "beavers": False}, [], ['best', 'set dice 6 5', 'best']),
]

P_DOUBLE = 0.07
rnd = random.Random(20261201)
configs = []
for jac in (True, False):
    for bv in (False, True):
        configs += [{"match": 0, "cube": True, "jacoby": jac, "beavers": bv}] * 6
for n in (1, 2, 3, 5, 5, 7, 7, 9):
    configs += [{"match": n, "cube": True, "jacoby": False, "beavers": False}] * 3
# matches from random scores, some at match length - 1 with the Crawford
# game or post-Crawford
for k in range(24):
    n = rnd.randint(2, 15)
    a, b = rnd.randrange(n), rnd.randrange(n)
    if k % 3 == 0:
        a = n - 1
    setup = ['set score %d %d' % (a, b)]
    if (a == n - 1) != (b == n - 1) and k % 2 == 0:
        setup.append('set crawford off')
    configs.append({"match": n, "cube": True, "jacoby": False, "beavers": False, "setup": setup})
sc = 0
for st in configs:
    play_scenario(sc, dict(st), rnd)
    sc += 1
for st, setup, steps in CURATED:
    curated(sc, dict(st), setup, steps)
    sc += 1

with gzip.open(OUT, 'wt') as fh:
    for r in rows:
        fh.write(json.dumps(r, sort_keys=True) + "\n")
print("wrote %d rows to %s" % (len(rows), OUT))
