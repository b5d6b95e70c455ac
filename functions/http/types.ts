import type { ApiProblem } from './problem-location.js';

/** The parts of an API Gateway HTTP API (payload 2.0) event the adapter reads, normalised. */
export interface HttpRequest {
  method: string;
  /** Path without the stage prefix and without a trailing slash. */
  path: string;
  /** Header names lower-cased (API Gateway already does; tests and local events may not). */
  headers: Readonly<Record<string, string>>;
  /** The body as API Gateway delivered it: text, or base64 when `isBase64Encoded`. */
  body: string | undefined;
  isBase64Encoded: boolean;
  requestId: string;
  /** The query string as API Gateway delivered it (`rawQueryString`), without the `?`; '' when none. */
  query: string;
}

/** A structured Lambda result for API Gateway (payload 2.0). */
export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Text, or base64 when `isBase64Encoded` (binary: the gzip-compressed page). */
  body: string;
  isBase64Encoded: boolean;
}

/** RFC 9457 problem details, with the board problems this API adds. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** Every problem found, each with its code, message and place (`pointer` into the body, or `parameter`). */
  problems?: ApiProblem[];
  /** How many problems there were in all (`problems` lists the first few). */
  problemsTotal?: number;
  /** The bound that was exceeded (413). */
  limit?: number;
  /** Methods the path accepts (405). */
  allow?: string[];
  /** Media types /solve accepts (415). */
  accept?: string[];
  /** The query parameter at fault (400 invalid-parameter). */
  parameter?: string;
  /** Where a malformed body stops being JSON (400 malformed-json): the character, 1-based. */
  position?: number;
  /** Its line, 1-based. */
  line?: number;
  /** Its column, 1-based. */
  column?: number;
  requestId?: string;
}

/** What a problem adds to RFC 9457's own members: a ClientError carries these and the answer spreads them. */
export type ProblemExtra = Omit<ProblemDetails, 'type' | 'title' | 'status' | 'detail' | 'requestId'>;
