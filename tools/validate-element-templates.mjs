// Validates the Camunda 7 element templates under processes/element-templates/ against the
// element-template JSON schema that Camunda Modeler uses, from the npm package rather than unpkg.com
// so the build needs no network beyond the npm registry. Modeler silently ignores a template that
// breaks the schema; this makes the build say so instead. Also refuses two templates with the same
// id and version, which Modeler would not tell apart.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import Ajv from 'ajv';

const require = createRequire(import.meta.url);
const schema = require('@camunda/element-templates-json-schema/resources/schema.json');

const folder = process.argv[2] || 'processes/element-templates';
// the schema uses "$id" fragments as labels and keywords Ajv's strict mode does not know
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

const problems = [];
const seen = new Map();
let templates = 0;

const files = readdirSync(folder).filter(name => name.endsWith('.json')).sort();
if (files.length === 0) {
  problems.push(`${folder}: no element templates found`);
}
for (const name of files) {
  const file = relative(process.cwd(), join(folder, name));
  let content;
  try {
    content = JSON.parse(readFileSync(join(folder, name), 'utf8'));
  } catch (error) {
    problems.push(`${file}: not JSON: ${error.message}`);
    continue;
  }
  if (!validate(content)) {
    for (const error of validate.errors) {
      problems.push(`${file}${error.instancePath || '/'}: ${error.message}${params(error)}`);
    }
    continue;
  }
  for (const template of Array.isArray(content) ? content : [content]) {
    templates++;
    const key = `${template.id}@${template.version ?? '-'}`;
    if (seen.has(key)) {
      problems.push(`${file}: template ${key} is also defined in ${seen.get(key)}`);
    }
    seen.set(key, file);
  }
}

if (problems.length > 0) {
  console.error(`Element templates in ${folder} do not match the Camunda 7 element-template schema:`);
  problems.forEach(problem => console.error(`  ${problem}`));
  process.exit(1);
}
console.log(`${templates} element templates in ${files.length} files match the Camunda 7 element-template schema`);

function params(error) {
  const allowed = error.params && error.params.allowedValues;
  return allowed ? `: ${allowed.join(', ')}` : '';
}
