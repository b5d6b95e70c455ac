/** The web page served at GET /: public surface. */
export { acceptsGzip, contentSecurityPolicy, pageResponse, type PageResponse } from './page.js';
export { inlineBlockHashes, type PageSource } from './page-source.js';
