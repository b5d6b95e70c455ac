export const HELP = `Usage: sudoku solve [FILE|-] [-o OUT] [--format txt|csv|jsonl|json]

Solves every puzzle of FILE (or standard input, when FILE is '-' or missing) and writes one
answer per input line, in order: the 81-digit solution, or for a line that cannot be solved a
line starting with 'error:'. Each unsolved line is also named on stderr with its line number
and the reason. Blank lines stay blank; CRLF line ends and a UTF-8 byte-order mark are accepted.
Runs in flat memory, whatever the number of lines.

The format comes from the file name: .txt (one puzzle a line; also any other name), .csv (a
header row with a 'puzzle' or 'quizzes' column; the solution, status and error columns are
filled), .jsonl (one board a line), .json (an array of boards, read whole); each also .gz.
A puzzle is 81 characters: 1-9 for givens, '.' or '0' for empty cells.

Options:
  -o, --output OUT   write to OUT instead of standard output (gzipped if OUT ends in .gz)
  -f, --format F     read the input as F (txt, csv, jsonl, json) whatever its name
  -h, --help         show this help

Exit status: 0 every puzzle solved, 1 some were not, 2 usage error.

Example:
  npx sudoku solve puzzles.txt -o solutions.txt
  echo '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79' | npx sudoku solve
`;
