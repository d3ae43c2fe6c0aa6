import fc from 'fast-check';

/** Odd single code units: NUL and other controls, lone surrogates, direction and zero-width marks, a BOM. */
const oddUnit = fc.oneof(
  fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  fc.constantFrom('\u202e', '\u200b', '\ufeff', '\u2028', '\uffff', '\u0085'),
);

/** Strings no validator expects: odd units among any code points, injection look-alikes, and long runs. */
export const hostileString = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.string({
      unit: fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) }, oddUnit),
      maxLength: 40,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      '\ud800',
      'x\udfff',
      '\ud83d',
      '𝕏𝕏𝕏',
      'İstanbul',
      'ß',
      '\r\n',
      '<script>alert(1)</script>',
      "'; drop table clients; --",
      '${7*7}',
      '{{7*7}}',
      '../../etc/passwd',
      '%00',
      '%zz',
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'null',
      'undefined',
      'true',
      '0x10',
      '1e400',
      '-0',
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }).map((n) => 'a'.repeat((10 ** (n / 2) * 3) | 0)) },
);

/** Any JSON value of a wrong type or shape: numbers at the edges, nested lists and objects. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, Number.MIN_VALUE, true, false, null, [], {}),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 4 }) },
);

/** Raw JSON fragments JSON.stringify can never produce, spliced into a body in place of one value. */
export const rawFragment = fc.oneof(
  fc.constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '123456789012345678901234567890',
    '0.0000000000000000000000001',
    'NaN',
    'Infinity',
    'undefined',
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"\\u0000"',
    '"a\\u0000b"',
    "'single'",
    '"unterminated',
    '01',
    '.5',
    '+1',
    '0x1F',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1,"a":2}',
    '[1,]',
    '{,}',
    '',
  ),
  fc.integer({ min: 1, max: 4 }).map((n) => `${'['.repeat(10 ** n)}${']'.repeat(10 ** n)}`),
  fc.integer({ min: 1, max: 4 }).map((n) => `${'{"a":'.repeat(10 ** n)}1${'}'.repeat(10 ** n)}`),
);

/** A path segment, already percent-encoded or raw-odd: the route's right value most of the time. */
export function segment(valid: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: hostileString.map((s) => safeEncode(s)) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%00',
        '%ED%A0%80',
        '%C0%AF',
        '%E0%80%80',
        '..',
        '.',
        '%2e%2e',
        '%2F',
        'a%2Fb',
        '%20',
        '+',
        '%0A',
        '%0D%0A',
        '%25',
        '%u0041',
        '~',
        'a'.repeat(2100),
        '%F0%9F%98%80',
        'ü',
        '%ff',
        '*',
        '@',
        ':x',
        ';x=1',
      ),
    },
  );
}

function safeEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((c) => `%${c.charCodeAt(0).toString(16)}`)
      .join(''); // a lone surrogate cannot be UTF-8
  }
}

/** A query string: none, the documented ones with odd values, repeated and bracketed keys, prototype keys. */
export const queryString = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '?',
      '?includeArchived=true',
      '?includeArchived=false',
      '?includeArchived=TRUE',
      '?includeArchived=',
      '?includeArchived',
      '?includeArchived=true&includeArchived=false',
      '?includeArchived[]=true',
      '?includeArchived[a]=true',
      '?__proto__[polluted]=1',
      '?__proto__=1',
      '?constructor[prototype][polluted]=1',
      '?a=%zz',
      '?%00=%00',
      '?page=1&pageSize=200',
      '?page=0',
      '?page=-1',
      '?page=1e3',
      '?pageSize=99999999999999999999',
      '?=&=',
      '?&&',
      '?$limit=1',
      '?page=1&page=2',
      `?${'a=1&'.repeat(3000)}`,
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(hostileString, hostileString, { maxKeys: 3 })
      .map((d) => `?${new URLSearchParams(d).toString()}`),
  },
);

export const contentType = fc.oneof(
  { weight: 14, arbitrary: fc.constant('application/json') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application-json',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      '',
      'application/json, text/plain',
      '*/*',
      'application/vnd.api+json',
      'application/json;;;',
      'application/jsonx',
      'json',
    ),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** What goes in Authorization: the right token for the route (mostly), none, the other kind, or junk. */
export type AuthChoice = 'right' | 'none' | 'other' | { header: string };
export const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('right' as const) },
  { weight: 1, arbitrary: fc.constant('none' as const) },
  { weight: 1, arbitrary: fc.constant('other' as const) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer  x',
          'Basic dXNlcjpwYXNz',
          'bearer a.b.c',
          'Bearer a.b.c',
          'Bearer ...',
          `Bearer ${'a'.repeat(9000)}`,
          'Token x',
          'Bearer x, Bearer y',
        ),
        fc.string({ unit: 'grapheme-ascii', maxLength: 60 }).map((s) => `Bearer ${s}`),
      )
      .map((header) => ({ header })),
  },
);

/** How to spoil a body that would otherwise be right for its route. */
export type Mutation =
  | { kind: 'valid' }
  | { kind: 'none' }
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'splice'; at: number; raw: string }
  | { kind: 'addKey'; key: string; value: unknown }
  | { kind: 'whole'; value: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'oversize' };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'valid' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), raw: rawFragment }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('addKey' as const),
      key: fc.oneof(
        hostileString,
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'url_key', 'source', 'balance', 'idempotent'),
      ),
      value: hostileValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileValue }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      text: fc.oneof(fc.string({ unit: 'binary', maxLength: 50 }), rawFragment),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'oversize' as const }) },
);

type Path = (string | number)[];

function pathsOf(value: unknown, at: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...at, key], ...pathsOf(child, [...at, key])]);
}

/** Sets a member as an own property, even one named `__proto__`. */
function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  setOwn(node, path[path.length - 1]!, value);
  return root;
}

const PLACEHOLDER = '\u0001splice\u0001';

/** The body text a mutation makes of a route's right body (undefined: no body at all). */
export function applyMutation(sample: unknown, m: Mutation, oversizeBytes: number): string | undefined {
  const base = structuredClone(sample ?? {}) as object;
  const paths = pathsOf(base);
  const pick = (at: number) => paths[at % Math.max(1, paths.length)] ?? [];
  switch (m.kind) {
    case 'valid':
      return sample === undefined ? undefined : JSON.stringify(sample);
    case 'none':
      return undefined;
    case 'replace':
      return JSON.stringify(setAt(base, pick(m.at), m.value));
    case 'splice':
      return JSON.stringify(setAt(base, pick(m.at), PLACEHOLDER)).replace(JSON.stringify(PLACEHOLDER), m.raw);
    case 'addKey': {
      const target = Array.isArray(base) ? {} : base;
      setOwn(target, m.key, m.value);
      return JSON.stringify(target);
    }
    case 'whole':
      return JSON.stringify(m.value) ?? 'null';
    case 'text':
      return m.text;
    case 'truncate': {
      const text = JSON.stringify(base);
      return text.slice(0, m.at % text.length);
    }
    case 'oversize':
      return JSON.stringify({ ...base, padding: 'x'.repeat(oversizeBytes) });
  }
}
