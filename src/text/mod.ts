/**
 * What the tools compute on text, with no network and no MCP: edits and
 * batches of edits as operations, pages, numbered lines, search and
 * unified diffs. Imports only the OT core.
 *
 * @module
 */

export {
  appendOperation,
  findOccurrences,
  replaceAllOperation,
  replaceOperation,
} from "./edits.ts";
export { pageText, type TextPage } from "./paging.ts";
export {
  countLines,
  LineIndex,
  type LineWindow,
  MAX_LINE_LENGTH,
  readLines,
  showLine,
} from "./lines.ts";
export {
  loadSearchEngine,
  MAX_SEARCH_WORK,
  type SearchMatch,
  type SearchOptions,
  type SearchResult,
  searchText,
} from "./search.ts";
export { MAX_WAITING_SEARCHES, SearchQueue } from "./search_queue.ts";
export {
  type BatchEdit,
  BatchEditError,
  type LineEdit,
  type LocatedBatch,
  type LocatedChange,
  locateEdits,
  type StringEdit,
} from "./batch_edits.ts";
export {
  type Diff,
  type DiffOptions,
  type DiffSource,
  unifiedDiff,
} from "./diff.ts";
