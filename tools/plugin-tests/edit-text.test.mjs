// node --test tools/plugin-tests/ (npm run test:plugin): reading what an operator typed into an edit.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonObject, jsonProblem, planSteps, required }
  from '../../src/main/resources/plugin-webapp/agentloop/app/edit-text.js';

test('valid JSON has no problem', () => {
  for (const text of ['{}', ' {"a": [1, -2.5e3, true, false, null, "x\\"y"]} ', '[]', '"s"', '0']) {
    assert.equal(jsonProblem(text), null, text);
  }
});

test('bad JSON is told by line and column, in words, without the parser\'s internals', () => {
  assert.deepEqual(jsonProblem('{"expression": "1" "2"}'),
    { line: 1, column: 20, what: "expected ',' or '}' after a value, found '\"'" });
  assert.deepEqual(jsonProblem('{\n  "a": 1,\n  b: 2\n}'),
    { line: 3, column: 3, what: "expected a name in double quotes, found 'b'" });
  assert.deepEqual(jsonProblem('{"a": '), { line: 1, column: 7, what: 'no value (the text is empty)' });
  assert.deepEqual(jsonProblem('{"a": "open'), { line: 1, column: 12, what: 'a string that is never closed with "' });
  assert.deepEqual(jsonProblem('{"a": 1} x'), { line: 1, column: 10, what: "unexpected 'x' after the end of the value" });
  assert.deepEqual(jsonProblem('{"a": tru}'), { line: 1, column: 7, what: "unexpected 't'" });
});

test('the problem found agrees with the browser\'s parser: everything it refuses has a place', () => {
  for (const text of ['{', '{"a"}', '{"a": 01}', '[1,]', '{"a": 1,}', '', 'nul', '{"a": "line\nbreak"}']) {
    assert.throws(() => JSON.parse(text), SyntaxError, text);
    assert.notEqual(jsonProblem(text), null, text);
  }
});

test('arguments must be a JSON object, and the message names where they are wrong', () => {
  assert.deepEqual(jsonObject('{"expression": "17 * 23"}'), { expression: '17 * 23' });
  assert.throws(() => jsonObject('{"expression": "17 * 23",}'), {
    message: "The arguments are not valid JSON at line 1, column 26: expected a name in double quotes, found '}'."
  });
  assert.throws(() => jsonObject('[1, 2]'), { message: 'The arguments must be a JSON object, such as {"expression": "1 + 1"}.' });
  assert.throws(() => jsonObject('null', 'The content'), /^Error: The content must be a JSON object/);
  assert.throws(() => jsonObject('{x}', 'The content'), { message: "The content is not valid JSON at line 1, column 2: expected a name in double quotes, found 'x'." });
});

test('a plan is its non-blank lines, and an empty plan is refused', () => {
  assert.deepEqual(planSteps(' look it up \n\n compute it\n'), ['look it up', 'compute it']);
  assert.throws(() => planSteps(' \n '), { message: 'The plan needs at least one step.' });
});

test('a blank field is asked for by name', () => {
  assert.equal(required('why', 'a reason'), 'why');
  assert.throws(() => required('  ', 'a reason'), { message: 'Please fill in a reason.' });
  assert.throws(() => required(undefined, 'the tool'), { message: 'Please fill in the tool.' });
});
