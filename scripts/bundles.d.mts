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
