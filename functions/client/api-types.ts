/**
 * The API's request and answer types by name, every one taken from the types generated from the
 * served OpenAPI document (openapi-types.ts), so the client and the document cannot disagree.
 */
import type { components, operations } from './openapi-types.js';

type Schemas = components['schemas'];

/** A board as sent: an 81-character string, 9x9 one-character strings, or 9x9 numbers. */
export type Board = Schemas['Board'];
/** A solution, in the shape of the board sent. */
export type SolvedBoard = Schemas['SolvedBoard'];
export type SolveResponse = Schemas['SolveResponse'];
export type BoardsItemSolved = Schemas['BoardsItemSolved'];
/** A board of a batch that failed: the status one board alone would have had, and its problems. */
export type BoardsItemFailed = Schemas['BoardsItemFailed'];
/** One result of `{"boards": [...]}` on POST /solve. */
export type BoardsItem = BoardsItemSolved | BoardsItemFailed;
export type BoardsResponse = Schemas['BoardsResponse'];
export type GradeResponse = Schemas['GradeResponse'];
export type GradesItemGraded = Schemas['GradesItemGraded'];
/** One result of `{"boards": [...]}` on POST /grade. */
export type GradesItem = GradesItemGraded | BoardsItemFailed;
export type GradesResponse = Schemas['GradesResponse'];
export type HintRequest = Schemas['HintRequest'];
export type HintResponse = Schemas['HintResponse'];
export type PuzzleResponse = Schemas['PuzzleResponse'];
/** GET /puzzle's query: the level, and optionally a seed and symmetric givens. */
export type PuzzleQuery = operations['puzzle']['parameters']['query'];
export type Level = Schemas['Level'];
/** One thing wrong, with its place: a pointer into the body or the query parameter, and row/col inside a board. */
export type Problem = Schemas['Problem'];
/** An RFC 9457 problem document, as the function answers every error. */
export type ProblemDetails = Schemas['ProblemDetails'];
/** API Gateway's own answer (`{"message"}`), when the function did not answer. */
export type GatewayError = Schemas['GatewayError'];
export type Health = Schemas['Health'];

/** The slug of a problem type (`invalid-board` of `tag:sudoku-serverless,2026:problem:invalid-board`). */
export type ProblemSlug = ProblemDetails['type'] extends infer T
  ? T extends `${string}:problem:${infer Slug}`
    ? Slug
    : never
  : never;
