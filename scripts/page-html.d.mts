/** The page served at GET /: page.html in `webDir` with its TypeScript script bundled and inlined. */
export function pageHtml(webDir: string): { html: string; sources: string[] };
