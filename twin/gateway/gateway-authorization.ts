/**
 * API Gateway's route authorization, modelled for the local twin from the synthesized template:
 * a route whose AuthorizationType is AWS_IAM answers an unsigned request 403
 * `{"message":"Forbidden"}` before the function runs; a route with NONE lets it through. As in the
 * twin's S3, a signature is recognised by its form, not verified (the local callers hold no secrets).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CloudFormationTemplate } from '../iam/resolve-template.js';

/** Each route key of the stack's HTTP API and whether it requires a SigV4 signature. */
export type GatewayAuthorization = ReadonlyMap<string, 'AWS_IAM' | 'NONE'>;

/** The route keys and their authorization types, as the template declares them. */
export function gatewayAuthorization(template: CloudFormationTemplate): GatewayAuthorization {
  const routes = new Map<string, 'AWS_IAM' | 'NONE'>();
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::ApiGatewayV2::Route') continue;
    const { RouteKey, AuthorizationType } = (resource.Properties ?? {}) as {
      RouteKey?: string;
      AuthorizationType?: string;
    };
    if (RouteKey) routes.set(RouteKey, AuthorizationType === 'AWS_IAM' ? 'AWS_IAM' : 'NONE');
  }
  return routes;
}

/**
 * The route API Gateway matches: the exact `METHOD /path`, else a greedy `METHOD /{proxy+}` (any
 * path below the root), else `$default`.
 */
export function matchRoute(routes: GatewayAuthorization, method: string, path: string): string {
  const exact = `${method} ${path}`;
  if (routes.has(exact)) return exact;
  const greedy = `${method} /{proxy+}`;
  if (path !== '/' && routes.has(greedy)) return greedy;
  return '$default';
}

/** Whether the request carries a SigV4 signature (an `Authorization: AWS4-HMAC-SHA256 ...` header). */
export function isSigned(headers: IncomingHttpHeaders): boolean {
  return /^AWS4-HMAC-SHA256 /.test(String(headers.authorization ?? ''));
}

/** True when API Gateway would refuse the request with 403 before invoking the function. */
export function refusedUnsigned(
  routes: GatewayAuthorization,
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
): boolean {
  return routes.get(matchRoute(routes, method, path)) === 'AWS_IAM' && !isSigned(headers);
}
