import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { handlerBundle } from '../../infra/paths.js';

/** The Lambda entry point's signature: what AWS calls, and what the local twin calls in its place. */
export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown>;

/** The bundle CDK deploys (`npm run build` writes it; the npm scripts that need it build first). */
export const DEPLOYED_BUNDLE = handlerBundle;

/**
 * The handler exactly as deployed: the esbuild bundle loaded by path, as Lambda loads
 * `index.handler`. The local twin runs this, never the sources, so what `npm start` serves is
 * byte for byte what AWS runs (and the local code never imports the entry point it stands for).
 */
export async function loadDeployedHandler(bundle = DEPLOYED_BUNDLE): Promise<LambdaHandler> {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  const module = (await import(pathToFileURL(bundle).href)) as { handler?: unknown };
  if (typeof module.handler !== 'function') throw new Error(`${bundle} does not export a handler function`);
  return module.handler as LambdaHandler;
}
