/**
 * Names of the Metadata the stack writes on its resources for readers of the synthesized template
 * (the local twin) where CloudFormation has no property of its own. Kept free of CDK imports so a
 * reader of the template need not load the CDK.
 */

/**
 * On a function without a reservation: the executions of the account's unreserved pool the stack
 * sizes it for (its part of unreservedConcurrencyShare), which Lambda's template has no field for.
 */
export const UNRESERVED_POOL_METADATA = 'Sudoku::UnreservedPool';
