/**
 * The options of the faults a pad server can inject. Every fault applies to
 * one event (the next edit, the next connection, the next departure) on one
 * pad or on any pad, and is spent by it.
 *
 * @module
 */

/** Which edit `PadServer.dropNextEdit` drops, and when. */
export interface DropNextEditOptions {
  /** Only an edit on this pad; any pad if absent. */
  pad?: string;
  /**
   * `"before-apply"`: the edit is not applied. `"after-apply"`: it is
   * applied and sent to the other connections, but its sender is gone
   * before its acknowledgement.
   */
  when: "before-apply" | "after-apply";
}

/** Which connection `PadServer.closeNextConnectMidHistory` cuts. */
export interface CloseNextConnectOptions {
  /** Only a connection to this pad; any pad if absent. */
  pad?: string;
}

/** Which edit `PadServer.stallNextEdit` is never read. */
export interface StallNextEditOptions {
  /** Only an edit on this pad; any pad if absent. */
  pad?: string;
}

/**
 * Which frames a delaying fault holds back, and for how long
 * (`PadServer.delayNextAck`,
 * `PadServer.delayNextHistory`,
 * `PadServer.delayNextDeparture`).
 */
export interface DelayOptions {
  /** Only on this pad; any pad if absent. */
  pad?: string;
  /** How long to hold back, in milliseconds. */
  ms: number;
}
