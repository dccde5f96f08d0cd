/**
 * One component of a text operation in Rustpad's wire form, shared by the
 * operation class and the algorithms over its components.
 *
 * @module
 */

/**
 * One component of an operation in Rustpad's wire form: a positive integer
 * retains that many code points, a negative integer deletes that many, a
 * string is inserted.
 */
export type Component = number | string;
