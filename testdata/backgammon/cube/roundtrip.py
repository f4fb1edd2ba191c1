# Builds gnubg-roundtrip.jsonl.gz: states our engine wrote (random playouts
# with the cube, see TestCubePlayouts in rules/backgammon), loaded into GNU
# Backgammon 1.07 with "set gnubgid" and read back, for TestGnubgRoundTrip.
#
# Run (needs Debian's gnubg), from this directory:
#   (at the repository root) GAMERULES_DUMP_STATES=/tmp/states.txt go test ./rules/backgammon -run TestCubePlayouts
#   cd testdata/backgammon/cube
#   STATES=/tmp/states.txt /usr/games/gnubg -t -q -p roundtrip.py > /dev/null
# Each line: {"ours": "<pid>:<mid>", "gnubg": "<pid>:<mid>"} (gnubg's IDs
# after loading ours). A state with a double offered, which gnubg cannot load
# (it steps back to the offer), is kept with what gnubg shows for it.
import gnubg, json, gzip, os, random

for c in ['set player 0 human', 'set player 1 human', 'set automatic roll off', 'set automatic game off',
          'set automatic move off', 'set display off']:
    gnubg.command(c)
states = [l.strip() for l in open(os.environ['STATES']) if l.strip()]
B = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
def kind(idv):
    mid = idv.split(':')[1]
    bits = []
    for ch in mid:
        v = B.index(ch)
        bits += [(v >> i) & 1 for i in range(5, -1, -1)]
    by = [int(''.join(map(str, bits[i:i + 8])), 2) for i in range(0, 72, 8)]
    g = lambda o, w: sum(((by[(o + i) >> 3] >> ((o + i) & 7)) & 1) << i for i in range(w))
    return (g(0, 4) > 0, g(4, 2), g(7, 1), g(8, 3), g(12, 1), g(13, 2), g(15, 3) > 0, g(21, 15) > 0)
# every state of a rare kind, and up to 40 of each common kind
rnd = random.Random(7)
rnd.shuffle(states)
per = {}
keep = []
for s in states:
    k = kind(s)
    per[k] = per.get(k, 0) + 1
    if per[k] <= 40:
        keep.append(s)
with gzip.open('gnubg-roundtrip.jsonl.gz', 'wt') as fh:
    for s in sorted(keep):
        gnubg.command('set gnubgid ' + s)
        fh.write(json.dumps({"ours": s, "gnubg": gnubg.positionid() + ":" + gnubg.matchid()}, sort_keys=True) + "\n")
print("wrote %d states" % len(keep))
