# Builds gnubg-xgid.jsonl.gz: states of our random playouts (money games
# with and without the cube, Jacoby, beavers, matches of 1..25 points, the
# Crawford game; see TestXGIDDump in rules/backgammon), each as the XGID our
# writer produces and as a variant spelling, loaded into GNU Backgammon 1.07
# with "set xgid" and read back as its Position ID and Match ID, for
# TestXGIDGnubg. Run by scripts/gnubg-xgid.sh.
#
# "set confirm default no" answers gnubg's question whether to swap the
# players when the player on roll is on top (O, White) with no, so that
# gnubg's player 0 stays O. A double offered gnubg cannot hold (it steps
# back to the roll before the offer, saying so); its IDs are recorded as
# gnubg shows them.
import gnubg, json, gzip, io, os

for c in ['set player 0 human', 'set player 1 human', 'set automatic roll off', 'set automatic game off',
          'set automatic move off', 'set display off', 'set confirm default no']:
    gnubg.command(c)
rows = [json.loads(l) for l in open(os.environ['STATES']) if l.strip()]

def read(x):
    gnubg.command('set xgid ' + x)
    return gnubg.positionid() + ":" + gnubg.matchid()

with io.TextIOWrapper(gzip.GzipFile(os.environ.get('OUT', 'gnubg-xgid.jsonl.gz'), 'wb', mtime=0)) as fh:
    for r in rows:
        r['gnubg'] = read(r['xgid'])
        r['gnubgvariant'] = read(r['variant'])
        fh.write(json.dumps(r, sort_keys=True) + "\n")
print("wrote %d states" % len(rows))
