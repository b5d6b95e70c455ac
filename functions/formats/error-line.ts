/**
 * How a failed row of a `.txt` answer starts: `error line N: ` then what is wrong. Written here
 * alone, with no import, so the web page (which reads and writes such lines in the browser) takes
 * the same wording as the files and the HTTP text/plain answers (txt-codec.ts).
 */
export const errorLine = (lineNo: number, text: string): string => `error line ${lineNo}: ${text}`;

/** An error line's start, its line number captured. */
export const ERROR_LINE_START = /^error line (\d+): ?/;
