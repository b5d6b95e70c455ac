/**
 * The template the stack synthesizes, as `npx cdk synth` would write it (cdk.json's context), for
 * the twin to decide requests by. Synthesizing loads the CDK and takes seconds, so the template is
 * cached under .local/iam/, keyed by a hash of everything it is made from: the sources of infra/
 * and functions/contract/, cdk.json, the context given, and the CDK's version. Offline: no AWS call.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CloudFormationTemplate } from './resolve-template.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TEMPLATE_CACHE_DIR = path.join(repoRoot, '.local', 'iam');

function sourcesUnder(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => path.join(dir, file));
}

/** The hash that names the cached template: it changes whenever the synthesized template could. */
export function templateKey(context: Record<string, unknown> = {}): string {
  const hash = createHash('sha256');
  for (const file of [...sourcesUnder('infra'), ...sourcesUnder(path.join('functions', 'contract')), 'cdk.json']) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(repoRoot, file)))
      .update('\0');
  }
  const cdk = JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'aws-cdk-lib', 'package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(cdk.version).update(JSON.stringify(context));
  return hash.digest('hex').slice(0, 16);
}

/** Synthesizes the stack with cdk.json's context and `context` on top (a stand-in bundle: policies do not depend on it). */
async function synthesize(context: Record<string, unknown>): Promise<CloudFormationTemplate> {
  const [{ App }, { SudokuStack }, { readSettings }] = await Promise.all([
    import('aws-cdk-lib'),
    import('../../infra/sudoku-stack.js'),
    import('../../infra/settings.js'),
  ]);
  const scratch = mkdtempSync(path.join(tmpdir(), 'sudoku-iam-'));
  try {
    const bundleDir = path.join(scratch, 'handler');
    mkdirSync(bundleDir);
    writeFileSync(path.join(bundleDir, 'index.mjs'), 'export const handler = async () => ({});\n');
    const cdkJson = JSON.parse(readFileSync(path.join(repoRoot, 'cdk.json'), 'utf8')) as {
      context?: Record<string, unknown>;
    };
    const app = new App({
      context: { ...cdkJson.context, ...context },
      outdir: path.join(scratch, 'cdk.out'),
      builtinCloudFormationValidation: false,
    });
    const stack = new SudokuStack(app, 'Sudoku', { settings: readSettings(app.node), bundleDir });
    return app.synth().getStackArtifact(stack.artifactId).template as CloudFormationTemplate;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The cached template for `context`, read without synthesizing: undefined until stackTemplateFile made it. */
export function cachedStackTemplate(context: Record<string, unknown> = {}): CloudFormationTemplate | undefined {
  try {
    return JSON.parse(
      readFileSync(path.join(TEMPLATE_CACHE_DIR, `template-${templateKey(context)}.json`), 'utf8'),
    ) as CloudFormationTemplate;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The synthesized template's path, synthesizing it first unless a cached one answers the same sources. */
export async function stackTemplateFile(context: Record<string, unknown> = {}): Promise<string> {
  const file = path.join(TEMPLATE_CACHE_DIR, `template-${templateKey(context)}.json`);
  try {
    readFileSync(file);
    return file;
  } catch {
    const template = await synthesize(context);
    mkdirSync(TEMPLATE_CACHE_DIR, { recursive: true });
    // Written aside and renamed, so a reader in another process never sees half a file.
    const partial = `${file}.${randomUUID()}.partial`;
    writeFileSync(partial, JSON.stringify(template));
    renameSync(partial, file);
    return file;
  }
}

export async function loadStackTemplate(context: Record<string, unknown> = {}): Promise<CloudFormationTemplate> {
  return JSON.parse(readFileSync(await stackTemplateFile(context), 'utf8')) as CloudFormationTemplate;
}
