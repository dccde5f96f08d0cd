// The components of one TextOperation and the normal form its builders keep
// as they go: no zero-length components, neighbours of the same kind merged,
// and an insert never directly after a delete. With the lengths of the text
// it applies to and produces, and the checks against them. TextOperation
// (operation.ts) owns one and carries the public JSDoc.

import { codePointLength } from "./code_points.ts";
import type { Component } from "./component.ts";

/** A component list kept in normal form, with its lengths. */
export class NormalForm {
  /** The components; only the methods below change them. */
  components: Component[] = [];
  /** Length in code points of the text the components apply to. */
  baseLength = 0;
  /** Length in code points of the text the components produce. */
  targetLength = 0;

  /** Keep the next `count` code points, merged into a retain before. */
  retain(count: number): void {
    checkCount("retain", count);
    if (count === 0) return;
    this.baseLength += count;
    this.targetLength += count;
    const last = this.components.length - 1;
    const previous = this.components[last];
    if (typeof previous === "number" && previous > 0) {
      this.components[last] = previous + count;
    } else {
      this.components.push(count);
    }
  }

  /** Delete the next `count` code points, merged into a delete before. */
  delete(count: number): void {
    checkCount("delete", count);
    if (count === 0) return;
    this.baseLength += count;
    const last = this.components.length - 1;
    const previous = this.components[last];
    if (typeof previous === "number" && previous < 0) {
      this.components[last] = previous - count;
    } else {
      this.components.push(-count);
    }
  }

  /** Insert `text`; right after a delete it goes in front of it. */
  insert(text: string): void {
    if (text === "") return;
    this.targetLength += codePointLength(text);
    const components = this.components;
    const last = components.length - 1;
    const previous = components[last];
    if (typeof previous === "string") {
      components[last] = previous + text;
    } else if (typeof previous === "number" && previous < 0) {
      const beforeDelete = components[last - 1];
      if (typeof beforeDelete === "string") {
        components[last - 1] = beforeDelete + text;
      } else {
        components[last] = text;
        components.push(previous);
      }
    } else {
      components.push(text);
    }
  }

  /**
   * Take `value` as the components if it is already in normal form, as
   * what a server sends is: one pass over it, where adding each component
   * through the builders above costs several times as much in the first
   * read of a long history, before the code is compiled. A copy, unless
   * `owned` says no one else holds the list.
   *
   * @returns Whether it was taken; if not, nothing changed.
   */
  adopt(value: unknown, owned = false): boolean {
    if (!Array.isArray(value) || this.components.length > 0) return false;
    let base = 0;
    let target = 0;
    let previous: unknown;
    for (let i = 0; i < value.length; i++) {
      const component: unknown = value[i];
      if (typeof component === "string") {
        // Not empty, not after an insert, not after a delete.
        if (
          component === "" || typeof previous === "string" ||
          (typeof previous === "number" && previous < 0)
        ) return false;
        target += codePointLength(component);
      } else if (
        typeof component === "number" && Number.isSafeInteger(component) &&
        component !== 0
      ) {
        if (
          typeof previous === "number" && (previous > 0) === (component > 0)
        ) {
          return false;
        }
        if (component > 0) {
          base += component;
          target += component;
        } else {
          base -= component;
        }
      } else {
        return false;
      }
      previous = component;
    }
    this.components = owned ? value : value.slice();
    this.baseLength = base;
    this.targetLength = target;
    return true;
  }

  /** Whether the components change nothing: none, or a single retain. */
  isNoop(): boolean {
    const components = this.components;
    return components.length === 0 ||
      (components.length === 1 && typeof components[0] === "number" &&
        components[0] > 0);
  }

  /** Throw unless `text` is as long as the base length. */
  checkFits(action: string, text: string): void {
    const length = codePointLength(text);
    if (length !== this.baseLength) {
      throw new RangeError(
        `Cannot ${action} operation as its base length ${this.baseLength} differs from the text length: current length is ${length}`,
      );
    }
  }

  /** Whether `other` has the same components. */
  equals(other: NormalForm): boolean {
    const a = this.components;
    const b = other.components;
    return a.length === b.length &&
      a.every((component, i) => component === b[i]);
  }
}

function checkCount(action: string, count: number): void {
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RangeError(
      `Cannot ${action} as the count is not a non-negative integer: current value is ${count}`,
    );
  }
}
