/**
 * Which synthesized principal each local access key stands for: the files function's role, the
 * API function's role, the batch run's state machine role (found in the template by what they
 * are, not by name), and the admin.
 */
import type { Caller } from './decide.js';
import { LOCAL_ACCESS_KEYS, type LocalCaller } from './local-account.js';
import type { PolicyModel } from './policy-model.js';

/** The role of the function deployed for `purpose`, by its FUNCTION_PURPOSE. */
function functionRole(model: PolicyModel, purpose: string): string {
  for (const fn of model.functions.values()) if (fn.purpose === purpose) return fn.role;
  throw new Error(`the template has no function with FUNCTION_PURPOSE=${purpose}`);
}

/** The role of the state machine whose definition reads the bucket with a Distributed Map's item reader. */
function runRole(model: PolicyModel): string {
  for (const [id, resource] of Object.entries(model.resolver.template.Resources)) {
    if (resource.Type !== 'AWS::StepFunctions::StateMachine') continue;
    const definition = String(model.resolver.resolve(resource.Properties?.DefinitionString ?? ''));
    if (definition.includes('"ItemReader"')) return model.stateMachines.get(id)!.role;
  }
  throw new Error('the template has no state machine with a Distributed Map item reader');
}

export function callerFor(model: PolicyModel, local: LocalCaller): Caller {
  switch (local) {
    case 'admin':
      return { admin: true };
    case 'files':
    case 'api':
      return { role: functionRole(model, local), session: `sudoku-${local}` };
    case 'run':
      return { role: runRole(model), session: 'sudoku-run' };
  }
}

/** Caller by access key, for every key the twin knows. */
export function callersByAccessKey(model: PolicyModel): Map<string, Caller> {
  return new Map(
    (Object.entries(LOCAL_ACCESS_KEYS) as [LocalCaller, string][]).map(([local, key]) => [
      key,
      callerFor(model, local),
    ]),
  );
}
