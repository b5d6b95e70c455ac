/** The project root. */
export const root: string;
/** Every bundle the project ships: name -> entry. */
export const bundles: Record<string, string>;
/** The solver threads' entry, bundled as batch-worker.mjs beside each bundle. */
export const workerEntry: string;
/** esbuild options of one bundle. */
export function bundleOptions(name: string): Record<string, unknown>;
/** Where `npm run build` puts the Lambda bundle (dist/handler): the CDK asset. */
export const handlerBundleDir: string;
/** The Lambda bundle's entry module, `index.handler`'s file. */
export const handlerBundle: string;
/** The package's libraries: name -> entry, each imported as `sudoku-serverless/<name>`. */
export const libraries: Record<string, string>;
/** Where a library is built (dist/lib/<name>). */
export function libraryDir(name: string): string;
/** esbuild options of one library. */
export function libraryOptions(name: string): Record<string, unknown>;
/** The libraries' declarations (dist/types), mirroring the sources. */
export const typesDir: string;
