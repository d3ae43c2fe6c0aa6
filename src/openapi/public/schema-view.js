// Renders JSON Schemas of the document as nested lists: name, type, constraints, description.
// $refs become links to the Schemas section; a referenced schema is expanded once, where it is used.
import { h } from '/assets/dom.js';

const LONG_ENUM = 12;

export function refName(schema) {
  return typeof schema?.$ref === 'string' ? schema.$ref.split('/').pop() : null;
}

/** A schema with its $ref followed (one level), for reading its properties. */
export function resolve(doc, schema) {
  const name = refName(schema);
  return name ? doc.components.schemas[name] : schema;
}

export function typeLabel(schema) {
  const name = refName(schema);
  if (name) return name;
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.oneOf) return schema.oneOf.map((s) => refName(s) ?? s.title ?? typeLabel(s)).join(' | ');
  if (schema.enum && !schema.type) return 'enum';
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['any'];
  return types.map((t) => (t === 'array' && schema.items ? `array of ${typeLabel(schema.items)}` : t)).join(' | ');
}

function constraints(schema) {
  const out = [];
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null).map(String);
    const shown = values.slice(0, LONG_ENUM).join(', ');
    out.push(`one of ${shown}${values.length > LONG_ENUM ? `, … (${values.length} values)` : ''}`);
  }
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) out.push(`< ${schema.exclusiveMaximum}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} entries`);
  if (schema.format) out.push(schema.format);
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out;
}

function schemaLink(name) {
  return h('a', { href: `#schema-${name}`, class: 'type' }, name);
}

/** The members of an object schema (following one $ref), each with its own nested members. */
export function schemaView(doc, schema, depth = 0) {
  const target = resolve(doc, schema);
  if (!target) return h('span', { class: 'muted' }, 'any');
  if (target.oneOf)
    return h(
      'div',
      { class: 'oneof' },
      h('p', { class: 'muted' }, 'One of:'),
      target.oneOf.map((s) => variant(doc, s, depth)),
    );
  if (target.allOf) return allOfView(doc, target, depth);
  const object = target.type === 'array' ? resolve(doc, target.items) : target;
  if (!object?.properties)
    return h('p', { class: 'schema-line' }, h('code', {}, typeLabel(target)), ' ', constraints(target).join(' · '));
  const required = new Set(object.required ?? []);
  return h(
    'ul',
    { class: 'schema' },
    Object.entries(object.properties).map(([name, member]) =>
      propertyRow(doc, name, member, required.has(name), depth),
    ),
  );
}

function variant(doc, schema, depth) {
  const target = resolve(doc, schema);
  return h(
    'details',
    { class: 'variant', open: depth === 0 },
    h(
      'summary',
      {},
      refName(schema) ?? target.title ?? typeLabel(target),
      target.description ? h('span', { class: 'muted' }, ` — ${target.description}`) : null,
    ),
    schemaView(doc, schema, depth + 1),
  );
}

function allOfView(doc, schema, depth) {
  const [base, ...narrowing] = schema.allOf;
  const codes = narrowing.map((n) => n.properties?.data?.properties?.error?.properties?.code?.enum).find(Boolean);
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'schema-line' },
      schemaLink(refName(base)),
      codes ? [' with data.error.code ', h('code', {}, codes.join(' | '))] : null,
    ),
    depth < 1 ? schemaView(doc, base, depth + 1) : null,
  );
}

function propertyRow(doc, name, member, required, depth) {
  const inner = resolve(
    doc,
    member.type === 'array' || (Array.isArray(member.type) && member.items) ? member.items : member,
  );
  const nested = inner?.properties && depth < 3 ? schemaView(doc, inner, depth + 1) : null;
  const name$ = refName(member) ?? (member.items && refName(member.items));
  return h(
    'li',
    {},
    h('code', { class: 'prop' }, name),
    required ? h('span', { class: 'req', title: 'required' }, ' required') : null,
    ' ',
    name$ ? [member.items ? 'array of ' : '', schemaLink(name$)] : h('span', { class: 'type' }, typeLabel(member)),
    constraints(member).length ? h('span', { class: 'muted' }, ` · ${constraints(member).join(' · ')}`) : null,
    member.description ? h('div', { class: 'desc' }, member.description) : null,
    nested ? h('details', { class: 'nested' }, h('summary', {}, 'members'), nested) : null,
  );
}
