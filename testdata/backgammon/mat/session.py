# Builds money-session-*.mat/.ids: money sessions of several games that GNU
# Backgammon 1.07 plays (human players driven by this script: gnubg's 0-ply
# plays, seeded random cube and resignation decisions, beavers and declined
# resignations included), exported by gnubg ("export match mat": gnubg writes
# a session as a "0 point match" with the running totals in the game
# headers), and the gnubg ID (Position ID:Match ID) after every action.
#
# Run (needs Debian's gnubg; scripts/gnubg-mat.sh runs it):
#   cd testdata/backgammon/mat && /usr/games/gnubg -t -q -p session.py > /dev/null
import gnubg, random, os

SESSIONS = [
    # name, seed, Jacoby, beavers, games
    ("money-session-s1-jacoby-on-beavers", 1, True, True, 6),
    ("money-session-s2-jacoby-off", 2, False, False, 6),
    ("money-session-s3-jacoby-off-beavers", 3, False, True, 8),
]

def cmd(c):
    gnubg.command(c)

def ids():
    return gnubg.positionid() + ":" + gnubg.matchid()

def mfields():
    mid = gnubg.matchid()
    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    bits = []
    for ch in mid:
        v = b64.index(ch)
        for i in range(5, -1, -1):
            bits.append((v >> i) & 1)
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
    return {"gs": get(8, 3), "turn": get(11, 1), "diceowner": get(6, 1), "double": get(12, 1),
            "resign": get(13, 2), "d1": get(15, 3)}

EC = {'cubeful': 0, 'plies': 0, 'deterministic': 1, 'noise': 0.0}

def act(c, out):
    before = ids()
    cmd(c)
    after = ids()
    if after != before:
        out.append(after)
    return after != before

def answer_resign(rnd, out):
    act('accept' if rnd.random() < 0.5 else 'reject', out)

def answer_double(rnd, beavers, out):
    while mfields()['gs'] == 1 and mfields()['double']:
        x = rnd.random()
        if beavers and x < 0.2:
            if act('beaver', out):
                continue
            x = 0.3  # refused (a fourth beaver): answer otherwise
        if x < 0.7:
            act('take', out)
        elif x < 0.9:
            act('drop', out)
        else:
            if act(rnd.choice(['resign normal', 'resign gammon', 'resign backgammon']), out):
                answer_resign(rnd, out)

def play_game(rnd, beavers, out):
    resigned = False
    for _ in range(3000):
        f = mfields()
        if f['gs'] >= 2:
            return
        if f['d1'] == 0:
            x = rnd.random()
            if x < 0.05 and act('double', out):
                answer_double(rnd, beavers, out)
                continue
            if x < 0.065 and not resigned:
                resigned = True
                if act(rnd.choice(['resign normal', 'resign gammon', 'resign backgammon']), out):
                    answer_resign(rnd, out)
                continue
            act('set dice %d %d' % (rnd.randint(1, 6), rnd.randint(1, 6)), out)
            resigned = False
            continue
        if rnd.random() < 0.01 and not resigned:
            resigned = True
            if act(rnd.choice(['resign normal', 'resign gammon', 'resign backgammon']), out):
                answer_resign(rnd, out)
            continue
        b = gnubg.findbestmove(gnubg.board(), gnubg.cubeinfo(), EC)
        mv = gnubg.movetupletostring(b, gnubg.board()) if len(b) and not (b[0] == 0 and b[1] == 0) else None
        if not act('move ' + mv if mv else 'move', out):
            raise SystemExit("move %s refused at %s" % (mv, ids()))
        resigned = False
    raise SystemExit("game too long")

for c in ['set player 0 human', 'set player 1 human', 'set automatic roll off', 'set automatic game off',
          'set automatic move off', 'set display off']:
    cmd(c)
for name, seed, jacoby, beavers, games in SESSIONS:
    rnd = random.Random(seed)
    cmd('set seed %d' % seed)
    cmd('set cube use on')
    cmd('set jacoby ' + ('on' if jacoby else 'off'))
    cmd('set beavers ' + ('3' if beavers else '0'))
    cmd('new session')
    out = [ids()]
    for g in range(games):
        if g > 0:
            cmd('new game')
            out.append(ids())
        play_game(rnd, beavers, out)
    mat = name + '.mat'
    if os.path.exists(mat):
        os.remove(mat)
    cmd('export match mat ' + mat)
    with open(name + '.ids', 'w') as f:
        f.write('\n'.join(out) + '\n')
