/** The CLI's exit codes, as scripts test them. */
export const EXIT_ALL_SOLVED = 0;
/** Some lines were not solved (each named on stderr), or the file could not be read as puzzles. */
export const EXIT_SOME_FAILED = 1;
/** The command line was wrong, or the input could not be opened. */
export const EXIT_USAGE = 2;
