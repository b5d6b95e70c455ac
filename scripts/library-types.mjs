// The libraries' type declarations (scripts/bundles.mjs lists the libraries and says where they
// go): the TypeScript compiler writes the .d.ts of each entry and of every module it imports under
// the types folder (mirroring the sources), and each library's index.d.ts re-exports its entry's. Declarations take
// the compiler seconds (it loads aws-cdk-lib's types), so they are skipped when dist/types records
// the hash of the sources they are made from. Run by scripts/build.mjs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The folders whose sources a library may import, and the files that set how they compile. */
const SOURCE_DIRS = ['infra', 'functions'];
const CONFIG_FILES = ['tsconfig.json', 'cdk.json'];

function stampOf(root, libraries) {
  const hash = createHash('sha256').update(`${ts.version}\0${JSON.stringify(libraries)}\0`);
  const sources = SOURCE_DIRS.flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => path.join(dir, file)),
  );
  for (const file of [...sources.sort(), ...CONFIG_FILES])
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Writes the declarations of `libraries` (name -> entry) under `typesDir`, and each library's index.d.ts in `libraryDir(name)`. */
export function buildLibraryTypes({ root, libraries, libraryDir, typesDir }) {
  const stampFile = path.join(typesDir, '.sources-hash');
  const stamp = stampOf(root, libraries);
  if (!(existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp)) {
    rmSync(typesDir, { recursive: true, force: true });
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(root, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('tsconfig.json could not be read');
    const options = {
      ...config.options,
      noEmit: false,
      declaration: true,
      emitDeclarationOnly: true,
      rootDir: root,
      outDir: typesDir,
    };
    const program = ts.createProgram(
      Object.values(libraries).map((entry) => path.join(root, entry)),
      options,
    );
    // emitSkipped is true even when the declarations are written (no JavaScript is): the diagnostics say what failed.
    const { diagnostics } = program.emit();
    if (diagnostics.length > 0) {
      const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
      throw new Error(`the libraries' declarations failed:\n${ts.formatDiagnostics(diagnostics, host)}`);
    }
    writeFileSync(stampFile, stamp);
  }
  for (const [name, entry] of Object.entries(libraries)) {
    const dir = libraryDir(name);
    mkdirSync(dir, { recursive: true });
    const declarations = path.join(typesDir, entry.replace(/\.ts$/, '.js'));
    if (!existsSync(declarations.replace(/\.js$/, '.d.ts')))
      throw new Error(`no declarations were written for ${entry}`);
    const specifier = path.relative(dir, declarations).split(path.sep).join('/');
    writeFileSync(path.join(dir, 'index.d.ts'), `export * from '${specifier}';\n`);
  }
}
