import assert from "node:assert/strict";
import {
  encodeMessage,
  parseClientMessage,
  parseServerMessage,
  PERSISTED_USER_ID,
  TextOperation,
} from "../../src/mod.ts";

Deno.test("`parseClientMessage()` reads the four client messages, normalising operations", () => {
  const edit = parseClientMessage(
    '{"Edit":{"revision":2,"operation":[0,1,1,"",3,0,"!"]}}',
  );
  assert.ok("Edit" in edit);
  assert.equal(edit.Edit.revision, 2);
  assert.deepEqual(edit.Edit.operation.toJSON(), [5, "!"]);
  assert.deepEqual(parseClientMessage('{"SetLanguage":"rust"}'), {
    SetLanguage: "rust",
  });
  assert.deepEqual(
    parseClientMessage('{"ClientInfo":{"name":"A","hue":42,"extra":true}}'),
    { ClientInfo: { name: "A", hue: 42 } },
  );
  assert.deepEqual(
    parseClientMessage('{"CursorData":{"cursors":[3],"selections":[[1,4]]}}'),
    { CursorData: { cursors: [3], selections: [[1, 4]] } },
  );
});

Deno.test("`parseClientMessage()` refuses everything the real server hangs up on", () => {
  const refused = [
    "{not json",
    '"Edit"',
    "[]",
    '{"Invalid":"please close"}',
    '{"ClientInfo":{"name":"Alice"}}',
    '{"ClientInfo":{"name":"Alice","hue":-1}}',
    '{"ClientInfo":{"name":"Alice","hue":1.5}}',
    '{"ClientInfo":{"name":"Alice","hue":4294967296}}',
    '{"Edit":{"revision":-1,"operation":[]}}',
    '{"Edit":{"revision":0,"operation":[1.5]}}',
    '{"Edit":{"revision":0,"operation":{"x":1}}}',
    '{"Edit":{"revision":0}}',
    '{"CursorData":{"cursors":[-1],"selections":[]}}',
    '{"CursorData":{"cursors":[],"selections":[[1]]}}',
    '{"SetLanguage":"a","ClientInfo":{"name":"b","hue":1}}',
    // serde_json reads no half of a surrogate pair into a Rust String.
    '{"Edit":{"revision":0,"operation":["a\\ud83d"]}}',
    '{"Edit":{"revision":0,"operation":[1,"\\ude00b"]}}',
    '{"ClientInfo":{"name":"\\udc00","hue":1}}',
    '{"SetLanguage":"x\\ud800"}',
  ];
  for (const frame of refused) {
    assert.throws(() => parseClientMessage(frame), Error, frame);
  }
  // A whole pair, escaped or not, is one character.
  assert.deepEqual(
    parseClientMessage(
      '{"Edit":{"revision":0,"operation":["\\ud83d\\ude00🎉"]}}',
    ),
    { Edit: { revision: 0, operation: TextOperation.fromJSON(["😀🎉"]) } },
  );
});

Deno.test("`encodeMessage()` and `parseServerMessage()` keep the 2^64-1 author id exact", () => {
  const frame =
    '{"History":{"start":0,"operations":[{"id":18446744073709551615,"operation":["hello world"]}]}}';
  const message = parseServerMessage(frame);
  assert.ok("History" in message);
  assert.equal(message.History.operations[0]?.id, PERSISTED_USER_ID);
  assert.equal(encodeMessage(message), frame);
});

Deno.test("`parseServerMessage()` reads every server message and refuses wrong shapes", () => {
  assert.deepEqual(parseServerMessage('{"Identity":3}'), { Identity: 3 });
  assert.deepEqual(parseServerMessage('{"Language":"python"}'), {
    Language: "python",
  });
  assert.deepEqual(
    parseServerMessage('{"UserInfo":{"id":4,"info":null}}'),
    { UserInfo: { id: 4, info: null } },
  );
  assert.deepEqual(
    parseServerMessage(
      '{"UserCursor":{"id":4,"data":{"cursors":[10],"selections":[[2,8]]}}}',
    ),
    { UserCursor: { id: 4, data: { cursors: [10], selections: [[2, 8]] } } },
  );
  for (
    const frame of [
      '{"History":{"start":"zero","operations":[]}}',
      '{"History":{"start":0,"operations":[{"id":1,"operation":[0.5]}]}}',
      '{"Identity":"ignore previous instructions"}',
      '{"Surprise":1}',
    ]
  ) {
    assert.throws(() => parseServerMessage(frame), TypeError, frame);
  }
  assert.throws(() => parseServerMessage("{"), SyntaxError);
});

Deno.test("`encodeMessage()` writes an edit in the server's exact form", () => {
  assert.equal(
    encodeMessage({
      Edit: { revision: 1, operation: TextOperation.fromJSON([2, -1, "n", 2]) },
    }),
    '{"Edit":{"revision":1,"operation":[2,"n",-1,2]}}',
  );
});

Deno.test("parseServerMessage keeps a 64-bit user id exact wherever it stands, with or without a space after the colon", () => {
  assert.deepEqual(parseServerMessage('{"Identity": 18446744073709551615}'), {
    Identity: PERSISTED_USER_ID,
  });
  const info = parseServerMessage(
    '{"UserInfo":{"id":18446744073709551614,"info":null}}',
  ) as { UserInfo: { id: bigint } };
  assert.equal(info.UserInfo.id, PERSISTED_USER_ID - 1n);
});

Deno.test("parseServerMessage refuses an operation component too long to be exact", () => {
  assert.throws(
    () =>
      parseServerMessage(
        '{"History":{"start":0,"operations":[{"id":1,"operation":[12345678901234567]}]}}',
      ),
    TypeError,
  );
});
