/**
 * Which S3 objects the policies cannot tell apart, so that one evaluation decides them all.
 *
 * The evaluator costs about 1.5 ms a decision, most of it finding the action's resource type by
 * matching the ARN against the service's resource patterns, and the twin's S3 sees a new object
 * key on nearly every request (a file solved in 2,000 ranges is 16,000 distinct decisions). Yet
 * for one caller, action and context, an object's decision depends on its ARN only through which
 * of the policies' Resource and NotResource patterns it matches: the bucket (and so the bucket
 * policy and the account) is the same, the resource type of any `bucket/key` is `object`, and no
 * condition the evaluator knows reads the key. Two objects that match the same patterns are one
 * class, and the first decision of a class is the decision of every member.
 *
 * The class is cut finer than the evaluator could need: each pattern is matched four ways (the
 * whole ARN and segment by segment, each with and without case), so whichever of these the
 * evaluator does, two objects of one class match each pattern alike. Where this reasoning does not
 * hold, there is no class and each resource is evaluated on its own: a resource with a wildcard, a
 * pattern with a policy variable (`${aws:username}`) or a short ARN, anything but an S3 object.
 * test/twin/iam/resource-classes.test.ts checks classed decisions against fresh ones.
 */

// An object's key is never empty (the evaluator finds no resource type for `bucket/`).
const S3_OBJECT = /^(arn:aws:s3:::[^/]+)\/(.+)$/s;

/** The bucket's ARN when `resource` is an S3 object's ARN (`arn:aws:s3:::bucket/key`). */
export function bucketArnOfObject(resource: string): string | undefined {
  return S3_OBJECT.exec(resource)?.[1];
}

/** One Resource or NotResource pattern, as the four matchers a class is cut by. */
interface CompiledPattern {
  wholeCased: RegExp;
  wholeCaseless: RegExp;
  segmentsCased: RegExp;
  segmentsCaseless: RegExp;
}

const escapeRegExp = (text: string): string => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

/** IAM's wildcards as a regular expression source: `*` any run of characters, `?` one; `anyChar` says which characters they may cover. */
function globSource(glob: string, anyChar: string): string {
  return escapeRegExp(glob).replace(/\*/g, `${anyChar}*`).replace(/\?/g, anyChar);
}

function compile(pattern: string): CompiledPattern | undefined {
  if (pattern === '*') return undefined;
  const segments = pattern.split(':');
  // A policy variable, or a short ARN the evaluator pads (or refuses): no class.
  if (pattern.includes('${') || segments.length < 6) return undefined;
  const whole = `^${globSource(pattern, '[\\s\\S]')}$`;
  // The first five segments cannot hold a colon; the resource segment (the rest) can.
  const bySegment = `^${segments
    .slice(0, 5)
    .map((s) => globSource(s, '[^:]'))
    .join(':')}:${globSource(segments.slice(5).join(':'), '[\\s\\S]')}$`;
  return {
    wholeCased: new RegExp(whole),
    wholeCaseless: new RegExp(whole, 'i'),
    segmentsCased: new RegExp(bySegment),
    segmentsCaseless: new RegExp(bySegment, 'i'),
  };
}

/** The patterns of one set of policies, compiled once; no classes when one of them rules classes out. */
export class ResourceClasses {
  private readonly patterns: CompiledPattern[];
  private readonly usable: boolean;

  /** `patterns` as the template gives them: a value that is not a string (left unresolved) rules classes out. */
  constructor(patterns: Iterable<unknown>) {
    const compiled: CompiledPattern[] = [];
    let usable = true;
    for (const pattern of new Set(patterns)) {
      if (pattern === '*') continue; // matches every resource alike
      const c = typeof pattern === 'string' ? compile(pattern) : undefined;
      if (c) compiled.push(c);
      else usable = false;
    }
    this.patterns = compiled;
    this.usable = usable;
  }

  /** The class of `resource`, as a string that names it; undefined when the resource must be decided on its own. */
  classOf(resource: string): string | undefined {
    if (!this.usable) return undefined;
    const object = S3_OBJECT.exec(resource);
    if (!object || /[*?]/.test(resource)) return undefined;
    let bits = '';
    for (const p of this.patterns)
      bits +=
        (p.wholeCased.test(resource) ? '1' : '0') +
        (p.wholeCaseless.test(resource) ? '1' : '0') +
        (p.segmentsCased.test(resource) ? '1' : '0') +
        (p.segmentsCaseless.test(resource) ? '1' : '0');
    return `${object[1]}/ ${bits}`;
  }
}

/** Every Resource and NotResource string of `statements`. */
export function resourcePatternsOf(statements: readonly { Resource?: unknown; NotResource?: unknown }[]): unknown[] {
  const patterns: unknown[] = [];
  for (const statement of statements)
    for (const value of [statement.Resource, statement.NotResource])
      if (value !== undefined) for (const item of Array.isArray(value) ? value : [value]) patterns.push(item);
  return patterns;
}
