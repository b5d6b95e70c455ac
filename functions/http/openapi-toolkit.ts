// The OpenAPI description of grading, hints and generating (POST /grade, POST /hint, GET /puzzle):
// paths and schemas spread into openapi.ts, which keeps the shared ones (Board, Problem, ...).
import { LEVELS, TECHNIQUE_NAMES } from '../sudoku/logic/names.js';
import { MAX_BOARDS, MAX_BODY_BYTES } from './constants.js';
import { GRADE_RESERVE_MS } from './grade-route.js';
import { PUZZLE_MAX_ATTEMPTS, PUZZLE_MAX_SYMMETRIC_ATTEMPTS } from './puzzle-route.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('ProblemDetails') } },
});
const json = (schema: object) => ({ 'application/json': { schema } });

const EASY = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const techniqueNames = [...TECHNIQUE_NAMES];

export const toolkitPaths = {
  grade: {
    post: {
      operationId: 'grade',
      summary: 'Grade boards by the human techniques their logical solution needs',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('SolveRequest'),
            examples: { string: { value: { board: EASY } }, batch: { value: { boards: [EASY] } } },
          },
        },
      },
      responses: {
        '200': {
          description:
            'For {"board"}: the grade, the solution and unique (always true: only a puzzle with exactly one solution is ' +
            'graded). For {"boards"}: one result per board, in order; a failed board does not fail the others.',
          content: json({ oneOf: [ref('GradeResponse'), ref('GradesResponse')] }),
        },
        '400': problemResponse('Malformed JSON, body not UTF-8, missing or malformed board, or repeated givens.'),
        '405': problemResponse('Method other than POST.'),
        '413': problemResponse(
          `Body over ${MAX_BODY_BYTES} bytes, more than ${MAX_BOARDS} boards, or a batch that would outlast the ` +
            `request's budget (grading stops starting boards ${GRADE_RESERVE_MS} ms before it ends); "limit" gives the bound.`,
        ),
        '415': problemResponse('Content type other than application/json (UTF-8).'),
        '422': problemResponse('A well-formed board with no solution, or more than one (MULTIPLE_SOLUTIONS).'),
      },
    },
  },
  hint: {
    post: {
      operationId: 'hint',
      summary: 'The next logical step on a board a person is filling',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('HintRequest'),
            examples: { board: { value: { board: EASY } }, withPuzzle: { value: { puzzle: EASY, board: EASY } } },
          },
        },
      },
      responses: {
        '200': {
          description:
            'The steps (eliminations) up to the next digit a person can write, then that digit; every step agrees with ' +
            'the unique solution. A complete board gets placement null.',
          content: json(ref('HintResponse')),
        },
        '400': problemResponse(
          'Malformed JSON or board, repeated givens, or a given of "puzzle" changed on "board" (GIVEN_CHANGED).',
        ),
        '405': problemResponse('Method other than POST.'),
        '413': problemResponse(`Body over ${MAX_BODY_BYTES} bytes.`),
        '415': problemResponse('Content type other than application/json (UTF-8).'),
        '422': problemResponse(
          'No solution, more than one, or (with "puzzle") entries that are not the solution: one CONTRADICTS_SOLUTION ' +
            'problem per wrong entry, with its row and column.',
        ),
      },
    },
  },
  puzzle: {
    get: {
      operationId: 'puzzle',
      summary: 'Generate a unique, minimal puzzle at a level, reproducible from a seed',
      parameters: [
        { name: 'level', in: 'query', required: true, schema: { type: 'string', enum: [...LEVELS] } },
        {
          name: 'seed',
          in: 'query',
          required: false,
          description: 'The same seed gives the same puzzle; without one a random seed is drawn (and returned).',
          schema: { type: 'integer', minimum: 0, maximum: 0xffff_ffff },
        },
        {
          name: 'symmetric',
          in: 'query',
          required: false,
          description: 'Givens symmetric under a half turn of the board (default false).',
          schema: { type: 'boolean' },
        },
      ],
      responses: {
        '200': { description: 'The puzzle, its solution, grade and seed.', content: json(ref('PuzzleResponse')) },
        '400': problemResponse(
          'A missing or unknown level, a seed that is not an integer 0-4294967295, a symmetric other than true/false, ' +
            'or an unknown or repeated parameter; "parameter" names it.',
        ),
        '405': problemResponse('Method other than GET.'),
        '422': problemResponse(
          `No puzzle of the level in ${PUZZLE_MAX_ATTEMPTS} attempts (${PUZZLE_MAX_SYMMETRIC_ATTEMPTS} if symmetric) from this seed (GENERATION_LIMIT): try another seed.`,
        ),
      },
    },
  },
};

const placement = {
  type: 'object',
  required: ['row', 'col', 'digit'],
  additionalProperties: false,
  properties: {
    row: { type: 'integer', minimum: 1, maximum: 9 },
    col: { type: 'integer', minimum: 1, maximum: 9 },
    digit: { type: 'integer', minimum: 1, maximum: 9 },
  },
};

export const toolkitSchemas = {
  Level: { type: 'string', enum: [...LEVELS] },
  Technique: { type: 'string', enum: techniqueNames },
  Grade: {
    type: 'object',
    required: ['level', 'score', 'hardest', 'techniques'],
    additionalProperties: false,
    properties: {
      level: ref('Level'),
      score: {
        type: 'number',
        minimum: 0,
        description: 'Difficulty of the hardest step, on a Sudoku Explainer-like scale.',
      },
      hardest: {
        oneOf: [ref('Technique'), { type: 'null' }],
        description: 'The hardest technique used; null: the board was given full (level easy, score 0, no techniques).',
      },
      techniques: {
        type: 'object',
        description: 'Uses per technique (only those used).',
        additionalProperties: false,
        properties: Object.fromEntries(techniqueNames.map((name) => [name, { type: 'integer', minimum: 1 }])),
      },
    },
  },
  GradeResponse: {
    type: 'object',
    required: ['grade', 'solution', 'unique'],
    additionalProperties: false,
    properties: { grade: ref('Grade'), solution: ref('SolvedBoard'), unique: { const: true } },
  },
  GradesItemGraded: {
    type: 'object',
    required: ['index', 'grade', 'solution', 'unique'],
    additionalProperties: false,
    properties: {
      index: { type: 'integer', minimum: 0 },
      grade: ref('Grade'),
      solution: ref('SolvedBoard'),
      unique: { const: true },
    },
  },
  GradesResponse: {
    type: 'object',
    required: ['results', 'graded', 'failed'],
    additionalProperties: false,
    properties: {
      results: { type: 'array', items: { oneOf: [ref('GradesItemGraded'), ref('BoardsItemFailed')] } },
      graded: { type: 'integer', minimum: 0 },
      failed: { type: 'integer', minimum: 0 },
    },
  },
  HintRequest: {
    type: 'object',
    required: ['board'],
    properties: {
      board: ref('Board'),
      puzzle: { ...ref('Board'), description: 'The puzzle the board started from: its digits are the givens.' },
    },
  },
  Placement: placement,
  HintStep: {
    type: 'object',
    required: ['technique', 'cells', 'eliminations', 'message'],
    additionalProperties: false,
    properties: {
      technique: ref('Technique'),
      cells: { type: 'array', items: ref('Cell'), description: 'The cells the pattern is made of.' },
      eliminations: { type: 'array', items: ref('Placement'), description: 'Candidates the step removes.' },
      message: { type: 'string' },
    },
  },
  Hint: {
    type: 'object',
    required: ['steps', 'placement', 'technique', 'message'],
    additionalProperties: false,
    properties: {
      steps: { type: 'array', items: ref('HintStep') },
      placement: { oneOf: [ref('Placement'), { type: 'null' }], description: 'null: the board is complete.' },
      technique: { oneOf: [ref('Technique'), { type: 'null' }] },
      message: { type: 'string' },
    },
  },
  HintResponse: {
    type: 'object',
    required: ['hint'],
    additionalProperties: false,
    properties: { hint: ref('Hint') },
  },
  PuzzleResponse: {
    type: 'object',
    required: ['puzzle', 'solution', 'level', 'score', 'seed'],
    additionalProperties: false,
    properties: {
      puzzle: { type: 'string', pattern: '^[1-9.]{81}$' },
      solution: { type: 'string', pattern: '^[1-9]{81}$' },
      level: ref('Level'),
      score: { type: 'number', minimum: 0 },
      seed: { type: 'integer', minimum: 0, maximum: 0xffff_ffff },
    },
  },
};
