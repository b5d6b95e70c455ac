import { MAX_BOARDS, MAX_BODY_BYTES, MAX_PROBLEMS_PER_BOARD, MAX_RESPONSE_BYTES, MAX_SOLVE_MS } from './constants.js';
import { PROBLEM_CODES } from '../sudoku/index.js';
import { API_ROUTE_NAMES, API_ROUTES, type ApiRouteName } from '../contract/api-routes.js';
import { GATEWAY_ANSWERS, GATEWAY_RETRY_ADVICE } from './gateway-answers.js';
import { PROBLEM_TYPES, problemTypeUri, type ProblemTypeName } from './problems.js';
import { toolkitPaths, toolkitSchemas } from './openapi-toolkit.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const grid = (cell: object, description: string) => ({
  type: 'array',
  description,
  minItems: 9,
  maxItems: 9,
  items: { type: 'array', minItems: 9, maxItems: 9, items: cell },
});

const problemTypeNames = Object.keys(PROBLEM_TYPES) as ProblemTypeName[];

type Response = {
  description: string;
  headers?: Record<string, object>;
  content?: Record<string, { schema: object }>;
  'x-answered-by': string[];
};
type Responses = Record<string, Response>;

/** A response the function gives (`x-answered-by: function`). */
const fromFunction = (response: Omit<Response, 'x-answered-by'>): Response => ({
  ...response,
  'x-answered-by': ['function'],
});

const problem = (description: string) =>
  fromFunction({ description, content: { 'application/problem+json': { schema: ref('ProblemDetails') } } });

/** The wait a throttled answer may carry (RFC 9110 §10.2.3): not from API Gateway itself, which sends none. */
const retryAfterHeader = {
  description:
    'Seconds to wait (or an HTTP date) before sending again, when a proxy in front of the API sends it; API Gateway sends none.',
  required: false,
  schema: { type: 'string' },
};

/**
 * `responses` with what API Gateway answers itself on any route added (`x-answered-by: gateway`, its
 * own `{"message"}` JSON). A status both give (400, 413 on POST /solve) lists both media types.
 */
function withGateway(responses: Responses): Responses {
  const out: Responses = { ...responses };
  for (const answer of Object.values(GATEWAY_ANSWERS)) {
    const status = String(answer.status);
    const retry = 'retry' in answer;
    const gateway =
      `From API Gateway itself, {"message":"${answer.message}"}: ${answer.when}.` +
      (retry ? ` ${GATEWAY_RETRY_ADVICE}` : '');
    const headers = retry ? { headers: { 'retry-after': retryAfterHeader } } : {};
    const own = out[status];
    out[status] = own
      ? {
          description: `${own.description} ${gateway}`,
          ...headers,
          content: { ...own.content, 'application/json': { schema: ref('GatewayError') } },
          'x-answered-by': [...own['x-answered-by'], 'gateway'],
        }
      : {
          description: gateway,
          ...headers,
          content: { 'application/json': { schema: ref('GatewayError') } },
          'x-answered-by': ['gateway'],
        };
  }
  return out;
}

/** HEAD on a GET route: the GET answer's status and headers, no body. */
const headOf = (get: { operationId: string; responses: Responses }) => ({
  operationId: `${get.operationId}Head`,
  summary: 'As GET, without the body',
  responses: Object.fromEntries(
    Object.entries(get.responses).map(([status, r]) => [
      status,
      { description: r.description, 'x-answered-by': r['x-answered-by'] },
    ]),
  ),
});

/** A browser's CORS preflight on a route; the function answers it (API Gateway passes it on). */
const preflight = (operationId: string) => ({
  operationId,
  summary: 'CORS preflight (OPTIONS with Origin and Access-Control-Request-Method)',
  responses: withGateway({
    '204': fromFunction({
      description:
        'The CORS headers the stack configures (no body); without them for an origin not allowed, so the browser blocks the call.',
    }),
    '405': problem('An OPTIONS that is not a preflight (no Origin or no Access-Control-Request-Method).'),
  }),
});

/**
 * The toolkit's path items (openapi-toolkit.ts) described as every other route is: each answer
 * marked the function's, the gateway's own answers added, HEAD on a GET, and the preflight.
 */
function servedRoutes(paths: typeof toolkitPaths): Record<keyof typeof toolkitPaths, Record<string, unknown>> {
  const out = {} as Record<keyof typeof toolkitPaths, Record<string, unknown>>;
  for (const [name, item] of Object.entries(paths)) {
    const operations = item as Record<
      string,
      { operationId: string; responses: Record<string, Omit<Response, 'x-answered-by'>> }
    >;
    const served: Record<string, unknown> = {};
    for (const [method, operation] of Object.entries(operations)) {
      const responses = withGateway(
        Object.fromEntries(Object.entries(operation.responses).map(([status, r]) => [status, fromFunction(r)])),
      );
      served[method] = { ...operation, responses };
      if (method === 'get') served.head = headOf({ operationId: operation.operationId, responses });
      served.options = preflight(`${operation.operationId}Preflight`);
    }
    out[name as keyof typeof toolkitPaths] = served;
  }
  return out;
}

/** A GET route: its own answers, HEAD, and its preflight. */
function getRoute(operationId: string, summary: string, ok: Omit<Response, 'x-answered-by'>) {
  const get = {
    operationId,
    summary,
    responses: withGateway({
      '200': fromFunction(ok),
      '405': problem('Method other than GET or HEAD; the Allow header lists them.'),
    }),
  };
  return { get, head: headOf(get), options: preflight(`${operationId}Preflight`) };
}

/**
 * The document's `paths` from each route's path item, keyed by route name: the path and method come
 * from the contract, so the document describes exactly the routes the function serves (with HEAD
 * and the preflight beside each route's own method).
 */
function pathsOf(
  items: Readonly<Record<ApiRouteName, Record<string, unknown>>>,
): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const name of API_ROUTE_NAMES) {
    const { method, path } = API_ROUTES[name];
    if (!Object.hasOwn(items[name], method.toLowerCase())) {
      throw new Error(`OpenAPI: route ${name} has no ${method} operation`);
    }
    paths[path] = { ...paths[path], ...items[name] };
  }
  return paths;
}

/** What a problem says besides its place: the fields every problem may have. */
const problemFields = {
  code: { type: 'string', enum: PROBLEM_CODES },
  message: { type: 'string' },
  row: { type: 'integer', minimum: 1, description: '1-based row of the cell (or row) at fault.' },
  col: { type: 'integer', minimum: 1, maximum: 9 },
  cells: { type: 'array', items: ref('Cell'), description: 'Both cells of a repeated given.' },
  position: {
    type: 'integer',
    minimum: 1,
    description: '1-based character of a board string where there is no cell (a character past the 81st cell).',
  },
  pointer: {
    type: 'string',
    pattern: '^(/[^/]+)+$',
    description:
      'JSON pointer to the value of the request body at fault: "/board", "/boards/3", "/puzzle", or a row ' +
      '("/board/4") or cell ("/board/4/7", 0-based) of a 9x9 array.',
    examples: ['/board', '/boards/3', '/board/4/7'],
  },
  parameter: { type: 'string', description: 'The query parameter at fault (GET /puzzle).' },
  index: { type: 'integer', minimum: 0, description: 'Position of the board in "boards".' },
};

/**
 * A problem placed by a pointer into the body, or by the query parameter. Each is a whole object
 * schema (not `anyOf: [{required: [...]}]` beside the properties), so generated client types
 * (openapi-typescript: functions/client/openapi-types.ts) say which field a problem has.
 */
const placedBy = (place: 'pointer' | 'parameter') => ({
  type: 'object',
  required: ['code', 'message', place],
  additionalProperties: false,
  properties: problemFields,
});

const problemSchema = {
  description:
    'One thing wrong, with its place in the request: "pointer" (RFC 6901) to the value of the body it is about ' +
    '(the board, a row or cell of a 9x9 array, an item of "boards"), or "parameter", the query parameter. Every ' +
    'problem has one of them; row/col, cells and position add the place inside a board string.',
  anyOf: [placedBy('pointer'), placedBy('parameter')],
};

const EASY = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';

/**
 * The OpenAPI 3.1 description of the API, served at GET /openapi.json. Its schemas are JSON
 * Schema 2020-12; the tests validate every answer they receive against them.
 */
export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Sudoku solving service',
    version: '1.0.0',
    description:
      'Solves 9x9 Sudoku boards. A board is an 81-character string (1-9 givens, "." or "0" empty; whitespace and ' +
      '"|" "-" "+" ignored), a 9x9 array of one-character strings, or a 9x9 array of numbers (0 empty); the solution ' +
      'comes back in the shape sent. Errors are RFC 9457 problem details (application/problem+json) listing every ' +
      'problem with its code, message and place: a JSON pointer into the body (or the query parameter) on every ' +
      'problem, and 1-based row/col, or position in a string where there is no cell, inside a board. Answers API Gateway gives itself (marked x-answered-by: gateway) are its own ' +
      '{"message": ...} JSON; x-unlisted describes paths and methods not listed. Every answer carries the request id in ' +
      'an apigw-requestid header. Bodies are limited to ' +
      `${MAX_BODY_BYTES} bytes and ${MAX_BOARDS} boards a request. ` +
      'A typed TypeScript client made from this document ships with the service as `sudoku-serverless/client` ' +
      '(`new SudokuClient({ baseUrl })`, for Node.js 22+ and browsers): its solveMany takes any number of boards, cuts ' +
      'them into requests within these limits, waits out 429 and the 500 of a throttled function, and answers one ' +
      'result per board in order.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  paths: pathsOf({
    page: getRoute('page', 'A web page to type, paste or upload puzzles and see the answers', {
      description:
        'One self-contained HTML page (no other origin, Content-Security-Policy by hash); gzip-compressed when ' +
        'Accept-Encoding allows it.',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
    solve: {
      post: {
        operationId: 'solve',
        summary: 'Solve one board, a batch of boards, or lines of puzzles',
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: ref('SolveRequest') },
            'text/plain': { schema: { type: 'string' } },
          },
        },
        responses: withGateway({
          '200': fromFunction({
            description:
              'For {"board"}: the solution. For {"boards"}: one result per board, in order (a failed board does not fail ' +
              'the others). For text/plain: one line per input line: the 81-digit solution, a blank line for a blank ' +
              'line, or "error line N: CODE: message[; CODE: message][; and K more problems]" for a line that could not be ' +
              'solved: the line a .txt file in S3 gets for the same input.',
            headers: {
              'x-sudoku-solved': { description: 'text/plain only: lines solved.', schema: { type: 'string' } },
              'x-sudoku-failed': { description: 'text/plain only: lines not solved.', schema: { type: 'string' } },
            },
            content: {
              'application/json': { schema: { oneOf: [ref('SolveResponse'), ref('BoardsResponse')] } },
              'text/plain': { schema: { type: 'string' } },
            },
          } as Omit<Response, 'x-answered-by'>),
          '400': problem(
            'Malformed JSON, body not UTF-8 (or not US-ASCII when labelled so), missing or malformed board, or repeated givens.',
          ),
          '405': problem('Method other than POST; the Allow header lists the accepted ones.'),
          '413': problem(
            `Body over ${MAX_BODY_BYTES} bytes, more than ${MAX_BOARDS} boards, more than ${MAX_SOLVE_MS} ms of solving, ` +
              `or an answer over ${MAX_RESPONSE_BYTES} bytes (Lambda's limit; send such work as a file to S3); "limit" gives the bound.`,
          ),
          '415': problem(
            'Content type other than application/json or text/plain, a charset other than UTF-8 (or US-ASCII), or a ' +
              'compressed body (Content-Encoding other than identity; Accept-Encoding: identity says so).',
          ),
          '422': problem('A well-formed board with no solution.'),
        }),
      },
      options: preflight('solvePreflight'),
    },
    ...servedRoutes(toolkitPaths),
    health: getRoute('health', 'Liveness check', {
      description: 'The service is up.',
      content: { 'application/json': { schema: ref('Health') } },
    }),
    openapi: getRoute('openapi', 'This document', {
      description: 'The OpenAPI 3.1 document.',
      content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } },
    }),
  }),
  /**
   * What no path item can say: every request the API receives is answered, also on paths and
   * methods not listed above (API Gateway's `$default` route sends them all to the function).
   */
  'x-unlisted': {
    paths: {
      description: 'Any other path, with any method (a trailing slash included: /solve/ is not /solve).',
      responses: withGateway({ '404': problem('No such route; the detail names the route meant, if any.') }),
    },
    methods: {
      description: 'A listed path with a method it does not list.',
      responses: withGateway({ '405': problem('The Allow header lists the methods the path takes.') }),
    },
  },
  components: {
    schemas: {
      Board: {
        description: 'A board as sent: string, 9x9 one-character strings, or 9x9 numbers.',
        oneOf: [ref('BoardString'), ref('BoardChars'), ref('BoardNumbers')],
      },
      BoardString: {
        type: 'string',
        description: '81 cells: 1-9 givens, "." or "0" empty; whitespace and "|" "-" "+" are ignored.',
        examples: [EASY],
      },
      BoardChars: grid(
        { type: 'string', enum: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0'] },
        '9 rows of 9 one-character strings (LeetCode 37).',
      ),
      BoardNumbers: grid({ type: 'integer', minimum: 0, maximum: 9 }, '9 rows of 9 numbers, 0 empty.'),
      SolvedBoard: {
        description: 'The solution, in the shape of the board sent.',
        oneOf: [
          { type: 'string', pattern: '^[1-9]{81}$' },
          grid({ type: 'string', enum: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] }, 'Solved 9x9 strings.'),
          grid({ type: 'integer', minimum: 1, maximum: 9 }, 'Solved 9x9 numbers.'),
        ],
      },
      SolveRequest: {
        description:
          'Exactly one of "board" or "boards". Items of "boards" may be anything: each is checked on its own and a bad ' +
          'one is reported in its result.',
        oneOf: [
          { type: 'object', required: ['board'], properties: { board: ref('Board') } },
          {
            type: 'object',
            required: ['boards'],
            properties: { boards: { type: 'array', maxItems: MAX_BOARDS, items: ref('Board') } },
          },
        ],
      },
      Stats: {
        type: 'object',
        required: ['guesses', 'micros'],
        additionalProperties: false,
        properties: {
          guesses: {
            type: 'integer',
            minimum: 0,
            description: 'Branching decisions of the search (0: solved by propagation).',
          },
          micros: { type: 'integer', minimum: 0, description: 'Search time in microseconds.' },
        },
      },
      SolveResponse: {
        type: 'object',
        required: ['solution', 'unique', 'stats'],
        additionalProperties: false,
        properties: {
          solution: ref('SolvedBoard'),
          unique: { type: 'boolean', description: 'true if the board has exactly one solution.' },
          stats: ref('Stats'),
        },
      },
      BoardsItemSolved: {
        type: 'object',
        required: ['index', 'solution', 'unique', 'stats'],
        additionalProperties: false,
        properties: {
          index: { type: 'integer', minimum: 0, description: '0-based position in "boards".' },
          solution: ref('SolvedBoard'),
          unique: { type: 'boolean' },
          stats: ref('Stats'),
        },
      },
      BoardsItemFailed: {
        type: 'object',
        required: ['index', 'status', 'problems', 'problemsTotal'],
        additionalProperties: false,
        properties: {
          index: { type: 'integer', minimum: 0 },
          status: {
            type: 'integer',
            enum: [400, 422],
            description: 'The status a single-board request would have had.',
          },
          problems: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_PROBLEMS_PER_BOARD,
            items: ref('Problem'),
            description: `The first ${MAX_PROBLEMS_PER_BOARD} problems found.`,
          },
          problemsTotal: { type: 'integer', minimum: 1, description: 'How many problems the board has in all.' },
        },
      },
      BoardsResponse: {
        type: 'object',
        required: ['results', 'solved', 'failed'],
        additionalProperties: false,
        properties: {
          results: { type: 'array', items: { oneOf: [ref('BoardsItemSolved'), ref('BoardsItemFailed')] } },
          solved: { type: 'integer', minimum: 0 },
          failed: { type: 'integer', minimum: 0 },
        },
      },
      Cell: {
        type: 'object',
        required: ['row', 'col'],
        additionalProperties: false,
        properties: {
          row: { type: 'integer', minimum: 1, maximum: 9 },
          col: { type: 'integer', minimum: 1, maximum: 9 },
        },
      },
      Problem: problemSchema,
      ProblemDetails: {
        type: 'object',
        description: 'RFC 9457 problem details.',
        required: ['type', 'title', 'status', 'detail'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', enum: problemTypeNames.map(problemTypeUri) },
          title: { type: 'string', enum: problemTypeNames.map((name) => PROBLEM_TYPES[name].title) },
          status: { type: 'integer', enum: [...new Set(problemTypeNames.map((name) => PROBLEM_TYPES[name].status))] },
          detail: { type: 'string' },
          problems: {
            type: 'array',
            maxItems: MAX_PROBLEMS_PER_BOARD,
            items: ref('Problem'),
            description: `The board's first ${MAX_PROBLEMS_PER_BOARD} problems (400, 422).`,
          },
          problemsTotal: { type: 'integer', minimum: 1, description: 'How many problems the board has in all.' },
          limit: {
            type: 'integer',
            description: 'The bound exceeded (413): request or answer bytes, boards, or milliseconds of solving.',
          },
          allow: { type: 'array', items: { type: 'string' }, description: 'Accepted methods (405).' },
          accept: { type: 'array', items: { type: 'string' }, description: 'Accepted media types (415).' },
          parameter: { type: 'string', description: 'The query parameter at fault (400 invalid-parameter).' },
          position: {
            type: 'integer',
            minimum: 1,
            description: 'The character (1-based) where a malformed body stops being JSON (400 malformed-json).',
          },
          line: { type: 'integer', minimum: 1, description: 'Its line (1-based).' },
          column: { type: 'integer', minimum: 1, description: 'Its column (1-based).' },
          requestId: { type: 'string', description: 'The request id in the logs.' },
        },
      },
      GatewayError: {
        type: 'object',
        description: "API Gateway's own answer (x-answered-by: gateway): the function did not answer this request.",
        required: ['message'],
        additionalProperties: false,
        properties: { message: { type: 'string', enum: Object.values(GATEWAY_ANSWERS).map((a) => a.message) } },
      },
      ...toolkitSchemas,
      Health: {
        type: 'object',
        required: ['status'],
        additionalProperties: false,
        properties: { status: { const: 'ok' } },
      },
    },
  },
} as const;
