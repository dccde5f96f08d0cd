// The algorithms over an operation's components: reading them from JSON,
// apply, invert, compose, transform and cursor transformation, in the
// crate's order of cases. TextOperation (operation.ts) checks lengths and
// owns the normal form; these functions write their results through its
// normalising builder methods, passed in as `Builder`, so this module needs
// no runtime import of the class.
//
// The loops are indexed, not for-of: a pad's history (thousands of
// operations) goes through them on a first open, before the JIT has
// compiled them, and there an array iterator costs ten times as much.

import type { Component } from "./component.ts";
import {
  advanceCodePoints,
  codePointLength,
  sliceCodePoints,
} from "./code_points.ts";

/** The normalising builder methods of TextOperation. */
export interface Builder {
  retain(count: number): unknown;
  delete(count: number): unknown;
  insert(text: string): unknown;
}

/** The largest count one component may carry (the crate stores `u64`). */
const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/** Add the components of parsed JSON one by one, as the server reads them. */
export function readComponents(value: unknown, out: Builder): void {
  if (!Array.isArray(value)) {
    throw new TypeError(
      `Cannot read operation as it is not an array: current value is ${
        describe(value)
      }`,
    );
  }
  for (let i = 0; i < value.length; i++) {
    const component = value[i];
    if (typeof component === "string") {
      out.insert(component);
    } else if (
      Number.isSafeInteger(component) && Math.abs(component) <= MAX_COUNT
    ) {
      if (component >= 0) out.retain(component);
      else out.delete(-component);
    } else {
      throw new TypeError(
        `Cannot read operation component as it is not an integer or a string: current value is ${
          describe(component)
        }`,
      );
    }
  }
}

/** The text after applying `components`; the caller checked the length. */
export function applyComponents(
  components: readonly Component[],
  text: string,
): string {
  const parts: string[] = [];
  let index = 0;
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    if (typeof component === "string") {
      parts.push(component);
    } else if (component > 0) {
      const end = advanceCodePoints(text, index, component);
      parts.push(text.slice(index, end));
      index = end;
    } else {
      index = advanceCodePoints(text, index, -component);
    }
  }
  return parts.join("");
}

/** Write the inverse of `components` on `text` into `out`. */
export function invertInto(
  components: readonly Component[],
  text: string,
  out: Builder,
): void {
  let index = 0;
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    if (typeof component === "string") {
      out.delete(codePointLength(component));
    } else if (component > 0) {
      out.retain(component);
      index = advanceCodePoints(text, index, component);
    } else {
      const end = advanceCodePoints(text, index, -component);
      out.insert(text.slice(index, end));
      index = end;
    }
  }
}

/** Write `first` followed by `second` into `out`. */
export function composeInto(
  first: readonly Component[],
  second: readonly Component[],
  out: Builder,
): void {
  const a = new ComponentReader(first);
  const b = new ComponentReader(second);
  while (!a.done || !b.done) {
    const x = a.peek();
    const y = b.peek();
    if (typeof x === "number" && x < 0) {
      out.delete(-x);
      a.next();
    } else if (typeof y === "string") {
      out.insert(y);
      b.next();
    } else if (x === undefined || y === undefined) {
      throw new RangeError(
        "Cannot compose operations as their lengths do not match: one ended before the other",
      );
    } else if (typeof x === "string") {
      // y is a retain or a delete of the inserted text.
      const length = codePointLength(x);
      const count = Math.abs(y);
      const taken = Math.min(length, count);
      if (y > 0) out.insert(sliceCodePoints(x, 0, taken));
      a.take(taken, length);
      b.take(taken, count);
    } else {
      // x is a retain; y is a retain or a delete.
      const count = Math.min(x, Math.abs(y));
      if (y > 0) out.retain(count);
      else out.delete(count);
      a.take(count, x);
      b.take(count, Math.abs(y));
    }
  }
}

/**
 * Write the transformed pair into `firstPrime` and `secondPrime`; at a tie
 * of inserts, the first operation's goes first.
 */
export function transformInto(
  first: readonly Component[],
  second: readonly Component[],
  firstPrime: Builder,
  secondPrime: Builder,
): void {
  const a = new ComponentReader(first);
  const b = new ComponentReader(second);
  while (!a.done || !b.done) {
    const x = a.peek();
    const y = b.peek();
    if (typeof x === "string") {
      firstPrime.insert(x);
      secondPrime.retain(codePointLength(x));
      a.next();
    } else if (typeof y === "string") {
      firstPrime.retain(codePointLength(y));
      secondPrime.insert(y);
      b.next();
    } else if (x === undefined || y === undefined) {
      throw new RangeError(
        "Cannot transform operations as their lengths do not match: one ended before the other",
      );
    } else {
      const count = Math.min(Math.abs(x), Math.abs(y));
      if (x > 0 && y > 0) {
        firstPrime.retain(count);
        secondPrime.retain(count);
      } else if (x < 0 && y > 0) {
        firstPrime.delete(count);
      } else if (x > 0 && y < 0) {
        secondPrime.delete(count);
      } // Both delete the same range: nothing is left to do.
      a.take(count, Math.abs(x));
      b.take(count, Math.abs(y));
    }
  }
}

/** Where a cursor at `position` moves, as the Rustpad server moves it. */
export function transformPosition(
  components: readonly Component[],
  position: number,
): number {
  let index = position;
  let newIndex = position;
  for (let i = 0; i < components.length; i++) {
    const component = components[i]!;
    if (typeof component === "string") {
      newIndex += codePointLength(component);
    } else if (component > 0) {
      index -= component;
    } else {
      newIndex -= Math.min(index, -component);
      index += component;
    }
    if (index < 0) break;
  }
  return newIndex;
}

/**
 * Walks the components of an operation, letting a loop consume part of the
 * current one (the crate's `maybe_op = Some(Retain(i - j))` steps).
 */
class ComponentReader {
  #components: readonly Component[];
  #index = 0;
  #current: Component | undefined;

  constructor(components: readonly Component[]) {
    this.#components = components;
    this.#current = components[0];
  }

  get done(): boolean {
    return this.#current === undefined;
  }

  peek(): Component | undefined {
    return this.#current;
  }

  next(): void {
    this.#current = this.#components[++this.#index];
  }

  /** Consume `count` of the current component, whose length is `length`. */
  take(count: number, length: number): void {
    const current = this.#current;
    if (count === length) {
      this.next();
    } else if (typeof current === "string") {
      this.#current = sliceCodePoints(current, count);
    } else if (current !== undefined) {
      this.#current = current > 0 ? current - count : current + count;
    }
  }
}

function describe(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) return String(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}
