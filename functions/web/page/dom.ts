/** An element the page's HTML has (page.html): a missing one is a fault of the page, said at once. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`page.html has no element #${id}`);
  return element as T;
}

export const board = $<HTMLDivElement>('board');
export const text = $<HTMLTextAreaElement>('puzzle-text');
export const file = $<HTMLInputElement>('puzzle-file');
export const solveButton = $<HTMLButtonElement>('solve');
export const status = $<HTMLDivElement>('status');
export const problemsBox = $<HTMLDivElement>('problems');
export const results = $<HTMLDivElement>('results');
export const resultsList = $<HTMLOListElement>('results-list');
export const failedList = $<HTMLOListElement>('failed-list');
export const fileNote = $<HTMLDivElement>('file-note');
export const pad = document.querySelector<HTMLFieldSetElement>('.pad')!;
export const button = (id: string) => $<HTMLButtonElement>(id);

export const en = (n: number) => n.toLocaleString('en');
export const plural = (n: number, one: string, many: string) => `${en(n)} ${n === 1 ? one : many}`;

/** Bring an answer into view without moving the focus (the board keeps it). */
export function reveal(el: HTMLElement): void {
  requestAnimationFrame(() => el.scrollIntoView({ block: 'nearest', behavior: 'instant' }));
}

/** A file the page does not read: said beside the file input, in view. */
export function refuseFile(message: string): void {
  fileNote.textContent = message;
  reveal(fileNote);
}
