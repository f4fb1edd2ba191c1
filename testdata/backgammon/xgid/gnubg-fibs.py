# Builds gnubg-fibs.jsonl.gz: the FIBS board GNU Backgammon 1.07 writes
# ("set output rawboard on", "show board") for each XGID of the states file
# (TestXGIDDump), for TestFIBSBoardGnubg. gnubg writes boards only to its
# terminal, so this runs gnubg on a command list and takes the last "board:"
# line before each "show crawford" answer. Run by scripts/gnubg-xgid.sh with
# the system python3 (not inside gnubg).
import json, gzip, io, os, subprocess, sys

rows = [json.loads(l) for l in open(os.environ['STATES']) if l.strip()]
cmds = ['set display off', 'set confirm default no', 'set output rawboard on']
for r in rows:
    cmds += ['set xgid ' + r['xgid'], 'show board', 'show crawford']
out = subprocess.run([os.environ.get('GNUBG', '/usr/games/gnubg'), '-t', '-q'], input='\n'.join(cmds) + '\n',
                     capture_output=True, text=True, check=True).stdout
boards, last = [], None
for line in out.splitlines():
    if line.startswith('board:'):
        last = line
    elif 'Crawford' in line:
        boards.append(last)
        last = None
if len(boards) != len(rows) or None in boards:
    sys.exit("got %d boards for %d states" % (len(boards), len(rows)))
with io.TextIOWrapper(gzip.GzipFile(os.environ.get('OUT', 'gnubg-fibs.jsonl.gz'), 'wb', mtime=0)) as fh:
    for r, b in zip(rows, boards):
        fh.write(json.dumps({"xgid": r['xgid'], "board": b}, sort_keys=True) + "\n")
print("wrote %d boards" % len(rows))
