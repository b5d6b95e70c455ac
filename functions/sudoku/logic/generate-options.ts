// generatePuzzle's options, checked before the first attempt. Its callers are code (the HTTP route
// and the CLI check their own input first), so a bad option is a caller's mistake: thrown as a typed
// error naming the option, at once, where an unknown level would cost 20,000 attempts (~20 s) before
// failing, and a missing seed a TypeError from deep inside.
import { LEVELS } from './names.js';

export type GenerateOption = 'options' | 'level' | 'seed' | 'symmetric' | 'maxAttempts';

/** A generatePuzzle option that is missing or not of its type; `option` names it. */
export class GenerateOptionError extends Error {
  readonly code = 'INVALID_GENERATE_OPTION';
  override readonly name = 'GenerateOptionError';
  constructor(
    readonly option: GenerateOption,
    message: string,
  ) {
    super(message);
  }
}

const shown = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
};

/** The options as generatePuzzle reads them, or a GenerateOptionError for the first one wrong. */
export function checkGenerateOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null) {
    throw new GenerateOptionError('options', `generatePuzzle takes an object { level, seed }; got ${shown(options)}.`);
  }
  const { level, seed, symmetric, maxAttempts } = options as Record<string, unknown>;
  if (!(LEVELS as readonly unknown[]).includes(level)) {
    throw new GenerateOptionError('level', `The level ${shown(level)} is not one of ${LEVELS.join(', ')}.`);
  }
  if (!(typeof seed === 'string' || (typeof seed === 'number' && Number.isSafeInteger(seed)))) {
    throw new GenerateOptionError('seed', `The seed ${shown(seed)} is not an integer or a text.`);
  }
  if (symmetric !== undefined && typeof symmetric !== 'boolean') {
    throw new GenerateOptionError('symmetric', `symmetric must be true or false; got ${shown(symmetric)}.`);
  }
  if (
    maxAttempts !== undefined &&
    !(typeof maxAttempts === 'number' && Number.isSafeInteger(maxAttempts) && maxAttempts >= 1)
  ) {
    throw new GenerateOptionError(
      'maxAttempts',
      `maxAttempts must be a whole number of at least 1; got ${shown(maxAttempts)}.`,
    );
  }
}
