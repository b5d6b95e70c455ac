/**
 * The s3rver process (s3rver-process.ts) as one ES module for plain Node, built by esbuild into
 * .local/twin/. Through tsx a start cost about 0.6 s of CPU (its TypeScript compiled, and every
 * require of s3rver's packages passed through tsx's hooks); the bundle starts in under half that,
 * and the tests start a server per file. Only the twin's own sources are bundled: packages stay
 * imports, resolved from node_modules as before. The build is reused while every source it was
 * made from is unchanged (their SHA-256 is kept beside it), so an edit to any of them rebuilds it
 * at the next start.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const S3RVER_BUILD_DIR = path.join(repoRoot, '.local', 'twin');
const ENTRY = 'twin/s3/s3rver-process.ts';
const MANIFEST = path.join(S3RVER_BUILD_DIR, 's3rver-process.json');
const BUNDLE_PREFIX = 's3rver-process-';
/** Bundles of older sources are removed once this old (another process may still be about to start one). */
const STALE_MS = 60 * 60 * 1000;

/** The bundle's file name and the hash of each source it was built from, by path from the repository. */
export interface Manifest {
  bundle: string;
  inputs: Record<string, string>;
}

const sha256 = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function hashOf(file: string): string | undefined {
  try {
    return sha256(readFileSync(path.join(repoRoot, file)));
  } catch {
    return undefined;
  }
}

/** A file whole or not at all, for a reader in another process. */
function writeWhole(file: string, content: string | Uint8Array): void {
  const partial = `${file}.${randomUUID()}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}

/** What the last build was made from, if one was made. */
export function readManifest(): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** The sources that changed (or went) since `manifest`'s build: any one makes it stale. */
export function changedSources(manifest: Manifest): string[] {
  return Object.entries(manifest.inputs)
    .filter(([file, hash]) => hashOf(file) !== hash)
    .map(([file]) => file);
}

/** The bundle built from the sources as they are now, if there is one. */
function upToDate(): string | undefined {
  const manifest = readManifest();
  if (!manifest) return undefined;
  const bundle = path.join(S3RVER_BUILD_DIR, manifest.bundle);
  return existsSync(bundle) && changedSources(manifest).length === 0 ? bundle : undefined;
}

async function rebuild(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    // Stack traces name the TypeScript sources (the process runs with --enable-source-maps).
    sourcemap: 'inline',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  const inputs: Record<string, string> = {};
  for (const file of Object.keys(result.metafile.inputs).sort()) inputs[file] = hashOf(file) ?? '';
  const name = `${BUNDLE_PREFIX}${sha256(code).slice(0, 16)}.mjs`;
  mkdirSync(S3RVER_BUILD_DIR, { recursive: true });
  writeWhole(path.join(S3RVER_BUILD_DIR, name), code);
  writeWhole(MANIFEST, JSON.stringify({ bundle: name, inputs } satisfies Manifest, null, 1));
  for (const old of readdirSync(S3RVER_BUILD_DIR)) {
    if (!old.startsWith(BUNDLE_PREFIX) || old === name) continue;
    const file = path.join(S3RVER_BUILD_DIR, old);
    // Another process may be removing it too.
    const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_MS) rmSync(file, { force: true });
  }
  return path.join(S3RVER_BUILD_DIR, name);
}

let bundle: Promise<string> | undefined;

/** The bundle to fork: checked (and built if need be) once per process, so a restarted server runs the same code. */
export function s3rverProcessBundle(): Promise<string> {
  bundle ??= (async () => upToDate() ?? (await rebuild()))();
  return bundle;
}
