// What an operator types into an edit, read into a step's content, with the problem in words when
// it cannot be read: "not valid JSON at line 1, column 19: expected ',' or '}' after a value".
// Pure functions (no DOM), tested by Node: tools/plugin-tests/.

/** Where and why a JSON text cannot be read: {line, column, what}, or null when it is valid JSON. */
export function jsonProblem(text) {
  let at = 0;
  const fail = what => {
    throw { at, what };
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at])) {
      at++;
    }
  };
  const shown = () => (at < text.length ? `'${text[at]}'` : 'the end of the text');
  const literal = word => {
    if (text.startsWith(word, at)) {
      at += word.length;
    } else {
      fail(`unexpected ${shown()}`);
    }
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') {
        at++;
      } else if (text.charCodeAt(at) < 0x20) {
        fail('a line break or control character inside a string (write \\n)');
      }
      at++;
    }
    if (at >= text.length) {
      fail('a string that is never closed with "');
    }
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.substring(at));
    if (!match) {
      fail(`unexpected ${shown()}`);
    }
    at += match[0].length;
  };
  const value = () => {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      space();
      if (text[at] === '}') {
        at++;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') {
          fail(`expected a name in double quotes, found ${shown()}`);
        }
        string();
        space();
        if (text[at] !== ':') {
          fail(`expected ':' after a name, found ${shown()}`);
        }
        at++;
        value();
        space();
        if (text[at] === ',') {
          at++;
        } else if (text[at] === '}') {
          at++;
          return;
        } else {
          fail(`expected ',' or '}' after a value, found ${shown()}`);
        }
      }
    } else if (c === '[') {
      at++;
      space();
      if (text[at] === ']') {
        at++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ',') {
          at++;
        } else if (text[at] === ']') {
          at++;
          return;
        } else {
          fail(`expected ',' or ']' after a value, found ${shown()}`);
        }
      }
    } else if (c === '"') {
      string();
    } else if (c === 't') {
      literal('true');
    } else if (c === 'f') {
      literal('false');
    } else if (c === 'n') {
      literal('null');
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      number();
    } else {
      fail(at < text.length ? `unexpected ${shown()}` : 'no value (the text is empty)');
    }
  };
  try {
    value();
    space();
    if (at < text.length) {
      fail(`unexpected ${shown()} after the end of the value`);
    }
    return null;
  } catch (problem) {
    if (!problem || problem.at === undefined) {
      throw problem;
    }
    const before = text.substring(0, problem.at).split('\n');
    return { line: before.length, column: before[before.length - 1].length + 1, what: problem.what };
  }
}

const are = what => (what.endsWith('s') ? 'are' : 'is');

/** The text as a JSON object, or an Error that names what (e.g. "The arguments") and where it is wrong. */
export function jsonObject(text, what = 'The arguments') {
  let value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const problem = jsonProblem(text);
    throw new Error(problem
      ? `${what} ${are(what)} not valid JSON at line ${problem.line}, column ${problem.column}: ${problem.what}.`
      : `${what} ${are(what)} not valid JSON.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${what} must be a JSON object, such as {"expression": "1 + 1"}.`);
  }
  return value;
}

/** The lines of a plan, one step a line, blank lines left out. */
export function planSteps(text) {
  const steps = text.split('\n').map(line => line.trim()).filter(Boolean);
  if (!steps.length) {
    throw new Error('The plan needs at least one step.');
  }
  return steps;
}

/** The text, or an Error asking for it when it is blank. */
export function required(value, what) {
  if (!String(value ?? '').trim()) {
    throw new Error(`Please fill in ${what}.`);
  }
  return value;
}
