/** Writes the declarations of `libraries` (name -> entry) under `typesDir`, and each library's index.d.ts in `libraryDir(name)`. */
export function buildLibraryTypes(layout: {
  root: string;
  libraries: Record<string, string>;
  libraryDir: (name: string) => string;
  typesDir: string;
}): void;
